// `npm test`: lint and format check, type check, then every vitest suite; ends with one line
// "N passed, N failed, N skipped" counted from vitest's JSON report.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;
const report = '.vitest-results.json';
const extraArgs = process.argv.slice(2);

let failedSteps = 0;
for (const [label, command, args] of [
  ['lint', 'npx', ['biome', 'check', '.']],
  ['typecheck', 'npx', ['tsc', '-b']],
]) {
  console.log(`\n== ${label}`);
  if (run(command, args) !== 0) {
    console.log(`${label} failed`);
    failedSteps += 1;
  }
}

console.log('\n== tests');
rmSync(report, { force: true });
const vitestStatus = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...extraArgs,
]);

let passed = 0;
let failed = failedSteps;
let skipped = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  // A file that failed without a failed test (it did not load, or a hook threw) counts once.
  const brokenFiles = results.testResults.filter(
    (file) =>
      file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  failed += results.numFailedTests + brokenFiles;
  skipped = results.numPendingTests + (results.numTodoTests ?? 0);
} else if (vitestStatus !== 0) {
  failed += 1;
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || vitestStatus !== 0 ? 1 : 0);
