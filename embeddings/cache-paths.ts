// Where cached files live, and whether the Hub may be contacted: no heavy imports, so that the CLI
// can show defaults in --help without loading transformers.js.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';

/** INTENTSIM_CACHE_DIR, else $XDG_CACHE_HOME/intentsim, else ~/.cache/intentsim. */
export function defaultCacheRoot(environment: NodeJS.ProcessEnv = process.env): string {
  if (environment.INTENTSIM_CACHE_DIR) return resolve(environment.INTENTSIM_CACHE_DIR);
  const xdg = environment.XDG_CACHE_HOME;
  return join(xdg ? resolve(xdg) : join(homedir(), '.cache'), 'intentsim');
}

/** The folder a Hub model is cached in (transformers.js FileCache layout, revision main). */
export function cachedModelDir(cacheRoot: string, modelId: string): string {
  checkModelId(modelId);
  return join(cacheRoot, 'models', ...modelId.split('/'));
}

/** One part of a Hub model id (`org` or `name`): letters, digits, `-`, `_`, `.`, not `.` or `..` alone. */
const ID_PART = /^[A-Za-z0-9._-]+$/;

/**
 * A Hub model id is `name` or `org/name`: any other shape (`..`, an absolute path, a backslash, an
 * empty part) would put the cache folder outside the cache root (issue 45: `../../../outside`
 * resolved, and a download would have written, outside it), so it is refused.
 */
export function checkModelId(modelId: string): void {
  const parts = modelId.split('/');
  const bad = parts.find((p) => !ID_PART.test(p) || p === '.' || p === '..');
  if (parts.length > 2 || bad !== undefined) {
    throw new ConfigError(
      'modelId',
      `must be a Hugging Face model id, "name" or "org/name" (letters, digits, "-", "_", "."; no "." or ".." part), ` +
        `got "${modelId}": it would name a folder outside the model cache`,
    );
  }
}

export function isOfflineByEnvironment(environment: NodeJS.ProcessEnv = process.env): boolean {
  const on = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
  return on(environment.HF_HUB_OFFLINE) || on(environment.TRANSFORMERS_OFFLINE);
}
