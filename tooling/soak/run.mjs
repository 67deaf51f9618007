#!/usr/bin/env node
// `pnpm soak`: (1) a 60 s HTTP load of 50 clients and two principals against the built proxy
// (http-load.mjs), (2) the adapter fuzz tests of packages/mcp-adapter/test/fuzz at 40 times their
// test-run size (BOUNDED_MCP_FUZZ_SCALE=40: 200,000 cases). Prints one JSON report on stdout and
// exits 1 when a fuzz case failed or the load saw a protocol error, a contract violation or a
// cross-principal answer. Options: --fuzz-only, --load-only, --scale N, --clients N, --seconds N,
// --seed N. Build first (the root `pnpm soak` does).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runHttpLoad } from "./http-load.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ADAPTER = fileURLToPath(new URL("../../packages/mcp-adapter/", import.meta.url));
const VITEST = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));
/** Cases of the fuzz tests in the ordinary test run (see their RUNS constants). */
const TEST_RUN_CASES = 5_000;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

function runFuzz(scale) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VITEST, "run", "test/fuzz", "--reporter=dot"], {
      cwd: ADAPTER,
      env: { ...process.env, BOUNDED_MCP_FUZZ_SCALE: String(scale) },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.once("exit", (code) =>
      resolve({
        scale,
        cases: TEST_RUN_CASES * scale,
        passed: code === 0,
        seconds: Math.round((Date.now() - started) / 1_000),
      }),
    );
  });
}

const report = { root: ROOT };
let failed = false;
if (!process.argv.includes("--fuzz-only")) {
  const load = await runHttpLoad({
    clients: option("clients", 50),
    seconds: option("seconds", 60),
    seed: option("seed", Date.now() % 1_000_000),
    warmUp: process.argv.includes("--fixed-warm-up") ? "fixed" : "full",
  });
  report.load = load;
  failed ||=
    load.protocolErrors > 0 || load.contractViolations > 0 || load.crossPrincipalAnswers > 0;
}
if (!process.argv.includes("--load-only")) {
  report.fuzz = await runFuzz(option("scale", 40));
  failed ||= !report.fuzz.passed;
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exit(failed ? 1 : 0);
