// Pure refinements of a parsed site.config.ts into the frozen ResolvedConfig every stage reads.
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import type { IntegrationsConfig, LocaleConfig, SignInConfig } from '../../shared/types.js';
import type { SiteConfig } from './schema.js';
import { isOwnName } from '../../shared/paths.js';

/** The top-level folders the build writes its own files into. */

export interface ResolvedConfig {
  root: string;
  /** Site-relative name of the config file, for messages. */
  configFile: string;
  identityKey: string;
  identityKeys: string[];
  identity: {
    site: string;
    name: string;
    siteUrl: string;
    signIn: SignInConfig | null;
    /** `{{token}}` values (content/identity.ts). */
    tokens: Record<string, string | Record<string, string>>;
    /** This identity's own words: none may appear in another identity's build. */
    words: string[];
  };
  /** The other identities' words, by identity: `check` reports them in this build. */
  otherIdentityWords: Record<string, string[]>;
  defaultLocale: string;
  locales: LocaleConfig[];
  legacyPrefixes: string[];
  integrations: IntegrationsConfig;
  /** Shown on the contact page when no form target is configured ('' when none). */
  contactEmail: string;
  /** Articles per listing page (section and column pages). */
  pageSize: number;
  /** The site's markdown plugins and options (site.config.ts `markdown`). */
  markdown: SiteConfig['markdown'];
  /** Whether a build writes `.br` and `.gz` copies next to compressible files (site.config.ts `compress`). */
  compress: boolean;
  /**
   * The configuration as bundled and imported: render threads import the same file for the
   * markdown plugins; `hash` is its content hash, so caches see a plugin's code change, and
   * `packages` the installed version of each npm package it imports (a plugin upgraded).
   */
  module: ConfigModule;
  dirs: { content: string; locales: string; templates: string; config: string; out: string; cache: string };
}

export interface ResolveOptions {
  root: string;
  configFile: string;
  /** `--site`: overrides `identity`. */
  identity?: string;
  /** `--out`: overrides `paths.out`. */
  outDir?: string;
  /** Locale codes that have a strings file in the locales folder. */
  availableLocales: ReadonlySet<string>;
  /** The bundled configuration file that was imported. */
  module: ConfigModule;
}

export interface ConfigModule {
  path: string;
  hash: string;
  packages: Record<string, string>;
  /** The site's own files bundled into it (site.config.ts, a plugin of its own), absolute: dev watches them. */
  files: string[];
}

export const invalidLocaleMessage = (code: string) =>
  `Invalid localed provided: ${code}. See your i18n config file for a list of available locales.`;

function isWellFormedTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** Returns the resolved config, or the diagnostics that stop it (all of them). */
export function resolveConfig(config: SiteConfig, options: ResolveOptions): ResolvedConfig | Diagnostic[] {
  const problems: Diagnostic[] = [];
  const file = options.configFile;
  const fail = (field: string, message: string, hint?: string) =>
    problems.push(diagnostic('config/invalid', { file, field, message, hint }));

  const seen = new Set<string>();
  for (const locale of config.locales) {
    const known = isWellFormedTag(locale.code) && options.availableLocales.has(locale.code);
    if (!known || !isWellFormedTag(locale.hrefLang)) {
      fail(
        'locales',
        invalidLocaleMessage(known ? locale.hrefLang : locale.code),
        `each locale needs a valid language tag and a strings file ${config.paths.locales}/<code>.json (found: ${[...options.availableLocales].sort().join(', ') || 'none'})`,
      );
    }
    // Case aside: `en` and `EN` would be one folder on macOS and Windows disks, and one language.
    if (seen.has(locale.code.toLowerCase())) fail('locales', `locale "${locale.code}" is listed twice${[...seen].includes(locale.code) ? '' : ' (its code differs from another only in case)'}`);
    seen.add(locale.code.toLowerCase());
  }
  // A legacy prefix redirects every path under it: not a language's pages, nor the build's own folders.
  for (const prefix of config.legacyPrefixes) {
    if (seen.has(prefix.toLowerCase()) || isOwnName(prefix)) {
      fail('legacyPrefixes', `"${prefix}" cannot be a legacy prefix: ${seen.has(prefix.toLowerCase()) ? 'the pages of that language are under it' : 'the build writes its own files under it'}`, 'a legacy prefix is a path the site no longer uses, such as cn');
    }
  }
  if (!seen.has(config.defaultLocale)) {
    fail('defaultLocale', invalidLocaleMessage(config.defaultLocale), `defaultLocale must be one of: ${[...seen].join(', ')}`);
  }

  const identityKey = options.identity ?? config.identity;
  // Own keys only: `constructor` or `toString` names no identity, whatever Object's prototype holds.
  const identity = Object.hasOwn(config.identities, identityKey) ? config.identities[identityKey] : undefined;
  if (!identity) {
    fail(
      options.identity ? '--site' : 'identity',
      `unknown site identity "${identityKey}"`,
      `configured identities: ${Object.keys(config.identities).join(', ')}`,
    );
  }
  const at = (p: string) => path.resolve(options.root, p);
  const dirs = {
    content: at(config.paths.content),
    locales: at(config.paths.locales),
    templates: at(config.paths.templates),
    config: at(config.paths.config),
    out: path.resolve(options.root, options.outDir ?? config.paths.out),
    cache: at(config.paths.cache),
  };
  const clash = outputClash(dirs, path.resolve(options.root));
  if (clash) fail(options.outDir !== undefined ? '--out' : 'paths.out', clash, 'give the output a folder of its own, such as public/ next to content/');
  const cacheInContent = cacheClash(dirs, path.resolve(options.root));
  if (cacheInContent) fail('paths.cache', cacheInContent, 'give the cache a folder of its own, such as .ir-site/cache (the default)');
  if (problems.length > 0 || !identity) return problems;

  return Object.freeze({
    root: options.root,
    configFile: file,
    identityKey,
    identityKeys: Object.keys(config.identities),
    identity: {
      site: identity.site,
      name: identity.name,
      siteUrl: identity.siteUrl,
      signIn: identity.signIn ?? null,
      tokens: identity.tokens,
      words: identity.words,
    },
    otherIdentityWords: Object.fromEntries(Object.entries(config.identities).filter(([key]) => key !== identityKey).map(([key, other]) => [key, other.words])),
    defaultLocale: config.defaultLocale,
    // The default locale first: it is the unprefixed one and the x-default.
    locales: [...config.locales].sort((a, b) => Number(b.code === config.defaultLocale) - Number(a.code === config.defaultLocale)),
    legacyPrefixes: config.legacyPrefixes,
    integrations: config.integrations,
    contactEmail: identity.contactEmail ?? config.contact.email,
    pageSize: config.listings.pageSize,
    markdown: config.markdown,
    compress: config.compress,
    module: options.module,
    dirs,
  });
}

/**
 * Why the cache folder cannot be where it is, or null. Every file of the content folder is read
 * (its dot folders aside), images included: a cache in it would be read as content, its images
 * cached again, and dev's watcher would see each write as an edit.
 */
export function cacheClash(dirs: ResolvedConfig['dirs'], root: string): string | null {
  const { cache, content } = dirs;
  const shown = shownFrom(root);
  const read = cache === content || (inside(cache, content) && !path.relative(content, cache).split(path.sep).some((part) => part.startsWith('.')));
  if (read) return `the cache folder ${shown(cache)} is inside the content folder (${shown(content)}): the build would read its own cache as content`;
  if (inside(content, cache)) return `the cache folder ${shown(cache)} holds the content folder (${shown(content)}): clearing the cache would delete content`;
  return null;
}

/** Whether `dir` lies under `parent` (both absolute). */
const inside = (dir: string, parent: string) => dir.startsWith(parent + path.sep);
/** A folder as the messages show it: relative to the site, with "/". */
const shownFrom = (root: string) => (dir: string) => path.relative(root, dir).split(path.sep).join('/') || '.';

/**
 * Why the output folder cannot be where it is, or null. A build replaces the output folder
 * whole (or deletes in it what it does not make): one that is, holds or sits inside the site,
 * its sources or its cache would delete them, or publish them.
 */
export function outputClash(dirs: ResolvedConfig['dirs'], root: string): string | null {
  const { out } = dirs;
  const shown = shownFrom(root);
  if (out === root || inside(root, out)) return `the output folder ${shown(out)} holds the whole site: a build would replace it, sources and all`;
  const named: [string, string][] = [['content', dirs.content], ['config', dirs.config], ['templates', dirs.templates], ['locales', dirs.locales], ['cache', dirs.cache]];
  for (const [name, dir] of named) {
    if (out === dir || inside(dir, out)) return `the output folder ${shown(out)} is or holds the ${name} folder (${shown(dir)}): a build would replace it`;
  }
  // Every file under these is read (content) or pruned (cache); the others read named files only.
  for (const [name, dir] of named.filter(([name]) => name === 'content' || name === 'cache')) {
    if (inside(out, dir)) return `the output folder ${shown(out)} is inside the ${name} folder (${shown(dir)}): the build would read or clear its own output`;
  }
  return null;
}
