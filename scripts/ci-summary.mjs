// Prints the one closing line CI reads, `N passed, N failed`, summed over the vitest JSON reports it
// is given (the Node 20 suite and the suites that need Node 22 write one each). A report that is
// missing counts as one failure, and so does a test file that failed to load; `--failed-steps N` adds
// the steps that failed without a report of their own (build, type check, lint, the tarball install).
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
  passed += report.numPassedTests;
  failed += report.numFailedTests + brokenFiles;
  console.error(`ci: ${file}: ${report.numPassedTests} passed, ${report.numFailedTests + brokenFiles} failed`);
}
console.log(`${passed} passed, ${failed} failed`);
