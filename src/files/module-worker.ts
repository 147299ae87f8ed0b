// A worker thread started from one of ir-site's own module files, `name` next to the caller:
// src/ under tsx (tests, benches), dist/src compiled, and dist/cli, where scripts/bundle-cli.mjs
// makes each worker an entry of its own beside the chunks. Under tsx the file is TypeScript,
// and the worker registers tsx before importing it.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startModuleWorker(callerUrl: string, name: string, options: WorkerOptions): Worker {
  const typescript = callerUrl.endsWith('.ts');
  const url = new URL(`./${name}.${typescript ? 'ts' : 'js'}`, callerUrl);
  if (!typescript) return new Worker(url, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const boot = `import(${tsx}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
