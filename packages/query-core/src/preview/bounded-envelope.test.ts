import {
  type ArtifactRef,
  type BoundedEnvelope,
  BoundedEnvelopeSchema,
} from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeDocument } from "./analyze-document.js";
import {
  type BoundedEnvelopeInput,
  createBoundedEnvelope,
  envelopeBudget,
} from "./bounded-envelope.js";
import { TEXT_RESPONSE_ROOT, textToDocument } from "./text-document.js";

function artifactFor(document: unknown, overrides: Partial<ArtifactRef> = {}): ArtifactRef {
  return {
    id: "artifact_0123456789abcdefgh",
    mediaType: "application/json",
    byteLength: Buffer.byteLength(JSON.stringify(document)),
    sha256: "ab".repeat(32),
    expiresAt: "2026-11-30T12:00:00.000Z",
    queryTool: "query_response_artifact",
    ...analyzeDocument(document),
    ...overrides,
  };
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** Every envelope a test builds is checked against the contract and its byte budget. */
function build(input: BoundedEnvelopeInput): BoundedEnvelope {
  const envelope = createBoundedEnvelope(input);
  expect(BoundedEnvelopeSchema.safeParse(envelope).error).toBeUndefined();
  expect(bytesOf(envelope)).toBeLessThanOrEqual(
    envelopeBudget(input.artifact.byteLength, input.previewBytes),
  );
  return envelope;
}

/** The envelope as JSON data (objects without prototypes become plain ones). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

const KiB = 1024;

/** An items result of about `bytes` bytes: `{success, data: {total, items: [...]}}`. */
function itemsOfSize(bytes: number) {
  const items = [];
  for (let index = 0, size = 2; size < bytes; index++) {
    const item = {
      id: `item-${index}`,
      name: `Item ${index}`,
      price: index % 97,
      tags: ["a", "b"],
    };
    items.push(item);
    size += Buffer.byteLength(JSON.stringify(item)) + 1;
  }
  return { success: true, data: { total: items.length, items } };
}

const nodes = Array.from({ length: 300 }, (_, index) => ({
  id: `id-${index}`,
  name: `Node ${index}`,
  type: "n8n-nodes-base.code",
  parameters: { jsCode: `return ${index};`.padEnd(400, " ") },
}));

describe("envelopeBudget", () => {
  it("is max(2 KiB, 5% of the result), never over previewBytes", () => {
    expect(envelopeBudget(32 * KiB + 1, 8 * KiB)).toBe(2048);
    expect(envelopeBudget(40 * KiB, 8 * KiB)).toBe(2048);
    expect(envelopeBudget(80 * KiB, 8 * KiB)).toBe(4096);
    expect(envelopeBudget(160 * KiB, 8 * KiB)).toBe(8192);
    expect(envelopeBudget(50 * 1024 * KiB, 8 * KiB)).toBe(8192);
    expect(envelopeBudget(50 * 1024 * KiB, 1024)).toBe(1024);
  });
});

describe("createBoundedEnvelope", () => {
  it("sizes the envelope of a result just over inlineBytes to 2 KiB: a sample of two items, whole", () => {
    const document = itemsOfSize(33 * KiB);
    const artifact = artifactFor(document);
    const envelope = build({ document, artifact, success: true, previewBytes: 8 * KiB });
    expect(bytesOf(envelope)).toBeLessThanOrEqual(2048);
    expect(plain(envelope)).toMatchInlineSnapshot(`
      {
        "data": {
          "data": {
            "items": [
              {
                "id": "item-0",
                "name": "Item 0",
                "price": 0,
                "tags": [
                  "a",
                  "b",
                ],
              },
              {
                "id": "item-1",
                "name": "Item 1",
                "price": 1,
                "tags": [
                  "a",
                  "b",
                ],
              },
              {
                "_omittedItems": 531,
              },
            ],
            "total": 533,
          },
          "success": true,
        },
        "guidance": "data is a preview of a 33879-byte result, not the result; cuts are marked {"_omittedItems": n}. Query it with query_response_artifact, artifactId = responseMeta.artifact.id. Collections: "/data/items": 533 items, 2 in data. Use fields, filters, sort or aggregate; follow responseMeta.nextCursor. Items not in data are in the artifact. Kept until expiresAt at the latest.",
        "responseMeta": {
          "artifact": {
            "byteLength": 33879,
            "expiresAt": "2026-11-30T12:00:00.000Z",
            "id": "artifact_0123456789abcdefgh",
            "mediaType": "application/json",
            "primaryPaths": [
              "/data/items",
            ],
            "queryTool": "query_response_artifact",
            "responseRoot": "/data",
            "sha256": "abababababababababababababababababababababababababababababababab",
            "sourceTruncated": false,
          },
          "complete": false,
          "contractVersion": 3,
          "serializedBytes": 33879,
          "sourceTruncated": false,
          "truncated": true,
          "truncationReason": "size_limit",
        },
        "success": true,
      }
    `);
  });

  it("keeps a large result's envelope a sample too, far below previewBytes", () => {
    const document = itemsOfSize(1024 * KiB);
    const envelope = build({
      document,
      artifact: artifactFor(document),
      success: true,
      previewBytes: 8 * KiB,
      ephemeralStore: true,
    });
    expect(bytesOf(envelope)).toBeLessThanOrEqual(2048);
    expect(plain(envelope)).toMatchInlineSnapshot(`
      {
        "data": {
          "data": {
            "items": [
              {
                "id": "item-0",
                "name": "Item 0",
                "price": 0,
                "tags": [
                  "a",
                  "b",
                ],
              },
              {
                "id": "item-1",
                "name": "Item 1",
                "price": 1,
                "tags": [
                  "a",
                  "b",
                ],
              },
              {
                "_omittedItems": 15769,
              },
            ],
            "total": 15771,
          },
          "success": true,
        },
        "guidance": "data is a preview of a 1048627-byte result, not the result; cuts are marked {"_omittedItems": n}. Query it with query_response_artifact, artifactId = responseMeta.artifact.id. Collections: "/data/items": 15771 items, 2 in data. Use fields, filters, sort or aggregate; follow responseMeta.nextCursor. Items not in data are in the artifact. Kept while this server process runs, until expiresAt at the latest.",
        "responseMeta": {
          "artifact": {
            "byteLength": 1048627,
            "expiresAt": "2026-11-30T12:00:00.000Z",
            "id": "artifact_0123456789abcdefgh",
            "mediaType": "application/json",
            "primaryPaths": [
              "/data/items",
            ],
            "queryTool": "query_response_artifact",
            "responseRoot": "/data",
            "sha256": "abababababababababababababababababababababababababababababababab",
            "sourceTruncated": false,
          },
          "complete": false,
          "contractVersion": 3,
          "serializedBytes": 1048627,
          "sourceTruncated": false,
          "truncated": true,
          "truncationReason": "size_limit",
        },
        "success": true,
      }
    `);
  });

  it("names a keyed object (an account map) with its objectMode request, never a path inside one entry", () => {
    const accounts = Object.fromEntries(
      Array.from({ length: 400 }, (_, index) => [
        `acct_${10_000 + index}`,
        {
          plan: index % 3 === 0 ? "pro" : "free",
          mrr: index * 7,
          features: Array.from({ length: index === 15 ? 300 : 4 }, (_, n) => `feature-${n}`),
        },
      ]),
    );
    const document = { accounts, generatedAt: "2026-11-30" };
    const artifact = artifactFor(document);
    expect(artifact.primaryPaths).toEqual(["/accounts"]);
    const envelope = build({ document, artifact, success: true, previewBytes: 8 * KiB });
    expect(envelope.guidance).toMatchInlineSnapshot(
      `"data is a preview of a 44189-byte result, not the result; cuts are marked "_omittedKeys": n, {"_omittedItems": n}. Query it with query_response_artifact, artifactId = responseMeta.artifact.id. Collections: "/accounts": 400 keyed entries, 12 in data; read them with {"responsePath": "/accounts", "objectMode": "entries"}. Use fields, filters, sort or aggregate; follow responseMeta.nextCursor. Items not in data are in the artifact. Kept until expiresAt at the latest."`,
    );
  });

  it("suggests describe when the preview hides the keys of the items, and not when it shows them", () => {
    const wide = Array.from({ length: 200 }, (_, index) =>
      Object.fromEntries(Array.from({ length: 60 }, (_, key) => [`field${key}`, index + key])),
    );
    const hidden = build({
      document: { rows: wide },
      artifact: artifactFor({ rows: wide }),
      success: true,
      previewBytes: 8 * KiB,
    });
    expect(hidden.guidance).toContain('{"describe": true} lists the keys the preview hides.');
    const narrow = itemsOfSize(100 * KiB);
    const shown = build({
      document: narrow,
      artifact: artifactFor(narrow),
      success: true,
      previewBytes: 8 * KiB,
    });
    expect(shown.guidance).not.toContain("describe");
    expect(shown.guidance).toContain("Use fields, filters, sort or aggregate");
  });

  it("tells items left out of the preview apart from results only the tool's own paging reaches", () => {
    const { data } = itemsOfSize(60 * KiB);
    const document = { ...data, offset: 0, limit: data.items.length, hasMore: true };
    const envelope = build({
      document,
      artifact: artifactFor(document),
      success: true,
      previewBytes: 8 * KiB,
    });
    expect(envelope.responseMeta.sourceTruncated).toBe(true);
    expect(envelope.guidance).toMatchInlineSnapshot(
      `"data is a preview of a 61501-byte result, not the result; cuts are marked {"_omittedItems": n}. Query it with query_response_artifact, artifactId = responseMeta.artifact.id. Collections: "/items": 965 items, 2 in data. Use fields, filters, sort or aggregate; follow responseMeta.nextCursor. Items not in data are in the artifact. The tool reports its own result as partial: further results come only from the tool's own paging (call it again), not from the artifact. Kept until expiresAt at the latest."`,
    );
  });

  it("promises no expiry the store cannot keep", () => {
    const document = itemsOfSize(40 * KiB);
    const input = {
      document,
      artifact: artifactFor(document),
      success: true,
      previewBytes: 8 * KiB,
    };
    expect(build({ ...input, ephemeralStore: true }).guidance).toContain(
      "Kept while this server process runs, until expiresAt at the latest.",
    );
    expect(build(input).guidance).toContain("Kept until expiresAt at the latest.");
  });

  it("says so and points to describe when the budget leaves no room for a value", () => {
    const document = { data: nodes };
    const outcomes = new Set<string>();
    for (let pathChars = 0; pathChars < 300; pathChars += 4) {
      const primaryPaths = Array.from(
        { length: 6 },
        (_, index) => `/${"p".repeat(pathChars)}${index}`,
      );
      const envelope = createBoundedEnvelope({
        document,
        artifact: artifactFor(document, { primaryPaths }),
        success: true,
        previewBytes: 2048,
      });
      expect(BoundedEnvelopeSchema.safeParse(envelope).success).toBe(true);
      if (envelope.data === null) {
        expect(envelope.guidance).toContain('start with {"describe": true}');
        outcomes.add("no data");
      } else if (envelope.guidance.includes("no room for values")) {
        expect(bytesOf(envelope)).toBeLessThanOrEqual(2048);
        expect(envelope.guidance).toContain('start with {"describe": true}');
        outcomes.add("markers only");
      } else {
        expect(bytesOf(envelope)).toBeLessThanOrEqual(2048);
        outcomes.add("values");
      }
    }
    expect([...outcomes].sort()).toEqual(["markers only", "no data", "values"]);
  });

  it("keeps ids and times out of data: two artifacts of one payload share the preview bytes", () => {
    const document = { success: true, data: { nodes } };
    const first = build({
      document,
      artifact: artifactFor(document),
      success: true,
      previewBytes: 8192,
    });
    const second = build({
      document: structuredClone(document),
      artifact: artifactFor(document, {
        id: "another_artifact_id_0000",
        expiresAt: "2027-01-01T00:00:00.000Z",
      }),
      success: true,
      previewBytes: 8192,
    });
    expect(JSON.stringify(second.data)).toBe(JSON.stringify(first.data));
    expect(second.guidance).toBe(first.guidance);
  });

  it("compacts the hook's reshaped preview instead of the document, and suggests describe unless it shows the item keys", () => {
    const document = { success: true, data: { nodes } };
    const preview = { workflow: "Big", nodeCount: 300, nodeTypes: { "n8n-nodes-base.code": 300 } };
    const input = {
      document,
      artifact: artifactFor(document),
      success: false,
      previewBytes: 8192,
      preview,
    };
    const envelope = build(input);
    expect(plain({ success: envelope.success, data: envelope.data })).toEqual({
      success: false,
      data: preview,
    });
    expect(envelope.guidance).toMatchInlineSnapshot(
      `"data is a reshaped preview of a 146815-byte result, not the result. Query it with query_response_artifact, artifactId = responseMeta.artifact.id. Collections: "/data/nodes": 300 items. {"describe": true} lists the keys the preview hides. Kept until expiresAt at the latest."`,
    );
    expect(build({ ...input, itemKeysShown: true }).guidance).not.toContain("describe");
  });

  it("previews a text artifact as its lines", () => {
    const text = Array.from({ length: 2000 }, (_, index) => `line ${index}`).join("\n");
    const document = textToDocument(text);
    const artifact = artifactFor(document, {
      mediaType: "text/plain",
      byteLength: Buffer.byteLength(text),
    });
    const envelope = build({ document, artifact, success: true, previewBytes: 4096 });
    expect(envelope.responseMeta.artifact.responseRoot).toBe(TEXT_RESPONSE_ROOT);
    expect(envelope.responseMeta.artifact.primaryPaths).toEqual(["/lines"]);
    expect(plain(envelope.data)).toEqual({ lines: ["line 0", "line 1", { _omittedItems: 1998 }] });
  });
});

describe("createBoundedEnvelope when the artifact reference leaves no room", () => {
  it("sends data null and the short guidance rather than a preview that would not fit", () => {
    const document = { data: nodes };
    const primaryPaths = Array.from({ length: 6 }, (_, index) => `/${"p".repeat(250)}${index}`);
    const envelope = createBoundedEnvelope({
      document,
      artifact: artifactFor(document, { primaryPaths }),
      success: true,
      previewBytes: 2048,
    });
    expect(BoundedEnvelopeSchema.safeParse(envelope).success).toBe(true);
    expect(envelope.data).toBeNull();
    expect(envelope.guidance).toMatchInlineSnapshot(
      `"data is empty: the envelope had no room for a preview. Query the result with query_response_artifact; start with {"describe": true}."`,
    );
  });
});

describe("createBoundedEnvelope properties", () => {
  it("is byte-identical across runs, schema-valid and within previewBytes for any JSON", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.integer({ min: 1024, max: 16_384 }),
        (document, previewBytes) => {
          const input = { document, artifact: artifactFor(document), success: true, previewBytes };
          const first = JSON.stringify(createBoundedEnvelope(input));
          const second = JSON.stringify(
            createBoundedEnvelope({ ...input, document: structuredClone(document) }),
          );
          expect(second).toBe(first);
          const budget = envelopeBudget(input.artifact.byteLength, previewBytes);
          expect(Buffer.byteLength(first)).toBeLessThanOrEqual(budget);
          expect(BoundedEnvelopeSchema.safeParse(JSON.parse(first)).success).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("createBoundedEnvelope guidance without collections", () => {
  it("names a large root object of scalars with its objectMode request", () => {
    const messages = Object.fromEntries(
      Array.from({ length: 500 }, (_, index) => [`Message_${index}`, `Text of message ${index}`]),
    );
    const envelope = build({
      document: messages,
      artifact: artifactFor(messages),
      success: true,
      previewBytes: 8192,
    });
    expect(envelope.responseMeta.artifact.primaryPaths).toEqual([]);
    expect(envelope.guidance).toMatchInlineSnapshot(
      `"data is a preview of a 17781-byte result, not the result; cuts are marked "_omittedKeys": n. Query it with query_response_artifact, artifactId = responseMeta.artifact.id. Collections: "": 500 keyed entries, 24 in data; read them with {"responsePath": "", "objectMode": "entries"}. Use fields, filters, sort or aggregate; follow responseMeta.nextCursor. Items not in data are in the artifact. Kept until expiresAt at the latest."`,
    );
  });
});
