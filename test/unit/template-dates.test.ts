// The demo templates write dates from the locale's strings, not Intl (docs/content.md): the
// strings must say what Intl's long date says, for every day of a year, in both languages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { formatDate } from '../../templates/lib/i18n.js';
import { REPO } from '../helpers.js';

const strings = (code: string) => JSON.parse(readFileSync(path.join(REPO, 'locales', `${code}.json`), 'utf8')) as Record<string, string>;

/** What Intl writes for a long date, with French's `1er`: the text the strings replace. */
function intlLongDate(iso: string, locale: string): string {
  const text = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`)).replace(/\u202f/g, '\u00a0');
  return /^fr\b/.test(locale) ? text.replace(/^1(?=\s)/, '1er') : text;
}

test('dates from the locale strings are the ones Intl writes, every day of a leap year, in English and French', () => {
  for (const [code, locale] of [['en', 'en-CA'], ['fr', 'fr-CA']] as const) {
    const own = strings(code);
    for (let day = new Date(Date.UTC(2024, 0, 1)); day.getUTCFullYear() === 2024; day = new Date(day.getTime() + 86_400_000)) {
      const iso = day.toISOString().slice(0, 10);
      assert.equal(formatDate(own, iso, locale), intlLongDate(iso, locale), `${code} ${iso}`);
    }
  }
  assert.equal(formatDate(strings('fr'), '2025-10-01', 'fr-CA'), '1er octobre 2025');
  assert.equal(formatDate(strings('en'), '2025-10-01', 'en-CA'), 'October 1, 2025');
});

test('what is not a calendar date comes back unchanged; a locale without date strings gets Intl', () => {
  for (const text of ['2025-02-30', '2025-13-01', 'soon', '2025-1-5', '']) assert.equal(formatDate(strings('en'), text, 'en-CA'), text);
  assert.equal(formatDate({}, '2025-10-15', 'en-CA'), intlLongDate('2025-10-15', 'en-CA'));
  assert.equal(formatDate({}, '2025-10-01', 'fr-CA'), '1er octobre 2025');
});
