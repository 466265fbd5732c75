// A review's storage: one SQLite file in the review folder (better-sqlite3). It holds the sample
// (each item as the page shows it and its line as read), the annotators with their tokens, and one
// row per (annotator, item) with the marks, the time taken and when it was saved. Every save is one
// transaction in WAL mode with synchronous=FULL, so a save that was answered survives kill -9.
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';
import type { ReviewItem, SourcedReviewItem } from './review-items.js';
import type { SampleSettings } from './sample-items.js';
import { makeDirsSync } from '../../core/make-dirs.js';

export const REVIEW_DB_FILE = 'review.sqlite';

export const VALIDITIES = ['valid', 'invalid', 'unsure'] as const;
export type Validity = (typeof VALIDITIES)[number];

/** Why an item is not valid (several may apply); `other` comes with free text. */
export const REASONS = ['second-right-answer', 'gold-wrong', 'unclear-wording', 'offensive', 'other'] as const;
export type Reason = (typeof REASONS)[number];

/** What an annotator marked on one item. */
export interface ReviewMarks {
  /** Every option the annotator found correct (letters, sorted). */
  correct: string[];
  validity: Validity;
  reasons: Reason[];
  /** The free text of reason `other` ('' when none). */
  otherText: string;
  /** Milliseconds from the item being shown to the save. */
  ms: number;
}

export interface StoredLabel extends ReviewMarks {
  annotator: string;
  /** The item's position in the review (0-based, the order the page shows). */
  position: number;
  itemKey: string;
  /** ISO 8601 time of the save. */
  savedAt: string;
  /** `browser` (the review page) or `mturk` (review import). */
  origin: 'browser' | 'mturk';
}

export interface ReviewSettings extends SampleSettings {
  /** The items folder the sample was drawn from (absolute). */
  itemsDir: string;
  /** Items in that folder when the sample was drawn. */
  itemsRead: number;
  /** A blind review: the page shows no gold (engine/review/blind-view.ts). Absent in older reviews: false. */
  blind?: boolean;
}

export interface Annotator {
  name: string;
  token: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
  position INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, item TEXT NOT NULL, raw TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS annotators (name TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS labels (
  annotator TEXT NOT NULL, position INTEGER NOT NULL REFERENCES items(position),
  correct TEXT NOT NULL, validity TEXT NOT NULL, reasons TEXT NOT NULL, other_text TEXT NOT NULL,
  ms INTEGER NOT NULL, saved_at TEXT NOT NULL, origin TEXT NOT NULL,
  PRIMARY KEY (annotator, position));
`;

/** The tables every review database has (SCHEMA). */
const REVIEW_TABLES = ['meta', 'items', 'annotators', 'labels'] as const;

interface LabelRow {
  annotator: string;
  position: number;
  key: string;
  correct: string;
  validity: Validity;
  reasons: string;
  other_text: string;
  ms: number;
  saved_at: string;
  origin: 'browser' | 'mturk';
}

export class ReviewStore {
  private constructor(
    private readonly db: Database.Database,
    readonly dir: string,
  ) {}

  static exists(dir: string): boolean {
    try {
      const db = new Database(join(dir, REVIEW_DB_FILE), { readonly: true, fileMustExist: true });
      db.close();
      return true;
    } catch {
      return false;
    }
  }

  /** Opens the review in `dir`; it must have been created. */
  static open(dir: string): ReviewStore {
    let db: Database.Database;
    try {
      db = new Database(join(dir, REVIEW_DB_FILE), { fileMustExist: true });
    } catch {
      throw new UserError(
        `${dir}: not a review folder (no ${REVIEW_DB_FILE}; start one with \`intentsim review start\`)`,
      );
    }
    try {
      ReviewStore.checkIsReview(db, join(dir, REVIEW_DB_FILE));
    } catch (err) {
      db.close();
      throw err;
    }
    return ReviewStore.configure(db, dir);
  }

  /**
   * Refuses a file that is not a review's database before anything is written to it (issue 35: a
   * graph store given as review.sqlite got the review's tables added; a file of other bytes gave a
   * stack trace).
   */
  private static checkIsReview(db: Database.Database, path: string): void {
    let tables: string[];
    try {
      tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    } catch (err) {
      if (err instanceof Database.SqliteError && (err.code === 'SQLITE_NOTADB' || err.code === 'SQLITE_CORRUPT'))
        throw new UserError(`${path}: not a review database (not a SQLite database: ${err.message})`, { cause: err });
      throw err;
    }
    const missing = REVIEW_TABLES.filter((t) => !tables.includes(t));
    if (missing.length > 0) {
      const holds = tables.length === 0 ? 'it is empty' : `it holds the tables ${tables.slice(0, 6).join(', ')}`;
      const graph = tables.includes('nodes') && tables.includes('edges') ? ': an intentsim graph store?' : '';
      throw new UserError(
        `${path}: not a review database (${holds}${graph}); give the folder \`intentsim review start\` made`,
      );
    }
  }

  /** Creates a review in `dir` holding `sample`, in order. */
  static create(dir: string, settings: ReviewSettings, sample: readonly SourcedReviewItem[]): ReviewStore {
    makeDirsSync(dir);
    const store = ReviewStore.configure(new Database(join(dir, REVIEW_DB_FILE)), dir);
    store.db.transaction(() => {
      store.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('settings', JSON.stringify(settings));
      const insert = store.db.prepare('INSERT INTO items (position, key, item, raw) VALUES (?, ?, ?, ?)');
      sample.forEach(({ item, raw }, i) => insert.run(i, item.key, JSON.stringify(item), raw));
    })();
    return store;
  }

  private static configure(db: Database.Database, dir: string): ReviewStore {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    return new ReviewStore(db, dir);
  }

  settings(): ReviewSettings {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get('settings') as
      { value: string } | undefined;
    if (!row)
      throw new UserError(`${this.dir}: review has no settings (an interrupted start?); remove it and start again`);
    return JSON.parse(row.value) as ReviewSettings;
  }

  items(): ReviewItem[] {
    return (this.db.prepare('SELECT item FROM items ORDER BY position').all() as { item: string }[]).map(
      (r) => JSON.parse(r.item) as ReviewItem,
    );
  }

  /** Each item's line as read from its file, by position. */
  rawLines(): string[] {
    return (this.db.prepare('SELECT raw FROM items ORDER BY position').all() as { raw: string }[]).map((r) => r.raw);
  }

  itemCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  }

  positionOf(itemKey: string): number | undefined {
    const row = this.db.prepare('SELECT position FROM items WHERE key = ?').get(itemKey) as
      { position: number } | undefined;
    return row?.position;
  }

  annotators(): Annotator[] {
    return this.db.prepare('SELECT name, token FROM annotators ORDER BY rowid').all() as Annotator[];
  }

  /** Adds the annotators not there yet, each with a fresh random token; returns all of them. */
  addAnnotators(names: readonly string[]): Annotator[] {
    const insert = this.db.prepare('INSERT OR IGNORE INTO annotators (name, token) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const name of names) insert.run(name, randomBytes(18).toString('base64url'));
    })();
    return this.annotators();
  }

  /** Saves (or replaces) one annotator's marks on one item, in one transaction. */
  save(annotator: string, position: number, marks: ReviewMarks, savedAt: Date, origin: 'browser' | 'mturk'): void {
    this.db
      .prepare(
        `INSERT INTO labels (annotator, position, correct, validity, reasons, other_text, ms, saved_at, origin)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (annotator, position) DO UPDATE SET correct = excluded.correct, validity = excluded.validity,
           reasons = excluded.reasons, other_text = excluded.other_text, ms = excluded.ms,
           saved_at = excluded.saved_at, origin = excluded.origin`,
      )
      .run(
        annotator,
        position,
        JSON.stringify(marks.correct),
        marks.validity,
        JSON.stringify(marks.reasons),
        marks.otherText,
        Math.round(marks.ms),
        savedAt.toISOString(),
        origin,
      );
  }

  /** Saves many labels in one transaction (an MTurk import: all or nothing). */
  saveAll(labels: ReadonlyArray<Omit<StoredLabel, 'itemKey' | 'savedAt'> & { savedAt: Date }>): void {
    this.db.transaction(() => {
      for (const l of labels) this.save(l.annotator, l.position, l, l.savedAt, l.origin);
    })();
  }

  /** Every label, by annotator then position; `annotator` restricts to one. */
  labels(annotator?: string): StoredLabel[] {
    const rows = this.db
      .prepare(
        `SELECT l.*, i.key FROM labels l JOIN items i USING (position)
         ${annotator === undefined ? '' : 'WHERE l.annotator = ?'} ORDER BY l.annotator, l.position`,
      )
      .all(...(annotator === undefined ? [] : [annotator])) as LabelRow[];
    return rows.map((r) => ({
      annotator: r.annotator,
      position: r.position,
      itemKey: r.key,
      correct: JSON.parse(r.correct) as string[],
      validity: r.validity,
      reasons: JSON.parse(r.reasons) as Reason[],
      otherText: r.other_text,
      ms: r.ms,
      savedAt: r.saved_at,
      origin: r.origin,
    }));
  }

  close(): void {
    this.db.close();
  }
}
