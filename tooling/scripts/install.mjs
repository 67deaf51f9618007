// `pnpm install --frozen-lockfile` as `npm run demo` and `npm test` start it, with dependency build
// output only when a build fails. In a terminal pnpm 12 folds each build script into one
// "Running install script, done in …" line, so stdio is passed through as it is. In piped output
// (CI, `| tee`) pnpm streams every line of every build script (better-sqlite3's node-gyp compile:
// dozens of lines), and neither `--loglevel` nor `--reporter` keeps only failures (`--loglevel=warn`
// also drops the output of a failed build, and says nothing at all when an optional build fails).
// So here a build's lines (".../node_modules/<name> <script>: …") are held until its last line:
// "Done" drops them, anything else (a failure) prints them all. Every other line passes through.
// Limits: lines are recognised by pnpm 12.4.2's prefix format; stderr is passed through unfiltered.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createBuildOutputFilter } from "./build-output-filter.mjs";

const args = ["--yes", "pnpm@12.4.2", "install", "--frozen-lockfile", ...process.argv.slice(2)];
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const piped = !process.stdout.isTTY;
const child = spawn(npx, args, {
  stdio: ["inherit", piped ? "pipe" : "inherit", "inherit"],
  shell: process.platform === "win32",
});

if (piped) {
  const filter = createBuildOutputFilter((text) => process.stdout.write(text));
  createInterface({ input: child.stdout }).on("line", (line) => filter.line(line));
  child.stdout.on("end", () => filter.end());
}

child.on("close", (code) => {
  process.exit(code ?? 1);
});
