// Test-only: Debian's Chromium (/usr/bin/chromium) driven by playwright-core, in a fresh,
// throw-away profile. Never downloads a browser. Without Chromium the browser tests skip
// locally, and fail in CI (CI=true), where .ci/run installs it.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Why browser tests cannot run here, for `test(name, { skip })`; undefined when they can.
 * In CI a missing browser is never a skip: the tests run and fail in `launchBrowser`.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  if (process.env.CI === 'true') return undefined;
  return `browser test skipped: ${CHROMIUM_PATH} not found (install it with: apt-get install -y chromium)`;
}

export interface Browser {
  context: BrowserContext;
  /** Closes the browser and removes its profile folder. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  viewport?: { width: number; height: number };
  /** Let requests leave 127.0.0.1/localhost (default false: everything else is aborted). */
  allowNetwork?: boolean;
  /** More Chromium flags. */
  extraArgs?: string[];
  /** Host names that reach the local test server (Chromium resolves them to 127.0.0.1). */
  localHosts?: string[];
  /** 'block' keeps the offline worker out of tests that intercept the page's own requests. */
  serviceWorkers?: 'allow' | 'block';
}

/**
 * Hermetic by name resolution, not by interception: every host but the local server resolves
 * to nothing, so third-party embeds (YouTube) fail at once. A Playwright route would do the
 * same but intercepts the service worker's own requests too, and one held there can keep the
 * old worker busy so that Chromium never activates its successor.
 */
function hostResolverArgs(options: LaunchOptions): string[] {
  const local = (options.localHosts ?? []).map((host) => `MAP ${host} 127.0.0.1`);
  if (options.allowNetwork) return local.length ? [`--host-resolver-rules=${local.join(', ')}`] : [];
  return [`--host-resolver-rules=${[...local, 'MAP * ~NOTFOUND', 'EXCLUDE localhost', 'EXCLUDE 127.0.0.1'].join(', ')}`];
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}` +
        (process.env.CI === 'true' ? ' (CI=true: browser tests must run; .ci/run installs Debian chromium)' : ''),
    );
  }
  const profile = await mkdtemp(path.join(os.tmpdir(), 'ir-site-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, ...hostResolverArgs(options), ...(options.extraArgs ?? [])],
      viewport: options.viewport ?? { width: 1280, height: 900 },
      serviceWorkers: options.serviceWorkers ?? 'allow',
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async close() {
      try {
        await context.close();
      } finally {
        await rm(profile, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };
}
