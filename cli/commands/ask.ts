// `intentsim ask`: items in, responses out, from an OpenAI-compatible model (engine/evaluation/ask.ts)
// or from the no-LLM embedding solver (engine/evaluation/embedding-solver.ts).
import { join } from 'node:path';
import { Option, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { UserError } from '../../core/errors.js';
import { progressWanted } from '../../core/progress.js';
import { defaultCacheRoot } from '../../embeddings/cache-paths.js';
import { EMBEDDING_SOLVER } from '../../engine/evaluation/solver-names.js';
import { INTENTIONQA_STYLES, SIB_STYLES } from '../../engine/scoring/answer-styles.js';
import { addChatEndpointOptions, addSamplesOption, ASK_GENERATION_DEFAULTS } from '../options/chat-options.js';
import { addResponseCacheOptions, chatRunOptions, RESPONSE_CACHE_FILE } from '../options/chat-run-options.js';
import {
  addModelOptions,
  encoderExecution,
  encoderSpec,
  modelPaths,
  setUnlessGiven,
} from '../options/model-options.js';
import { declarePaths, mergePaths } from '../declared-paths.js';
import { underscoreChoice } from '../options/deprecated-spellings.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { malformedItemsLine } from '../malformed-items.js';

const STYLES = [...new Set([...INTENTIONQA_STYLES, ...SIB_STYLES])];

const ASK_HELP = `
Puts every item's prompt to a model and writes one response line per item.

Items: IntentionQA Task 1 or Task 2 files (the engine's, or the released
files), styles zero_shot, cot, cot_sc; or SessionIntentBench files
(sib-tasks.jsonl, sib-distractors.jsonl), styles zero_shot, five_shot, cot.
Generation settings default to the released askLM scripts': zero-shot at
temperature 0.1 with max_tokens 10; CoT at 0.1 with 200; cot_sc asks the CoT
prompt 5 times at 0.7. --temperature, --max-completion-tokens and --samples
override them.

Responses (--out, JSONL), the format \`score\` reads:
  {"id": "FS_1", "response": "B", "prompt_tokens": 96, "completion_tokens": 1,
   "latency_ms": 212, "cached": false, "prompt_hash": "sha256:…",
   "model": "…", "endpoint": "…", "style": "zero_shot",
   "settings": {"temperature": 0.1, "max_tokens": 10, "samples": 1}}
  (cot_sc: response, tokens, latency and cached are lists, one per sample). A
  request that fails after its retries is written as the released code wrote
  it, "response": "Error" with tokens -1 (score excludes it), plus "error".
The run is resumable: responses are appended as they arrive, and a rerun with
the same --out asks only the items without a usable response (killed runs
and "Error" lines included); the finished file is in items order. Completions
are cached (--cache, default ${defaultCacheRoot()}/${RESPONSE_CACHE_FILE}) by endpoint,
model, prompt, settings and sample, so nothing is paid for twice.

The key comes from $OPENAI_API_KEY (or the variable --api-key-env names) and
is never logged or written; quoted error bodies are redacted. It is required
for api.openai.com and when --api-key-env is given; other endpoints (local
servers) need none. Retries: 429, 5xx, network errors and an HTTP 200 without an
answer, with backoff (Retry-After honoured up to --max-retry-wait seconds; a
wait of a second or more is printed). A response body over 1 MiB is refused.
HTTP 401, 403 and 404 stop the run (key, permission, model, URL).
A rerun into an existing --out must be the same run: another model, endpoint,
style, generation setting or prompt is refused, naming the difference. The
--out file is locked while ask writes it.

--solver embedding answers IntentionQA items without a model: the option whose
embedding (the sentence encoder of the model options) is nearest to the
question's product(s). Its accuracy shows how far a similarity shortcut beats
the distractors; score it with --style zero_shot.

Examples
  vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000 &
  intentsim ask --items run/items/intentionqa_task1.jsonl --style cot \\
    --endpoint http://127.0.0.1:8000/v1 --model Qwen/Qwen2.5-7B-Instruct \\
    --out answers/task1.cot.jsonl --requests-per-minute 600 --concurrency 16
  intentsim ask --items out/sib/sib-tasks.jsonl --style zero_shot \\
    --endpoint http://127.0.0.1:11434/v1 --model llama3.1 --out sib.jsonl   # Ollama
  intentsim ask --solver embedding --items run/items/intentionqa_task2.jsonl \\
    --out answers/task2.embedding.jsonl --model-dir all-MiniLM-L6-v2/`;

export function registerAskCommand(program: Command): void {
  const command = program
    .command('ask')
    .summary('ask an OpenAI-compatible model (or the embedding solver) the items; write the responses')
    .description(ASK_HELP)
    .requiredOption('--items <file>', 'IntentionQA items or SessionIntentBench tasks (JSONL)')
    .addOption(
      new Option('--style <style>', 'prompt style (and how score reads it)')
        .choices(STYLES)
        .argParser(underscoreChoice('--style', STYLES))
        .default('zero_shot'),
    )
    .requiredOption('--out <file>', 'responses JSONL (resumed when it exists)')
    .addOption(
      new Option(
        '--solver <solver>',
        `llm: the --endpoint model; ${EMBEDDING_SOLVER}: the no-LLM nearest-option solver`,
      )
        .choices(['llm', EMBEDDING_SOLVER] as const)
        .default('llm' as const),
    );
  // The old --cache-dir DIR was the response cache's folder too.
  const cacheDirAlso = (dir: string, c: CommandUnknownOpts) =>
    setUnlessGiven(c, 'cache', join(dir, RESPONSE_CACHE_FILE));
  const withOptions = addModelOptions(
    addBadInputOptions(
      addSamplesOption(addChatEndpointOptions(addResponseCacheOptions(command), ASK_GENERATION_DEFAULTS)),
      'OUT.rejects.jsonl',
    ),
    { cacheDirAlso },
  );
  // The paths' library code loads when the command runs, not for `--help` (issue 50).
  declarePaths(withOptions, async (o) => {
    const { askPaths } = await import('../../engine/evaluation/ask.js');
    return mergePaths(askPaths({ ...o, cacheFile: typeof o.cache === 'string' ? o.cache : undefined }), modelPaths(o));
  }).action(async (o) => {
    if (o.solver === EMBEDDING_SOLVER) {
      // The model code loads when the command runs, not for `--help` (issue 50).
      const { openEncoder } = await import('../../workers/open-encoder.js');
      const { solveByEmbedding } = await import('../../engine/evaluation/embedding-solver.js');
      const encoder = await openEncoder(encoderSpec(o), encoderExecution(o));
      try {
        const r = await solveByEmbedding({
          items: o.items,
          out: o.out,
          encoder,
          batchSize: o.batchSize,
          onError: o.onError,
          limits: inputLimits(o),
        });
        process.stdout.write(
          `embedding solver (${encoder.name}): ${r.items} items answered, ${r.texts} distinct texts embedded in ${r.seconds.toFixed(1)} s → ${o.out}\n` +
            (r.rejected > 0 ? `${r.rejected} item line(s) rejected (see ${o.out}.rejects.jsonl)\n` : '') +
            (r.malformed.length > 0 ? `${malformedItemsLine(r.malformed, 'asked')}\n` : ''),
        );
      } finally {
        await encoder.close();
      }
      return;
    }
    if (o.endpoint === undefined || o.model === undefined)
      throw new UserError('ask needs --endpoint and --model (or --solver embedding)');
    const { ask } = await import('../../engine/evaluation/ask.js');
    const r = await ask({
      ...chatRunOptions(o, 'ask'),
      items: o.items,
      style: o.style,
      out: o.out,
      onError: o.onError,
      progress: progressWanted(),
    });
    const lines = [
      `${r.benchmark === 'sib' ? 'SessionIntentBench' : 'IntentionQA'} items: ${r.items}; already answered ${r.alreadyAnswered}; asked ${r.asked} (${r.cacheHits} completions from the cache, ${r.requestsSent} requests sent)`,
      `settings: temperature ${r.settings.temperature}, max_tokens ${r.settings.maxTokens}, samples ${r.settings.samples}; tokens: ${r.tokens.prompt} prompt + ${r.tokens.completion} completion`,
      `responses → ${o.out} (${r.seconds.toFixed(1)} s)`,
    ];
    if (r.failed > 0)
      lines.push(
        `${r.failed} item(s) failed after their retries: written as "Error" (score excludes them); run again to ask them`,
      );
    if (r.unreadableLines > 0)
      lines.push(
        `${r.unreadableLines} unreadable line(s) of the responses file or the cache (torn by an interrupted run) were ignored`,
      );
    if (r.rejected > 0) lines.push(`${r.rejected} item line(s) rejected (see ${o.out}.rejects.jsonl)`);
    const malformed = malformedItemsLine(r.malformed, 'asked');
    if (malformed !== undefined) lines.push(malformed);
    process.stdout.write(lines.join('\n') + '\n');
    if (r.failed > 0) process.exitCode = 1;
  });
}
