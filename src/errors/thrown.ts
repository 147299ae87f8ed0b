// What a thrown value says. Site code (site.config.ts, templates, plugins) may throw anything:
// `throw null`, `throw 'text'`, an object. Reading `.message` of those crashed the reporter.

/** An Error's message, or the thrown value itself as text. */
export function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  const message = typeof thrown === 'object' && thrown !== null ? (thrown as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : `${typeof thrown === 'string' ? thrown : String(thrown)} (thrown, not an Error)`;
}

/** An Error's stack (its message when it has none), or messageOf a value that is not one. */
export const stackOf = (thrown: unknown): string => (thrown instanceof Error ? (thrown.stack ?? thrown.message) : messageOf(thrown));

/** The `code` of a Node error (`ENOENT`); '' for anything else, `null` included. */
export const codeOf = (thrown: unknown): string => {
  const code = typeof thrown === 'object' && thrown !== null ? (thrown as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
};
