#!/usr/bin/env node
// A stand-in for a hosted form service, for trying the demo's contact form next to
// `ir-site dev` or `ir-site serve` (site.config.ts posts to http://127.0.0.1:8787/contact).
// It prints each message, answers fetch() with JSON and a plain POST with a 303 to `_next`,
// as the form expects (docs/configuration.md, "Integrations"). Never for production.
//
//   node scripts/form-endpoint.mjs [port=8787]
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 8787);
createServer(async (req, res) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method !== 'POST') return res.writeHead(405, { Allow: 'POST' }).end();
  let body = '';
  for await (const chunk of req) body += chunk;
  const fields = Object.fromEntries(new URLSearchParams(body));
  console.log(new Date().toISOString(), fields);
  if ((req.headers.accept ?? '').includes('application/json')) return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  // Only back to a site page: never an open redirect to wherever `_next` says.
  const next = /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(fields._next ?? '') ? fields._next : null;
  res.writeHead(next ? 303 : 200, next ? { Location: next } : { 'Content-Type': 'text/plain' }).end(next ? '' : 'Thank you.');
}).listen(port, '127.0.0.1', () => console.log(`form endpoint on http://127.0.0.1:${port}/contact`));
