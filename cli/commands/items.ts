// `intentsim items …`: the commands that make multiple-choice items from data already prepared —
// SessionIntentBench tasks from sessions (sib), and "which product would this customer buy" items
// from a catalogue index (catalog), and the validity check of IntentionQA items (check). IntentionQA
// items come from `pipeline` (every stage at once).
import type { Command } from '@commander-js/extra-typings';
import { sibCommand } from './assemble.js';
import { catalogItemsCommand } from './catalog.js';
import { itemsCheckCommand } from './items-check.js';

export function registerItemsCommands(program: Command): void {
  const items = program
    .command('items')
    .description(
      'multiple-choice items: SessionIntentBench tasks from sessions, catalogue items from an index, the validity check of IntentionQA items (IntentionQA: pipeline)',
    );
  items.addCommand(sibCommand());
  items.addCommand(catalogItemsCommand());
  items.addCommand(itemsCheckCommand());
}
