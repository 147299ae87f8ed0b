// What stage 2 (validate) hands to stage 3 (graph): typed entries that passed their schema.
import type { ArticleFrontMatter, BioFrontMatter, PageFrontMatter } from './schemas.js';
import type { RawAsset } from './raw.js';
import type { NumberKind } from '../../shared/types.js';

export interface EntryBase {
  key: string;
  locale: string;
  file: string;
  fieldLines: Record<string, number>;
  /** The markdown body; null when the build cache did not read it (RawEntry.body). */
  body: string | null;
  /** Where the body starts in the file's normalised text, when `body` was not read. */
  bodyOffset?: number;
  bodyLine: number;
  /** Digest of `body`. */
  bodyDigest: string;
}

export interface PageEntry extends EntryBase {
  collection: 'pages';
  fm: PageFrontMatter;
}
export interface ArticleEntry extends EntryBase {
  collection: 'articles';
  fm: ArticleFrontMatter;
}
export interface BioEntry extends EntryBase {
  collection: 'team';
  fm: BioFrontMatter;
}
export type Entry = PageEntry | ArticleEntry | BioEntry;

export interface PortfolioEntry {
  key: string;
  file: string;
  title: Record<string, string>;
  order: number;
  holdings: Record<string, string | number | boolean | null>[];
  columns: Record<string, NumberKind>;
}

export interface WrittenRedirect {
  from: string;
  to: string;
  file: string;
  line: number;
}

export interface ValidSite {
  pages: PageEntry[];
  articles: ArticleEntry[];
  bios: BioEntry[];
  portfolio: PortfolioEntry[];
  website: {
    performanceApprovalDate: string;
    asAtDate: string;
    displayName: Record<string, string>;
    file: string;
  };
  navigation: { main: string[]; footer: string[]; file: string; fieldLines: Record<string, number> };
  redirects: WrittenRedirect[];
  strings: Record<string, Record<string, string>>;
  /** Every team handle with a folder, valid or not, so one broken bio does not cascade into "unknown author". */
  teamHandles: ReadonlySet<string>;
  assets: RawAsset[];
  stylesheet: { file: string; text: string } | null;
}
