// turbo as every root script runs it: telemetry off (turbo 2 otherwise prints a telemetry notice
// on its first run on a machine, and reports usage) and no update notice, set here rather than
// by the user. The arguments are turbo's own (`node tooling/scripts/turbo.mjs run build`); the
// exit code is turbo's.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const turbo = require.resolve("turbo/bin/turbo");
const run = spawnSync(process.execPath, [turbo, ...process.argv.slice(2), "--no-update-notifier"], {
  stdio: "inherit",
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
});
if (run.error) throw run.error;
process.exit(run.status ?? 1);
