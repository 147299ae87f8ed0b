// The catalogue of every problem ir-site reports: each rule's id, what it finds, the hint a
// person gets when the call site has nothing more precise to say, where it is documented, and
// its severity. Diagnostics are made from it (`diagnostic()` in diagnostic.ts), so a rule id
// that is not here is a type error where it is written, and test/unit/rules.test.ts holds the
// docs' rule tables to it.
import type { Severity } from './diagnostic.js';

/** `either`: the call site decides (a 404 is an error, a 503 a warning), and must say which. */
export type RuleSeverity = Severity | 'either';

/** A docs page and the slug of the heading whose table lists the rule. */
export type DocsAnchor = `docs/${string}.md#${string}`;

export interface RuleInfo {
  /** What the rule finds, in a few words. */
  readonly title: string;
  /** What to do; a call site that knows more (the known values, the nearest match) gives its own. */
  readonly hint: string;
  readonly docs: DocsAnchor;
  readonly severity: RuleSeverity;
  /**
   * Usually the echo of a content error found first (an article naming a section whose page failed
   * validation): dropped from a run that has other content errors, so the report shows the cause.
   */
  readonly cascading?: true;
  /**
   * A check finding every build reports too, as a warning, from the site graph rather than the
   * output (commands/check/quick.ts): `build --strict` fails on it, `check` finds it again.
   */
  readonly inBuild?: true;
  /** A build error `check` reports under a rule of its own (with more context): check drops the build's copy. */
  readonly checkedAgain?: true;
}

const BUILD: DocsAnchor = 'docs/content.md#error-list';
const CONFIG: DocsAnchor = 'docs/configuration.md#configuration-errors';
const LINKS: DocsAnchor = 'docs/check.md#links';
const LANGUAGES: DocsAnchor = 'docs/check.md#languages';
const REDIRECTS: DocsAnchor = 'docs/check.md#redirects';
const SITE: DocsAnchor = 'docs/check.md#site';
const OTHER: DocsAnchor = 'docs/check.md#other';

/**
 * Every top-level field a content schema has (src/build/content/schemas.ts), with its default hint. A field
 * that breaks its schema is reported as `content/invalid-<field>`: one rule per field, so a tool can
 * tell a bad date from a missing title. test/unit/rules.test.ts keeps this list equal to the schemas'.
 */
const FIELDS = {
  // Every entry (and `title` of a portfolio series).
  title: 'every entry needs a title: title: "Quarterly commentary"',
  description: 'a line of text, shown under the title in search results: description: "Our view of the quarter"',
  draft: 'draft: true or draft: false',
  translation: 'the only value is none: translation: none',
  // Pages.
  template: 'see docs/content.md for the page templates',
  path: 'a site path that starts and ends with "/": path: /contact-us/ (or a .html path for a not-found page)',
  section: 'the key of the section this page lists, as text: section: insights',
  form: 'the only form is the contact form: form: contact',
  navTitle: 'a short label for menus, as text: navTitle: "Team"',
  // Articles.
  slug: 'slugs are what the URL shows: /article/<slug>/',
  date: 'dates are in the ISO form, e.g. 2025-06-30',
  updated: 'the date of the last update, in the ISO form: updated: 2025-07-02',
  cover: 'cover: { file: cover.jpg, alt: "What the image shows", layout: constrained } (layout: constrained, fixed or fullWidth)',
  type: 'see docs/content.md for the article types',
  sections: 'a list of section keys: sections: [insights, news-and-events]',
  author: 'a team handle, the folder name of a bio under content/team/: author: jdoe',
  quarter: 'a quarter, a dash and the year: quarter: Q2-2025',
  video: 'video: { provider: youtube, id: <the id in the video address> } (or provider: vimeo)',
  documents: 'a list of { label, file }: documents: [{ label: "Annual report", file: annual-report.pdf }]',
  atRoot: 'atRoot: true or atRoot: false',
  redirectFrom: 'a list of old site paths: redirectFrom: [/article/old-slug/]',
  // Bios.
  name: 'the person\'s name: name: "Jane Doe"',
  role: 'the job title, in this file\'s language: role: "Portfolio manager"',
  order: 'a number, lowest first: order: 3',
  photo: 'the name of an image file next to this bio: photo: portrait.jpg',
  email: 'an e-mail address: email: investors@example.com',
  linkedin: 'the https:// address of the profile',
  // Portfolio series.
  holdings: 'a list of rows, each mapping a column name to text, a number, true/false or null',
  columns: 'how numeric columns read: columns: { weight: percent, assets: millions } (percent, millions, year or number)',
  // content/site.yaml.
  performanceApprovalDate: 'dates are in the ISO form, e.g. 2025-06-30',
  asAtDate: 'dates are in the ISO form, e.g. 2025-06-30',
  identities: 'in content/site.yaml: identities: { <identity>: { displayName: { en: ..., fr: ... } } }; in an entry: the identities it is published for, identities: [larkspur]',
  // config/navigation.yaml.
  main: 'a list of page keys, the folder names under content/pages/',
  footer: 'a list of page keys, the folder names under content/pages/',
} as const;

export type ContentField = keyof typeof FIELDS;
type FieldRuleId = `content/invalid-${ContentField}`;

const NAMED = {
  // --- Configuration (site.config.ts): stops the build before any content is read.
  'config/syntax': {
    title: 'site.config.ts cannot be bundled',
    hint: 'fix site.config.ts at the line shown; if it is not found, run ir-site from the site\'s folder or pass --root',
    docs: CONFIG,
    severity: 'error',
  },
  'config/load': {
    title: 'site.config.ts throws when it is imported',
    hint: 'run ir-site from the site\'s folder, or pass --root; it must contain site.config.ts',
    docs: CONFIG,
    severity: 'error',
  },
  'config/invalid': {
    title: 'a configuration value breaks the schema, a locale rule, or names an unknown identity',
    hint: 'see docs/configuration.md for every option',
    docs: CONFIG,
    severity: 'error',
  },
  'config/unknown-key': {
    title: 'a key site.config.ts has and no option is called (a typo is otherwise dropped silently)',
    hint: 'fix the name (see docs/configuration.md for every option), or remove the key',
    docs: CONFIG,
    severity: 'error',
  },
  'config/markdown-plugin': {
    title: 'one of the site\'s markdown plugins (markdown.remarkPlugins, markdown.rehypePlugins) failed on a body',
    hint: 'the error is the plugin\'s: fix or remove it in site.config.ts (docs/configuration.md "Markdown plugins"), or change what in the body it trips on',
    docs: CONFIG,
    severity: 'error',
  },

  'config/markdown-message': {
    title: 'one of the site\'s markdown plugins reported something about a body (file.message(), or a message marked fatal)',
    hint: 'the plugin\'s own words: change the body at the line shown, or the plugin\'s options in site.config.ts (docs/configuration.md "Markdown plugins")',
    docs: CONFIG,
    severity: 'either',
  },

  // --- Content: reading files and front matter.
  'content/changed-during-build': {
    title: 'a content file that changed while the build was reading it',
    hint: 'build again once the file is saved (an editor or a sync tool was writing it)',
    docs: BUILD,
    severity: 'error',
  },
  'content/invalid-yaml': {
    title: 'YAML (front matter or a .yaml file) that cannot be read',
    hint: 'check the indentation and quote values that contain a colon followed by a space',
    docs: BUILD,
    severity: 'error',
  },
  'content/misplaced-file': {
    title: 'a markdown file outside the entry folders',
    hint: 'entries live at content/pages/<key>/<locale>.md, content/articles/<key>/<locale>.md or content/team/<handle>/<locale>.md',
    docs: BUILD,
    severity: 'error',
  },
  'content/name-conflict': {
    title: 'two files next to one entry whose names differ only in case or in how an accent is written',
    hint: 'rename one: on macOS and Windows disks, and once published, the two names are one file',
    docs: BUILD,
    severity: 'error',
  },
  'content/name-too-long': {
    title: 'a file next to an entry whose name is too long to publish',
    hint: 'shorten the file name (and the references to it in the entry)',
    docs: BUILD,
    severity: 'error',
  },
  'content/outside-site': {
    title: 'a link in the content folder that points outside the site folder',
    hint: 'copy the file into the site folder: ir-site reads and publishes nothing from outside it',
    docs: BUILD,
    severity: 'error',
  },
  'content/broken-symlink': {
    title: 'a symbolic link in the content folder that leads to no file',
    hint: 'remove the link, or point it at a file in the site folder (or put the file itself there)',
    docs: BUILD,
    severity: 'error',
  },
  'content/unknown-locale': {
    title: 'an entry file named after a locale the site does not have',
    hint: 'name the file after a locale of site.config.ts, e.g. en.md',
    docs: BUILD,
    severity: 'error',
  },
  'content/unknown-field': {
    title: 'a front-matter field no schema knows (kept out of the site)',
    hint: 'correct the name, or remove the field (docs/content.md lists the fields of each collection)',
    docs: BUILD,
    severity: 'warning',
  },
  'content/invalid-item': {
    title: 'an item of config/redirects.yaml that is not { from, to } with site paths',
    hint: 'each rule is "- from: /old-path/" followed by "  to: /new-path/" (or an https:// URL)',
    docs: BUILD,
    severity: 'error',
  },
  'content/invalid-entry': {
    title: 'a file whose whole value has the wrong shape (not a mapping of fields, or not a list of rules)',
    hint: 'see docs/content.md for the shape of this file',
    docs: BUILD,
    severity: 'error',
  },
  'content/missing-website': {
    title: 'no content/site.yaml',
    hint: 'create content/site.yaml with performanceApprovalDate, asAtDate and identities.<key>.displayName',
    docs: BUILD,
    severity: 'error',
  },
  'content/identity-text': {
    title: 'an identity token or block that cannot be filled in: an unknown {{token}}, an unclosed or nested {{#only}}, an unknown identity',
    hint: 'tokens come from site.config.ts identities.<identity>.tokens; see docs/content.md, "Identities"',
    docs: BUILD,
    severity: 'error',
  },
  'content/missing-identity': {
    title: 'no display name in content/site.yaml for the identity being built',
    hint: 'add identities.<identity>.displayName to content/site.yaml',
    docs: BUILD,
    severity: 'error',
  },
  'locales/invalid-json': {
    title: 'a locales/<code>.json file that is not valid JSON',
    hint: 'fix the JSON at the line and column shown: keys and texts in double quotes, a comma between entries and none after the last',
    docs: BUILD,
    severity: 'error',
    checkedAgain: true,
  },
  'locales/missing-string': {
    title: 'a UI string one locales/*.json has and another lacks (its pages would show the key as text)',
    hint: 'add the key, translated, to every locales/*.json',
    docs: BUILD,
    severity: 'error',
    checkedAgain: true,
  },
  'locales/invalid-string': {
    title: 'a UI string that is not text',
    hint: 'every UI string is text: "key": "text"',
    docs: BUILD,
    severity: 'error',
  },

  // --- Content: files an entry names or shows.
  'content/missing-file': {
    title: 'a document or bio photo that is not next to its entry',
    hint: 'put the file in the entry\'s folder (the exact name), or give an absolute https:// URL',
    docs: BUILD,
    severity: 'error',
  },
  'content/missing-image': {
    title: 'an image in a body that is not next to its entry',
    hint: 'put the image in the entry\'s folder, or fix the name (names are case-sensitive)',
    docs: BUILD,
    severity: 'error',
  },
  'content/invalid-image': {
    title: 'an image file that cannot be read',
    hint: 'replace it with a valid JPEG, PNG, WebP or AVIF file',
    docs: BUILD,
    severity: 'error',
  },
  'content/invalid-svg': {
    title: 'an SVG file that cannot be published',
    hint: 'export it again as an SVG file, or remove it',
    docs: BUILD,
    severity: 'error',
  },
  'content/body-limit': {
    title: 'a body over one of the limits (size, nesting, markers)',
    hint: 'flatten the nesting, or split the paragraph or the entry (docs/content.md "Limits")',
    docs: BUILD,
    severity: 'error',
  },

  // --- The site graph.
  'graph/unknown-author': {
    title: 'an article author with no bio',
    hint: 'authors are folder names under content/team/',
    docs: BUILD,
    severity: 'error',
  },
  'graph/unpublished-author': {
    title: 'an article author whose bio this build does not publish',
    hint: 'publish the bio (remove draft: true, or add this identity to its identities:), or remove author:',
    docs: BUILD,
    severity: 'warning',
    cascading: true,
  },
  'graph/unknown-section': {
    title: 'an article section no section page declares',
    hint: 'sections are declared by section pages (front matter section:)',
    docs: BUILD,
    severity: 'error',
    cascading: true,
  },
  'graph/duplicate-slug': {
    title: 'one slug used by two articles of one language',
    hint: 'slugs must be unique per language; rename one and add redirectFrom if the old URL was published',
    docs: BUILD,
    severity: 'error',
  },
  'graph/path-conflict': {
    title: 'two entries published at one path',
    hint: 'give one of them another slug or path',
    docs: BUILD,
    severity: 'error',
  },
  'graph/invalid-path': {
    title: 'an entry whose path no host can serve as written',
    hint: 'write the path without a language or legacy prefix, as "/"-separated parts of letters, digits and dashes',
    docs: BUILD,
    severity: 'error',
  },
  'graph/unknown-page': {
    title: 'a navigation key with no published page in the default language',
    hint: 'navigation lists page keys, the folder names under content/pages/',
    docs: BUILD,
    severity: 'either',
    cascading: true,
  },

  // --- Redirect rules (the build refuses them; check --dir finds them in a built folder).
  'redirects/missing-target': {
    title: 'a redirect to a path that is neither a page nor another rule',
    hint: 'point it at an existing page path, with its trailing slash',
    docs: BUILD,
    severity: 'error',
    cascading: true,
  },
  'redirects/duplicate-source': {
    title: 'two redirect rules from one path, to different targets',
    hint: 'keep one rule per path; paths match without regard to case',
    docs: BUILD,
    severity: 'error',
  },
  'redirects/shadows-page': {
    title: 'a redirect from the path of a page (it never fires)',
    hint: 'remove the rule, or move the page',
    docs: BUILD,
    severity: 'error',
  },
  'redirects/chain': {
    title: 'a redirect to another redirect',
    hint: 'point the first rule straight at the page the chain ends on',
    docs: BUILD,
    severity: 'error',
  },
  'redirects/loop': {
    title: 'redirects that lead back to themselves',
    hint: 'one of these rules must point at a page',
    docs: BUILD,
    severity: 'error',
  },

  // --- Templates and rendering (for template developers).
  'templates/missing': {
    title: 'a page template file that is missing or exports no React component',
    hint: 'every template id has a file templates/pages/<id>.tsx whose default export is the page component',
    docs: BUILD,
    severity: 'error',
  },
  'templates/load': {
    title: 'a template module threw as it was loaded (code at its top level, outside the component)',
    hint: 'move the code that throws into the component, or fix it; the stack of the error names the line in the bundle',
    docs: BUILD,
    severity: 'error',
  },
  'templates/compile': {
    title: 'the templates cannot be bundled for the server',
    hint: 'fix the template source at the line shown',
    docs: BUILD,
    severity: 'error',
  },
  'client/compile': {
    title: 'the templates cannot be bundled for the browser',
    hint: 'fix the source at the line shown (bundled for the browser with the templates)',
    docs: BUILD,
    severity: 'error',
  },
  'render/template': {
    title: 'a template threw while rendering a page',
    hint: 'the template threw while rendering this page; fix the template or the data it reads',
    docs: BUILD,
    severity: 'error',
  },
  'output/write-failed': {
    title: 'the output folder cannot be written',
    hint: 'free some space, or make the folder writable (or build elsewhere with --out), then build again; the previous output is untouched',
    docs: BUILD,
    severity: 'error',
  },
  'build/locked': {
    title: 'another build of this site is still running',
    hint: 'wait for it to finish; if no build of this site runs any more, delete the lock file named',
    docs: BUILD,
    severity: 'error',
  },
  'cache/write-failed': {
    title: 'the build cache cannot be written',
    hint: 'free some space, make the cache folder writable, or remove what is in its way: until then, the next build does the work this one could not keep',
    docs: BUILD,
    severity: 'warning',
  },

  // --- ir-site check: links.
  'links/broken': {
    title: 'an internal link that leads nowhere',
    hint: 'fix the address: internal links are site paths with a trailing slash, e.g. /article/<slug>/',
    docs: LINKS,
    severity: 'error',
    inBuild: true,
  },
  'links/missing-file': {
    title: 'a file the page references that is not in the output',
    hint: 'put the file next to the entry that links to it (files next to an entry are published at its path), or fix the path',
    docs: LINKS,
    severity: 'error',
    inBuild: true,
  },
  'links/missing-anchor': {
    title: 'a #fragment that is no id of the target page',
    hint: 'heading ids are the heading text in lower case with dashes for spaces; check the target heading',
    docs: LINKS,
    severity: 'error',
    inBuild: true,
  },
  'links/redirected': {
    title: 'a link that goes through a redirect rule',
    hint: 'link to the redirect\'s target directly',
    docs: LINKS,
    severity: 'warning',
  },
  'links/not-found-page': {
    title: 'a link to a "page not found" page',
    hint: 'link to the page meant; the server shows the not-found page by itself for addresses that do not exist',
    docs: LINKS,
    severity: 'error',
  },
  'links/internal-file': {
    title: 'a link to a file the build writes for the site itself',
    hint: 'the build writes and renames these files for the site itself: link to the page (or the published file next to an entry) instead',
    docs: LINKS,
    severity: 'warning',
  },
  'links/external': {
    title: 'an external link that answers 4xx/5xx or not at all (--external)',
    hint: 'open it in a browser: update the link if the page is gone',
    docs: LINKS,
    severity: 'either',
  },
  'links/backslash': {
    title: 'a backslash in the path of a web address',
    hint: 'write the address with slashes (/): a markdown link sends a backslash as %5C, which leads nowhere',
    docs: LINKS,
    severity: 'error',
  },
  'links/empty-address': {
    title: 'a mailto:, tel: or sms: link with no address or number',
    hint: 'write the address after mailto:, e.g. mailto:investors@example.com (or the number after tel:)',
    docs: LINKS,
    severity: 'error',
  },
  'links/malformed-address': {
    title: 'a mailto: address that is not name@domain.tld',
    hint: 'an e-mail address is name@domain.tld, e.g. mailto:investors@example.com',
    docs: LINKS,
    severity: 'error',
  },
  'links/removed': {
    title: 'a body link whose address the sanitiser removed',
    hint: 'content links keep web and e-mail addresses only: link to a page, or write the text without a link',
    docs: LINKS,
    severity: 'error',
  },
  'links/empty': {
    title: 'a link to "" or "#"',
    hint: 'write the address the link is for, or remove the link and keep its text',
    docs: LINKS,
    severity: 'warning',
  },
  'links/relative-on-not-found': {
    title: 'a relative link on a "page not found" page',
    hint: "write the address from the site's root (/insights/): the not-found page is shown at any missing address, which a relative link is read against",
    docs: LINKS,
    severity: 'error',
  },
  'links/protocol-relative': {
    title: 'an address that starts with //',
    hint: 'write the whole address (https://...), or one slash for a page of this site',
    docs: LINKS,
    severity: 'either',
  },
  'links/http-own-site': {
    title: 'a link to the site itself over http://',
    hint: 'write the site path: it works on every host the site is served from, with no detour through http',
    docs: LINKS,
    severity: 'warning',
  },
  'links/mixed-content': {
    title: 'an image, video, iframe or script loaded over http:// on an https site',
    hint: 'browsers block or upgrade insecure content on a secure page: use the https:// address, or publish the file with the site',
    docs: LINKS,
    severity: 'error',
  },

  // --- ir-site check: languages.
  'languages/missing-translation': {
    title: 'an entry missing in a configured language',
    hint: 'write the translation, or add "translation: none" to the entry\'s front matter if it exists in one language on purpose',
    docs: LANGUAGES,
    severity: 'error',
    inBuild: true,
  },
  'languages/missing-string': {
    title: 'a UI string in one locales/*.json but not in another',
    hint: 'add the key, translated, to every locales/*.json; until then the page shows the key itself',
    docs: LANGUAGES,
    severity: 'error',
  },
  'languages/unused-string': {
    title: 'a UI string nothing uses',
    hint: 'remove it from every locales/*.json, or use it in a template',
    docs: LANGUAGES,
    severity: 'warning',
  },
  'languages/hreflang-missing': {
    title: 'an indexable page with no hreflang alternates',
    hint: 'every indexable page lists its translations, itself included, and an x-default',
    docs: LANGUAGES,
    severity: 'error',
    inBuild: true,
  },
  'languages/hreflang-self': {
    title: 'hreflang alternates that do not include the page itself',
    hint: 'each language version lists itself among its alternates (Google ignores the annotations otherwise)',
    docs: LANGUAGES,
    severity: 'error',
    inBuild: true,
  },
  'languages/hreflang-x-default': {
    title: 'no x-default alternate',
    hint: 'add <link rel="alternate" hreflang="x-default"> pointing at the default-language page',
    docs: LANGUAGES,
    severity: 'error',
    inBuild: true,
  },
  'languages/hreflang-not-reciprocal': {
    title: 'a translation that does not list the page back',
    hint: 'both pages must list each other among their alternates (Google ignores one-way annotations)',
    docs: LANGUAGES,
    severity: 'error',
    inBuild: true,
  },
  'languages/hreflang-broken': {
    title: 'an alternate that is not a page of the site',
    hint: 'alternates must point at published pages',
    docs: LANGUAGES,
    severity: 'error',
    inBuild: true,
  },
  'languages/hreflang-mismatch': {
    title: 'an hreflang that differs from the <html lang> of its page',
    hint: 'the hreflang value must be the language of the page it points to',
    docs: LANGUAGES,
    severity: 'error',
    inBuild: true,
  },
  'languages/hreflang-duplicate': {
    title: 'one hreflang value listed twice',
    hint: 'list each language once',
    docs: LANGUAGES,
    severity: 'error',
    inBuild: true,
  },
  'languages/cross-language-link': {
    title: 'a link to another language\'s page that has a version in the page\'s own language',
    hint: 'link to the version in the page\'s own language',
    docs: LANGUAGES,
    severity: 'warning',
  },

  // --- ir-site check: redirects (beside the build's own redirect rules above).
  'redirects/case-shadows-page': {
    title: 'a case-insensitive redirect whose source is another spelling of a page',
    hint: 'remove the rule, or point it at the page',
    docs: REDIRECTS,
    severity: 'warning',
  },

  // --- ir-site check: site quality.
  'site/other-identity': {
    title: 'a word of another identity (site.config.ts identities.<key>.words) on a page of this build',
    hint: 'write a {{token}} instead of the name, or limit the entry (identities: [...]) or the block ({{#only ...}}) to its identity; see docs/content.md, "Identities"',
    docs: SITE,
    severity: 'error',
  },
  'site/orphan': {
    title: 'a page no other page links to',
    hint: 'visitors and search engines find pages by following links: list it in a section (front matter sections:), the navigation, or link to it from a related page',
    docs: SITE,
    severity: 'warning',
  },
  'site/duplicate-title': {
    title: 'two entries with one title in one language',
    hint: 'titles tell pages apart in search results, tabs and bookmarks: make each one unique within its language',
    docs: SITE,
    severity: 'warning',
  },
  'site/missing-description': {
    title: 'a page with no description of its own',
    hint: 'add "description:" to the front matter: one or two sentences, shown under the title in search results and link previews',
    docs: SITE,
    severity: 'warning',
  },
  'site/img-alt': {
    title: 'an image without a text alternative',
    hint: 'describe the image in alt="..." (screen readers read it out), or alt="" if it is purely decorative',
    docs: SITE,
    severity: 'either',
  },
  'site/duplicate-id': {
    title: 'one id on two or more elements of a page',
    hint: 'ids must be unique in a page: rename the heading, or give the element another id',
    docs: SITE,
    severity: 'error',
  },

  'site/no-form-target': {
    title: 'a contact form with nowhere to post',
    hint: 'set integrations.botCheck.formAction in site.config.ts to the form endpoint; until then the page shows contact.email (site.config.ts) instead of the form',
    docs: SITE,
    severity: 'warning',
  },

  // --- ir-site check: other.
  'check/stale-output': {
    title: 'a --dir folder built from other content',
    hint: 'rebuild it (ir-site build), or run ir-site check without --dir to build and check in one go',
    docs: OTHER,
    severity: 'warning',
  },
  'check/redirects-file': {
    title: "a --dir folder whose redirects.json is missing or is not the build's list of rules",
    hint: 'rebuild it (ir-site build): without the list, ir-site serve and the not-found pages redirect nothing',
    docs: OTHER,
    severity: 'error',
  },
} as const satisfies Record<string, RuleInfo>;

type NamedRuleId = keyof typeof NAMED;
export type RuleId = NamedRuleId | FieldRuleId;

/** The severity a rule's diagnostics have (`either`: the call site gives it). */
export type SeverityOf<R extends RuleId> = R extends NamedRuleId ? (typeof NAMED)[R]['severity'] : 'error';

const fieldRules = Object.fromEntries(
  (Object.entries(FIELDS) as [ContentField, string][]).map(([field, hint]) => [
    `content/invalid-${field}`,
    { title: `a ${field} that is missing or not what its schema wants`, hint, docs: BUILD, severity: 'error' } satisfies RuleInfo,
  ]),
) as Record<FieldRuleId, RuleInfo>;

export const RULES: Readonly<Record<RuleId, RuleInfo>> = { ...fieldRules, ...NAMED };

/** The fields that have a `content/invalid-<field>` rule. */
export const CONTENT_FIELDS = Object.keys(FIELDS) as readonly ContentField[];

/** `content/invalid-<field>` for a schema field; `content/invalid-entry` when the file as a whole is wrong. */
export function fieldRule(field: string): RuleId {
  return Object.hasOwn(FIELDS, field) ? `content/invalid-${field as ContentField}` : 'content/invalid-entry';
}
