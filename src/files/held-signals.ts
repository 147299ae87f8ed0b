// Work that must not be left half done by a signal: a commit that has begun moving files into
// the output folder. SIGINT, SIGTERM and SIGHUP (Ctrl+C, a CI job cancelled, a closed terminal,
// the launcher's own death: bin/ir-site.js) are held while it runs and take effect once it is
// done, so the output is the previous build's or this one's, never a mix. SIGKILL cannot be held:
// the commit's journal covers it (build/emit/journal.ts).
const HELD: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export async function withSignalsHeld<T>(work: () => Promise<T>): Promise<T> {
  let caught: NodeJS.Signals | null = null;
  const hold = (signal: NodeJS.Signals) => {
    caught ??= signal;
  };
  for (const signal of HELD) process.on(signal, hold);
  try {
    return await work();
  } finally {
    for (const signal of HELD) process.off(signal, hold);
    // Raised again with the holder gone: it does what it would have done (with no other listener, end the process).
    if (caught) process.kill(process.pid, caught);
  }
}
