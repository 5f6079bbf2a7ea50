// Prints the one closing line CI reads, `N passed, N failed`, summed over the vitest JSON reports it
// is given (the Node 20 suite and the suites that need Node 22 write one each). A report that is
// missing counts as one failure, and so does a test file that failed to load; `--failed-steps N` adds
// the steps that failed (build, type check, lint, a suite, the tarball install). Each failed test is
// named on stderr, so a log cut to its tail still says what to look at.
import { existsSync, readFileSync } from "node:fs";

const args = process.argv.slice(2);
const stepsFlag = args.indexOf("--failed-steps");
const failedSteps = stepsFlag === -1 ? 0 : Number(args.splice(stepsFlag, 2)[1]);
const expected = args;
let passed = 0;
let failed = failedSteps;
if (failedSteps > 0) console.error(`ci: ${failedSteps} step(s) failed`);
for (const file of expected) {
  if (!existsSync(file)) {
    console.error(`ci: no report at ${file}: its suite did not run to the end`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  const brokenFiles = report.testResults.filter(
    (result) => result.status === "failed" && result.assertionResults.length === 0,
  ).length;
  for (const result of report.testResults) {
    for (const test of result.assertionResults) {
      if (test.status === "failed") console.error(`ci: failed: ${result.name} > ${test.fullName}`);
    }
    if (result.status === "failed" && result.assertionResults.length === 0) {
      console.error(`ci: failed to load: ${result.name}: ${result.message ?? ""}`.slice(0, 2000));
    }
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests + brokenFiles;
  console.error(`ci: ${file}: ${report.numPassedTests} passed, ${report.numFailedTests + brokenFiles} failed`);
}
console.log(`${passed} passed, ${failed} failed`);
