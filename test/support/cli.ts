// Runs the intentsim CLI in-process and returns what it printed on stdout (commander errors throw).
import { buildProgram } from '../../cli/main.js';

export async function cli(args: string[]): Promise<string> {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  try {
    await (await buildProgram()).exitOverride().parseAsync(['node', 'intentsim', ...args]);
  } finally {
    process.stdout.write = write;
  }
  return chunks.join('');
}
