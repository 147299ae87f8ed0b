// The shape of site.config.ts. Astro-style: the schema is the documentation of record.
import type { Pluggable } from 'unified';
import { z } from 'zod';

const slugToken = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes, e.g. "brightwater"');

export const signInSchema = z.strictObject({
  provider: z.string().min(1),
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'a region such as "us-east-1"'),
  userPoolId: z.string().min(1),
  clientId: z.string().min(1),
  mandatory: z.boolean(),
});

export const identitySchema = z.strictObject({
  /** Replaces `{site}` in page paths. */
  site: slugToken,
  /** Replaces `{name}` in page paths. */
  name: slugToken,
  siteUrl: z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, '')),
  signIn: signInSchema.optional(),
});

export const localeSchema = z.strictObject({
  code: z.string().min(1),
  hrefLang: z.string().min(1),
});

const integrationsSchema = z
  .strictObject({
    tagManager: z
      .strictObject({
        containerId: z.string().default(''),
        dataLayerName: z.string().default('dataLayer'),
        routeChangeEvent: z.string().default('gatsby-route-change'),
      })
      .prefault({}),
    fontKit: z
      .strictObject({
        kitId: z.string().default(''),
        scriptTimeout: z.number().int().positive().default(3000),
        fontTimeout: z.number().int().positive().default(5000),
      })
      .prefault({}),
    botCheck: z
      .strictObject({ siteKey: z.string().default(''), formAction: z.string().default('') })
      .prefault({}),
  })
  .prefault({});

export const pathsSchema = z
  .strictObject({
    content: z.string().default('content'),
    locales: z.string().default('locales'),
    templates: z.string().default('templates'),
    config: z.string().default('config'),
    out: z.string().default('public'),
    cache: z.string().default('.ir-site/cache'),
  })
  .prefault({});

/** A unified plugin, or `[plugin, options]` (what Astro and unified's `.use()` accept). */
const pluggable = z.custom<Pluggable>(
  (value) => typeof value === 'function' || (Array.isArray(value) && value.length >= 1 && typeof value[0] === 'function'),
  'expected a plugin (a function) or [plugin, options]',
);

const markdownSchema = z
  .strictObject({
    /** remark plugins, run on every body after ir-site's parsing (GFM included). */
    remarkPlugins: z.array(pluggable).default([]),
    /** rehype plugins, run on every body after ir-site's own (sanitising, ids, French typography). */
    rehypePlugins: z.array(pluggable).default([]),
    /** No-break spaces before `; : ! ?` and inside `« »` in French bodies and UI strings. */
    frenchTypography: z.boolean().default(true),
  })
  .prefault({});

export const siteConfigSchema = z.strictObject({
  /** Which identity this build uses; `ir-site build --site <key>` overrides it. */
  identity: z.string().min(1),
  identities: z.record(z.string(), identitySchema).refine((r) => Object.keys(r).length > 0, 'at least one identity'),
  defaultLocale: z.string().default('en'),
  locales: z.array(localeSchema).min(1),
  /** Legacy path prefixes that redirect to the unprefixed page (`/cn/...`). */
  legacyPrefixes: z.array(slugToken).default(['cn']),
  integrations: integrationsSchema,
  markdown: markdownSchema,
  paths: pathsSchema,
});

export type SiteConfigInput = z.input<typeof siteConfigSchema>;
export type SiteConfig = z.output<typeof siteConfigSchema>;
