import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BoundedEnvelopeSchema, DEFAULT_LIMITS } from "@bounded-mcp/contract";
import { createFsStore } from "@bounded-mcp/stores/fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { createPreviewOverride } from "../src/bounding/preview-override.js";
import { itemsPayloadOfSize, jsonBytes, jsonTextResult } from "./support/fixtures.js";
import {
  closeAfterEach,
  connectLowLevelServer,
  createTestAdapter,
  TEST_NOW,
} from "./support/harness.js";

const KiB = 1024;
const track = closeAfterEach();
const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function callBounded(
  payload: unknown,
  options: Parameters<typeof createTestAdapter>[0] = {},
): Promise<CallToolResult> {
  const bounded = createTestAdapter(options);
  const connection = await connectLowLevelServer(bounded, {
    fixture: { result: () => jsonTextResult(payload) },
  });
  track(bounded, connection);
  return (await connection.client.callTool({ name: "fixture", arguments: {} })) as CallToolResult;
}

function envelopeText(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === "text" ? first.text : "";
}

describe("the envelope budget through a real Client", () => {
  it("gives a result just over inlineBytes an envelope of at most 2 KiB, whole as the model reads it", async () => {
    const payload = itemsPayloadOfSize(DEFAULT_LIMITS.inlineBytes + 200);
    const result = await callBounded(payload);
    const text = envelopeText(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2 * KiB);
    expect(JSON.parse(text)).toMatchInlineSnapshot(`
      {
        "data": {
          "data": {
            "items": [
              {
                "description": "Description of item 0. Description of item 0. Description of item 0. Description of item 0. Descript…[120 chars total]",
                "id": "item-000000",
                "name": "Item number 0",
                "score": 0,
                "status": "active",
                "tags": [
                  "group-0",
                  "batch-0",
                ],
              },
              {
                "description": "Description of item 1. Description of item 1. Description of item 1. Description of item 1. Descript…[120 chars total]",
                "id": "item-000001",
                "name": "Item number 1",
                "score": 37,
                "status": "archived",
                "tags": [
                  "group-1",
                  "batch-0",
                ],
              },
              {
                "_omittedItems": 138,
              },
            ],
            "total": 140,
          },
          "success": true,
        },
        "guidance": "data is a preview of a 33851-byte result, not the result; cuts are marked "…[N chars total]", {"_omittedItems": n}. Query it with query_response_artifact, artifactId = responseMeta.artifact.id. Collections: "/data/items": 140 items, 2 in data. Use fields, filters, sort or aggregate; follow responseMeta.nextCursor. Items not in data are in the artifact. Kept while this server process runs, until expiresAt at the latest.",
        "responseMeta": {
          "artifact": {
            "byteLength": 33851,
            "expiresAt": "2026-01-02T00:00:00.000Z",
            "id": "RTJWJDTxgbCoTlg2q0IEifjA",
            "mediaType": "application/json",
            "primaryPaths": [
              "/data/items",
            ],
            "queryTool": "query_response_artifact",
            "responseRoot": "/data",
            "sha256": "b4e6c294741fbb063101d53148a89abc16f69eac6fc05b737c6c83ad91a04b1b",
            "sourceTruncated": false,
            "uri": "artifact://bounded-mcp/RTJWJDTxgbCoTlg2q0IEifjA",
          },
          "complete": false,
          "contractVersion": 3,
          "serializedBytes": 33851,
          "sourceTruncated": false,
          "truncated": true,
          "truncationReason": "size_limit",
        },
        "success": true,
      }
    `);
  });

  it("keeps a 4 MiB result's envelope within previewBytes and a sample of it", async () => {
    const payload = itemsPayloadOfSize(4 * 1024 * KiB);
    const result = await callBounded(payload);
    const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
    expect(Buffer.byteLength(envelopeText(result))).toBeLessThanOrEqual(
      DEFAULT_LIMITS.previewBytes,
    );
    const items = (envelope.data as { data: { items: unknown[] } }).data.items;
    expect(items).toHaveLength(3);
    expect(items.at(-1)).toEqual({ _omittedItems: payload.data.items.length - 2 });
  });

  it("stays under max(2 KiB, 5% of the result) for results from just over inlineBytes to 200 KiB", async () => {
    for (const size of [33, 40, 48, 64, 80, 120, 160, 200]) {
      const payload = itemsPayloadOfSize(size * KiB);
      const text = envelopeText(await callBounded(payload));
      const budget = Math.min(8 * KiB, Math.max(2 * KiB, Math.ceil(jsonBytes(payload) * 0.05)));
      expect({ size, within: Buffer.byteLength(text) <= budget }).toEqual({ size, within: true });
    }
  });

  it("says an artifact of the memory store lives only as long as this process", async () => {
    const envelope = BoundedEnvelopeSchema.parse(
      (await callBounded(itemsPayloadOfSize(40 * KiB))).structuredContent,
    );
    expect(envelope.guidance).toContain("Kept while this server process runs");
  });

  it("promises expiresAt, at the latest, for an artifact of the fs store", async () => {
    const dir = await mkdtemp(join(tmpdir(), "envelope-budget-"));
    folders.push(dir);
    const artifactStore = createFsStore({ dir, clock: () => TEST_NOW, sweepIntervalMs: 0 });
    const envelope = BoundedEnvelopeSchema.parse(
      (await callBounded(itemsPayloadOfSize(40 * KiB), { artifactStore })).structuredContent,
    );
    expect(envelope.guidance).toContain("Kept until expiresAt at the latest.");
    expect(envelope.guidance).not.toContain("process");
  });

  it("lets a preview hook say its reshaped preview shows every item key, so describe is not suggested", async () => {
    const payload = itemsPayloadOfSize(40 * KiB);
    const preview = () => ({ total: payload.data.total, firstId: payload.data.items[0]?.id });
    const plain = BoundedEnvelopeSchema.parse(
      (await callBounded(payload, { preview })).structuredContent,
    );
    expect(plain.guidance).toContain('{"describe": true}');
    const said = BoundedEnvelopeSchema.parse(
      (
        await callBounded(payload, {
          preview: () => createPreviewOverride({ preview: preview(), itemKeysShown: true }),
        })
      ).structuredContent,
    );
    expect(said.guidance).not.toContain("describe");
  });
});
