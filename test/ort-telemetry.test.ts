// ONNX Runtime's telemetry stays off in intentsim's processes (embeddings/ort-telemetry.ts). What
// shows from outside that a process created ORT's environment with telemetry on is what ORT's 1DS
// SDK leaves in the temporary folder: an empty mat-debug-PID.log and the device identifier, .ses.
// Each process here gets a temporary folder of its own, and starts with
// ORT_DISABLE_TELEMETRY removed from its environment (this test process may have set it when it
// loaded the encoder), and the variables by which ORT recognises a CI run and keeps quiet (it checks
// these names), so only what intentsim itself does can turn the telemetry off.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestModel } from '../embeddings/model-generator.js';
import { ORT_TELEMETRY_VARIABLE } from '../embeddings/ort-telemetry.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');

/** The variables by which ORT 1.30 recognises a CI run (the names in its library). */
const CI_VARIABLES = [
  ...['CI', 'TF_BUILD', 'GITHUB_ACTIONS', 'GITLAB_CI', 'CIRCLECI', 'TRAVIS', 'JENKINS_URL'],
  ...['CODEBUILD_BUILD_ID', 'BUILDKITE', 'TEAMCITY_VERSION'],
];

/**
 * Runs `node ARGS` to the end with ORT_DISABLE_TELEMETRY and the CI variables removed from its
 * environment (`set` adds variables back) and a temporary folder of its own; returns the telemetry
 * files it left there.
 */
function telemetryFilesLeft(args: readonly string[], set: NodeJS.ProcessEnv = {}): string[] {
  const temporary = mkdtempSync(join(tmpdir(), 'intentsim-telemetry-tmp-'));
  const env: NodeJS.ProcessEnv = { ...process.env, INTENTSIM_QUIET: '1', TMPDIR: temporary, ...set };
  for (const name of [ORT_TELEMETRY_VARIABLE, ...CI_VARIABLES]) if (!(name in set)) delete env[name];
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env });
  const left = readdirSync(temporary).filter((name) => name === '.ses' || name === `mat-debug-${run.pid}.log`);
  rmSync(temporary, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} → ${run.status ?? run.signal}\n${run.stderr}`);
  return left.sort();
}

// The control: onnxruntime-node creating its environment, nothing of intentsim loaded. An ORT
// without this telemetry (before 1.29, or a build without it) leaves nothing, and then there is
// nothing for these tests to see.
const ORT_ENVIRONMENT = `require('onnxruntime-node/dist/binding.js').initOrt()`;
const ortLeavesFiles = telemetryFilesLeft(['-e', ORT_ENVIRONMENT]).length > 0;
if (!ortLeavesFiles)
  console.warn(
    'ort-telemetry: skipped: this onnxruntime-node leaves no telemetry files (mat-debug-PID.log, .ses) to check',
  );

describe.skipIf(!ortLeavesFiles)("ONNX Runtime's telemetry", () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-telemetry-'));
  const model = join(dir, 'model');
  const sentences = join(dir, 'sentences.txt');
  beforeAll(async () => {
    await makeTestModel(model);
    writeFileSync(sentences, 'PersonX buys a tent\nPersonX goes camping\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const encodeArgs = (): string[] => [
    CLI,
    'encode',
    ...['--in', sentences, '--out', join(dir, 'v.npy'), '--model-dir', model, '--model-cache', join(dir, 'cache')],
  ];

  it('is off in `intentsim encode`, and on again when the user sets ORT_DISABLE_TELEMETRY=0', () => {
    expect(telemetryFilesLeft(encodeArgs())).toEqual([]);
    expect(telemetryFilesLeft(encodeArgs(), { [ORT_TELEMETRY_VARIABLE]: '0' })).toEqual([
      '.ses',
      expect.stringMatching(/^mat-debug-\d+\.log$/),
    ]);
  });

  it('is off in a pool of encoder threads (set by the thread that starts them)', () => {
    const script = `
      import { openEncoder } from ${JSON.stringify(join(ROOT, 'dist', 'index.js'))};
      const encoder = await openEncoder({ modelDir: ${JSON.stringify(model)} }, { kind: 'pool', workers: 2 });
      await encoder.encode(['PersonX buys a tent', 'PersonX goes camping']);
      await encoder.close();`;
    expect(telemetryFilesLeft(['--input-type=module', '-e', script])).toEqual([]);
  });
});
