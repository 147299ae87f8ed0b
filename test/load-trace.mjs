// `node --import ./test/load-trace.mjs ...`: appends the URL of every ES module the process
// loads to the file named by IR_SITE_LOAD_TRACE (cli.test.ts checks what the command loads).
import { register } from 'node:module';

register(new URL('./load-trace-hooks.mjs', import.meta.url));
