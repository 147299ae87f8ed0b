// Markdown body -> the words a reader sees, for the search index. Deliberately not the
// unified pipeline the pages use: parsing every body a second time with remark costs
// seconds on a 4000-article site, and an index needs words, not structure. Raw HTML
// tags, URLs, link targets, footnote markers and table rules are dropped; link texts,
// image alt texts, table cells, list items and footnote texts are kept.

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', rsquo: '’', lsquo: '‘', laquo: '«', raquo: '»',
  eacute: 'é', egrave: 'è', ecirc: 'ê', agrave: 'à', acirc: 'â', ccedil: 'ç', ocirc: 'ô', ucirc: 'û', ugrave: 'ù', icirc: 'î', iuml: 'ï',
  Eacute: 'É', Egrave: 'È', Agrave: 'À', Ccedil: 'Ç', oelig: 'œ', OElig: 'Œ', mdash: '—', ndash: '–', hellip: '…', euro: '€',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : ' ';
    }
    return NAMED_ENTITIES[code] ?? whole;
  });
}

export interface MarkdownText {
  /** Heading texts, in order. */
  headings: string[];
  /** Everything readable, headings included, one line per block. */
  text: string;
}

/**
 * `text.replace(pattern, by)`, skipped when `text` lacks `needle`, which every match of
 * `pattern` contains: a body is scanned once per pattern it could match, not once per pattern.
 */
function replaceWhere(text: string, needle: string, pattern: RegExp, by: string): string {
  return text.includes(needle) ? text.replace(pattern, by) : text;
}

export function markdownText(markdown: string): MarkdownText {
  const headings: string[] = [];
  let text = replaceWhere(markdown, '\r', /\r\n?/g, '\n');
  text = replaceWhere(text, '<!--', /<!--[\s\S]*?-->/g, ' ');
  text = replaceWhere(text, '<', /<(script|style|template|iframe)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  text = replaceWhere(text, '<', /<\/?[a-z][^>]*>/gi, ' ');
  // Fences: keep the code, drop the fence lines.
  if (text.includes('```') || text.includes('~~~')) text = text.replace(/^\s{0,3}(?:```|~~~).*$/gm, ' ');
  // Link reference definitions: `[id]: https://...`
  text = replaceWhere(text, ']:', /^\s{0,3}\[(?!\^)[^\]]+\]:\s*\S+.*$/gm, ' ');
  // Images and links: keep the alt or link text.
  text = replaceWhere(text, '](', /!\[([^\]]*)\]\([^)]*\)/g, '$1');
  text = replaceWhere(text, '][', /!\[([^\]]*)\]\[[^\]]*\]/g, '$1');
  text = replaceWhere(text, '](', /\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1');
  text = replaceWhere(text, '][', /\[([^\]^][^\]]*)\]\[[^\]]*\]/g, '$1');
  // Footnote markers and the label of a footnote definition.
  text = replaceWhere(text, '[^', /\[\^[^\]]+\]:?/g, ' ');
  // Autolinks and bare URLs.
  text = replaceWhere(text, '<', /<(?:https?|mailto):[^>]*>/gi, ' ');
  text = replaceWhere(text, '://', /\bhttps?:\/\/\S+/gi, ' ');
  // Table rules: `|---|:--:|`
  text = replaceWhere(text, '-', /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/gm, ' ');
  // Setext heading underlines and thematic breaks.
  if (/[-=*_]/.test(text)) text = text.replace(/^\s{0,3}(?:=+|-{3,}|\*{3,}|_{3,})\s*$/gm, ' ');
  if (text.includes('&')) text = decodeEntities(text);
  if (text.includes('#')) {
    text = text.replace(/^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/gm, (_, heading: string) => {
      const clean = heading.replace(/[*_`~]/g, '').trim();
      if (clean) headings.push(clean);
      return clean;
    });
  }
  // Emphasis, code spans, table pipes, block quotes and list markers.
  text = text.replace(/[*_`~|]+/g, ' ');
  text = replaceWhere(text, '>', /^\s*>+/gm, ' ');
  text = text
    .replace(/^\s*(?:[-+]|\d+[.)])\s+/gm, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
  return { headings, text };
}

/** The first `max` characters of `text`, cut at a word boundary, with an ellipsis when cut. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}
