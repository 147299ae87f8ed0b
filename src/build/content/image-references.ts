// Image references in a markdown body, with the body line each is on: `![alt](src)`
// and raw `<img src="...">`. A cheap scan, so the graph can resolve and check them.
import type { ImageLayout } from '../../shared/types.js';

export interface ImageReference {
  src: string;
  /** 1-based line within the body. */
  line: number;
  /**
   * The layout the body asks for: the markdown title (`![alt](src "fullWidth")`) or the raw
   * `<img data-layout="fixed">` attribute, when it names one; constrained otherwise.
   */
  layout?: ImageLayout;
}

// `![alt](src "title")`, `![alt](<src with spaces>)`, and raw `<img src="...">`.
const MARKDOWN = /!\[[^\]]*\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"([^"]*)")?\s*\)/g;
const RAW = /<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["'][^>]*>/gi;
const RAW_LAYOUT = /\bdata-layout\s*=\s*["']([^"']+)["']/i;

/** Neither pattern can match without one of these: most bodies are ruled out without splitting them. */
const MAY_REFERENCE = /!\[|<img/i;

const LAYOUTS: Record<string, ImageLayout> = { fixed: 'fixed', constrained: 'constrained', fullwidth: 'fullWidth', 'full-width': 'fullWidth' };

/** The layout a title or attribute names (`fullWidth`, `layout=fixed`, any case), if it names one. */
export function layoutNamed(text: string | undefined): ImageLayout | undefined {
  if (!text) return undefined;
  return LAYOUTS[text.trim().replace(/^layout\s*[=:]\s*/i, '').toLowerCase()];
}

export function imageReferences(body: string): ImageReference[] {
  const found: ImageReference[] = [];
  if (!MAY_REFERENCE.test(body)) return found;
  body.split('\n').forEach((text, i) => {
    for (const m of text.matchAll(MARKDOWN)) {
      const layout = layoutNamed(m[3]);
      found.push({ src: (m[1] ?? m[2])!, line: i + 1, ...(layout ? { layout } : {}) });
    }
    for (const m of text.matchAll(RAW)) {
      const layout = layoutNamed(RAW_LAYOUT.exec(m[0])?.[1]);
      found.push({ src: m[1]!, line: i + 1, ...(layout ? { layout } : {}) });
    }
  });
  return found;
}
