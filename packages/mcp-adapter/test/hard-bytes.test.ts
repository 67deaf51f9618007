import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { itemsPayload, jsonTextResult } from "./support/fixtures.js";
import {
  artifactOf,
  closeAfterEach,
  connectLowLevelServer,
  createTestAdapter,
} from "./support/harness.js";

const track = closeAfterEach();

// SPEC.md §1: hardBytes bounds an answer's JSON; the CallToolResult carries it twice (as
// structuredContent and as its first text block), so the whole result is those two copies.
describe("hardBytes (SPEC.md §1)", () => {
  it("bounds a query answer's JSON, which the CallToolResult carries twice", async () => {
    const bounded = createTestAdapter({
      inlineBytes: 8_192,
      previewBytes: 2_048,
      hardBytes: 8_192,
    });
    const connection = await connectLowLevelServer(bounded, {
      fixture: { result: () => jsonTextResult(itemsPayload(300)) },
    });
    track(bounded, connection);
    const result = await connection.client.callTool({
      name: QUERY_TOOL_NAME,
      arguments: {
        artifactId: await artifactOf(connection),
        responsePath: "/data/items",
        pageSize: 100,
      },
    });
    const json = JSON.stringify(result.structuredContent);
    const text = (result.content as { type: string; text: string }[])[0]?.text;
    const whole = Buffer.byteLength(JSON.stringify(result));
    expect({
      jsonWithinHardBytes: Buffer.byteLength(json) <= 8_192,
      textIsTheSameJson: text === json,
      // the two copies (the text escaped as a JSON string) and the few bytes around them
      wholeIsTheTwoCopies:
        whole <= Buffer.byteLength(json) + Buffer.byteLength(JSON.stringify(text)) + 64,
      wholeOverHardBytes: whole > 8_192,
    }).toEqual({
      jsonWithinHardBytes: true,
      textIsTheSameJson: true,
      wholeIsTheTwoCopies: true,
      wholeOverHardBytes: true,
    });
  });
});
