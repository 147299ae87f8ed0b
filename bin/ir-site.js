#!/bin/sh
':' //; export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"; exec node --heap-growing-percent=100 "$0" "$@"
// Launcher only. Run as a program (`ir-site`, `npx ir-site`, `./bin/ir-site.js`), the line above
// is a shell command: it sets MALLOC_ARENA_MAX and HEAP_FLAG (below) and replaces the shell with
// Node running this same file, where that line is a string and a comment. Run as
// `node bin/ir-site.js`, the file starts here, and sets both by running itself once more.

// React renders several times faster in production mode: set before anything loads React.
process.env.NODE_ENV = 'production';

// Two settings a process must have from its start, both to keep a build's memory down
// (bench/HISTORY.md has the figures): MALLOC_ARENA_MAX=2, as glibc otherwise keeps a malloc
// arena per allocating thread (libvips', the render workers'), and --heap-growing-percent=100,
// as V8 otherwise lets the heap grow to four times what a full collection leaves. So on Linux
// the launcher runs itself once more with both, forwarding signals and the exit status; set
// MALLOC_ARENA_MAX yourself (any value) to skip this.
// The two processes are joined by an IPC channel that carries nothing: it closes when the
// launcher dies, even of SIGKILL, and the child then stops as a SIGTERM would stop it (a build
// killed at any point is safe: build/emit/journal.ts), instead of publishing to a terminal or a
// CI job that has moved on. IR_SITE_LAUNCHER tells the child the channel is ours.
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
