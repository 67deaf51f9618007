import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../test/support/connect-bounded.js";
import { generateExecutions, generateWorkflow } from "../../test/support/generate-workflow.js";
import { isRecord } from "./json-shapes.js";
import { createN8nPreviewHook, N8N_PREVIEWERS } from "./n8n-preview-hook.js";
import { summarizeDisplayOptions } from "./node-schema-preview.js";
import { listWorkflowEdges } from "./workflow-preview.js";

// The property: whatever a model reads in an n8n preview is either the full value or says in
// place that it is not. Two halves, checked on every generated payload:
// 1. The previewer's own output against the payload: counts are the true counts, a key the
//    preview shares with the payload holds the payload's value unless `_summarized` names it, a
//    shortened list ends with {"_omittedItems": n} (n the true number left out), a deduplicated
//    list is named in `_deduplicated`, and no list reads like a full one it is not.
// 2. The envelope's data (after the generic compaction to previewBytes) against the previewer's
//    output: every value equal, or a cut marked with the true count (_omittedItems,
//    _omittedKeys, "…[N chars total]").

const CUT_STRING = /…\[(\d+) chars total\]$/;

/** Envelope budgets tried; every payload is padded past the larger inlineBytes (6,145). */
const PREVIEW_SIZES = [2048, 6144];
/** Makes every payload larger than inlineBytes; an array, so no preview copies it as a scalar. */
const PADDING = ["x".repeat(7000)];

/** Problems of `shown` as a compaction of `full`: every difference must be a marked cut. */
function compactionProblems(shown: unknown, full: unknown, path: string, out: string[]): void {
  if (typeof full === "string") {
    if (shown === full) return;
    const match = typeof shown === "string" ? CUT_STRING.exec(shown) : null;
    const kept = match === null ? "" : (shown as string).slice(0, match.index);
    if (match === null || Number(match[1]) !== full.length || !full.startsWith(kept)) {
      out.push(`${path}: ${JSON.stringify(shown)} is not ${JSON.stringify(full)} nor a marked cut`);
    }
    return;
  }
  if (Array.isArray(full)) {
    if (!Array.isArray(shown)) return void out.push(`${path}: an array became ${typeof shown}`);
    if (shown.length === full.length) {
      // All items, or (as happens) as many: the first ones and the marker of the rest.
      const asWhole: string[] = [];
      for (const [index, item] of shown.entries()) {
        compactionProblems(item, full[index], `${path}/${index}`, asWhole);
      }
      if (asWhole.length === 0) return;
      const asCut: string[] = [];
      arrayCutProblems(shown, full, path, asCut);
      if (asCut.length > 0) out.push(...asWhole);
      return;
    }
    arrayCutProblems(shown, full, path, out);
    return;
  }
  if (isRecord(full)) {
    if (!isRecord(shown)) return void out.push(`${path}: an object became ${typeof shown}`);
    const asSent: string[] = [];
    objectCutProblems(shown, full, path, asSent);
    if (asSent.length === 0 || typeof full._omittedKeys !== "number") {
      out.push(...asSent);
      return;
    }
    // A compaction may merge the preview's own _omittedKeys into its count of dropped keys.
    const { _omittedKeys: ownCount, ...fullKept } = full;
    const { _omittedKeys: shownCount, ...shownKept } = shown;
    const merged: string[] = [];
    objectCutProblems(
      { ...shownKept, _omittedKeys: Number(shownCount ?? 0) - Number(ownCount) },
      fullKept,
      path,
      merged,
    );
    out.push(...(merged.length === 0 ? [] : asSent));
    return;
  }
  if (!Object.is(shown, full)) out.push(`${path}: ${String(shown)} is not ${String(full)}`);
}

/** Problems of `shown` as a compaction of the object `full`, markers as the preview sent them. */
function objectCutProblems(shown: JsonObject, full: JsonObject, path: string, out: string[]): void {
  const fullKeys = Object.keys(full);
  const omitted = Object.hasOwn(full, "_omittedKeys") ? 0 : (shown._omittedKeys ?? 0);
  const shownKeys = Object.keys(shown).filter(
    (key) => key !== "_omittedKeys" || Object.hasOwn(full, "_omittedKeys"),
  );
  if (shownKeys.length + Number(omitted) !== fullKeys.length) {
    out.push(`${path}: ${shownKeys.length} of ${fullKeys.length} keys, _omittedKeys ${omitted}`);
  }
  for (const key of shownKeys) {
    const match = CUT_STRING.exec(key);
    const fullKey = Object.hasOwn(full, key)
      ? key
      : fullKeys.find(
          (candidate) =>
            match !== null &&
            candidate.length === Number(match[1]) &&
            candidate.startsWith(key.slice(0, match.index)),
        );
    if (fullKey === undefined) out.push(`${path}: key ${key} is not in the preview`);
    else compactionProblems(shown[key], full[fullKey], `${path}/${key}`, out);
  }
}

/** `shown` as the first items of `full` followed by {"_omittedItems": n}, n the rest. */
/**
 * The number of `full`'s items a marker after `listed` of them must count: the rest of the list,
 * and, when `full` ends with its own marker, what that one counted instead of itself (a
 * compaction may merge the markers, so the count stays the whole document's).
 */
function itemsLeft(full: unknown[], listed: number): number[] {
  const own = full.at(-1);
  const plain = full.length - listed;
  return isRecord(own) && typeof own._omittedItems === "number" && listed < full.length
    ? [plain, plain - 1 + own._omittedItems]
    : [plain];
}

function arrayCutProblems(shown: unknown[], full: unknown[], path: string, out: string[]): void {
  const marker = shown.at(-1);
  const listed = shown.slice(0, -1);
  if (
    !isRecord(marker) ||
    !itemsLeft(full, listed.length).includes(marker._omittedItems as number)
  ) {
    out.push(`${path}: ${shown.length} of ${full.length} items without a true _omittedItems`);
  }
  for (const [index, item] of listed.entries()) {
    compactionProblems(item, full[index], `${path}/${index}`, out);
  }
}

/** A shortened list of `total` items: the first ones, then {"_omittedItems": total - shown}. */
function listProblems(list: unknown, total: number, path: string, out: string[]): void {
  if (!Array.isArray(list)) return void out.push(`${path}: no list`);
  if (list.length === total) return;
  const marker = list.at(-1);
  if (!isRecord(marker) || marker._omittedItems !== total - (list.length - 1)) {
    out.push(`${path}: ${list.length} listed of ${total} without a true _omittedItems`);
  }
}

/** Shared keys hold the payload's value unless `_summarized` names them. */
function sharedKeyProblems(
  preview: Record<string, unknown>,
  original: Record<string, unknown>,
  out: string[],
): void {
  const summarized = isRecord(preview._summarized) ? preview._summarized : {};
  for (const [key, value] of Object.entries(preview)) {
    if (!Object.hasOwn(original, key) || Object.hasOwn(summarized, key)) continue;
    if (JSON.stringify(value) !== JSON.stringify(original[key])) {
      out.push(`/${key}: differs from the payload's ${key} and _summarized does not say so`);
    }
  }
}

type JsonObject = Record<string, unknown>;

function nodeSchemaProblems(preview: JsonObject, document: JsonObject, out: string[]): void {
  sharedKeyProblems(preview, document, out);
  const properties = document.properties as JsonObject[];
  const operations = document.operations as JsonObject[];
  if (preview.propertyCount !== properties.length) out.push("/propertyCount is not the count");
  if (preview.operationCount !== operations.length) out.push("/operationCount is not the count");
  // Whole groups in order, `_omittedKeys` counting the groups left out; within a group each
  // property as name:type, then * exactly when required, then = exactly when it has a default.
  const marks = (line: string) => /^[^:]*:[a-zA-Z]+\*?=?/.exec(line)?.[0] ?? line;
  const truth = new Map<string, string[]>();
  for (const property of properties) {
    const key = summarizeDisplayOptions(property.displayOptions);
    const line = `${String(property.name)}:${String(property.type)}${property.required === true ? "*" : ""}${Object.hasOwn(property, "default") ? "=" : ""}`;
    truth.set(key, [...(truth.get(key) ?? []), line]);
  }
  groupProblems(preview.properties as JsonObject, truth, marks, "/properties", out);
  const byResource = new Map<string, string[]>();
  for (const operation of operations) {
    const resource = String(operation.resource);
    byResource.set(resource, [...(byResource.get(resource) ?? []), String(operation.operation)]);
  }
  groupProblems(preview.operations as JsonObject, byResource, (text) => text, "/operations", out);
}

/** The first groups of `truth`, each whole, then `_omittedKeys` counting the others. */
function groupProblems(
  shown: JsonObject,
  truth: Map<string, string[]>,
  normalize: (text: string) => string,
  path: string,
  out: string[],
): void {
  const keys = Object.keys(shown).filter((key) => key !== "_omittedKeys");
  const expectedKeys = [...truth.keys()];
  if (JSON.stringify(keys) !== JSON.stringify(expectedKeys.slice(0, keys.length))) {
    out.push(`${path}: groups are not the first ones in order`);
  }
  if (keys.length + Number(shown._omittedKeys ?? 0) !== expectedKeys.length) {
    out.push(
      `${path}: ${keys.length} groups listed of ${expectedKeys.length} without a true _omittedKeys`,
    );
  }
  for (const key of keys) {
    const lines = (shown[key] as string[]).map(normalize);
    if (JSON.stringify(lines) !== JSON.stringify(truth.get(key))) {
      out.push(`${path}/${key}: not every member with its marks`);
    }
  }
}

function templatesProblems(preview: JsonObject, document: JsonObject, out: string[]): void {
  sharedKeyProblems(preview, document, out);
  const items = document.items as JsonObject[];
  if (preview.itemCount !== items.length) out.push("/itemCount is not the count");
  listProblems(preview.items, items.length, "/items", out);
  (preview.items as JsonObject[]).forEach((item, index) => {
    if (Object.hasOwn(item, "_omittedItems")) return;
    const original = items[index] as JsonObject;
    const nodes = original.nodes as string[];
    if (item.nodeCount !== nodes.length) out.push(`/items/${index}/nodeCount is not the count`);
    if (Object.hasOwn(item, "nodes")) out.push(`/items/${index}/nodes reads like the node list`);
    for (const key of ["id", "name", "views", "created"]) {
      if (item[key] !== original[key]) out.push(`/items/${index}/${key} differs`);
    }
  });
}

function nodeSearchProblems(preview: JsonObject, document: JsonObject, out: string[]): void {
  sharedKeyProblems(preview, document, out);
  const results = document.results as JsonObject[];
  if (preview.resultCount !== results.length) out.push("/resultCount is not the count");
  listProblems(preview.results, results.length, "/results", out);
}

function workflowProblems(preview: JsonObject, document: JsonObject, out: string[]): void {
  const workflow = document.data as JsonObject;
  sharedKeyProblems(preview, workflow, out);
  const { total } = listWorkflowEdges(workflow.connections);
  const nodes = workflow.nodes as unknown[];
  if (preview.nodeCount !== nodes.length) out.push("/nodeCount is not the count");
  if (preview.edgeCount !== total) out.push("/edgeCount is not the count");
  listProblems(preview.nodes, nodes.length, "/nodes", out);
  listProblems(preview.edges, total, "/edges", out);
}

function executionsProblems(preview: JsonObject, document: JsonObject, out: string[]): void {
  const data = document.data as JsonObject;
  sharedKeyProblems(preview, data, out);
  const executions = data.executions as unknown[];
  if (preview.executionCount !== executions.length) out.push("/executionCount is not the count");
  listProblems(preview.executions, executions.length, "/executions", out);
}

const PROBLEMS: Record<string, (preview: JsonObject, document: JsonObject, out: string[]) => void> =
  {
    get_node: nodeSchemaProblems,
    search_templates: templatesProblems,
    search_nodes: nodeSearchProblems,
    n8n_get_workflow: workflowProblems,
    n8n_executions: executionsProblems,
  };

const word = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,11}$/);
const text = fc.oneof(word, fc.string({ minLength: 0, maxLength: 400 }));
const jsonDefault = fc.oneof(
  fc.constant(""),
  fc.integer(),
  fc.boolean(),
  text,
  fc.constant({ mode: "list", value: "" }),
  fc.array(word, { maxLength: 3 }),
);

const nodeDocument = fc
  .record({
    properties: fc.array(
      fc.record(
        {
          name: word,
          type: fc.constantFrom("string", "options", "boolean", "number", "collection"),
          required: fc.boolean(),
          default: jsonDefault,
          description: text,
          displayOptions: fc.record({
            show: fc.record(
              { resource: fc.array(word, { maxLength: 2 }), operation: fc.array(word) },
              { requiredKeys: [] },
            ),
          }),
        },
        { requiredKeys: ["name", "type"] },
      ),
      { maxLength: 150, size: "max" },
    ),
    operations: fc.array(fc.record({ operation: word, name: text, resource: word }), {
      maxLength: 60,
      size: "max",
    }),
    credentials: fc.array(fc.record({ name: word, required: fc.boolean() }), { maxLength: 3 }),
    displayName: text,
    description: text,
  })
  .map((node) => ({ nodeType: "nodes-base.generated", ...node, padding: PADDING }));

const templatesDocument = fc
  .record({
    items: fc.array(
      fc.record({
        id: fc.nat(),
        name: text,
        description: text,
        nodes: fc.array(fc.constantFrom("base.set", "base.code", "base.httpRequest", "ai.agent"), {
          maxLength: 60,
          size: "max",
        }),
        views: fc.nat(),
        created: fc.constant("2025-06-25T22:02:46.851Z"),
        url: word,
      }),
      { maxLength: 120, size: "max" },
    ),
    total: fc.nat(),
    limit: fc.nat(),
    offset: fc.nat(),
    hasMore: fc.boolean(),
    tip: text,
  })
  .map((document) => ({ ...document, padding: PADDING }));

const workflowDocument = fc.integer({ min: 1, max: 600 }).map((nodeCount) => ({
  success: true,
  data: generateWorkflow({ id: "p", nodeCount }),
  padding: PADDING,
}));

const executionsDocument = fc.integer({ min: 0, max: 80 }).map((count) => ({
  success: true,
  data: { executions: generateExecutions("wf", count), returned: count, hasMore: false },
  padding: PADDING,
}));

const nodeSearchDocument = fc
  .record({
    query: word,
    results: fc.array(
      fc.record({
        nodeType: word,
        workflowNodeType: word,
        displayName: text,
        description: text,
        category: fc.constantFrom("trigger", "transform", "output"),
        package: word,
        relevance: fc.constantFrom("high", "medium", "low"),
      }),
      { maxLength: 120, size: "max" },
    ),
    totalCount: fc.nat(),
  })
  .map((document) => ({ ...document, padding: PADDING }));

const payloads = fc.oneof(
  fc.tuple(fc.constant("search_nodes"), nodeSearchDocument),
  fc.tuple(fc.constant("get_node"), nodeDocument),
  fc.tuple(fc.constant("search_templates"), templatesDocument),
  fc.tuple(fc.constant("n8n_get_workflow"), workflowDocument),
  fc.tuple(fc.constant("n8n_executions"), executionsDocument),
);

const adapters = new Map<number, BoundedMcp>();

function adapterFor(previewBytes: number): BoundedMcp {
  let bounded = adapters.get(previewBytes);
  if (bounded === undefined) {
    bounded = createBoundedMcp({
      environment: {},
      keys: TEST_KEYS,
      inlineBytes: Math.max(4096, previewBytes + 1),
      previewBytes,
      clock: () => 1_700_000_000_000,
      preview: createN8nPreviewHook(),
    });
    adapters.set(previewBytes, bounded);
  }
  return bounded;
}

beforeAll(() => {
  for (const bytes of PREVIEW_SIZES) adapterFor(bytes);
});

afterAll(async () => {
  await Promise.all([...adapters.values()].map((bounded) => bounded.dispose()));
});

async function envelopeData(previewBytes: number, toolName: string, document: unknown) {
  const result: CallToolResult = {
    content: [{ type: "text", text: JSON.stringify(document, null, 2) }],
  };
  const output = await adapterFor(previewBytes).boundResult(result, { toolName });
  const [first] = output.content;
  if (first?.type !== "text") throw new Error("no text block");
  return (JSON.parse(first.text) as { data: unknown }).data;
}

describe("n8n previews never pass a part for the whole", () => {
  it("counts, shared keys, marked cuts and deduplication hold before and after compaction", async () => {
    await fc.assert(
      fc.asyncProperty(
        payloads,
        fc.constantFrom(...PREVIEW_SIZES),
        async ([toolName, document], previewBytes) => {
          const previewer = N8N_PREVIEWERS[toolName];
          const full = previewer?.preview(document) as JsonObject;
          const problems: string[] = [];
          PROBLEMS[toolName]?.(full, document as JsonObject, problems);
          compactionProblems(
            await envelopeData(previewBytes, toolName, document),
            full,
            "",
            problems,
          );
          expect({ toolName, problems }).toEqual({ toolName, problems: [] });
        },
      ),
      // No shrinking: the payloads are large, and the first failure's problems name the cause.
      { numRuns: 120, seed: 14, endOnFailure: true },
    );
  });

  it("the checks catch what the old templates preview did: distinct types under nodes, no count", () => {
    const document = { items: [{ id: 1, name: "t", nodes: ["a", "a", "b"], views: 1 }] };
    const old = { itemCount: 1, items: [{ id: 1, name: "t", nodes: ["a", "b"] }] };
    const problems: string[] = [];
    templatesProblems(old, document, problems);
    expect(problems).toEqual([
      "/items: differs from the payload's items and _summarized does not say so",
      "/items/0/nodeCount is not the count",
      "/items/0/nodes reads like the node list",
      "/items/0/views differs",
    ]);
  });

  it("the compaction check rejects an unmarked cut and accepts a marked one", () => {
    const problems: string[] = [];
    compactionProblems([1, 2], [1, 2, 3], "/a", problems);
    compactionProblems([1, { _omittedItems: 2 }], [1, 2, 3], "/b", problems);
    compactionProblems("abc…[9 chars total]", "abcdefghi", "/c", problems);
    compactionProblems("abc", "abcdefghi", "/d", problems);
    compactionProblems({ x: 1, _omittedKeys: 1 }, { x: 1, y: 2 }, "/e", problems);
    compactionProblems({ x: 1 }, { x: 1, y: 2 }, "/f", problems);
    // A cut that merges the preview's own marker counts what both left out.
    compactionProblems([1, { _omittedItems: 3 }], [1, 2, { _omittedItems: 2 }], "/g", problems);
    compactionProblems([1, { _omittedItems: 9 }], [1, 2, { _omittedItems: 2 }], "/h", problems);
    compactionProblems({ x: 1, _omittedKeys: 6 }, { x: 1, y: 2, _omittedKeys: 5 }, "/i", problems);
    compactionProblems({ x: 1, _omittedKeys: 1 }, { x: 1, y: 2, _omittedKeys: 5 }, "/j", problems);
    expect(problems).toEqual([
      "/a: 2 of 3 items without a true _omittedItems",
      '/d: "abc" is not "abcdefghi" nor a marked cut',
      "/f: 1 of 2 keys, _omittedKeys 0",
      "/h: 2 of 3 items without a true _omittedItems",
      "/j: 2 of 3 keys, _omittedKeys 0",
      "/j/_omittedKeys: 1 is not 5",
    ]);
  });
});
