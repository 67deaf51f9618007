import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

// The JSON.parse baseline of the §9 benchmark: one child process per round (see parse-child.mjs).

const CHILD = fileURLToPath(new URL("./parse-child.mjs", import.meta.url));

/** Output of a child process run to its end: stdout, and the wall time from spawn to exit. */
export interface ProcessRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs a command to its end, collecting stdout; rejects on a non-zero exit. */
export function runProcess(command: string, args: readonly string[]): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - start;
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8");
      if (code === 0) resolve({ stdout, stderr, ms });
      else reject(new Error(`${command} exited with ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}

/** One timed run: wall time and CPU time (user + system, every thread of the process), in ms. */
export interface Timing {
  readonly ms: number;
  readonly cpuMs: number;
}

/**
 * JSON.parse timings of the file's text in a fresh Node process that holds only that text:
 * `runs` parses after one warm-up parse, with a full collection before each.
 */
export async function timeJsonParse(file: string, runs: number): Promise<Timing[]> {
  const { stdout } = await runProcess(process.execPath, ["--expose-gc", CHILD, file, String(runs)]);
  const { samples, cpu } = JSON.parse(stdout) as { samples: number[]; cpu: number[] };
  return samples.map((ms, at) => ({ ms, cpuMs: cpu[at] as number }));
}

/** Times one synchronous or asynchronous call: wall and this process's CPU time. */
export async function timed<T>(run: () => T | Promise<T>): Promise<Timing & { value: T }> {
  const start = performance.now();
  const startCpu = process.cpuUsage();
  const value = await run();
  const usage = process.cpuUsage(startCpu);
  return { ms: performance.now() - start, cpuMs: (usage.user + usage.system) / 1000, value };
}
