import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolvePointer } from "../pointer/pointer.js";
import { analyzeDocument } from "./analyze-document.js";
import { TEXT_RESPONSE_ROOT, textToDocument } from "./text-document.js";

function node(index: number) {
  return {
    id: `id-${index}`,
    name: `Node ${index}`,
    type: "n8n-nodes-base.set",
    parameters: { value: "v".repeat(200) },
  };
}

const nodes = Array.from({ length: 40 }, (_, index) => node(index));
const connections = Object.fromEntries(
  nodes.slice(0, 12).map((item) => [item.name, { main: [[{ node: "Next", index: 0 }]] }]),
);

describe("analyzeDocument: responseRoot", () => {
  it("is the pointer of an envelope's single data-bearing key", () => {
    expect(analyzeDocument({ success: true, data: { nodes, connections } })).toEqual({
      responseRoot: "/data",
      primaryPaths: ["/data/nodes", "/data/connections"],
      sourceTruncated: false,
    });
  });

  it('is "" when two keys carry data (a workflow itself, not an envelope)', () => {
    const workflow = { id: "w", nodes: nodes.slice(0, 8), connections: connections };
    expect(analyzeDocument(workflow)).toEqual({
      responseRoot: "",
      primaryPaths: ["/nodes", "/connections"],
      sourceTruncated: false,
    });
  });

  it('is "" for an array, a scalar and an empty object', () => {
    expect(analyzeDocument(nodes)).toEqual({
      responseRoot: "",
      primaryPaths: [""],
      sourceTruncated: false,
    });
    expect(analyzeDocument("text")).toEqual({
      responseRoot: "",
      primaryPaths: [],
      sourceTruncated: false,
    });
    expect(analyzeDocument({})).toEqual({
      responseRoot: "",
      primaryPaths: [],
      sourceTruncated: false,
    });
  });

  it('is "" when the largest key holds a scalar', () => {
    expect(analyzeDocument({ text: "t".repeat(10_000), items: [1, 2] }).responseRoot).toBe("");
  });

  it("escapes the key of the responseRoot as an RFC 6901 token", () => {
    expect(analyzeDocument({ ok: true, "a/b~c": nodes }).responseRoot).toBe("/a~1b~0c");
  });

  it("is the lines of a text document", () => {
    const document = textToDocument("first\nsecond\nthird\nfourth\nfifth");
    expect(analyzeDocument(document)).toEqual({
      responseRoot: TEXT_RESPONSE_ROOT,
      primaryPaths: ["/lines"],
      sourceTruncated: false,
    });
  });
});

describe("analyzeDocument: primaryPaths", () => {
  it("lists arrays of >= 5 items and keyed objects of >= 5 object-valued entries, largest first", () => {
    const document = {
      small: [1, 2, 3, 4],
      tags: ["a", "b", "c", "d", "e"],
      meta: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 },
      byName: Object.fromEntries(nodes.slice(0, 5).map((item) => [item.name, item])),
      items: nodes,
    };
    expect(analyzeDocument(document).primaryPaths).toEqual(["/items", "/byName", "/tags"]);
  });

  it("drops a keyed wrapper whose own collection holds most of its bytes; keeps a map of like-shaped entries whole", () => {
    const wrapper = { a: {}, b: {}, c: {}, d: {}, e: {}, list: nodes };
    expect(analyzeDocument({ result: wrapper, other: { x: 1 } }).primaryPaths).toEqual([
      "/result/list",
    ]);
    const spread = Object.fromEntries(
      ["a", "b", "c", "d", "e"].map((key, index) => [
        key,
        { list: nodes.slice(10 + index * 5, 15 + index * 5) },
      ]),
    );
    // An account map: the entries' inner lists are parts of one entry, never collections.
    expect(analyzeDocument({ result: spread, other: { x: 1 } }).primaryPaths).toEqual(["/result"]);
    const unlike = {
      db: { tables: nodes },
      cache: { ttl: 1 },
      auth: { provider: "x" },
      log: { level: "info" },
      api: { base: "/" },
    };
    expect(analyzeDocument({ config: unlike, other: { x: 1 } }).primaryPaths).toEqual([
      "/config/db/tables",
    ]);
  });

  it("never lists a path inside one entry of an account map", () => {
    const accounts = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [
        `acct_${10_000 + index}`,
        {
          plan: index % 2 === 0 ? "pro" : "free",
          mrr: index * 10,
          features: Array.from({ length: index === 15 ? 400 : 6 }, (_, feature) => `f${feature}`),
        },
      ]),
    );
    expect(analyzeDocument(accounts).primaryPaths).toEqual([""]);
    expect(analyzeDocument({ accounts, page: 1 }).primaryPaths).toEqual(["/accounts"]);
  });

  it("lists the document itself when it is a keyed object (a map of names to objects)", () => {
    const byName = Object.fromEntries(nodes.map((item) => [item.name, item]));
    expect(analyzeDocument(byName)).toEqual({
      responseRoot: "",
      primaryPaths: [""],
      sourceTruncated: false,
    });
  });

  it("does not count a record with more scalar than object entries as keyed", () => {
    const record = { a: {}, b: {}, c: {}, d: {}, e: {}, f: 1, g: 2, h: 3, i: 4, j: 5, k: 6 };
    expect(analyzeDocument({ record, x: 1 }).primaryPaths).toEqual([]);
  });

  it("keeps at most 6, breaking size ties by pointer", () => {
    const document = Object.fromEntries(
      ["h", "g", "f", "e", "d", "c", "b", "a"].map((key) => [key, [1, 2, 3, 4, 5]]),
    );
    expect(analyzeDocument(document).primaryPaths).toEqual(["/a", "/b", "/c", "/d", "/e", "/f"]);
  });

  it("searches objects down to 5 levels but never inside array items", () => {
    const deep = { l1: { l2: { l3: { l4: { l5: nodes, l6: { l7: nodes } } } } } };
    expect(analyzeDocument(deep).primaryPaths).toEqual(["/l1/l2/l3/l4/l5"]);
    expect(analyzeDocument({ rows: [{ inner: nodes }] }).primaryPaths).toEqual([]);
  });
});

describe("analyzeDocument: sourceTruncated", () => {
  it.each([
    ["truncated at the top", { truncated: true, items: [] }, true],
    ["hasMore in a nested envelope", { data: { page: { hasMore: true } } }, true],
    ["hasMoreData inside an array item", { runs: [{ hasMoreData: true }] }, true],
    ["a flag at depth 6", { a: { b: { c: { d: { e: { truncated: true } } } } } }, true],
    ["a flag at depth 7", { a: { b: { c: { d: { e: { f: { truncated: true } } } } } } }, false],
    ["a false flag", { hasMore: false }, false],
    ["a truthy non-boolean flag", { truncated: "yes" }, false],
  ])("is %s -> %s", (_name, document, expected) => {
    expect(analyzeDocument(document).sourceTruncated).toBe(expected);
  });
});

describe("analyzeDocument properties", () => {
  it("answers for any JSON with a resolvable responseRoot and primaryPaths, at most 6", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (document) => {
        const analysis = analyzeDocument(document);
        expect(analysis.primaryPaths.length).toBeLessThanOrEqual(6);
        for (const pointer of [analysis.responseRoot, ...analysis.primaryPaths]) {
          expect(resolvePointer(document, pointer).found).toBe(true);
        }
        expect(analyzeDocument(structuredClone(document))).toEqual(analysis);
      }),
      { numRuns: 300 },
    );
  });
});
