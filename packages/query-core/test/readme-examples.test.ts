/**
 * README.md's TypeScript blocks, read from the README at test time and imported as modules. A
 * block that takes the caller's names as given (document, context, scopeHash, ...) gets them
 * declared before it, and an export of what it computed after it; the block itself is never
 * copied. If one of these fails, the README is wrong.
 */
import { writeReadmeBlock } from "@bounded-mcp/vitest-config/readme-blocks";
import { afterEach, beforeEach, expect, it } from "vitest";

const HARNESS = JSON.stringify(
  new URL("../src/query/test-support/query-harness.ts", import.meta.url).href,
);
const GIVEN = `import { ARTIFACT_ID as artifactId, createTestContext } from ${HARNESS};
const context = createTestContext();
const scopeHash = context.scopeHash;
`;
const NODES = `const document = { nodes: [
  { name: "Code", type: "n8n-nodes-base.code", parameters: { jsCode: "return items;" } },
  { name: "Slack", type: "n8n-nodes-base.slack", parameters: {} },
] };
`;

/** Writes README block `name` between `before` and `after` and imports it. */
async function runBlock<T>(name: string, before: string, after: string): Promise<T> {
  const file = writeReadmeBlock({
    readme: new URL("../README.md", import.meta.url),
    name,
    packageDir: new URL("..", import.meta.url),
    before,
    after,
  });
  return (await import(file)) as T;
}

// The blocks read BOUNDED_MCP_KEYS as a program would; each test sets a valid ring.
let savedKeys: string | undefined;
beforeEach(() => {
  savedKeys = process.env.BOUNDED_MCP_KEYS;
  process.env.BOUNDED_MCP_KEYS = `readme:${"ab".repeat(32)}`;
});
afterEach(() => {
  if (savedKeys === undefined) delete process.env.BOUNDED_MCP_KEYS;
  else process.env.BOUNDED_MCP_KEYS = savedKeys;
});

it("parses and runs a query as the runQuery example says", async () => {
  const { parsed } = await runBlock<{ parsed: { success: boolean } }>(
    "query-core-run-query",
    `${GIVEN}${NODES}const args = { artifactId, responsePath: "/nodes", fields: ["name", "/parameters/jsCode"],
  filters: [{ path: "/type", op: "icontains", value: "code" }], pageSize: 10 };
const artifact = { responseRoot: "", sourceTruncated: false, mediaType: "application/json" };
const viewCache = undefined;
`,
    "\nexport { parsed };\n",
  );
  expect(parsed.success).toBe(true);
});

it("answers with runQueryAsync as runQuery does", async () => {
  const { result, isError } = await runBlock<{ result: { response: unknown }; isError: boolean }>(
    "query-core-run-query-async",
    `${GIVEN}${NODES}import { createRequest } from ${HARNESS};
const request = createRequest({ responsePath: "/nodes", fields: ["name"] });
`,
    "\nexport { result, isError };\n",
  );
  expect(isError).toBe(false);
  expect(result.response).toEqual([{ name: "Code" }, { name: "Slack" }]);
});

it("behaves as the README example of §9 says", async () => {
  const { result } = await runBlock<{ result: { response: unknown; responseMeta: unknown } }>(
    "query-core-extensions",
    GIVEN,
    "\nexport { result };\n",
  );
  expect(result.response).toEqual([
    { "/nodes": "openAi", count: 2, "sum(/views)": 1020 },
    { "/nodes": "slack", count: 1, "sum(/views)": 900 },
    { "/nodes": "hubspot", count: 1, "sum(/views)": 300 },
  ]);
  expect(result.responseMeta).toMatchObject({
    pageUnit: "rows",
    totalCount: 3,
    aggregateSkipped: 0,
    extensions: ["sort", "aggregate"],
  });
});

it("round-trips a cursor as the cursor example says", async () => {
  const { ring, cursor, claims, decodeCursor } = await runBlock<{
    ring: unknown;
    cursor: string;
    claims: unknown;
    decodeCursor: (ring: unknown, cursor: string, claims: unknown) => unknown;
  }>(
    "query-core-cursor",
    `${GIVEN}import { createRequest } from ${HARNESS};
const request = createRequest({ responsePath: "/items" });
const responseRoot = "";
`,
    "\nexport { ring, cursor, claims, decodeCursor };\n",
  );
  expect(decodeCursor(ring, cursor, claims)).toEqual({ ok: true, offset: 40 });
});

it("builds a bounded envelope as the previews example says", async () => {
  const { envelope, responseRoot, primaryPaths } = await runBlock<{
    envelope: { responseMeta: { artifact: { id: string } }; guidance: string };
    responseRoot: string;
    primaryPaths: string[];
  }>(
    "query-core-preview",
    `import { createHash } from "node:crypto";
const items = Array.from({ length: 400 }, (_, index) => ({ id: index, name: \`item \${index}\`, notes: "x".repeat(40) }));
const text = JSON.stringify({ success: true, data: { items } });
const isJson = true;
const success = true;
const artifact = { id: "Zq3xV9kLm2Pw8RtY6uNb4A", uri: "artifact://bounded-mcp/Zq3xV9kLm2Pw8RtY6uNb4A",
  mediaType: "application/json", byteLength: Buffer.byteLength(text),
  sha256: createHash("sha256").update(text).digest("hex"), expiresAt: "2026-01-02T00:00:00.000Z",
  queryTool: "query_response_artifact", responseRoot: "/data", primaryPaths: ["/data/items"], sourceTruncated: false };
`,
    "\nexport { envelope, responseRoot, primaryPaths };\n",
  );
  expect({ responseRoot, primaryPaths }).toEqual({
    responseRoot: "/data",
    primaryPaths: ["/data/items"],
  });
  expect(envelope.responseMeta.artifact.id).toBe("Zq3xV9kLm2Pw8RtY6uNb4A");
  expect(envelope.guidance).toContain("Kept while this server process runs");
});

it("pages through a view cache as the View cache example says", async () => {
  const { page } = await runBlock<{ page: { result: { response: unknown } } }>(
    "query-core-view-cache",
    `${GIVEN}${NODES}import { createRequest } from ${HARNESS};
const request = createRequest({ responsePath: "/nodes", fields: ["name"], sort: [{ path: "name", order: "desc" }] });
`,
    "\nexport { page };\n",
  );
  expect(page.result.response).toEqual([{ name: "Slack" }, { name: "Code" }]);
});

it("keeps inexact numbers as the Exact numbers example says", async () => {
  const { document } = await runBlock<{ document: unknown }>(
    "query-core-exact-numbers",
    "",
    "\nexport { document };\n",
  );
  // The block's own copy of the package (its dist), whose ExactNumbers these recognise.
  const { findInexactNumbers, stringifyExact } = await import("@bounded-mcp/query-core");
  expect({
    text: stringifyExact(document)?.text,
    plain: JSON.stringify(document),
    found: findInexactNumbers(document),
  }).toEqual({
    text: '{"items":[{"id":12345678901234567890,"v":1e400},{"id":-0}]}',
    plain: '{"items":[{"id":12345678901234567000,"v":null},{"id":0}]}',
    found: { pointers: ["/items/0/id", "/items/0/v", "/items/1/id"], total: 3 },
  });
});
