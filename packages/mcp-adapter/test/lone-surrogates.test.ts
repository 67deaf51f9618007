import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { useFsAdapters } from "./support/fs-adapters.js";

const { folder, adapterOver } = useFsAdapters("adapter-lone-surrogates-");

/** A lone high, a lone low and a pair, in one line (a pair is no lone surrogate). */
const ODD = "hi \ud800 lo \udc00 pair \ud83d\ude00 end \udbff";
const ROWS = 600;

/** A text block of JSON whose strings hold lone surrogates, over inlineBytes. */
const jsonText = JSON.stringify({
  rows: Array.from({ length: ROWS }, (_, id) => ({ id, note: `${ODD} ${id}` })),
}).replaceAll("\\ud800", "\ud800");
/** A text block that is not JSON, its lines holding lone surrogates. */
const plainText = Array.from(
  { length: ROWS },
  (_, id) => `line ${id}: ${ODD} ${"x".repeat(40)}`,
).join("\n");

const textResult = (text: string): CallToolResult => ({ content: [{ type: "text", text }] });

interface Ref {
  id: string;
  byteLength: number;
  sha256: string;
  mediaType: string;
}

/** Bounds `text` in a fresh folder, then asks the same query from the cache and after a restart. */
async function answeredTwice(text: string, query: Record<string, unknown>) {
  const dir = await folder();
  const first = adapterOver(dir);
  const bounded = await first.boundResult(textResult(text));
  const artifact = (bounded.structuredContent as { responseMeta: { artifact: Ref } }).responseMeta
    .artifact;
  const ask = async (adapter: BoundedMcp) => {
    const answer = await adapter.callQueryTool({ artifactId: artifact.id, ...query });
    return {
      response: (answer.structuredContent as { response: unknown }).response,
      text: JSON.stringify(
        (JSON.parse((answer.content[0] as { text: string }).text) as { response: unknown })
          .response,
      ),
    };
  };
  const cached = await ask(first);
  const restarted = adapterOver(dir);
  const stored = await restarted.store.get(artifact.id);
  if (stored === null || !("body" in stored)) throw new Error("the artifact was not stored");
  return { artifact, stored, cached, fromStore: await ask(restarted) };
}

describe("lone surrogates in a text block (SPEC.md §10)", () => {
  it("a JSON text is answered the same from the cache and after a restart over the fs store (it was \\ufffd after the restart)", async () => {
    const { artifact, stored, cached, fromStore } = await answeredTwice(jsonText, {
      responsePath: "/rows/3/note",
    });
    expect(cached.response).toBe(`${ODD} 3`);
    expect(fromStore).toEqual(cached);
    expect(cached.text).toBe(JSON.stringify(`${ODD} 3`));
    const body = stored.body.toString("utf8");
    expect({
      mediaType: artifact.mediaType,
      bodyEncoding: stored.meta.bodyEncoding,
      escaped: body.includes("\\ud800") && body.includes("\\udc00") && body.includes("\\udbff"),
      pairKept: body.includes("\ud83d\ude00"),
      value: JSON.parse(body),
      byteLength: artifact.byteLength === stored.body.byteLength,
      sha256: createHash("sha256").update(stored.body).digest("hex"),
    }).toEqual({
      mediaType: "application/json",
      bodyEncoding: undefined,
      escaped: true,
      pairKept: true,
      value: JSON.parse(jsonText),
      byteLength: true,
      sha256: artifact.sha256,
    });
  });

  it("a plain text is stored as the JSON string of its text, marked so, and answered the same after a restart", async () => {
    const { artifact, stored, cached, fromStore } = await answeredTwice(plainText, {
      responsePath: "/lines/5",
    });
    expect(cached.response).toBe(`line 5: ${ODD} ${"x".repeat(40)}`);
    expect(fromStore).toEqual(cached);
    expect({
      mediaType: artifact.mediaType,
      bodyEncoding: stored.meta.bodyEncoding,
      body: JSON.parse(stored.body.toString("utf8")),
      sha256: createHash("sha256").update(stored.body).digest("hex"),
    }).toEqual({
      mediaType: "text/plain",
      bodyEncoding: "json-string",
      body: plainText,
      sha256: artifact.sha256,
    });
  });

  it("a well-formed text is stored as received, unmarked", async () => {
    const text = plainText.replace(/[\ud800-\udfff]/g, "?");
    const { stored } = await answeredTwice(text, { responsePath: "/lines/0" });
    expect({ body: stored.body.toString("utf8"), bodyEncoding: stored.meta.bodyEncoding }).toEqual({
      body: text,
      bodyEncoding: undefined,
    });
  });
});
