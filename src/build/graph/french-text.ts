// French typography (features/markdown/french-typography.ts) in the text pages show that is
// not a body: the French UI strings, the French entries' titles, descriptions, navigation
// titles, roles and document labels, the portfolio series' French titles and the French display
// name (content/site.yaml). Bodies get it from the markdown pipeline. The graph stage applies it
// once, so that every place a page shows a title (its heading, `<title>`, meta description, the
// lists that link to it, search) shows the same text. `config.markdown.frenchTypography: false`
// turns it off here as for bodies.
import { typesetFrench } from '../../features/markdown/french-typography.js';
import type { ValidSite } from '../content/entries.js';
import type { Headline } from './headlines.js';
import { languageOf } from '../../shared/language.js';

const isFrench = (locale: string) => languageOf(locale) === 'fr';

/** `fields` of `record` typeset, those that are strings. */
function typesetFields<T extends object>(record: T, fields: readonly (keyof T)[]): T {
  const out = { ...record };
  for (const field of fields) if (typeof out[field] === 'string') (out[field] as string) = typesetFrench(out[field] as string);
  return out;
}

/** The site's French text outside bodies, with French typography. */
export function typesetSiteText(site: ValidSite): ValidSite {
  const french = site.strings.fr;
  const { displayName } = site.website;
  return {
    ...site,
    website: displayName.fr === undefined ? site.website : { ...site.website, displayName: { ...displayName, fr: typesetFrench(displayName.fr) } },
    strings: french ? { ...site.strings, fr: Object.fromEntries(Object.entries(french).map(([key, text]) => [key, typesetFrench(text)])) } : site.strings,
    pages: site.pages.map((e) => (isFrench(e.locale) ? { ...e, fm: typesetFields(e.fm, ['title', 'description', 'navTitle']) } : e)),
    articles: site.articles.map((e) =>
      isFrench(e.locale) ? { ...e, fm: { ...typesetFields(e.fm, ['title', 'description']), documents: e.fm.documents.map((d) => typesetFields(d, ['label'])) } } : e,
    ),
    bios: site.bios.map((e) => (isFrench(e.locale) ? { ...e, fm: typesetFields(e.fm, ['title', 'description', 'role']) } : e)),
    portfolio: site.portfolio.map((p) => (p.title.fr === undefined ? p : { ...p, title: { ...p.title, fr: typesetFrench(p.title.fr) } })),
  };
}

/** An article's headline as its pages show it: typeset when the article is French and `enabled`. */
export const typesetHeadline = (headline: Headline, locale: string, enabled: boolean): Headline =>
  enabled && isFrench(locale) ? typesetFields(headline, ['title', 'description']) : headline;
