#!/usr/bin/env node
// Launcher only. React renders ~7x faster in production mode, so set it before anything loads React.
process.env.NODE_ENV = 'production';
const { main } = await import('../dist/src/cli/index.js');
await main(process.argv);
