import { createHash } from "node:crypto";
import { BoundedEnvelopeSchema } from "@bounded-mcp/contract";
import { afterEach, describe, expect, it } from "vitest";
import { OFF_THREAD_HASH_MIN_BYTES } from "../src/bounding/encode-payload.js";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { createTestAdapter } from "./support/harness.js";

const RECEIVED_JSON = Symbol.for("@bounded-mcp/received-json");

let adapter: BoundedMcp | undefined;
afterEach(async () => {
  await adapter?.dispose();
  adapter = undefined;
});

/** structuredContent parsed from `wire`, with the text attached as the relay's transport does. */
function received(wire: string): Record<string, unknown> {
  const value = JSON.parse(wire) as Record<string, unknown>;
  Object.defineProperty(value, RECEIVED_JSON, { value: () => wire, configurable: true });
  return value;
}

describe("the text a transport attached to structuredContent", () => {
  it.each([
    ["small (hashed on the calling thread)", 1_500],
    ["large (hashed on the helper thread)", OFF_THREAD_HASH_MIN_BYTES / 20],
  ])(
    "is stored as the upstream's bytes, then dropped from the value the cache keeps: %s",
    async (_name, count) => {
      const rows = Array.from(
        { length: count },
        (_, index) => `{ "id" : ${index}, "price" : 1.50 }`,
      );
      const wire = `{ "rows" : [${rows.join(", ")}] }`;
      const structuredContent = received(wire);
      adapter = createTestAdapter();
      const result = await adapter.boundResult({
        content: [{ type: "text", text: "rows" }],
        structuredContent,
      });
      const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
      expect({
        sha256: envelope.responseMeta.artifact.sha256,
        byteLength: envelope.responseMeta.artifact.byteLength,
        attached: Object.getOwnPropertySymbols(structuredContent).includes(RECEIVED_JSON),
      }).toEqual({
        sha256: createHash("sha256").update(wire).digest("hex"),
        byteLength: Buffer.byteLength(wire),
        attached: false,
      });
    },
  );
});
