import type { Command } from 'commander';

// `graph import` (and later `graph export`): see graph/ importers.
export function registerGraphStoreCommands(_graph: Command): void {}
