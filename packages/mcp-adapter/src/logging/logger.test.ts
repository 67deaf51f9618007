import { describe, expect, it } from "vitest";
import { createRecordingLogger } from "../testing/recording-logger.js";
import { SILENT_LOGGER } from "./logger.js";
import { createWarnOnce } from "./warn-once.js";

describe("SILENT_LOGGER", () => {
  it("accepts every level without output and cannot be modified", () => {
    for (const level of ["debug", "info", "warn", "error"] as const) {
      expect(SILENT_LOGGER[level]("message", { tool: "t" })).toBeUndefined();
    }
    expect(Object.isFrozen(SILENT_LOGGER)).toBe(true);
  });
});

describe("createRecordingLogger", () => {
  it("keeps every line with its level and fields, in order", () => {
    const logger = createRecordingLogger();
    logger.info("started");
    logger.warn("careful", { tool: "search" });
    logger.error("failed", { code: "X" });
    logger.debug("detail");
    expect(logger.records).toEqual([
      { level: "info", message: "started" },
      { level: "warn", message: "careful", fields: { tool: "search" } },
      { level: "error", message: "failed", fields: { code: "X" } },
      { level: "debug", message: "detail" },
    ]);
  });
});

describe("createWarnOnce", () => {
  it("warns once per key and again for a new key", () => {
    const logger = createRecordingLogger();
    const warnOnce = createWarnOnce(logger);
    warnOnce("a", "first a", { tool: "a" });
    warnOnce("a", "second a");
    warnOnce("b", "first b");
    expect(logger.records).toEqual([
      { level: "warn", message: "first a", fields: { tool: "a" } },
      { level: "warn", message: "first b" },
    ]);
  });
});
