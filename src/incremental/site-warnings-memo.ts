// The site checks' warnings (broken links and anchors, missing translations, hreflang) of the
// last build. They depend on every body, so they cannot be kept with the graph's snapshot, whose
// key leaves the bodies out: a body edit that adds a broken link restores the snapshot, and its
// warnings must not be the last build's. Reading every body would cost more than the edit, so
// the memo knows what the checks read of each body, its facts (the links and ids of its
// compiled tree: features/markdown/body-facts.ts), by the body's key (keys.ts, bodyKey):
// - bodies all as they were (the file's key, siteChecksKey): the last warnings, nothing read;
// - bodies edited, but with the same facts (prose, not a link or a heading), and no file a
//   warning names edited (its line, column and excerpt come from the file): the last warnings,
//   only the edited bodies read;
// - otherwise the checks run again, given every body's facts: they read only the bodies a
//   warning points into.
import type { Diagnostic } from '../errors/diagnostic.js';
import { RULES } from '../errors/rules.js';
import { isString, recordOf } from '../files/payload-shape.js';
import { isBodyFacts, type BodyFacts } from '../features/markdown/body-facts.js';
import { siteWarningsKey } from './keys.js';
import { memoKind, Records, type Memo } from './memo.js';

interface Stored {
  /** The key of the checks' inputs with each body taken by its facts (factsKey). */
  factsKey: string;
  /** Each file a warning names, by its digest (filesDigest) when they were found. */
  files: Record<string, string>;
  warnings: Diagnostic[];
}

const optional = (value: unknown, type: 'string' | 'number') => value === undefined || typeof value === type;

/** A warning as the reporter prints it: a known rule, a file and a message, each of its type. */
export function isWarning(value: unknown): value is Diagnostic {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as Record<string, unknown>;
  return (
    d.severity === 'warning' &&
    typeof d.rule === 'string' &&
    Object.hasOwn(RULES, d.rule) &&
    typeof d.file === 'string' &&
    typeof d.message === 'string' &&
    optional(d.line, 'number') &&
    optional(d.column, 'number') &&
    optional(d.field, 'string') &&
    optional(d.excerpt, 'string') &&
    optional(d.hint, 'string')
  );
}

function isStored(value: unknown): value is Stored {
  const v = value as Partial<Stored> | null;
  return typeof v === 'object' && v !== null && typeof v.factsKey === 'string' && recordOf(isString)(v.files) && Array.isArray(v.warnings) && v.warnings.every(isWarning);
}

const SITE_WARNINGS = memoKind('site-warnings', isStored, { codec: 'v8' });
/** Each body's facts, by the body's key: in a file of its own, read only when a body changed. */
const BODY_FACTS = memoKind('body-facts', recordOf(isBodyFacts));

/** What the checks read, for this build. */
export interface SiteCheckInputs {
  /** siteChecksKey: the frame, each body by digest. */
  key: string;
  /** The same but for the bodies: each one's facts are put in by the memo. */
  frame: unknown[];
  /** Each route with a body: its path, the key its body's facts are kept by, and those facts, made when the memo does not know them (listed only when a body changed). */
  bodies: () => readonly { path: string; key: string; facts: () => Promise<BodyFacts> }[];
  /** The digest of a file as a warning sees it (front matter and body), '' for a file that is no entry. */
  fileDigest: (file: string) => string;
}

export class SiteWarningsMemo {
  private known: Promise<Records<BodyFacts>> | null = null;
  private listed: ReturnType<SiteCheckInputs['bodies']> | null = null;
  /** The routes' bodies, listed once. */
  private readonly bodies = () => (this.listed ??= this.inputs.bodies());

  private constructor(
    private readonly memo: Memo,
    private readonly inputs: SiteCheckInputs,
    private readonly stored: Stored | null,
    private readonly sameBodies: boolean,
  ) {}

  static async open(memo: Memo, inputs: SiteCheckInputs): Promise<SiteWarningsMemo> {
    const opened = await memo.open(SITE_WARNINGS);
    const stored = opened?.decode<Stored>(SITE_WARNINGS.accept) ?? null;
    return new SiteWarningsMemo(memo, inputs, stored, stored !== null && opened!.key === inputs.key);
  }

  /** The last warnings, when they hold for this build (see the top of this file). */
  async recall(): Promise<Diagnostic[] | null> {
    const { stored, inputs } = this;
    if (!stored) return null;
    if (this.sameBodies) return stored.warnings;
    const facts = await this.factsOfBodies();
    const unchanged = this.factsKey(facts) === stored.factsKey && Object.entries(stored.files).every(([file, digest]) => inputs.fileDigest(file) === digest);
    return unchanged ? stored.warnings : null;
  }

  /** Each body's facts by its key, for the checks (SiteChecks.run): the memo's, or made for a body it does not know. */
  async facts(): Promise<(key: string) => BodyFacts | undefined> {
    const facts = await this.factsOfBodies();
    return (key) => facts.peek(key);
  }

  private factsOfBodies(): Promise<Records<BodyFacts>> {
    this.known ??= (async () => {
      const facts = await Records.open(this.memo, BODY_FACTS);
      for (const body of this.bodies()) if (facts.recall(body.key) === undefined) facts.set(body.key, await body.facts());
      return facts;
    })();
    return this.known;
  }

  /** The key of the checks' inputs with each body taken by its facts. */
  private factsKey(facts: Records<BodyFacts>): string {
    return siteWarningsKey(this.inputs.frame, this.bodies().map((b) => [b.path, facts.peek(b.key)] as const));
  }

  /** Keeps `warnings` as this build's, with the facts they were found from. */
  async keep(warnings: Diagnostic[]): Promise<void> {
    if (this.sameBodies) return;
    const facts = await this.factsOfBodies();
    const files = Object.fromEntries(warnings.map((w) => [w.file, this.inputs.fileDigest(w.file)]));
    const stored: Stored = { factsKey: this.factsKey(facts), files, warnings };
    await Promise.all([this.memo.write(SITE_WARNINGS, stored, this.inputs.key), facts.save()]);
  }
}

