// The per-session steps of SessionIntentBench assembly, without I/O: which trajectories of a session
// are asked, the task lines they give, the texts a chunk of sessions needs embedded, and (with those
// embeddings) a session's distractor-backed items. assemble-sib.ts writes what these return.
import { Rng } from '../../../core/rng.js';
import {
  SessionExclusions,
  buildDistractorItems,
  distractorQueryTexts,
  type DistractorOutcome,
  type DistractorSources,
} from './distractors.js';
import { SessionProductTexts } from './task-prompts.js';
import { appendTrajectoryTaskLines, type WrittenTask } from './task-json.js';
import type { LabelLookup } from './task-records.js';
import { countTrajectories, forEachTrajectory } from './tree.js';
import type { PromptStyle, SibSession, Trajectory } from './sib-types.js';

/** Chooses the trajectories of a session: all, or `k` of them uniformly with a per-session stream. */
export function selectTrajectories(session: SibSession, k: number | undefined, seed: number | string): Trajectory[] {
  const total = countTrajectories(session);
  let keep: Set<number> | null = null;
  if (k !== undefined && k < total) {
    const indices = Array.from({ length: total }, (_, i) => i);
    keep = new Set(Rng.derive(seed, `trajectories/${session.sessionId}`).sample(indices, k));
  }
  const out: Trajectory[] = [];
  let i = 0;
  forEachTrajectory(session, (t) => {
    if (keep === null || keep.has(i)) out.push(t);
    i += 1;
  });
  return out;
}

/** A session's selected trajectories and its product texts, rendered once for all its prompts. */
export interface SelectedSession {
  session: SibSession;
  texts: SessionProductTexts;
  trajectories: Trajectory[];
}

export function selectSession(session: SibSession, perSession: number | undefined, seed: number | string) {
  const selected: SelectedSession = {
    session,
    texts: new SessionProductTexts(session),
    trajectories: selectTrajectories(session, perSession, seed),
  };
  return selected;
}

/** The sib-tasks.jsonl lines of a session's selected trajectories, and what the summary counts of each. */
export function sessionTaskLines(
  s: SelectedSession,
  styles: readonly PromptStyle[],
  labelOf: LabelLookup,
): { lines: string[]; written: WrittenTask[] } {
  const lines: string[] = [];
  const written: WrittenTask[] = [];
  for (const trajectory of s.trajectories)
    appendTrajectoryTaskLines(trajectory, s.texts, styles, labelOf, lines, written);
  return { lines, written };
}

/** Every text whose embedding the distractor items of these sessions query, each once. */
export function chunkQueryTexts(sessions: readonly SelectedSession[]): string[] {
  const wanted = new Set<string>();
  for (const s of sessions) {
    for (const tr of s.trajectories) for (const text of distractorQueryTexts(tr, s.texts)) wanted.add(text);
  }
  return [...wanted];
}

/** The sib-distractors.jsonl lines of a session, and each trajectory's outcome (items and failures). */
export function sessionItemLines(
  s: SelectedSession,
  sources: DistractorSources,
): { lines: string[]; outcomes: DistractorOutcome[] } {
  const exclusions = new SessionExclusions(s.session.products);
  const lines: string[] = [];
  const outcomes: DistractorOutcome[] = [];
  for (const trajectory of s.trajectories) {
    const outcome = buildDistractorItems(trajectory, s.texts, exclusions, sources);
    for (const item of outcome.items) lines.push(JSON.stringify(item));
    outcomes.push(outcome);
  }
  return { lines, outcomes };
}
