// Generates a deterministic benchmark site: N articles per language (en, fr) with
// realistic front matter and bodies, plus every page, 10 bios and the portfolio, so
// every template is used. It reuses the demo's templates and locales.
//
//   npx tsx bench/corpus.ts [N=4000] [outDir=bench/corpus/N]
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = ['commentary', 'press-release', 'video', 'annual-report', 'circular', 'issuer-bid', 'redemption-notice', 'investment-notice', 'news', 'insight'] as const;
const SECTION_OF: Record<string, string> = {
  commentary: 'insights',
  insight: 'insights',
  'annual-report': 'financial-reports',
  circular: 'financial-reports',
};
const HANDLES = ['hmercier', 'aokafor', 'jlindqvist', 'mtremblay', 'snakamura', 'rdasilva', 'cbouchard', 'pwright', 'lgagnon', 'ekowalski'];
const WORDS = {
  en: 'portfolio net asset value dividend shareholders quarter return discount capital markets companies growth long term investment holdings market cash flow management board'.split(' '),
  fr: 'portefeuille valeur liquidative dividende actionnaires trimestre rendement escompte capital marchés sociétés croissance long terme placement participations marché flux trésorerie direction conseil'.split(' '),
};

/** A small deterministic PRNG (mulberry32), so every run writes the same corpus. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function body(rand: () => number, locale: 'en' | 'fr', i: number): string {
  const words = WORDS[locale];
  const sentence = () => {
    const n = 8 + Math.floor(rand() * 14);
    const s = Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(' ');
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 3 + Math.floor(rand() * 4) }, sentence).join(' ');
  const h = locale === 'en' ? ['Overview', 'Performance', 'Outlook'] : ['Aperçu', 'Rendement', 'Perspectives'];
  const table = ['| Period | Return | Benchmark |', '|---|--:|--:|', ...['Q1', 'Q2', 'Q3', 'Q4'].map((q) => `| ${q} | ${(rand() * 10 - 2).toFixed(1)}% | ${(rand() * 8).toFixed(1)}% |`)].join('\n');
  return [
    `## ${h[0]}`,
    paragraph(),
    paragraph(),
    `## ${h[1]}`,
    table,
    paragraph(),
    `- ${sentence()}\n- ${sentence()}\n- **${sentence()}**`,
    `## ${h[2]}`,
    `${paragraph()} [${locale === 'en' ? 'Read more' : 'En savoir plus'}](/${locale === 'fr' ? 'fr/' : ''}insights/).`,
    i % 7 === 0 ? `Note[^1].\n\n[^1]: ${sentence()}` : '',
  ].join('\n\n');
}

export async function generateCorpus(n: number, outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  // Pages, team, portfolio, site record and config come from the demo site unchanged.
  for (const dir of ['content/pages', 'content/team', 'content/portfolio', 'config']) {
    await cp(path.join(REPO, dir), path.join(outDir, dir), { recursive: true });
  }
  await cp(path.join(REPO, 'content/site.yaml'), path.join(outDir, 'content/site.yaml'));
  await writeFile(
    path.join(outDir, 'site.config.ts'),
    `import base from ${JSON.stringify(path.join(REPO, 'site.config.ts'))};\n\nexport default { ...base, paths: { templates: ${JSON.stringify(path.join(REPO, 'templates'))}, locales: ${JSON.stringify(path.join(REPO, 'locales'))} } };\n`,
  );
  const rand = random(42);
  for (let i = 0; i < n; i++) {
    const type = TYPES[i % TYPES.length]!;
    const year = 2010 + Math.floor(i / 200);
    const month = String(1 + (i % 12)).padStart(2, '0');
    const day = String(1 + (i % 28)).padStart(2, '0');
    const quarter = `Q${1 + (i % 4)}-${year}`;
    const key = `bench-${type}-${i}`;
    const dir = path.join(outDir, 'content/articles', key);
    await mkdir(dir, { recursive: true });
    for (const locale of ['en', 'fr'] as const) {
      const slug = type === 'commentary' ? `${locale === 'en' ? 'commentary' : 'commentaire'}-${i}-${quarter}` : `${locale === 'en' ? 'article' : 'publication'}-${type}-${i}`;
      const fm = [
        '---',
        `title: ${JSON.stringify(`${locale === 'en' ? 'Benchmark' : 'Référence'} ${type} ${i}`)}`,
        `description: ${JSON.stringify(`${locale === 'en' ? 'Summary of' : 'Résumé de'} ${type} ${i}.`)}`,
        `slug: ${slug}`,
        `date: ${year}-${month}-${day}`,
        `type: ${type}`,
        `sections: [${SECTION_OF[type] ?? 'news-and-events'}]`,
        `author: ${HANDLES[i % HANDLES.length]}`,
        type === 'commentary' ? `quarter: ${quarter}` : '',
        type === 'video' ? `video: { provider: youtube, id: vid${String(i).padStart(8, '0')} }` : '',
        '---',
      ].filter(Boolean);
      await writeFile(path.join(dir, `${locale}.md`), `${fm.join('\n')}\n\n${body(rand, locale, i)}\n`);
    }
  }
}

if (process.argv[1] && import.meta.url === `file://${path.resolve(process.argv[1])}`) {
  const n = Number(process.argv[2] ?? 4000);
  const out = path.resolve(process.argv[3] ?? path.join(REPO, 'bench', 'corpus', String(n)));
  const t0 = performance.now();
  await generateCorpus(n, out);
  console.log(`wrote ${n} articles per language to ${path.relative(process.cwd(), out)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
