// Prints the one closing line CI reads, `N passed, N failed`, summed over every vitest JSON report in
// .reports/ (the Node 20 suite and the suites that need Node 22 or a database write one each).
// A report that is missing counts as one failure, and so does a test file that failed to load.
import { existsSync, readFileSync } from "node:fs";

const expected = process.argv.slice(2);
let passed = 0;
let failed = 0;
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
