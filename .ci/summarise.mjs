// Prints one line `N passed, M failed[, K skipped]` from vitest's JSON report; exits 1 if anything failed
// or if no test ran at all.
import { readFileSync, existsSync } from 'node:fs';

const [file, mainOk] = process.argv.slice(2);
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
let failed = report.numFailedTests + filesFailedWithoutFailedTests(report);
if (mainOk === '0') failed += 1;
const skipped = report.numPendingTests + (report.numTodoTests ?? 0);
console.log(`${report.numPassedTests} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || report.numPassedTests === 0 ? 1 : 0);

// A file that fails to load (or fails outside its tests) counts as one failure; a failed test is
// already counted. (numFailedTestSuites counts describe blocks too, so it over-counted.)
function filesFailedWithoutFailedTests(r) {
  return r.testResults.filter((s) => s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed'))
    .length;
}
