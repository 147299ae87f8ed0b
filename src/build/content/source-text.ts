// A content file's text as every stage counts positions in it: plain string work, with no
// parser to load.

/** The text front matter is read from (frontmatter.ts), and positions in a file count in: a BOM dropped, line ends made `\n`. */
export const normaliseText = (source: string) => source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
