// The shape of site.config.ts. Astro-style: the schema is the documentation of record.
import type { Pluggable } from 'unified';
import * as z from 'zod';

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

/** One line of text: a token is replaced inside a line, so it may not hold a line break. */
const tokenText = z.string().regex(/^[^\n\r]*$/, 'one line of text (no line breaks)');

export const identitySchema = z.strictObject({
  /** Replaces `{site}` in page paths. */
  site: slugToken,
  /** Replaces `{name}` in page paths. */
  name: slugToken,
  // Pages link each other from the root (`/insights/`): a site under a path would link out of it.
  siteUrl: z
    .url({ protocol: /^https?$/, abort: true, error: 'expected a web address starting with http:// or https://, e.g. https://www.example.com' })
    .refine((u) => /^https?:\/\/[^/?#]+\/*$/i.test(u), 'expected the address of the site\'s root, with no path, query or fragment, e.g. https://www.example.com (pages link each other from the root)')
    .transform((u) => u.replace(/\/+$/, '')),
  signIn: signInSchema.optional(),
  /**
   * `{{key}}` in bodies, front matter and UI strings becomes this value: one text, or one per
   * locale. `site`, `name` and `siteUrl` are tokens already (docs/content.md, "Identities").
   */
  tokens: z
    .record(
      z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'a token name: a letter, then letters, digits, "_" or "-"'),
      z.union([tokenText, z.record(z.string(), tokenText)]),
    )
    .default({}),
  /**
   * Words that belong to this identity alone (its names, its e-mail domain): `ir-site check`
   * reports any of them found in another identity's build.
   */
  words: z.array(z.string().trim().min(2, 'a word of two characters or more')).default([]),
  /** This identity's contact address, when not the site's `contact.email`. */
  contactEmail: z.email({ error: 'expected an e-mail address, e.g. investors@example.com' }).optional(),
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
        /** How long the kit's script may take to arrive (SPEC.md section 9: 5000 ms). */
        scriptTimeout: z.number().int().positive().default(5000),
        /** How long the kit's fonts may take once the script ran: 3000 ms, set per kit (one kit of the spec uses 2000). */
        fontTimeout: z.number().int().positive().default(3000),
      })
      .prefault({}),
    botCheck: z
      .strictObject({
        siteKey: z.string().default(''),
        /** Where the contact form posts: an endpoint that accepts the form (https://...) or a site path the host answers. */
        formAction: z
          .string()
          .refine((v) => v === '' || /^https?:\/\/[^/\s]+/i.test(v) || /^\/(?![/\\])\S*$/.test(v), {
            message: 'expected the address of a form endpoint (https://forms.example.com/f/abc) or a site path (/contact/send), or "" for none',
          })
          .default(''),
      })
      .prefault({}),
  })
  .prefault({});

/** How people reach the corporation when there is no form to post (the contact page shows it). */
const contactSchema = z
  .strictObject({
    email: z.union([z.literal(''), z.email({ error: 'expected an e-mail address, e.g. investors@example.com' })]).default(''),
  })
  .prefault({});

/** Section and column pages list their articles a page at a time. */
const listingsSchema = z
  .strictObject({
    /** Articles per listing page; page 2 onwards are at `/insights/2/`. */
    pageSize: z.number().int().min(1).max(1000).default(12),
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
  contact: contactSchema,
  listings: listingsSchema,
  markdown: markdownSchema,
  paths: pathsSchema,
  /**
   * Write a brotli (`.br`) and a gzip (`.gz`) copy next to every compressible file of the output
   * folder, for hosts that serve precompressed files (docs/hosting.md, "Compression").
   */
  compress: z.boolean().default(true),
});

/** What `site.config.ts` exports (through `defineConfig`): every option of docs/configuration.md, defaults optional. */
export type SiteConfigInput = z.input<typeof siteConfigSchema>;
export type SiteConfig = z.output<typeof siteConfigSchema>;
