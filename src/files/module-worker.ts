// A worker thread started from one of ir-site's own module files. Built, that file is
// JavaScript next to its caller (dist/src, or dist/cli where scripts/bundle-cli.mjs makes it an
// entry of its own). Under tsx (tests, benches) it is TypeScript, and the worker registers tsx
// before importing it.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startModuleWorker(url: URL, options: WorkerOptions): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const boot = `import(${tsx}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
