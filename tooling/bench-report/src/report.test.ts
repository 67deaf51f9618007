import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { figureOf, targetOf, writeBenchResult } from "@bounded-mcp/bench-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readParts, writeReport } from "./report.js";

let root: string;
let parts: string;
const saved = process.env.BENCH_RESULTS_DIR;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bench-report-test-"));
  parts = join(root, "bench", "results", "parts");
  mkdirSync(parts, { recursive: true });
  process.env.BENCH_RESULTS_DIR = parts;
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  if (saved === undefined) delete process.env.BENCH_RESULTS_DIR;
  else process.env.BENCH_RESULTS_DIR = saved;
});

describe("a part written by bench-utils, read by the report", () => {
  it("writes BENCHMARKS.md, latest.json and one SVG per section from the parts", () => {
    const baseline = figureOf("JSON.parse (baseline)", [100, 90, 120]);
    const bound = figureOf("bound", [110, 130, 120], { baseline });
    writeBenchResult("bounding", "adapter", {
      title: "Bounding 50 MiB",
      figures: [baseline, bound],
      targets: [
        targetOf("exact-precheck", "pre-check", bound.ratio as number, "<=", 1.05, "x", "bound"),
      ],
    });
    writeFileSync(
      join(parts, "_run.json"),
      JSON.stringify({
        startedAt: "2000-01-01T00:00:00.000Z",
        loadBefore: [1, 1, 1],
        loadAfter: [1, 1, 1],
        steps: [],
      }),
    );
    writeFileSync(join(parts, "broken.json"), "{ not json");

    expect(bound).toMatchObject({
      median: 120,
      low: 110,
      high: 130,
      n: 3,
      ratio: 1.2,
      baseline: "JSON.parse (baseline)",
    });
    expect(readParts(parts).map((part) => `${part.section}.${part.part}`)).toEqual([
      "bounding.adapter",
    ]);
    const report = writeReport(root);
    const markdown = readFileSync(join(root, "BENCHMARKS.md"), "utf8");
    expect(markdown).toContain("| pre-check | issue 15 | 1.200x | **not met** |");
    expect(markdown).toContain(
      "| bound | 120 ms | 110 ms – 130 ms | 3 | 1.200x of JSON.parse (baseline) |",
    );
    const latest = JSON.parse(readFileSync(join(root, "bench", "results", "latest.json"), "utf8"));
    expect(latest.machine).toMatchObject({
      date: "2000-01-01T00:00:00.000Z",
      node: process.version,
    });
    expect(latest.sections.map((section: { id: string }) => section.id)).toEqual(
      report.sections.map((section) => section.id),
    );
    for (const section of report.sections) {
      expect(readFileSync(join(root, "bench", "results", `${section.id}.svg`), "utf8")).toMatch(
        /^<svg /,
      );
    }
    expect(readFileSync(join(root, "bench", "results", "bounding.svg"), "utf8")).toContain(
      "bound ÷ JSON.parse (baseline)",
    );
  });

  it("regenerates the same files from the same parts", () => {
    writeBenchResult("stores", "stores", {
      title: "Stores",
      figures: [figureOf("put", [1, 2, 3])],
    });
    writeFileSync(
      join(parts, "_run.json"),
      JSON.stringify({
        startedAt: "2000-01-01T00:00:00.000Z",
        commit: "c",
        loadBefore: [0, 0, 0],
        loadAfter: [0, 0, 0],
        steps: [],
      }),
    );
    writeReport(root);
    const first = readFileSync(join(root, "BENCHMARKS.md"), "utf8");
    const svg = readFileSync(join(root, "bench", "results", "stores.svg"), "utf8");
    writeReport(root);
    expect(readFileSync(join(root, "BENCHMARKS.md"), "utf8")).toBe(first);
    expect(readFileSync(join(root, "bench", "results", "stores.svg"), "utf8")).toBe(svg);
    expect(first).toContain("## Relay: small calls over stdio, one large result");
    expect(first.split("Not measured in this run.").length - 1).toBe(7);
  });
});
