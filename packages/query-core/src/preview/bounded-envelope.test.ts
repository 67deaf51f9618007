import {
  type ArtifactRef,
  type BoundedEnvelope,
  BoundedEnvelopeSchema,
} from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeDocument } from "./analyze-document.js";
import { type BoundedEnvelopeInput, createBoundedEnvelope } from "./bounded-envelope.js";
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
  expect(bytesOf(envelope)).toBeLessThanOrEqual(input.previewBytes);
  return envelope;
}

const nodes = Array.from({ length: 300 }, (_, index) => ({
  id: `id-${index}`,
  name: `Node ${index}`,
  type: "n8n-nodes-base.code",
  parameters: { jsCode: `return ${index};`.padEnd(400, " ") },
}));

describe("createBoundedEnvelope", () => {
  it("builds the whole §2 envelope around a payload that needs no compaction", () => {
    const document = {
      success: true,
      data: { nodes: nodes.slice(0, 5).map(({ id }) => ({ id })) },
    };
    const artifact = artifactFor(document);
    const envelope = build({
      document,
      artifact,
      success: true,
      previewBytes: 8192,
    });
    expect(BoundedEnvelopeSchema.parse(envelope)).toEqual(envelope);
    expect(JSON.parse(JSON.stringify(envelope))).toEqual({
      success: true,
      data: {
        success: true,
        data: {
          nodes: [{ id: "id-0" }, { id: "id-1" }, { id: "id-2" }, { id: "id-3" }, { id: "id-4" }],
        },
      },
      responseMeta: {
        contractVersion: 3,
        truncated: true,
        complete: false,
        truncationReason: "size_limit",
        serializedBytes: artifact.byteLength,
        sourceTruncated: false,
        artifact: {
          id: "artifact_0123456789abcdefgh",
          mediaType: "application/json",
          byteLength: artifact.byteLength,
          sha256: "ab".repeat(32),
          expiresAt: "2026-11-30T12:00:00.000Z",
          queryTool: "query_response_artifact",
          responseRoot: "/data",
          primaryPaths: ["/data/nodes"],
          sourceTruncated: false,
        },
      },
      guidance:
        'data is a reshaped preview of an oversized result, not the result itself: omissions are marked {"_omittedItems": n}, "_omittedKeys": n and "…[N chars total]". The full result is stored as responseMeta.artifact.id; query it with query_response_artifact. Start with {"describe": true}, then page the collections at "/data/nodes" with fields, filters or textSearch.',
    });
  });

  it("compacts an oversized payload until the whole envelope fits previewBytes", () => {
    const document = { success: true, data: { nodes } };
    for (const previewBytes of [1024, 4096, 8192]) {
      const envelope = build({
        document,
        artifact: artifactFor(document),
        success: true,
        previewBytes,
      });
      expect(BoundedEnvelopeSchema.safeParse(envelope).success).toBe(true);
      expect(bytesOf(envelope)).toBeLessThanOrEqual(previewBytes);
      expect(bytesOf(envelope)).toBeGreaterThan(previewBytes / 2);
    }
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

  it("compacts the hook's reshaped preview instead of the document", () => {
    const document = { success: true, data: { nodes } };
    const envelope = build({
      document,
      artifact: artifactFor(document),
      success: false,
      previewBytes: 8192,
      preview: { workflow: "Big", nodeCount: 300, nodeTypes: { "n8n-nodes-base.code": 300 } },
    });
    expect(JSON.parse(JSON.stringify({ success: envelope.success, data: envelope.data }))).toEqual({
      success: false,
      data: { workflow: "Big", nodeCount: 300, nodeTypes: { "n8n-nodes-base.code": 300 } },
    });
  });

  it("says so in the guidance when the source is partial, and names no paths when it has none", () => {
    const document = { hasMore: true, text: "z".repeat(20_000) };
    const envelope = build({
      document,
      artifact: artifactFor(document),
      success: true,
      previewBytes: 2048,
    });
    expect(envelope.guidance).toBe(
      'data is a reshaped preview of an oversized result, not the result itself: omissions are marked {"_omittedItems": n}, "_omittedKeys": n and "…[N chars total]". The full result is stored as responseMeta.artifact.id; query it with query_response_artifact. Start with {"describe": true}, then page it with fields, filters or textSearch. The source itself reports that it is partial.',
    );
    expect(envelope.responseMeta.sourceTruncated).toBe(true);
    expect(JSON.parse(JSON.stringify(envelope.data))).toEqual({
      hasMore: true,
      text: `${"z".repeat(1000)}…[20000 chars total]`,
    });
  });

  it("previews a text artifact as its lines", () => {
    const text = Array.from({ length: 2000 }, (_, index) => `line ${index}`).join("\n");
    const document = textToDocument(text);
    const artifact = artifactFor(document, {
      mediaType: "text/plain",
      byteLength: Buffer.byteLength(text),
    });
    const envelope = build({
      document,
      artifact,
      success: true,
      previewBytes: 4096,
    });
    expect(envelope.responseMeta.artifact.responseRoot).toBe(TEXT_RESPONSE_ROOT);
    expect(envelope.responseMeta.artifact.primaryPaths).toEqual(["/lines"]);
    const lines = (envelope.data as { lines: unknown[] }).lines;
    expect(lines.slice(0, 3)).toEqual(["line 0", "line 1", "line 2"]);
    expect(lines.at(-1)).toEqual({ _omittedItems: 2000 - lines.length + 1 });
    expect(bytesOf(envelope)).toBeLessThanOrEqual(4096);
  });

  it("falls back to a short guidance when the artifact reference leaves little room", () => {
    const document = { data: nodes };
    const longPaths = Array.from({ length: 6 }, (_, index) => `/${"p".repeat(200)}${index}`);
    const envelope = build({
      document,
      artifact: artifactFor(document, { primaryPaths: longPaths }),
      success: true,
      previewBytes: 2000,
    });
    expect(envelope.guidance).toBe(
      'data is a reshaped preview, not the result. Query the full result with query_response_artifact; start with {"describe": true}.',
    );
    expect(bytesOf(envelope)).toBeLessThanOrEqual(2000);
  });
});

describe("createBoundedEnvelope when the artifact reference leaves no room", () => {
  it("sends data null rather than a preview that would not fit", () => {
    const document = { data: nodes };
    const artifact = artifactFor(document);
    const shortGuidance =
      'data is a reshaped preview, not the result. Query the full result with query_response_artifact; start with {"describe": true}.';
    const loose = createBoundedEnvelope({ document, artifact, success: true, previewBytes: 8192 });
    const withoutData = { ...loose, data: null, guidance: shortGuidance };
    const previewBytes = bytesOf(withoutData) + 10;
    const envelope = createBoundedEnvelope({ document, artifact, success: true, previewBytes });
    expect(BoundedEnvelopeSchema.safeParse(envelope).success).toBe(true);
    expect(envelope).toEqual(withoutData);
    expect(bytesOf(envelope)).toBeLessThanOrEqual(previewBytes);
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
          expect(Buffer.byteLength(first)).toBeLessThanOrEqual(previewBytes);
          expect(BoundedEnvelopeSchema.safeParse(JSON.parse(first)).success).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
