import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isSameJsonValue, keepReceivedJsonWhileUnchanged } from "./hooked-received-json.js";
import { attachReceivedJson, receivedJsonTextOf } from "./received-json.js";
import { RAW_RESULT_SERVER_PATH } from "./test-support/fixture-paths.js";
import { SPACED_STRUCTURED } from "./test-support/spaced-structured.mjs";
import { recordedStdioUpstream, startRelay } from "./test-support/start-relay.js";

const AS_SENT = z.custom<Record<string, unknown>>((value) => typeof value === "object");

function deep(depth: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

describe("isSameJsonValue", () => {
  it("tells a changed value from the parsed one: -0, a key, an array length, a nested number", () => {
    const text = '{"a":[1,{"b":-0}],"c":"x"}';
    expect(isSameJsonValue(JSON.parse(text), JSON.parse(text))).toBe(true);
    expect(isSameJsonValue(JSON.parse(text), { c: "x", a: [1, { b: -0 }] })).toBe(true);
    expect(isSameJsonValue(JSON.parse(text), { a: [1, { b: 0 }], c: "x" })).toBe(false);
    expect(isSameJsonValue(JSON.parse(text), { a: [1, { b: -0 }], c: "x", d: 1 })).toBe(false);
    expect(isSameJsonValue(JSON.parse(text), { a: [1, { b: -0 }, 2], c: "x" })).toBe(false);
    expect(isSameJsonValue(JSON.parse(text), { a: { 0: 1, 1: { b: -0 } }, c: "x" })).toBe(false);
    expect(isSameJsonValue(JSON.parse(text), { a: [1, { b: -0 }], c: undefined })).toBe(false);
  });

  it("compares 100,000 levels without a stack overflow", () => {
    expect(isSameJsonValue(deep(100_000, 1), deep(100_000, 1))).toBe(true);
    expect(isSameJsonValue(deep(100_000, 1), deep(100_000, 2))).toBe(false);
  });
});

describe("keepReceivedJsonWhileUnchanged", () => {
  it("gives the text when the value is as parsed at the first ask, nothing when a hook changed it before", () => {
    const text = '{ "n": 12345678901234567890 }';
    const kept = JSON.parse(text) as { n: number };
    const changed = JSON.parse(text) as { n: number };
    for (const value of [kept, changed]) {
      attachReceivedJson(value, () => text);
      keepReceivedJsonWhileUnchanged(value);
    }
    changed.n = 1;
    // The verdict is kept: measuring, bounding and writing the result on ask in turn.
    expect([kept, changed, kept].map((value) => receivedJsonTextOf(value)?.())).toEqual([
      text,
      undefined,
      text,
    ]);
  });

  it("keeps a stdio upstream's bytes when the tool hook only read structuredContent", async () => {
    const relay = await startRelay({
      upstream: recordedStdioUpstream("raw", [RAW_RESULT_SERVER_PATH], []),
      hooks: {
        spaced_structured: ({ result }) => void Object.keys(result.structuredContent ?? {}),
      },
    });
    try {
      const result = (await relay.downstream.request(
        { method: "tools/call", params: { name: "spaced_structured" } } as never,
        AS_SENT,
      )) as { structuredContent: { responseMeta: { artifact: { sha256: string } } } };
      expect(result.structuredContent.responseMeta.artifact.sha256).toBe(
        createHash("sha256").update(SPACED_STRUCTURED).digest("hex"),
      );
    } finally {
      await relay.close();
    }
  });
});
