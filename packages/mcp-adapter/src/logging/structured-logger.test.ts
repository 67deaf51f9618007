import { describe, expect, it } from "vitest";
import { createLoggerFrom, type StructuredLogTarget } from "./structured-logger.js";

describe("createLoggerFrom", () => {
  it("passes fields first and the message second, and a bare message alone", () => {
    const calls: unknown[][] = [];
    const record =
      (level: string) =>
      (...args: unknown[]) =>
        calls.push([level, ...args]);
    const target = {
      debug: record("debug"),
      info: record("info"),
      warn: record("warn"),
      error: record("error"),
    } as StructuredLogTarget;
    const logger = createLoggerFrom(target);
    logger.debug("starting");
    logger.info("listening", { url: "http://127.0.0.1:1/mcp" });
    logger.warn("slow", { ms: 5 });
    logger.error("failed");
    expect(calls).toEqual([
      ["debug", "starting"],
      ["info", { url: "http://127.0.0.1:1/mcp" }, "listening"],
      ["warn", { ms: 5 }, "slow"],
      ["error", "failed"],
    ]);
  });
});
