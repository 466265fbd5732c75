// Loaded with `node --import` into a benchmark's child process (bench/scale.ts): at exit, writes the
// process's own resource usage to $INTENTSIM_USAGE_OUT — peak resident memory and CPU time, worker
// threads included (getrusage of the process). A child process's figures, not its parent's: this is
// how each stage of the scale run gets its own peak.
import { writeFileSync } from 'node:fs';

const out = process.env.INTENTSIM_USAGE_OUT;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ maxRssKb: u.maxRSS, userUs: u.userCPUTime, systemUs: u.systemCPUTime }) + '\n');
  });
}
