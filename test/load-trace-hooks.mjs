// Module hooks for load-trace.mjs: they run on Node's loader thread, so they note each URL in
// a file rather than on the process's own streams.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  appendFileSync(process.env.IR_SITE_LOAD_TRACE, `${url}\n`);
  return next(url, context);
}
