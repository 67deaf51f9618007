import { existsSync } from "node:fs";
import { runProcess } from "./json-parse.js";

// jq 1.6 as a peer of the §9 benchmark: Debian's /usr/bin/jq, timed as a whole process on the file
// (read, parse, run, print), and `jq length` as its own parse baseline.

/** Debian's jq; the benchmark reports jq as absent when this file does not exist. */
export const JQ = process.env["BENCH_JQ"] ?? "/usr/bin/jq";

/** The jq version line (e.g. "jq-1.6"), or null when there is no jq to run. */
export async function jqVersion(): Promise<string | null> {
  if (!existsSync(JQ)) return null;
  return (await runProcess(JQ, ["--version"])).stdout.trim();
}

/** One whole `jq -c program file` run: its wall time and its output parsed (one JSON value). */
export async function runJq(
  program: string,
  file: string,
): Promise<{ ms: number; output: unknown }> {
  const run = await runProcess(JQ, ["-c", program, file]);
  return { ms: run.ms, output: JSON.parse(run.stdout) };
}
