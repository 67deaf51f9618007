import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess, type Timing } from "./json-parse.js";

// jq 1.6 as a peer of the §9 benchmark: Debian's /usr/bin/jq, timed as a whole process on the file
// (read, parse, run, print), and `jq length` as its own parse baseline. Its CPU time comes from
// GNU time (/usr/bin/time, centisecond resolution) when that exists.

/** Debian's jq; the benchmark reports jq as absent when this file does not exist. */
export const JQ = process.env["BENCH_JQ"] ?? "/usr/bin/jq";
const GNU_TIME = "/usr/bin/time";

/** The jq version line (e.g. "jq-1.6"), or null when there is no jq to run. */
export async function jqVersion(): Promise<string | null> {
  if (!existsSync(JQ)) return null;
  return (await runProcess(JQ, ["--version"])).stdout.trim();
}

/**
 * One whole `jq -c program file` run: wall time from spawn to exit, CPU time (NaN without GNU
 * time), and its output parsed (one JSON value).
 */
export async function runJq(program: string, file: string): Promise<Timing & { output: unknown }> {
  if (!existsSync(GNU_TIME)) {
    const run = await runProcess(JQ, ["-c", program, file]);
    return { ms: run.ms, cpuMs: Number.NaN, output: JSON.parse(run.stdout) };
  }
  const directory = mkdtempSync(join(tmpdir(), "bench-jq-"));
  const times = join(directory, "times");
  try {
    const run = await runProcess(GNU_TIME, ["-f", "%U %S", "-o", times, JQ, "-c", program, file]);
    const [user, system] = readFileSync(times, "utf8").trim().split(/\s+/).map(Number);
    return {
      ms: run.ms,
      cpuMs: ((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000,
      output: JSON.parse(run.stdout),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
