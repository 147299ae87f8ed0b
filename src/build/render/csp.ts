// The site's Content-Security-Policy: scripts only from the site itself and the inline scripts
// the build writes (by hash), so a script injected into a page would not run; the third-party
// origins of an integration only when its key is configured. Every page carries it in a
// <meta> element (hosts that send no headers still get it); the host files and `serve` send
// it as a header too, with what only a header can say (frame-ancestors). Published SVG files
// get a stricter one of their own: an SVG opened at its URL is a document of the site's origin.
import { createHash } from 'node:crypto';
import type { IntegrationsConfig } from '../../shared/types.js';

/** The policy an SVG file is served with: no script of any kind, nothing loaded but its own styles and images. */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:";

const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/** The origins each integration needs, by directive, as their providers document them. */
function integrationSources(integrations: IntegrationsConfig): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (directive: string, ...sources: string[]) => (out[directive] ??= []).push(...sources);
  if (integrations.tagManager.containerId) {
    add('script-src', 'https://www.googletagmanager.com');
    add('img-src', 'https://www.googletagmanager.com', 'https://*.google-analytics.com');
    add('connect-src', 'https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com');
  }
  if (integrations.fontKit.kitId) {
    add('script-src', 'https://use.typekit.net');
    // The kit's loader writes its @font-face rules into a <style> element of its own.
    add('style-src', 'https://use.typekit.net', 'https://p.typekit.net', "'unsafe-inline'");
    add('font-src', 'https://use.typekit.net');
    add('img-src', 'https://p.typekit.net');
  }
  if (integrations.botCheck.siteKey) {
    add('script-src', 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/');
    add('frame-src', 'https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/');
    add('connect-src', 'https://www.google.com/recaptcha/');
  }
  const action = integrations.botCheck.formAction;
  if (/^https?:\/\//i.test(action)) {
    // A plain POST navigates there; with JavaScript the contact form sends it with fetch().
    add('form-action', new URL(action).origin);
    add('connect-src', new URL(action).origin);
  }
  return out;
}

export interface PolicyOptions {
  integrations: IntegrationsConfig;
  /** The inline scripts the pages carry, as written: each is allowed by its hash. */
  inlineScripts: readonly string[];
  /** `header` adds what a <meta> policy may not hold (browsers ignore it there, with a console error). */
  delivery: 'meta' | 'header';
}

export function contentSecurityPolicy({ integrations, inlineScripts, delivery }: PolicyOptions): string {
  const extra = integrationSources(integrations);
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...inlineScripts.map(hashOf)]],
    ['style-src', ["'self'"]],
    // React writes style attributes (image boxes, table alignment); no <style> element is allowed by this.
    ['style-src-attr', ["'unsafe-inline'"]],
    // Body images may come from any https host; placeholders are data: URIs.
    ['img-src', ["'self'", 'data:', 'https:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'"]],
    ['frame-src', ['https://www.youtube-nocookie.com', 'https://player.vimeo.com']],
    ['worker-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['form-action', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
  ];
  if (delivery === 'header') directives.push(['frame-ancestors', ["'self'"]]);
  return directives.map(([name, sources]) => [name, ...new Set([...sources, ...(extra[name] ?? [])])].join(' ')).join('; ');
}
