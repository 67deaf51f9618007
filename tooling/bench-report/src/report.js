// node tooling/bench-report/src/report.js  (root: `pnpm bench:report`)
// Reads the parts the benches wrote (bench/results/parts/*.json) and the run record
// (_run.json, written by run-all.js), and writes bench/results/latest.json, BENCHMARKS.md at the
// root and bench/results/<section>.svg. Regenerating from the same parts gives the same files
// apart from the machine block (date, commit and load of the report when no run record exists).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildReport, chartPath, renderMarkdown, renderSvg } from "./render.js";

/** The repository root (two folders above this package). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Every part in the folder (files starting with "_" are run records, not parts), by name. */
export function readParts(directory) {
  if (!existsSync(directory)) return [];
  const parts = [];
  for (const name of readdirSync(directory).sort()) {
    if (!name.endsWith(".json") || name.startsWith("_")) continue;
    try {
      const part = JSON.parse(readFileSync(join(directory, name), "utf8"));
      if (typeof part.section === "string" && typeof part.part === "string") parts.push(part);
      else process.stderr.write(`bench-report: ${name} is not a part (no section/part), skipped\n`);
    } catch (error) {
      process.stderr.write(`bench-report: ${name} unreadable, skipped: ${String(error)}\n`);
    }
  }
  return parts;
}

/** The run record run-all.js wrote, or undefined. */
export function readRun(directory) {
  const file = join(directory, "_run.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}

function osName() {
  try {
    const release = readFileSync("/etc/os-release", "utf8");
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(release)?.[1];
    if (pretty !== undefined) return `${pretty}, ${os.type()} ${os.release()} ${os.arch()}`;
  } catch {}
  return `${os.type()} ${os.release()} ${os.arch()}`;
}

function gitCommit(root) {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], {
      cwd: root,
      encoding: "utf8",
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: root,
      encoding: "utf8",
    }).trim();
    return dirty === "" ? commit : `${commit} (with uncommitted changes)`;
  } catch {
    return "unknown";
  }
}

/** The machine block: CPU, cores, RAM, OS, Node, and date, commit and load from the run record. */
export function machineInfo(root, run) {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? "unknown",
    cores: typeof os.availableParallelism === "function" ? os.availableParallelism() : cpus.length,
    totalMemory: os.totalmem(),
    os: osName(),
    node: run?.node ?? process.version,
    date: run?.startedAt ?? new Date().toISOString(),
    commit: run?.commit ?? gitCommit(root),
    loadBefore: run?.loadBefore ?? os.loadavg(),
    loadAfter: run?.loadAfter ?? os.loadavg(),
  };
}

/** Writes latest.json, BENCHMARKS.md and the charts; returns the report model. */
export function writeReport(root = ROOT) {
  const results = join(root, "bench", "results");
  const partsDirectory = process.env.BENCH_RESULTS_DIR || join(results, "parts");
  const run = readRun(partsDirectory);
  const report = buildReport({
    parts: readParts(partsDirectory),
    machine: machineInfo(root, run),
    run,
  });
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  for (const section of report.sections)
    writeFileSync(join(root, chartPath(section.id)), renderSvg(section));
  writeFileSync(join(root, "BENCHMARKS.md"), renderMarkdown(report));
  return report;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = writeReport();
  const targets = report.sections.flatMap((section) => section.targets);
  process.stdout.write(
    `BENCHMARKS.md written: ${report.sections.filter((section) => section.parts.length > 0).length}/${report.sections.length} sections measured; targets met ${targets.filter((t) => t.met === true).length}, not met ${targets.filter((t) => t.met === false).length}, not measured ${targets.filter((t) => t.met === null).length}\n`,
  );
}
