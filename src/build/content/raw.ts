// What stage 1 (load) hands to stage 2 (validate): file contents with positions, nothing judged yet.
export type Collection = 'pages' | 'articles' | 'team';

export interface RawEntry {
  collection: Collection;
  /** Translation key (folder name): `contact-us`, `commentary-q3-2025`, a team handle. */
  key: string;
  locale: string;
  /** The identity this file is the variant for (`en.larkspur.md`), when it is one. */
  variant?: string;
  /** Site-relative path, forward slashes: `content/articles/x/en.md`. */
  file: string;
  data: Record<string, unknown>;
  /**
   * The markdown body; null when the build cache knew the file by its size and time and did not
   * read it: `bodyDigest` and `bodyOffset` are then known, and readEntryBody reads it.
   */
  body: string | null;
  bodyLine: number;
  fieldLines: Record<string, number>;
  /** Where the body starts in the file's normalised text, when `body` was not read. */
  bodyOffset?: number;
  /** Digest of `body` (its identity tokens filled in). */
  bodyDigest: string;
  /** Digest of the text before the body (incremental/keys.ts, graphKey). */
  matterDigest: string;
}

export interface RawYaml {
  file: string;
  data: unknown;
  /** Line of each key and list item, by path (field-line.ts pathKey), for messages. */
  fieldLines: Record<string, number>;
}

export interface RawAsset {
  /** Folder of the entry it belongs to, site-relative: `content/articles/annual-report-2024`. */
  dir: string;
  name: string;
  /** Absolute path, for the emit stage to copy. */
  absPath: string;
  size: number;
  /** Pixel size, for images whose header could be read. */
  width?: number;
  height?: number;
}

export interface RawSite {
  entries: RawEntry[];
  portfolio: RawYaml[];
  website: RawYaml | null;
  navigation: RawYaml | null;
  redirects: RawYaml | null;
  /** `keyLines`: the line each key of the (flat) JSON object starts on, for errors. */
  /** `unreadable`: the file could not be read or parsed (reported): its strings are not compared with the others'. */
  strings: { locale: string; file: string; data: unknown; keyLines: Record<string, number>; unreadable?: true }[];
  assets: RawAsset[];
  /** The stylesheet the templates ship, site-relative, if any. */
  stylesheet: { file: string; text: string } | null;
}
