// node tooling/bench-report/src/run-all.js  (root: `pnpm bench`, after the build)
// Runs every benchmark of the repository one after another (never two at once: they would time
// each other), each with the sizes and rounds below (override any with its own BENCH_* variable),
// records each step's duration and exit code and the load average before and after, then writes
// the report (report.js). A failing step does not stop the run: its section says what failed
// and its targets read "not measured in this run".
// BENCH_ONLY=engine,cold runs only the steps of those sections (the other sections' parts stay,
// marked as from an earlier run).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, writeReport } from "./report.js";

const TSX = join(ROOT, "node_modules", ".bin", "tsx");

/** The steps of a full run: section (for BENCH_ONLY), folder, command, default environment. */
export const STEPS = [
  {
    sections: ["engine", "cold"],
    cwd: "bench/peers",
    args: ["src/run.ts"],
    env: { BENCH_PEERS_ROUNDS: "5" },
  },
  {
    sections: ["engine"],
    cwd: "packages/query-core",
    args: ["bench/extensions.ts"],
    env: { BENCH_EXT_ROUNDS: "3" },
  },
  {
    sections: ["views"],
    cwd: "packages/query-core",
    args: ["bench/views.ts"],
    env: { BENCH_VIEWS_ROUNDS: "5" },
  },
  {
    sections: ["views"],
    cwd: "bench/peers",
    args: ["src/later-pages.ts"],
    env: { BENCH_LATER_ROUNDS: "3" },
  },
  {
    sections: ["bounding"],
    cwd: "packages/mcp-adapter",
    args: ["bench/index.ts", process.env.BENCH_ADAPTER_MIB ?? "50"],
    env: {},
  },
  {
    sections: ["bounding"],
    cwd: "packages/mcp-adapter",
    args: ["bench/exact-off-thread.ts"],
    env: { BENCH_EXACT_ROUNDS: "15", BENCH_EXACT_CROSSOVER: "0" },
  },
  { sections: ["relay"], cwd: "packages/relay", args: ["bench/relay-call.ts"], env: {} },
  {
    sections: ["relay"],
    cwd: "packages/relay",
    args: [
      "bench/relay-transport.ts",
      process.env.BENCH_TRANSPORT_MIB ?? "50",
      "--only",
      "json-parse,json-parse-payload,linear",
    ],
    env: {},
  },
  {
    sections: ["proxy"],
    cwd: "apps/proxy",
    args: ["bench/index.ts", process.env.BENCH_PROXY_MIB ?? "50"],
    env: {},
  },
  {
    sections: ["proxy"],
    cwd: "packages/relay",
    args: ["bench/big-call-through-proxy.mjs", process.env.BENCH_PROXY_MIB ?? "50", "3"],
    env: {},
  },
  {
    sections: ["proxy"],
    cwd: "apps/proxy",
    args: ["bench/http-load.ts", "--rounds", "1"],
    env: {},
  },
  { sections: ["proxy"], cwd: "tooling/bench-report", args: ["src/soak-part.js"], env: {} },
  { sections: ["stores"], cwd: "packages/stores", args: ["bench/index.ts"], env: {} },
  { sections: ["context"], cwd: "bench/context", args: ["src/run.ts"], env: {} },
  { sections: ["context"], cwd: "apps/n8n-mcp-bounded", args: ["bench/index.ts"], env: {} },
];

function gitCommit() {
  const run = spawnSync("git", ["rev-parse", "--short=12", "HEAD"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const commit = run.stdout.trim() || "unknown";
  return dirty.stdout.trim() === "" ? commit : `${commit} (with uncommitted changes)`;
}

function main() {
  const only = (process.env.BENCH_ONLY ?? "").split(",").filter((name) => name !== "");
  const steps = STEPS.filter(
    (step) => only.length === 0 || step.sections.some((name) => only.includes(name)),
  );
  const sections = new Set(steps.flatMap((step) => step.sections));
  const parts = process.env.BENCH_RESULTS_DIR || join(ROOT, "bench", "results", "parts");
  mkdirSync(parts, { recursive: true });
  // This run's sections start empty: a step that fails leaves "not measured in this run".
  for (const name of readdirSync(parts)) {
    const section = name.split(".")[0];
    if (name.endsWith(".json") && sections.has(section)) rmSync(join(parts, name));
  }
  const record = {
    startedAt: new Date().toISOString(),
    node: process.version,
    commit: gitCommit(),
    loadBefore: os.loadavg(),
    steps: [],
  };
  for (const step of steps) {
    const command = `cd ${step.cwd} && tsx ${step.args.join(" ")}`;
    process.stderr.write(`\n== bench: ${command}\n`);
    if (!existsSync(join(ROOT, step.cwd, step.args[0]))) {
      record.steps.push({
        command,
        section: step.sections.join(", "),
        seconds: 0,
        exitCode: null,
        skipped: step.optional ? "not in this checkout yet" : "script missing",
        ...(step.optional ? { optional: true } : {}),
      });
      continue;
    }
    const start = performance.now();
    const child = spawnSync(TSX, step.args, {
      cwd: join(ROOT, step.cwd),
      stdio: "inherit",
      env: { ...step.env, ...process.env, BENCH_RESULTS_DIR: parts },
    });
    const seconds = (performance.now() - start) / 1000;
    record.steps.push({
      command,
      section: step.sections.join(", "),
      seconds,
      exitCode: child.status ?? 1,
      ...(child.error ? { skipped: String(child.error) } : {}),
    });
    process.stderr.write(`== bench: ${command}: exit ${child.status}, ${seconds.toFixed(0)} s\n`);
  }
  record.loadAfter = os.loadavg();
  record.endedAt = new Date().toISOString();
  writeFileSync(join(parts, "_run.json"), `${JSON.stringify(record, null, 2)}\n`);
  const report = writeReport(ROOT);
  const targets = report.sections.flatMap((section) => section.targets);
  const total = record.steps.reduce((sum, step) => sum + step.seconds, 0);
  process.stdout.write(
    `\npnpm bench: ${record.steps.length} steps in ${(total / 60).toFixed(1)} min; targets met ${targets.filter((t) => t.met === true).length}, not met ${targets.filter((t) => t.met === false).length}, not measured ${targets.filter((t) => t.met === null).length}; see BENCHMARKS.md\n`,
  );
  // A skipped optional step (not in this checkout) is not a failure.
  if (record.steps.some((step) => step.exitCode !== 0 && !step.optional)) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
