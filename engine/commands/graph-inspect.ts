import type { Command } from 'commander';

// `graph generate`, `graph neighbours`, `graph match`.
export function registerGraphInspectCommands(_graph: Command): void {}
