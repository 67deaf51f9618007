import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createStderrLogger } from "./create-stderr-logger.js";

describe("the app's logger", () => {
  it("writes one JSON line per record at or above its level, with the fields", () => {
    const directory = mkdtempSync(join(tmpdir(), "n8n-bounded-log-"));
    const file = join(directory, "log.jsonl");
    const descriptor = openSync(file, "w");
    const logger = createStderrLogger("info", descriptor);
    logger.debug("hidden");
    logger.info("[n8n-mcp] started", { pid: 7 });
    logger.error("failed");
    logger.flush();
    closeSync(descriptor);
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    rmSync(directory, { recursive: true, force: true });
    expect(lines.map(({ time: _time, ...rest }) => rest)).toEqual([
      { level: 30, name: "n8n-mcp-bounded", pid: 7, msg: "[n8n-mcp] started" },
      { level: 50, name: "n8n-mcp-bounded", msg: "failed" },
    ]);
  });
});
