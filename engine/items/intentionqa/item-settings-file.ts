// An item settings file: values of IntentionQA item options kept in a JSON file, as `intentsim tune`
// writes them (docs/tune.md) and `pipeline` / `demo --settings FILE` read them. A field given
// explicitly (a flag, or a library option) overrides the file's. The run's manifest records the
// file and its SHA-256, so that items can be traced to the exact settings that made them.
//
// {"format": "intentsim-item-settings/1",
//  "items": {"task1Window": {"lo": 0.3, "hi": 0.62}, "task2Window": {"lo": 0.4, "hi": 0.81},
//            "anchorMargin": 0.25, "fitMargin": 0.08, "secondAnswerCosine": 0.7},
//                       (every field optional; the cut-offs were added later, so a file without them
//                       still reads, and the format name is unchanged: a reader that predates them
//                       refuses a file with them as an unknown setting, by name)
//  "notTuned": {"task2Window": "why tune found none"},   (only when a task has no proposal)
//  "tune": {…how the values were found; not read back…}}
import { readFileSync } from 'node:fs';
import { checksumOf } from '../../../core/checksum.js';
import { InputError, UserError } from '../../../core/errors.js';
import type { WindowBounds } from './intentionqa-options.js';

export const ITEM_SETTINGS_FORMAT = 'intentsim-item-settings/1';

/** The item options a settings file may set. */
export interface ItemSettings {
  task1Window?: WindowBounds;
  task2Window?: WindowBounds;
  /** The unanchored rule's margin (engine/review/tune-cutoffs.ts). */
  anchorMargin?: number;
  /** The fits-as-well rule's margin. */
  fitMargin?: number;
  /** The second-answer rule's cosine. */
  secondAnswerCosine?: number;
}

const WINDOW_FIELDS = ['task1Window', 'task2Window'] as const;
/** The cut-offs, with the range a value must lie in: margins are differences of two cosines. */
const CUTOFF_RANGES = { anchorMargin: [-2, 2], fitMargin: [-2, 2], secondAnswerCosine: [-1, 1] } as const;
const SETTING_FIELDS = [...WINDOW_FIELDS, ...(Object.keys(CUTOFF_RANGES) as Array<keyof typeof CUTOFF_RANGES>)];

/** The settings `tune` found no value for, and why: left at their defaults (issue 45). */
export type NotTuned = Partial<Record<keyof ItemSettings, string>>;

export interface ItemSettingsFile {
  format: typeof ITEM_SETTINGS_FORMAT;
  items: ItemSettings;
  /** The settings tune found no value for (their defaults apply), and why. */
  notTuned?: NotTuned;
  /** How the values were found (written by `tune`; not read back). */
  tune?: unknown;
}

/** A settings file as read: its values, and which file it was (path and SHA-256 of its bytes). */
export interface ReadItemSettings {
  items: ItemSettings;
  /** The settings the file says tune found no value for: the defaults apply to them. */
  notTuned: NotTuned;
  file: string;
  sha256: string;
}

export function readItemSettings(file: string): ReadItemSettings {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new UserError(`${file}: cannot read the settings file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    // A BOM, as some editors save JSON, is no part of it (issue 45: such a file was refused).
    json = JSON.parse(bytes.toString('utf8').replace(/^\ufeff/, ''));
  } catch (err) {
    throw new InputError({ file }, `not valid JSON (${(err as Error).message})`);
  }
  return {
    items: parseItemSettings(json, file),
    notTuned: parseNotTuned(json, file),
    file,
    sha256: checksumOf(bytes).sha256,
  };
}

/** The file's `notTuned` (absent: none): setting names with the reason tune gave. */
function parseNotTuned(json: unknown, file: string): NotTuned {
  const value = (json as Record<string, unknown>).notTuned;
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InputError({ file, field: 'notTuned' }, 'expected an object of setting names and reasons');
  const out: NotTuned = {};
  for (const [key, why] of Object.entries(value as Record<string, unknown>)) {
    if (!(SETTING_FIELDS as readonly string[]).includes(key) || typeof why !== 'string')
      throw new InputError(
        { file, field: `notTuned.${key}` },
        `expected one of ${SETTING_FIELDS.join(', ')} with a reason`,
      );
    out[key as keyof ItemSettings] = why;
  }
  return out;
}

/** Checks a settings file's JSON: its format, and every field of `items` known and in range. */
export function parseItemSettings(json: unknown, file: string): ItemSettings {
  const object = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!object(json)) throw new InputError({ file }, 'expected a JSON object');
  if (json.format !== ITEM_SETTINGS_FORMAT) {
    throw new InputError(
      { file, field: 'format' },
      `expected "${ITEM_SETTINGS_FORMAT}", got ${JSON.stringify(json.format)}`,
    );
  }
  const items = json.items;
  if (!object(items)) throw new InputError({ file, field: 'items' }, 'expected an object');
  const out: ItemSettings = {};
  for (const [key, value] of Object.entries(items)) {
    if (!(SETTING_FIELDS as readonly string[]).includes(key)) {
      throw new InputError({ file, field: `items.${key}` }, `unknown setting (known: ${SETTING_FIELDS.join(', ')})`);
    }
    const field = `items.${key}`;
    if (key in CUTOFF_RANGES) {
      const [lo, hi] = CUTOFF_RANGES[key as keyof typeof CUTOFF_RANGES];
      if (typeof value !== 'number' || !(value >= lo && value <= hi))
        throw new InputError({ file, field }, `expected a number in [${lo}, ${hi}], got ${JSON.stringify(value)}`);
      out[key as keyof typeof CUTOFF_RANGES] = value;
      continue;
    }
    if (!object(value) || typeof value.lo !== 'number' || typeof value.hi !== 'number') {
      throw new InputError({ file, field }, 'expected {"lo": number, "hi": number}');
    }
    if (!(value.lo >= -1 && value.lo < value.hi && value.hi <= 1)) {
      throw new InputError({ file, field }, `expected -1 ≤ lo < hi ≤ 1, got lo ${value.lo}, hi ${value.hi}`);
    }
    out[key as (typeof WINDOW_FIELDS)[number]] = { lo: value.lo, hi: value.hi };
  }
  return out;
}

/** The file's text: format, items, then how they were found. */
export function itemSettingsText(items: ItemSettings, tune?: unknown, notTuned: NotTuned = {}): string {
  const file: ItemSettingsFile = {
    format: ITEM_SETTINGS_FORMAT,
    items,
    ...(Object.keys(notTuned).length > 0 ? { notTuned } : {}),
    ...(tune === undefined ? {} : { tune }),
  };
  return JSON.stringify(file, null, 2) + '\n';
}
