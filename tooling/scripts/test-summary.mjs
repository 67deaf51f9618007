// Adds up every workspace's vitest JSON report and prints one closing line that CI reads:
// "tests: N passed, N failed, N skipped". Exits non-zero when a report is missing or failed.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const group of ["packages", "apps", "tooling"]) {
  for (const name of readdirSync(join(root, group))) {
    const dir = join(root, group, name);
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    const { scripts = {} } = JSON.parse(readFileSync(manifest, "utf8"));
    if (!scripts.test) continue;
    const report = join(dir, "test-results", "vitest.json");
    if (!existsSync(report)) {
      missing.push(`${group}/${name}`);
      continue;
    }
    const result = JSON.parse(readFileSync(report, "utf8"));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    skipped += result.numPendingTests + (result.numTodoTests ?? 0);
  }
}
if (missing.length > 0) console.error(`no test report from: ${missing.join(", ")}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
