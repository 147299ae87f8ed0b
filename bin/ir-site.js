#!/bin/sh
':' //; export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"; exec node --heap-growing-percent=100 "$0" "$@"
// Launcher only. Run as a program (`ir-site`, `npx ir-site`, `./bin/ir-site.js`), the line above
// is a shell command: it sets MALLOC_ARENA_MAX and HEAP_FLAG (below) and replaces the shell with
// Node running this same file, where that line is a string and a comment. Run as
// `node bin/ir-site.js`, the file starts here, and sets both by running itself once more (~90 ms more).

// React renders ~7x faster in production mode, so set it before anything loads React.
process.env.NODE_ENV = 'production';

// glibc gives every thread that allocates its own malloc arena (up to 8 per core) and rarely
// returns their memory: libvips' threads (images) and the render workers left ~50 MiB more
// resident in a cold 4000-article build (528-545 MiB against 480 with two arenas, measured).
// glibc reads MALLOC_ARENA_MAX only when a process starts, so on Linux the launcher runs
// itself once more with it set, forwarding signals and the exit status. Set it yourself to
// skip this (any value), e.g. MALLOC_ARENA_MAX=8 for glibc's default behaviour.
// The two are joined by an IPC channel that carries nothing: it closes when the launcher dies,
// even of SIGKILL, which no handler sees, and the child then stops as a SIGTERM would stop it
// (a build killed at any point is safe: build/emit/journal.ts), instead of publishing to a
// terminal or a CI job that has moved on. IR_SITE_LAUNCHER tells the child the channel is ours.
//
// V8 lets the main thread's heap grow to up to four times what a full collection leaves, and a
// build makes garbage all through the render: a cold 4000-article build peaked at 480-506 MiB,
// and at ~410 MiB with the heap let grow to twice that, in the same time (bench/HISTORY.md).
// V8 reads the flag when it starts, so it is given on the command line, like MALLOC_ARENA_MAX.
const HEAP_FLAG = '--heap-growing-percent=100';
if (process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined) {
  const { spawn } = await import('node:child_process');
  const heap = process.execArgv.some((a) => a.startsWith('--heap-growing-percent')) ? [] : [HEAP_FLAG];
  const child = spawn(process.execPath, [...process.execArgv, ...heap, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, MALLOC_ARENA_MAX: '2', IR_SITE_LAUNCHER: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`ir-site: could not start: ${error.message}`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Die of the same signal, so whoever started us sees how the command ended.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  const launched = process.env.IR_SITE_LAUNCHER === '1';
  delete process.env.IR_SITE_LAUNCHER; // not for processes this one starts
  if (launched && process.channel) {
    process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
    // Listening refs the channel; unref'd, it never keeps this process alive (exit codes unchanged).
    process.channel.unref();
  }
  // The CLI as scripts/bundle-cli.mjs bundles it (`npm run prepare`): a few files to load, not hundreds.
  const { main } = await import('../dist/cli/index.js');
  await main(process.argv);
}
