import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listCodeBlocks } from "@bounded-mcp/vitest-config/readme-blocks";
import { afterEach, describe, expect, it } from "vitest";
import { findUnmarkedBlocks } from "./readme-blocks.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A scratch repository holding `files` (path -> text). */
function scratch(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "readme-blocks-"));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("listCodeBlocks", () => {
  it("reads each fence with its language, code and the marker right before it", () => {
    const text = [
      "<!-- readme-block: run first -->",
      "```ts",
      "const a = 1;",
      "```",
      "<!-- readme-block: not runnable: needs a bucket -->",
      "",
      "  ~~~sh",
      "  aws s3 ls",
      "  ~~~",
      "Prose ends a marker's reach.",
      "```js",
      "x()",
      "```",
    ].join("\n");
    expect(listCodeBlocks(text)).toEqual([
      { line: 2, language: "ts", code: "const a = 1;\n", marker: { kind: "run", name: "first" } },
      {
        line: 7,
        language: "sh",
        code: "aws s3 ls\n",
        marker: { kind: "not-runnable", reason: "needs a bucket" },
      },
      { line: 11, language: "js", code: "x()\n", marker: null },
    ]);
  });
});

describe("findUnmarkedBlocks", () => {
  it("reports a block with no marker, a bad marker and a run no test names; json and marked blocks pass", () => {
    const root = scratch({
      "README.md": "```sh\nnpm test\n```\n```json\n{}\n```\n",
      "packages/a/README.md": [
        "<!-- readme-block: run a-example -->",
        "```ts",
        "ok();",
        "```",
        "<!-- readme-block: run a-missing -->",
        "```ts",
        "ok();",
        "```",
        "<!-- readme-block: skip -->",
        "```js",
        "ok();",
        "```",
        "<!-- readme-block: not runnable: a signature listing -->",
        "```ts",
        "f(): void",
        "```",
      ].join("\n"),
      "packages/a/test/readme.test.ts": 'readmeBlock(readme, "a-example");\n',
    });
    expect(findUnmarkedBlocks(root)).toEqual([
      {
        file: "README.md",
        line: 1,
        problem: "no readme-block marker (run NAME, or not runnable: REASON)",
      },
      { file: "packages/a/README.md", line: 6, problem: 'no test names "a-missing"' },
      { file: "packages/a/README.md", line: 10, problem: 'unreadable marker "skip"' },
    ]);
  });

  it("finds every TypeScript, JavaScript and shell block of the repository's READMEs run or marked", () => {
    expect(findUnmarkedBlocks(ROOT)).toEqual([]);
  });
});
