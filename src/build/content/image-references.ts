// Image references in a markdown body, with the body line each is on: `![alt](src)`
// and raw `<img src="...">`. A cheap scan, so the graph can resolve and check them.

export interface ImageReference {
  src: string;
  /** 1-based line within the body. */
  line: number;
}

// `![alt](src "title")`, `![alt](<src with spaces>)`, and raw `<img src="...">`.
const PATTERNS = [/!\[[^\]]*\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g, /<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi];

/** Neither pattern can match without one of these: most bodies are ruled out without splitting them. */
const MAY_REFERENCE = /!\[|<img/i;

export function imageReferences(body: string): ImageReference[] {
  const found: ImageReference[] = [];
  if (!MAY_REFERENCE.test(body)) return found;
  body.split('\n').forEach((text, i) => {
    for (const pattern of PATTERNS) for (const m of text.matchAll(pattern)) found.push({ src: (m[1] ?? m[2])!, line: i + 1 });
  });
  return found;
}
