// The Content-Security-Policy and the host files that carry it, and the SVG sanitiser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headerRules, netlifyHeaders, nginxHeaders } from '../../src/build/emit/host-headers.js';
import { headersFor, parseHeaders } from '../../src/commands/server/host-headers.js';
import { sanitizeSvg } from '../../src/build/emit/svg.js';
import { contentSecurityPolicy, SVG_POLICY } from '../../src/build/render/csp.js';
import { INLINE_SCRIPTS } from '../../src/build/render/document.js';
import type { IntegrationsConfig } from '../../src/shared/types.js';

const NONE: IntegrationsConfig = {
  tagManager: { containerId: '', dataLayerName: 'dataLayer', routeChangeEvent: 'gatsby-route-change' },
  fontKit: { kitId: '', scriptTimeout: 5000, fontTimeout: 3000 },
  botCheck: { siteKey: '', formAction: '' },
};
const ALL: IntegrationsConfig = {
  tagManager: { ...NONE.tagManager, containerId: 'GTM-X' },
  fontKit: { ...NONE.fontKit, kitId: 'abc1234' },
  botCheck: { siteKey: 'key', formAction: 'https://forms.example.com/submit' },
};

const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

test('the policy: scripts from the site and the inline scripts by hash only; no integration origin without its key', () => {
  const policy = directives(contentSecurityPolicy({ integrations: NONE, inlineScripts: INLINE_SCRIPTS, delivery: 'meta' }));
  const scripts = policy.get('script-src')!;
  assert.deepEqual(scripts.slice(0, 1), ["'self'"]);
  assert.equal(scripts.filter((s) => s.startsWith("'sha256-")).length, INLINE_SCRIPTS.length);
  assert.ok(!scripts.includes("'unsafe-inline'") && !scripts.includes("'unsafe-eval'") && !scripts.some((s) => s.startsWith('http')));
  assert.deepEqual(policy.get('object-src'), ["'none'"]);
  assert.deepEqual(policy.get('base-uri'), ["'self'"]);
  assert.ok(!policy.has('frame-ancestors'), 'a <meta> policy may not hold frame-ancestors');
  const text = [...policy.values()].flat().join(' ');
  for (const host of ['googletagmanager', 'typekit', 'recaptcha', 'forms.example.com']) assert.ok(!text.includes(host), host);
});

test('with keys, each integration gets exactly its origins; the header form adds frame-ancestors', () => {
  const policy = directives(contentSecurityPolicy({ integrations: ALL, inlineScripts: INLINE_SCRIPTS, delivery: 'header' }));
  for (const origin of ['https://www.googletagmanager.com', 'https://use.typekit.net', 'https://www.google.com/recaptcha/']) assert.ok(policy.get('script-src')!.includes(origin), origin);
  assert.ok(policy.get('frame-src')!.includes('https://www.google.com/recaptcha/'));
  assert.ok(policy.get('form-action')!.includes('https://forms.example.com'));
  // The contact form sends itself with fetch() when JavaScript runs.
  assert.ok(policy.get('connect-src')!.includes('https://forms.example.com'));
  assert.deepEqual(policy.get('frame-ancestors'), ["'self'"]);
  assert.ok(!policy.get('script-src')!.includes("'unsafe-inline'"));
});

test('host files: every path gets the policy; each SVG also gets the SVG policy, on both hosts', () => {
  const rules = headerRules({ integrations: NONE, inlineScripts: INLINE_SCRIPTS, svgPaths: ['/contact-us/map.svg', '/fr/contact-us/carte é.svg'] });
  const netlify = netlifyHeaders(rules);
  assert.match(netlify, /^\/\*\n {2}Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-/m);
  assert.match(netlify, /^\/contact-us\/map\.svg\n {2}Content-Security-Policy: default-src 'none'/m);
  assert.match(netlify, /^\/fr\/contact-us\/carte%20%C3%A9\.svg$/m);
  // A "%" in a file's name is itself: `a%20b.svg` is served at /a%2520b.svg, and its rule must say so (serve reads the rule back).
  const percent = netlifyHeaders(headerRules({ integrations: NONE, inlineScripts: INLINE_SCRIPTS, svgPaths: ['/x/a%20b.svg'] }));
  assert.match(percent, /^\/x\/a%2520b\.svg$/m);
  assert.match(headersFor(parseHeaders(percent), '/x/a%20b.svg')['Content-Security-Policy']!, /default-src 'none'/);
  assert.doesNotMatch(headersFor(parseHeaders(percent), '/x/a b.svg')['Content-Security-Policy']!, /default-src 'none'/);
  const nginx = nginxHeaders(rules);
  assert.match(nginx, /^add_header Content-Security-Policy "default-src 'self'; [^"]*frame-ancestors 'self'" always;$/m);
  const svg = nginx.split('\n').find((l) => l.startsWith('location = "/contact-us/map.svg"'))!;
  assert.ok(svg.includes(`add_header Content-Security-Policy "${SVG_POLICY}" always;`));
  assert.ok(svg.includes('add_header X-Content-Type-Options "nosniff" always;'), 'the location repeats the server-level headers');
});

test('SVG: script, handlers, foreign HTML and script links are removed; the drawing stays, as XML', async () => {
  const hostile = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(2)</script>
  <script xlink:href="https://evil.example/x.js"/>
  <a xlink:href="javascript:alert(3)"><rect width="5" height="5" fill="#0b3d5c"/></a>
  <a href="https://example.com/"><circle cx="5" cy="5" r="2"/></a>
  <foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;alert(4)&lt;/script&gt;"/></foreignObject>
  <animate attributeName="href" to="javascript:alert(5)"/>
  <set attributeName="onmouseover" to="alert(6)"/>
  <image href="javascript:alert(7)"/>
  <text x="1" y="9">Net asset value&#160;&amp; more</text>
  <linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>
</svg>`;
  const clean = await sanitizeSvg(hostile);
  assert.doesNotMatch(clean, /script|alert|onload|onmouseover|foreignObject|iframe|srcdoc|<animate|<set/i);
  assert.match(clean, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  for (const kept of ['<rect', '<circle', 'href="https://example.com/"', 'Net asset value\u00a0&amp; more', '<linearGradient id="g">']) assert.ok(clean.includes(kept), kept);
  assert.doesNotMatch(clean, /&nbsp;/, 'XML has no &nbsp;');
  assert.equal(await sanitizeSvg('not an svg'), '');
  assert.equal(await sanitizeSvg('<html><body><script>alert(1)</script></body></html>'), '');
  assert.equal(await sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'), '', 'not well-formed');
  // Markup hidden in CDATA that DOMPurify will not clean in place: refused, not a crash.
  assert.equal(await sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><![CDATA[</text><script>alert(1)</script>]]></svg>'), '');
  assert.match(await sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><style><![CDATA[.a{fill:red}]]></style><rect class="a"/></svg>'), /<rect class="a"/, 'a harmless CDATA is kept');
});

test('serve leaves out a _headers line no response can carry (a space in the name, no name, a value with a control character or beyond Latin-1), and keeps the rest', () => {
  const rules = parseHeaders('/*\n  Bad Name: x\n  : empty\n  X-Bell: a\u0007b\n  X-Wide: caf\u00e9 \ufffd\n  X-Good: yes\n');
  assert.deepEqual(rules.map((r) => r.headers), [[['X-Good', 'yes']]]);
  assert.deepEqual(headersFor(rules, '/any/'), { 'X-Good': 'yes' });
});
