// One zod schema per collection: the content contract (shared CONTENT.md) in code.
import * as z from 'zod';
import { ARTICLE_TYPES, type NumberKind } from '../../shared/types.js';
import { MAX_PART_BYTES, pathPartsProblem } from './path-shape.js';

/** Fields whose default publishes an entry more widely (every identity, not a draft): left empty, they are an error, not left out. */
const EMPTY_IS_AN_ERROR = new Set(['draft', 'identities']);

/**
 * Front matter without its empty fields (`author:` alone on its line, which YAML reads as null):
 * an empty optional field is no field, but for those of EMPTY_IS_AN_ERROR.
 */
export function withoutEmptyFields(data: unknown): unknown {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([key, value]) => value !== null || EMPTY_IS_AN_ERROR.has(key)));
}

const NUMBER_KINDS = ['number', 'percent', 'millions', 'year'] as const satisfies readonly NumberKind[];

/** RUNTIME.md "Images": the three layouts an image can have. */
export const IMAGE_LAYOUTS = ['constrained', 'fixed', 'fullWidth'] as const;

/** Why a YYYY-MM-DD string is not a calendar date, or null when it is one. */
export function dateProblem(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return 'expected a calendar date YYYY-MM-DD';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return `expected a calendar date YYYY-MM-DD (month ${month} does not exist)`;
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const days = new Date(new Date(0).setUTCFullYear(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return `expected a calendar date YYYY-MM-DD (${m[1]}-${m[2]} has ${days} days)`;
  return null;
}

export const isoDate = z.string({ error: 'expected a calendar date YYYY-MM-DD, written as text' }).superRefine((value, ctx) => {
  const problem = dateProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Control characters (but tab and line breaks): no page can show them, and a NUL would reach the HTML as it is. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const text = (what = 'text') =>
  z.string({ error: `expected ${what}` }).refine((value) => !CONTROL.test(value), {
    message: `${what} holds an invisible control character (U+0000 to U+001F, or U+007F): remove it, often pasted along with text`,
  });
const required = (what: string) => text(what).trim().min(1, `${what} may not be empty`);
/**
 * A file next to the entry, by name, composed as the load stage lists names (NFC): macOS writes
 * `é` in a file name as `e` and a combining accent, an editor types it as one character.
 */
const fileName = (what: string, schema: z.ZodString = required(what)) => schema.transform((name) => name.normalize('NFC'));
/** A check of a path's parts (path-shape.ts) on top of its pattern. */
const withParts = (schema: z.ZodString, options: { page?: boolean } = {}) =>
  schema.superRefine((value, ctx) => {
    const problem = value.startsWith('/') ? pathPartsProblem(value, options) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: `expected a path of "/"-separated parts: ${problem}` });
  });
// No control character, C1 included (U+0080 to U+009F, which \s does not cover): no host's rule file can carry one.
const sitePath = withParts(
  text('a site path').regex(/^\/(?![/\\])[^\s?#\u0000-\u001f\u007f-\u009f]*$/, 'expected a site path starting with a single "/", with no spaces, query or fragment, e.g. /article/old-slug/'),
);
/** A path a hand-written rule redirects from: one path, as a "*" would hide every page under it on the hosts. */
const redirectSource = sitePath.refine((p) => !p.includes('*'), 'a "*" is not allowed: a hand-written rule redirects one path (legacyPrefixes in site.config.ts redirects a whole prefix)');

/** Lower case, digits and dashes; a capitalised quarter (`Q2-2025`) is allowed inside commentary slugs. */
export const slugSchema = required('a slug')
  .refine(
    (s) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s.replace(/Q(?=[1-4]-\d{4})/g, 'q')),
    'expected a lower-case slug of letters, digits and dashes (a quarter may be capitalised: commentary-Q2-2025)',
  )
  .max(MAX_PART_BYTES, `a slug names a folder of the output: at most ${MAX_PART_BYTES} characters`);

const common = {
  title: required('a title'),
  /** An empty one is none: the page then gets the site's description, not an empty one. */
  description: text().optional().transform((value) => (value?.trim() ? value : undefined)),
  draft: z.boolean({ error: 'expected true or false' }).default(false),
  translation: z.literal('none', { error: 'the only value is "none" (this entry exists in one language on purpose)' }).optional(),
  /** The identities whose builds publish this entry (site.config.ts keys); every identity's when absent. */
  identities: z.array(text('an identity key'), { error: 'expected a list of identity keys, e.g. [larkspur]' }).min(1, 'name at least one identity, or leave the field out').optional(),
};

export const PAGE_TEMPLATES = ['home', 'section', 'page', 'portfolio', 'team', 'search', 'column', 'not-found'] as const;

export const pageSchema = z.object({
  ...common,
  template: z.enum(PAGE_TEMPLATES).default('page'),
  path: withParts(text('a path').regex(/^\/([^\s?#]*\/|[^\s?#]*\.html)?$/, 'expected a path that starts and ends with "/", e.g. /contact-us/'), { page: true }).optional(),
  /** Also a path part: the section's search page is `/search/<section>/`. */
  section: text('a section key').regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'expected a section key of lower-case letters, digits and dashes, e.g. insights').optional(),
  form: text().optional(),
  navTitle: text().optional(),
});

export const articleSchema = z
  .object({
    ...common,
    slug: slugSchema,
    date: isoDate,
    /** The date of the last real change: the sitemap's lastmod and the article's dateModified. */
    updated: isoDate.optional(),
    /** An image next to the article, shown above it and used as its share image. */
    cover: z
      .object({
        file: fileName('a file name'),
        alt: text('a description of the image (empty for decoration)'),
        layout: z.enum(IMAGE_LAYOUTS).default('constrained'),
      })
      .optional(),
    type: z.enum(ARTICLE_TYPES),
    sections: z.array(text('a section key')).default([]),
    author: text('a team handle').optional(),
    quarter: text().regex(/^Q[1-4]-\d{4}$/, 'expected a quarter such as Q2-2025').optional(),
    video: z
      .object({
        provider: z.enum(['youtube', 'vimeo']),
        id: text().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a video id of letters, digits, - and _'),
      })
      .optional(),
    documents: z.array(z.object({ label: required('a label'), file: fileName('a file name or URL') })).default([]),
    atRoot: z.boolean({ error: 'expected true or false' }).default(false),
    redirectFrom: z.array(redirectSource).default([]),
  })
  .superRefine((a, ctx) => {
    if (a.type === 'commentary' && !a.quarter) {
      ctx.addIssue({ code: 'custom', path: ['quarter'], message: 'a commentary needs its quarter, e.g. quarter: Q2-2025' });
    } else if (a.type === 'commentary' && a.quarter && /^Q[1-4]-\d{4}$/.test(a.quarter) && !`-${a.slug}-`.includes(`-${a.quarter}-`)) {
      // Its address says which quarter it is, capitalised; the lower-case form redirects there (build/graph/redirects.ts).
      // The slug to write: its own quarter, whatever its case, replaced; else the quarter added.
      const fixed = /q[1-4]-\d{4}/i.test(a.slug) ? a.slug.replace(/q[1-4]-\d{4}/i, a.quarter) : `${a.slug}-${a.quarter}`;
      ctx.addIssue({ code: 'custom', path: ['slug'], message: `a commentary's slug carries its quarter as written in quarter: (${a.quarter}), e.g. slug: ${fixed}` });
    }
    if (a.type === 'video' && !a.video) {
      ctx.addIssue({ code: 'custom', path: ['video'], message: 'a video needs video: { provider: youtube, id: ... }' });
    }
  });

/**
 * An article's title and description as validation gives them (build/graph/headlines.ts), or
 * null when its front matter does not validate: the full validation then says why.
 */
export function articleHeadline(data: unknown): { title: string; description: string | null } | null {
  const parsed = articleSchema.safeParse(withoutEmptyFields(data));
  return parsed.success ? { title: parsed.data.title, description: parsed.data.description ?? null } : null;
}

export const bioSchema = z.object({
  ...common,
  name: required('a name'),
  role: required('a role'),
  order: z.number({ error: 'expected a number' }).default(1000),
  photo: fileName('a file name', text('a file name')).optional(),
  email: z.email({ error: 'expected an email address' }).optional(),
  linkedin: z.url({ protocol: /^https$/, error: 'expected an https:// URL' }).optional(),
});

export const portfolioSchema = z.object({
  title: z.record(z.string(), required('a title'), { error: 'expected a title in each language, e.g. title: { en: Core holdings, fr: Placements principaux }' }),
  order: z.number({ error: 'expected a number' }).default(1000),
  /** How a numeric column reads: `percent` (percentage points), `millions` (of dollars), `year`, `number` (the default). */
  columns: z
    .record(z.string(), z.enum(NUMBER_KINDS, { error: `expected one of ${NUMBER_KINDS.join(', ')}` }))
    .default({}),
  holdings: z
    .array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()], { error: 'expected text, a number, true/false or nothing (null) in a cell' })))
    .default([]),
});

export const websiteSchema = z.object({
  performanceApprovalDate: isoDate,
  asAtDate: isoDate,
  identities: z.record(z.string(), z.object({ displayName: z.record(z.string(), required('a name')) })),
});

export const navigationSchema = z.object({
  main: z.array(text('a page key')).default([]),
  footer: z.array(text('a page key')).default([]),
});

/** Where a redirect goes: a site path (checked as one), or an http(s) URL of another site. */
const redirectTarget = text('a site path or an http(s) URL').superRefine((value, ctx) => {
  if (value.startsWith('/')) {
    const path = sitePath.safeParse(value);
    if (!path.success) ctx.addIssue({ code: 'custom', message: path.error.issues[0]!.message });
  } else if (!/^https?:\/\/[^/\s]/i.test(value) || /[\s\u0000-\u001f\u007f-\u009f]/.test(value) || !URL.canParse(value)) {
    ctx.addIssue({ code: 'custom', message: 'expected a site path (/new-path/) or an http(s) URL (https://example.com/page), with no spaces (write %20)' });
  }
});

export const redirectsSchema = z.array(z.object({ from: redirectSource, to: redirectTarget })).nullable();

export const stringsSchema = z.record(z.string(), text('a UI string'));

export type PageFrontMatter = z.output<typeof pageSchema>;
export type ArticleFrontMatter = z.output<typeof articleSchema>;
export type BioFrontMatter = z.output<typeof bioSchema>;
