// The one file an operator edits. Every option is documented in docs/configuration.md.
import { defineConfig } from 'ir-site';

export default defineConfig({
  // Two identities share this content; the second one is the one we publish.
  identity: 'brightwater',
  identities: {
    larkspur: {
      site: 'larkspur',
      name: 'eleanor',
      siteUrl: 'https://www.larkspur-capital.example',
      // `{{short}}`, `{{company}}`... in content and UI strings (docs/content.md, "Identities").
      tokens: {
        short: 'Larkspur',
        company: { en: 'Larkspur Capital Corporation', fr: 'Société de capital Larkspur' },
        domain: 'larkspur-capital.example',
        ticker: 'LKC',
        chair: 'Eleanor Whitfield',
        chairSince: '2014',
        chairRole: { en: 'Chair of the Board', fr: 'Présidente du conseil' },
        chairTitle: { en: 'chair of the board', fr: 'présidente du conseil' },
      },
      // `ir-site check` reports these in the other identity's build.
      words: ['Larkspur', 'larkspur-capital', 'Eleanor', 'Whitfield'],
      contactEmail: 'investor.relations@larkspur-capital.example',
    },
    brightwater: {
      site: 'brightwater',
      name: 'henri',
      siteUrl: 'https://www.brightwater-invest.example',
      tokens: {
        short: 'Brightwater',
        company: { en: 'Brightwater Investment Corporation', fr: "Corporation d'investissement Brightwater" },
        domain: 'brightwater-invest.example',
        ticker: 'BWI',
        chair: 'Henri Mercier',
        chairSince: '2012',
        chairRole: { en: 'Chair of the Board', fr: 'Président du conseil' },
        chairTitle: { en: 'chair of the board', fr: 'président du conseil' },
      },
      words: ['Brightwater', 'brightwater-invest', 'Henri', 'Mercier'],
      signIn: {
        provider: 'managed-user-pool',
        region: 'us-east-1',
        userPoolId: 'us-east-1_Demo0Pool',
        clientId: '3k2demo0client0id0example',
        mandatory: true,
      },
    },
  },
  defaultLocale: 'en',
  locales: [
    { code: 'en', hrefLang: 'en-CA' },
    { code: 'fr', hrefLang: 'fr-CA' },
  ],
  legacyPrefixes: ['cn'],
  integrations: {
    tagManager: { containerId: '' },
    fontKit: { kitId: '' },
    // The demo's form endpoint is the one the browser tests serve (test/e2e/forms-tables-listings.test.ts,
    // or `node scripts/form-endpoint.mjs` next to `ir-site dev`); a real site names its form service.
    botCheck: { siteKey: '', formAction: 'http://127.0.0.1:8787/contact' },
  },
  // Shown instead of the form when there is no form target, and in the form's failure message.
  contact: { email: 'investor.relations@brightwater-invest.example' },
  listings: { pageSize: 6 },
});
