// French typography: the no-break spaces French sets, in bodies and UI strings, never inside
// code, URLs or attributes, and nothing in English.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toHtml } from 'hast-util-to-html';
import { MarkdownCompiler, typesetFrench } from '../../src/features/markdown/index.js';

const N = '\u00a0'; // no-break space
const F = '\u202f'; // narrow no-break space
const compiler = new MarkdownCompiler();
const fr = async (md: string) => toHtml(await compiler.toHast(md, 'fr'), { characterReferences: { useNamedReferences: false } }).replace(/&#xA0;/gi, N).replace(/&#x202F;/gi, F);

const STRINGS: Array<[string, string]> = [
  ['Pourquoi investir?', `Pourquoi investir${F}?`],
  ['Pourquoi investir ?', `Pourquoi investir${F}?`],
  ['Vraiment !', `Vraiment${F}!`],
  ['Quoi ?!', `Quoi${F}?!`],
  ['Quoi?!?', `Quoi${F}?!?`],
  ['un; deux', `un${F}; deux`],
  ['Note : voir', `Note${N}: voir`],
  ['Note: voir', `Note${N}: voir`],
  ['Note  :  voir', `Note${N}:  voir`],
  ['«Bonjour»', `«${N}Bonjour${N}»`],
  ['« Bonjour »', `«${N}Bonjour${N}»`],
  ['Il a dit « oui ».', `Il a dit «${N}oui${N}».`],
  ['4,8%', `4,8${N}%`],
  ['4,8 %', `4,8${N}%`],
  ['1 234 $', `1 234${N}$`],
  ['45,12$ par action', `45,12${N}$ par action`],
  ['$1,000', '$1,000'],
  ['à 12:30 ou 1:2', 'à 12:30 ou 1:2'],
  ['Voir https://example.com/a?b=1&c=2 ou www.example.com/x?y=1', 'Voir https://example.com/a?b=1&c=2 ou www.example.com/x?y=1'],
  ['Écrire à ir@example.com; merci', `Écrire à ir@example.com${F}; merci`],
  ['(?)', '(?)'],
  ['?', '?'],
  ['Déjà bien espacé\u00a0: oui', 'Déjà bien espacé\u00a0: oui'],
  [`Déjà fin${F}?`, `Déjà fin${F}?`],
  ['Page affichée : {name}', `Page affichée${N}: {name}`],
  ['{count} résultats pour « {query} »', `{count} résultats pour «${N}{query}${N}»`],
  ['', ''],
  // A colon or semicolon with no space after it is not prose.
  ['Appelez tel:+15551234567, voyez doi:10.1234/abc ou urn:isbn:123', 'Appelez tel:+15551234567, voyez doi:10.1234/abc ou urn:isbn:123'],
  ['Dans C:\\dossier ou D:/x', 'Dans C:\\dossier ou D:/x'],
  ['Merci:-) ;-)', `Merci:-) ;-)`],
  ['Merci:) et merci;) fin', 'Merci:) et merci;) fin'],
  // A colon closing a parenthesis after a space is prose.
  ['(voir la liste :)', `(voir la liste${N}:)`],
  ['Page {page}:{pages}', 'Page {page}:{pages}'],
  ['Fin : « oui »: non; peut-être', `Fin${N}: «${N}oui${N}»${N}: non${F}; peut-être`],
  // A placeholder stands for a number.
  ['{total} % et {total}% ou {amount} $', `{total}${N}% et {total}${N}% ou {amount}${N}$`],
  // A straight quote after a word closes a quotation.
  ['"oui" ? et "non": et "si"!', `"oui"${F}? et "non"${N}: et "si"${F}!`],
  ['("?")', '("?")'],
  // Mixed spaces become the one the rule wants; a lone no-break space stays.
  ['double\u00a0 ?', `double${F}?`],
  ['inverse \u00a0?', `inverse${F}?`],
  ['fine\u2009?', `fine${F}?`],
  ['« \u00a0mot', `«${N}mot`],
  // A line break in the source is a space where the line could break.
  ['avant\n? après\n: fin « mot\n» fin', `avant${F}? après${N}: fin «${N}mot${N}» fin`],
  // Guillemets around an address are not part of it.
  ['«ir@exemple.fr» et «https://exemple.fr»', `«${N}ir@exemple.fr${N}» et «${N}https://exemple.fr${N}»`],
];

for (const [input, expected] of STRINGS) {
  test(`UI string: ${JSON.stringify(input)}`, () => {
    assert.equal(typesetFrench(input), expected);
  });
}

test('bodies: prose gets the spaces; code spans, code blocks, URLs and attributes do not', async () => {
  const html = await fr(
    [
      'Pourquoi investir? Le rendement: 6,4%.',
      '',
      'Tapez `npm ci; npm test` puis appuyez sur Entrée!',
      '',
      '```',
      'if (a ? b : c) { x; }',
      '```',
      '',
      'Lien [en savoir plus?](https://example.com/faq?q=1 "Titre: ici?") et <https://example.com/a?b>.',
      '',
      '![Graphique: rendement?](chart.png)',
    ].join('\n'),
  );
  assert.ok(html.includes(`Pourquoi investir${F}? Le rendement${N}: 6,4${N}%.`), html);
  assert.ok(html.includes(`<code>npm ci; npm test</code> puis appuyez sur Entrée${F}!`), html);
  assert.ok(html.includes('<pre><code>if (a ? b : c) { x; }'), html);
  assert.ok(html.includes(`href="https://example.com/faq?q=1" title="Titre: ici?">en savoir plus${F}?</a>`), html);
  assert.ok(html.includes('>https://example.com/a?b</a>'), html);
  assert.ok(html.includes('alt="Graphique: rendement?"'), html);
});

test('bodies: punctuation after an inline element or a code span gets its space too; a line break is a start', async () => {
  const html = await fr('C’est *vraiment*? Et `x`! Puis **gras**:\\\n? en début de ligne');
  assert.ok(html.includes(`<em>vraiment</em>${F}?`), html);
  assert.ok(html.includes(`<code>x</code>${F}!`), html);
  assert.ok(html.includes(`<strong>gras</strong>${N}:`), html);
  assert.ok(html.includes('<br>\n? en début'), html);
});

test('English bodies are left as written; the option turns French typography off', async () => {
  const en = toHtml(await compiler.toHast('Why invest? Returns: 6.4%.', 'en'));
  assert.ok(en.includes('Why invest? Returns: 6.4%.'));
  const off = toHtml(await new MarkdownCompiler({ frenchTypography: false }).toHast('Pourquoi investir?', 'fr'));
  assert.ok(off.includes('Pourquoi investir?'));
});

test('a French locale named with its region (fr-CA, fr_CA, FR) gets French typography and French footnote labels; en-CA does not', async () => {
  for (const locale of ['fr-CA', 'fr_CA', 'FR']) {
    const html = toHtml(await compiler.toHast('Pourquoi investir?[^1]\n\n[^1]: Note.', locale), { characterReferences: { useNamedReferences: false } }).replace(/&#x202F;/gi, F);
    assert.ok(html.includes(`Pourquoi investir${F}?`), `${locale}: ${html}`);
    assert.ok(!html.includes('Back to reference'), `${locale}: French footnote labels`);
  }
  const en = toHtml(await compiler.toHast('Why invest?[^1]\n\n[^1]: Note.', 'en-CA'));
  assert.ok(en.includes('Why invest?') && en.includes('Back to reference'));
});

test('bodies: a passage marked as another language is left as written; a soft line break before a sign becomes the no-break space', async () => {
  const html = await fr('Il a dit <span lang="en">Why? Really!</span> puis\n? et «\nmot\n»');
  assert.ok(html.includes('<span lang="en">Why? Really!</span>'), html);
  assert.ok(html.includes(`puis${F}? et «${N}mot${N}»`), html);
  const french = await fr('<span lang="fr-CA">Vraiment?</span>');
  assert.ok(french.includes(`Vraiment${F}?`), french);
});
