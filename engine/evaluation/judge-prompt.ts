// The prompt `audit` puts to the judge: a template in the repository (prompts/audit-judge.txt, read
// from the project folder, so that dist/ needs no copy) with two places, {{question}} (the item's
// question as its zero-shot prompt asks it, without the options and the answer instruction) and
// {{options}} (one "A. text" line per option, in the item's order).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { projectRoot } from '../../core/shared-files.js';

/** The template's path in the project folder. */
export const JUDGE_PROMPT_FILE = join('engine', 'evaluation', 'prompts', 'audit-judge.txt');

const PLACES = ['{{question}}', '{{options}}'] as const;

/** What the judge is shown of an item. */
export interface JudgedQuestion {
  question: string;
  /** Letter → option text, in the order shown. */
  options: Readonly<Record<string, string>>;
}

/** The shipped template's text. */
export function defaultJudgeTemplate(): string {
  return readFileSync(join(projectRoot(), JUDGE_PROMPT_FILE), 'utf8');
}

/** Checks that a template has each place exactly once (a template without the options would judge nothing). */
export function checkJudgeTemplate(template: string): void {
  for (const place of PLACES) {
    const n = template.split(place).length - 1;
    if (n !== 1) throw new ConfigError('judgePrompt', `must hold ${place} exactly once, holds it ${n} times`);
  }
}

/** The template with the item filled in; the text ends without a newline, as the other prompts do. */
export function renderJudgePrompt(template: string, q: JudgedQuestion): string {
  checkJudgeTemplate(template);
  const options = Object.entries(q.options)
    .map(([letter, text]) => `${letter}. ${text}`)
    .join('\n');
  // One pass, by a function: a "$&" or a "{{options}}" in an item's text stays as it is.
  return template
    .replace(/\{\{(question|options)\}\}/g, (_, place) => (place === 'question' ? q.question : options))
    .trimEnd();
}
