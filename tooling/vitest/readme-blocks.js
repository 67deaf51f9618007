import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * README code blocks as tests. Every fenced block of a checked language carries a marker, an HTML
 * comment on the line right before its fence (blank lines between are allowed):
 *
 *     <!-- readme-block: run NAME -->                 a test runs this block, found by NAME
 *     <!-- readme-block: not runnable: REASON -->     why no test runs it
 *
 * Tests read a block by name at test time (never a copy), write it into the package's ignored
 * `test-results/readme-blocks/` folder (inside the package, so the package's own name resolves to
 * its built dist/ as it does for a user) and run it as a child process with tsx.
 * Limits: fences are ``` or ~~~ at any indentation; a marker applies to the next fence only.
 */

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;
const MARKER = /^\s*<!--\s*readme-block:\s*(.*?)\s*-->\s*$/;

/** Languages whose blocks must be marked: TypeScript, JavaScript and shell commands. */
export const CHECKED_LANGUAGES = [
  "ts",
  "typescript",
  "js",
  "javascript",
  "mjs",
  "sh",
  "bash",
  "shell",
  "console",
];

/** Every fenced block of a Markdown text, with its language, code, 1-based line and marker. */
export function listCodeBlocks(text) {
  const lines = text.split("\n");
  const blocks = [];
  let marker = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const markerMatch = MARKER.exec(line);
    if (markerMatch) {
      marker = parseMarker(markerMatch[1]);
      continue;
    }
    const fence = FENCE.exec(line);
    if (!fence) {
      if (line.trim() !== "") marker = null;
      continue;
    }
    const [, indent, opening, language] = fence;
    const body = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const closing = lines[end].trim();
      if (
        closing.startsWith(opening[0].repeat(opening.length)) &&
        closing.replace(/[`~]/g, "") === ""
      )
        break;
      body.push(lines[end].startsWith(indent) ? lines[end].slice(indent.length) : lines[end]);
    }
    blocks.push({
      line: index + 1,
      language: language.toLowerCase(),
      code: `${body.join("\n")}\n`,
      marker,
    });
    marker = null;
    index = end;
  }
  return blocks;
}

function parseMarker(text) {
  const run = /^run\s+([\w.-]+)$/.exec(text);
  if (run) return { kind: "run", name: run[1] };
  const skip = /^not runnable:\s*(.+)$/.exec(text);
  if (skip) return { kind: "not-runnable", reason: skip[1] };
  return { kind: "invalid", text };
}

/** The code of the block marked `run NAME` in a README (a path or file URL); throws when none. */
export function readmeBlock(readme, name) {
  const path = readme instanceof URL ? fileURLToPath(readme) : readme;
  const found = listCodeBlocks(readFileSync(path, "utf8")).filter(
    (block) => block.marker?.kind === "run" && block.marker.name === name,
  );
  if (found.length !== 1) {
    throw new Error(`${path}: ${found.length} blocks marked "readme-block: run ${name}"`);
  }
  return found[0].code;
}

/**
 * Writes the README block `name` (with optional code around it) to
 * `<packageDir>/test-results/readme-blocks/<name>.<extension>` and returns the file's path.
 */
export function writeReadmeBlock({
  readme,
  name,
  packageDir,
  before = "",
  after = "",
  extension = "ts",
}) {
  const folder = join(
    packageDir instanceof URL ? fileURLToPath(packageDir) : packageDir,
    "test-results",
    "readme-blocks",
  );
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.${extension}`);
  writeFileSync(file, `${before}${readmeBlock(readme, name)}${after}`);
  return file;
}

const TSX = import.meta.resolve("tsx");

/**
 * Starts a written block as `node --import tsx FILE ARGS...` with piped stdio; `exited` settles
 * with `{ code, signal, stdout, stderr }` once the process has exited and its streams closed.
 */
export function spawnReadmeBlock(file, { args = [], env = process.env, cwd = dirname(file) } = {}) {
  const child = spawn(process.execPath, ["--import", TSX, file, ...args], {
    cwd,
    env,
    stdio: "pipe",
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    exited,
    /** Collects stdout as text instead of leaving it to a transport. */
    collectStdout() {
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
    },
    stderr: () => stderr,
  };
}

/**
 * Closes `client` (which ends the child's stdin only) and waits up to `deadlineMs` for the
 * spawned block to exit by itself: its exit, or "still running" (the child is then killed).
 */
export async function closeAndAwaitExit(client, running, deadlineMs) {
  await client.close();
  let timer;
  const outcome = await Promise.race([
    running.exited,
    new Promise((resolve) => {
      timer = setTimeout(() => resolve("still running"), deadlineMs);
    }),
  ]);
  clearTimeout(timer);
  if (outcome === "still running") running.child.kill("SIGKILL");
  return outcome;
}

/**
 * An MCP client transport over a spawned child's stdin and stdout (newline-delimited JSON-RPC,
 * as stdio MCP is): `close()` only ends the child's stdin, which is what a client that goes away
 * does, and never signals the child (the SDK's StdioClientTransport sends SIGTERM after 2 s).
 */
export function createChildStdioTransport(child) {
  let pending = "";
  const transport = {
    onmessage: undefined,
    onclose: undefined,
    onerror: undefined,
    async start() {
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk) => {
        const parts = (pending + chunk).split("\n");
        pending = parts.pop() ?? "";
        for (const part of parts) {
          if (part.trim() === "") continue;
          try {
            transport.onmessage?.(JSON.parse(part));
          } catch (error) {
            transport.onerror?.(error);
          }
        }
      });
      child.once("close", () => transport.onclose?.());
    },
    async send(message) {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      child.stdin.end();
    },
  };
  return transport;
}
