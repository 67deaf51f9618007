import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { SettingsError } from "../src/index.js";
import { createBoundedMcp } from "../src/server/create-bounded-mcp.js";
import { createRecordingLogger } from "../src/testing/index.js";
import { itemsPayloadOfSize, jsonTextResult } from "./support/fixtures.js";
import { TEST_KEYS } from "./support/harness.js";

const payload = itemsPayloadOfSize(100_000);

function artifactOf(result: CallToolResult) {
  return (result.structuredContent as { responseMeta: { artifact: { id: string; uri?: string } } })
    .responseMeta.artifact;
}

describe("settings of createBoundedMcp", () => {
  it("warns exactly once when no keys are configured", async () => {
    const logger = createRecordingLogger();
    const bounded = createBoundedMcp({ environment: {}, logger });
    await bounded.boundResult(jsonTextResult(payload));
    expect(logger.records.filter((record) => record.level === "warn")).toEqual([
      expect.objectContaining({ message: expect.stringContaining("BOUNDED_MCP_KEYS is not set") }),
    ]);
    expect(bounded.settings.keyRingSource).toBe("random");
    await bounded.dispose();
  });

  it("derives the same id after a restart with the same BOUNDED_MCP_KEYS (stdio local scope)", async () => {
    const environment = { BOUNDED_MCP_KEYS: TEST_KEYS };
    const first = createBoundedMcp({ environment });
    const second = createBoundedMcp({ environment });
    const before = artifactOf(await first.boundResult(jsonTextResult(payload)));
    const after = artifactOf(await second.boundResult(jsonTextResult(payload)));
    expect(after.id).toBe(before.id);
    await first.dispose();
    await second.dispose();
  });

  it("refuses an invalid value at start with one SettingsError", () => {
    expect(() => createBoundedMcp({ environment: { BOUNDED_MCP_INLINE_BYTES: "lots" } })).toThrow(
      SettingsError,
    );
  });

  it("refuses an option that is no setting and no option of createBoundedMcp", () => {
    expect(() => createBoundedMcp({ environment: {}, colour: "red" } as never)).toThrow(
      "options.colour is not a setting",
    );
  });

  it("reads no app's older names: MCP_RESPONSE_* belong to n8n-mcp-bounded", async () => {
    const bounded = createBoundedMcp({
      environment: { MCP_RESPONSE_INLINE_BYTES: "lots" },
      keys: TEST_KEYS,
    });
    expect(bounded.settings.limits.inlineBytes).toBe(32_768);
    await bounded.dispose();
  });

  it("bounds at the inlineBytes the variable sets", async () => {
    const bounded = createBoundedMcp({
      environment: { BOUNDED_MCP_INLINE_BYTES: "8192", BOUNDED_MCP_PREVIEW_BYTES: "4096" },
      keys: TEST_KEYS,
    });
    const result = jsonTextResult(itemsPayloadOfSize(10_000));
    const bounded10k = await bounded.boundResult(result);
    expect(bounded10k).not.toBe(result);
    expect(Buffer.byteLength(JSON.stringify(bounded10k.structuredContent))).toBeLessThanOrEqual(
      4096,
    );
    await bounded.dispose();
  });

  it("leaves out the resource link and the uri when resource links are off", async () => {
    const bounded = createBoundedMcp({ environment: {}, keys: TEST_KEYS, resourceLinks: false });
    const result = await bounded.boundResult(jsonTextResult(payload));
    expect(result.content).toHaveLength(1);
    expect(artifactOf(result).uri).toBeUndefined();
    await bounded.dispose();
  });
});
