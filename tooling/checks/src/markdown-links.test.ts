import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { extractLinkTargets, findBrokenLinks } from "./markdown-links.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A scratch repository holding `files` (path -> text). */
function scratch(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "markdown-links-"));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("extractLinkTargets", () => {
  it("finds inline links, images and reference definitions with their lines", () => {
    const text = [
      "See [the spec](packages/contract/SPEC.md#9-extensions) and ![a chart](<docs/a chart.png>).",
      "",
      '[notes]: docs/sdk-notes.md "SDK notes"',
      "Also [a titled one](CONTRIBUTING.md 'how to').",
    ].join("\n");
    expect(extractLinkTargets(text)).toEqual([
      { target: "packages/contract/SPEC.md#9-extensions", line: 1 },
      { target: "docs/a chart.png", line: 1 },
      { target: "docs/sdk-notes.md", line: 3 },
      { target: "CONTRIBUTING.md", line: 4 },
    ]);
  });

  it("ignores links inside fenced code blocks and code spans", () => {
    const text = [
      "```md",
      "[not a link](missing.md)",
      "```",
      "`[nor this](missing.md)` but [this](found.md)",
      "~~~",
      "[fenced with tildes](missing.md)",
      "~~~",
    ].join("\n");
    expect(extractLinkTargets(text)).toEqual([{ target: "found.md", line: 4 }]);
  });
});

describe("findBrokenLinks", () => {
  it("reports a relative link to a missing file with its file and line, and nothing else", () => {
    const root = scratch({
      "README.md": "[ok](docs/guide.md) [folder](docs/) [web](https://example.com) [top](#top)\n",
      "docs/guide.md": "[back](../README.md)\n[gone](./removed.md#part)\n[rooted](/README.md)\n",
      "node_modules/pkg/README.md": "[ignored](nowhere.md)\n",
    });
    expect(findBrokenLinks(root)).toEqual([
      { file: "docs/guide.md", line: 2, target: "./removed.md#part" },
    ]);
  });

  it("finds no broken relative link in the repository's Markdown", () => {
    expect(findBrokenLinks(ROOT)).toEqual([]);
  });
});
