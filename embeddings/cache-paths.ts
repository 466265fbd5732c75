// Where cached files live, and whether the Hub may be contacted: no heavy imports, so that the CLI
// can show defaults in --help without loading transformers.js.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** INTENTSIM_CACHE_DIR, else $XDG_CACHE_HOME/intentsim, else ~/.cache/intentsim. */
export function defaultCacheRoot(environment: NodeJS.ProcessEnv = process.env): string {
  if (environment.INTENTSIM_CACHE_DIR) return resolve(environment.INTENTSIM_CACHE_DIR);
  const xdg = environment.XDG_CACHE_HOME;
  return join(xdg ? resolve(xdg) : join(homedir(), '.cache'), 'intentsim');
}

/** The folder a Hub model is cached in (transformers.js FileCache layout, revision main). */
export function cachedModelDir(cacheRoot: string, modelId: string): string {
  return join(cacheRoot, 'models', ...modelId.split('/'));
}

export function isOfflineByEnvironment(environment: NodeJS.ProcessEnv = process.env): boolean {
  const on = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
  return on(environment.HF_HUB_OFFLINE) || on(environment.TRANSFORMERS_OFFLINE);
}
