import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { CHECKED_LANGUAGES, listCodeBlocks } from "@bounded-mcp/vitest-config/readme-blocks";

/** A README code block that is neither run by a test nor marked as not runnable. */
export interface UnmarkedBlock {
  file: string;
  line: number;
  problem: string;
}

const PACKAGE_FOLDERS = ["packages", "apps", "tooling", "bench"];

/** The README.md of the repository root and of every package folder (packages, apps, tooling, bench). */
export function listReadmes(root: string): string[] {
  const found = [join(root, "README.md")];
  for (const group of PACKAGE_FOLDERS) {
    const folder = join(root, group);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).sort()) {
      const readme = join(folder, name, "README.md");
      if (existsSync(readme)) found.push(readme);
    }
  }
  return found;
}

/** Every *.test.ts file's text under `folder` (node_modules, dist and test-results skipped). */
function testTexts(folder: string): string[] {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name === "dist" || name === "test-results") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".test.ts")) texts.push(readFileSync(path, "utf8"));
    }
  };
  walk(folder);
  return texts;
}

/**
 * The TypeScript, JavaScript and shell blocks of every README (listReadmes) that carry no valid
 * `readme-block` marker, or whose `run NAME` no test names: a test of the README's own package
 * (the root README: of any package) must contain the string "NAME". Limits: the name is matched
 * as a quoted string in the test's text, not by executing the test.
 */
export function findUnmarkedBlocks(root: string): UnmarkedBlock[] {
  const problems: UnmarkedBlock[] = [];
  const everyTest = PACKAGE_FOLDERS.filter((group) => existsSync(join(root, group))).flatMap(
    (group) => testTexts(join(root, group)),
  );
  for (const readme of listReadmes(root)) {
    const file = relative(root, readme);
    const folder = join(readme, "..");
    const tests = folder === root ? everyTest : testTexts(folder);
    const names = new Set<string>();
    for (const block of listCodeBlocks(readFileSync(readme, "utf8"))) {
      if (!CHECKED_LANGUAGES.includes(block.language)) continue;
      const at = { file, line: block.line };
      const { marker } = block;
      if (marker === null) {
        problems.push({
          ...at,
          problem: "no readme-block marker (run NAME, or not runnable: REASON)",
        });
      } else if (marker.kind === "invalid") {
        problems.push({ ...at, problem: `unreadable marker "${marker.text}"` });
      } else if (marker.kind === "run") {
        if (names.has(marker.name))
          problems.push({ ...at, problem: `second block named ${marker.name}` });
        names.add(marker.name);
        if (!tests.some((text) => text.includes(`"${marker.name}"`))) {
          problems.push({ ...at, problem: `no test names "${marker.name}"` });
        }
      }
    }
  }
  return problems;
}
