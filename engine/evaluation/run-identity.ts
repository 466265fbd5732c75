// What makes two answers comparable, for `ask` and `audit`: who answered (model, endpoint), how it
// was asked (the style, the generation settings) and each item's prompt (its SHA-256). A responses
// file resumes only the run that wrote it: answers made another way are refused, the difference
// named, so that no table is made of answers asked two ways and no answer is reused unverified.
import { UserError } from '../../core/errors.js';
import type { GenerationSettings } from './generation-settings.js';
import type { ResponsesFile } from './responses-file.js';

export { promptHash } from '../scoring/responses.js';

/** The generation settings as a response line records them. */
export function settingsRecord(s: GenerationSettings): Record<string, number> {
  return { temperature: s.temperature, max_tokens: s.maxTokens, samples: s.samples };
}

export interface RunIdentity {
  model: string;
  style: string;
  endpoint: string;
  /** The generation settings as the lines record them (settingsRecord). */
  settings: Record<string, number>;
  /** Each item's prompt hash, by the responses file's key. */
  promptHashes: ReadonlyMap<string, string>;
}

/**
 * A responses file holds the answers of one run's model, style, endpoint and generation settings,
 * each to its item's prompt: refuse to add answers made another way, and name the difference. Only
 * answered lines are compared: a failed line ("Error") holds no answer, and a rerun replaces it.
 * A line without such a field (the released askLM's) is not compared on it.
 */
export function checkSameRun(responses: ResponsesFile, run: RunIdentity): void {
  const refuse = (what: string) =>
    new UserError(
      `${responses.file} holds responses ${what}: write this run to another file, or finish that run with its settings`,
    );
  for (const { key, json, answered } of responses.stored.values()) {
    if (!answered) continue;
    for (const field of ['model', 'style', 'endpoint'] as const) {
      const value = json[field];
      if (value !== undefined && value !== run[field])
        throw refuse(`of ${field} ${JSON.stringify(value)}, not ${JSON.stringify(run[field])}`);
    }
    const stored = json.settings;
    if (stored !== undefined) {
      const record = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
      const names = [...new Set([...Object.keys(run.settings), ...Object.keys(record)])].sort();
      const differences = names
        .filter((name) => record[name] !== run.settings[name])
        .map(
          (name) =>
            `settings.${name} ${JSON.stringify(record[name] ?? null)} (this run: ${JSON.stringify(run.settings[name] ?? null)})`,
        );
      if (differences.length > 0) throw refuse(`made under other generation settings: ${differences.join(', ')}`);
    }
    const hash = json.prompt_hash;
    const current = run.promptHashes.get(key);
    if (hash !== undefined && current !== undefined && hash !== current)
      throw refuse(
        `to another prompt for item ${JSON.stringify(json.id ?? key)} (prompt_hash ${String(hash)}, this run: ${current}): the items or their prompts changed`,
      );
  }
}
