import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Vitest global setup: points XDG_CACHE_HOME (and LOCALAPPDATA, read on Windows) at a fresh
 * temporary folder for the whole run, before any worker starts, so the apps' default stdio store
 * (the fs store in the user's cache folder) never writes to the real user cache, whether a test
 * runs the code in process or spawns the built CLIs (children inherit the variable). Removed at
 * the end of the run.
 */
export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-test-cache-"));
  process.env.XDG_CACHE_HOME = dir;
  process.env.LOCALAPPDATA = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
