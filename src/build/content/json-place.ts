// Where JSON.parse gave up, as a file position, for messages about locale files.

/** Line and column of a JSON.parse error, from the position V8 names in its message. */
export function jsonErrorPlace(text: string, error: Error): { line?: number; column?: number; excerpt?: string } {
  const position = /at position (\d+)/.exec(error.message)?.[1];
  if (position === undefined) return {};
  const before = text.slice(0, Number(position)).split('\n');
  const line = before.length;
  return { line, column: before[line - 1]!.length + 1, excerpt: text.split('\n')[line - 1] };
}
