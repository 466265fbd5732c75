// Reads the optional annotations JSONL and turns each record into a task label.
//
//   {"session_id": "s1", "leaf_id": "n1.2.3", "task": 1, "answer": "B"}
//   {"session_id": "s1", "leaf_id": "n1.2.3", "task": 4, "votes": ["A", "B", "A"]}
//
// One of `answer` (the gold letter) or `votes` (one letter per annotator; the majority is taken and
// a tie is kept as a tie) per record. Letters: A–D for tasks 1–3, A–C for task 4. One record per
// (session, leaf, task): a second one is a bad line (a reject under onError 'skip', stored with its
// line like any other). Annotations are made by people and are
// therefore few; they are held in memory, indexed by session.
import { FieldReader, describe, readJsonl, type ReadJsonlOptions } from '../../../core/jsonl.js';
import { binaryLabelOf, isAnswerLetter, majorityVote, type AnswerLetter, type BinaryLabel } from './labels.js';
import type { TaskNumber } from './sib-types.js';

/** The label written into a task record. */
export interface SibLabel {
  /** Gold letter; null when the annotators tied. */
  letter: AnswerLetter | null;
  binary: BinaryLabel | null;
  source: 'answer' | 'votes';
  votes?: Partial<Record<AnswerLetter, number>>;
  /** Present (non-empty) only on a tie. */
  tied?: AnswerLetter[];
}

export interface Annotation {
  sessionId: string;
  leafId: string;
  task: TaskNumber;
  label: SibLabel;
  file: string;
  line: number;
}

export function parseAnnotation(json: unknown, at: { file: string; line: number }): Annotation {
  const r = new FieldReader(json, at);
  const sessionId = r.id('session_id');
  const leafId = r.id('leaf_id');
  const taskValue = r.number('task', { min: 1, max: 4 });
  if (!Number.isInteger(taskValue)) throw r.error('task', `expected 1, 2, 3 or 4, got ${taskValue}`);
  const task = taskValue as TaskNumber;
  const letters = task === 4 ? 'A, B or C' : 'A, B, C or D';
  const hasAnswer = r.raw('answer') !== undefined;
  const hasVotes = r.raw('votes') !== undefined;
  if (hasAnswer === hasVotes) {
    throw r.error(
      hasAnswer ? 'votes' : 'answer',
      hasAnswer ? 'give "answer" or "votes", not both' : 'missing: give "answer" (a letter) or "votes" (letters)',
    );
  }
  let label: SibLabel;
  if (hasAnswer) {
    const letter = r.string('answer').trim();
    if (!isAnswerLetter(task, letter))
      throw r.error('answer', `task ${task} answers ${letters}, got ${describe(r.raw('answer'))}`);
    label = { letter, binary: binaryLabelOf(task, letter), source: 'answer' };
  } else {
    const votes = r.stringArray('votes').map((v, i) => {
      const letter = v.trim();
      if (!isAnswerLetter(task, letter))
        throw r.error(`votes[${i}]`, `task ${task} answers ${letters}, got ${describe(v)}`);
      return letter;
    });
    if (votes.length === 0) throw r.error('votes', 'needs at least one vote');
    const outcome = majorityVote(task, votes);
    label = { letter: outcome.letter, binary: outcome.binary, source: 'votes', votes: outcome.counts };
    if (outcome.tied.length > 0) label.tied = outcome.tied;
  }
  return { sessionId, leafId, task, label, file: at.file, line: at.line };
}

function keyOf(leafId: string, task: TaskNumber): string {
  return `${leafId}\u0000${task}`;
}

/** Annotations by session, then by (leaf, task); tracks which ones a run used. */
export class AnnotationIndex {
  private readonly bySession = new Map<string, Map<string, Annotation>>();
  private readonly used = new Set<Annotation>();
  size = 0;

  /** Adds an annotation; the reader (loadAnnotations) has made sure that no two share session, leaf and task. */
  add(a: Annotation): void {
    let inner = this.bySession.get(a.sessionId);
    if (!inner) this.bySession.set(a.sessionId, (inner = new Map()));
    inner.set(keyOf(a.leafId, a.task), a);
    this.size += 1;
  }

  /** The label of a task, marking the annotation as used. */
  take(sessionId: string, leafId: string, task: TaskNumber): SibLabel | null {
    const a = this.bySession.get(sessionId)?.get(keyOf(leafId, task));
    if (!a) return null;
    this.used.add(a);
    return a.label;
  }

  forSession(sessionId: string): Iterable<Annotation> {
    return this.bySession.get(sessionId)?.values() ?? [];
  }

  /** Annotations no task used, in file order. */
  unused(): Annotation[] {
    const out: Annotation[] = [];
    for (const inner of this.bySession.values()) for (const a of inner.values()) if (!this.used.has(a)) out.push(a);
    return out.sort((x, y) => (x.file === y.file ? x.line - y.line : x.file < y.file ? -1 : 1));
  }
}

/** One annotation per (session, leaf, task): a second is a bad line. */
const ONE_PER_TASK = {
  of: (a: Annotation) => JSON.stringify([a.sessionId, a.leafId, a.task]),
  field: 'leaf_id',
  what: 'annotation',
  show: (a: Annotation) =>
    `of session ${JSON.stringify(a.sessionId)}, leaf ${JSON.stringify(a.leafId)}, task ${a.task}`,
};

export async function loadAnnotations(file: string, options: ReadJsonlOptions = {}): Promise<AnnotationIndex> {
  const index = new AnnotationIndex();
  for await (const { value } of readJsonl(file, parseAnnotation, { ...options, unique: ONE_PER_TASK }))
    index.add(value);
  return index;
}
