// The README's first command (`npm run demo`, after the build): bounded-mcp-proxy in front of a
// real MCP server installed as a dependency (@modelcontextprotocol/server-filesystem), with the
// default memory store. It reads a large JSON file through the proxy, prints how much the model
// would have received without the proxy and what it received with it, then describes and queries
// the stored artifact, as a model would. Everything goes to stdout; the proxy's logs (stderr) are
// kept quiet with --log-level error.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const proxyPackage = fileURLToPath(new URL("../../apps/proxy/package.json", import.meta.url));
const require = createRequire(proxyPackage);
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const PROXY_CLI = fileURLToPath(new URL("../../apps/proxy/dist/cli.js", import.meta.url));
const FILESYSTEM_SERVER = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");

const CATEGORIES = ["tools", "garden", "kitchen", "toys", "books", "audio"];

/** A product catalog export, the kind of JSON an API or a file server hands a model. */
function catalog(count) {
  const products = [];
  for (let index = 0; index < count; index++) {
    products.push({
      sku: `SKU-${String(index).padStart(5, "0")}`,
      name: `${CATEGORIES[index % CATEGORIES.length]} item ${index}`,
      category: CATEGORIES[index % CATEGORIES.length],
      price: Math.round(((index * 7919) % 50000) + 99) / 100,
      stock: (index * 31) % 200,
      status: index % 97 === 0 ? "discontinued" : "active",
      description: `Item ${index}: ${"sturdy, well reviewed, ships in two days. ".repeat(4)}`,
    });
  }
  return { exportedAt: "2026-01-01T00:00:00Z", products };
}

const kib = (bytes) =>
  `${(bytes / 1024).toLocaleString("en-US", { maximumFractionDigits: 1 })} KiB`;
const section = (title) => console.log(`\n=== ${title}`);
/** JSON with one line per array item (rows, item keys, matches), so pages stay readable. */
const compact = (value) =>
  JSON.stringify(value, null, 2).replace(/\{\n\s+[^{}[\]]*?\n\s*\}/g, (object) =>
    JSON.stringify(JSON.parse(object)),
  );
const structured = (result) => result.structuredContent;

const dir = realpathSync(mkdtempSync(join(tmpdir(), "bounded-mcp-demo-")));
const file = join(dir, "catalog.json");
const text = JSON.stringify(catalog(12_000), null, 2);
writeFileSync(file, text);

const client = new Client({ name: "bounded-mcp-demo", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [
      PROXY_CLI,
      "--log-level",
      "error",
      "--store",
      "memory",
      "--",
      process.execPath,
      FILESYSTEM_SERVER,
      dir,
    ],
    stderr: "inherit",
  }),
);

try {
  section("1. tools/list through the proxy");
  const { tools } = await client.listTools();
  console.log(tools.map((tool) => tool.name).join(", "));

  section(`2. read_text_file ${file}`);
  const started = performance.now();
  const result = await client.callTool({ name: "read_text_file", arguments: { path: file } });
  const milliseconds = Math.round(performance.now() - started);
  const received = Buffer.byteLength(JSON.stringify(result));
  const envelope = structured(result);
  const { artifact } = envelope.responseMeta;
  console.log(`the server returned     ${kib(artifact.byteLength)} (${artifact.byteLength} bytes)`);
  console.log(
    `the model received      ${kib(received)} (${received} bytes, the whole tool result), in ${milliseconds} ms`,
  );
  console.log(`that is                 ${(artifact.byteLength / received).toFixed(0)}x smaller`);
  console.log(`artifact                ${artifact.id} (expires ${artifact.expiresAt})`);
  console.log(`guidance                ${envelope.guidance}`);
  console.log(
    `preview (first 240 characters of data):\n${JSON.stringify(envelope.data).slice(0, 240)}…`,
  );

  const ask = async (title, request) => {
    section(title);
    console.log(`query_response_artifact ${JSON.stringify(request)}`);
    const answer = structured(
      await client.callTool({
        name: "query_response_artifact",
        arguments: { artifactId: artifact.id, ...request },
      }),
    );
    console.log(compact(answer.shape ?? answer.response));
    const meta = answer.responseMeta;
    console.log(
      `-> ${meta.returnedCount} of ${meta.totalCount} ${meta.pageUnit ?? ""}, ${meta.serializedBytes} bytes, next cursor: ${meta.nextCursor ?? "none"}`,
    );
    return answer;
  };

  await ask("3. describe the stored result", { describe: true });
  const filtered = {
    responsePath: "/products",
    filters: [
      { path: "/category", value: "garden" },
      { path: "/price", op: "lt", value: 20 },
    ],
    fields: ["sku", "name", "price", "stock"],
    pageSize: 4,
  };
  const first = await ask("4. garden products under 20, four fields each, 4 per page", filtered);
  await ask("5. the next page, with the authenticated cursor", {
    ...filtered,
    cursor: first.responseMeta.nextCursor,
  });
  await ask("6. text search for one SKU", { textSearch: { query: "SKU-04242" } });
  await ask("7. products and stock per category, in one call (aggregate)", {
    responsePath: "/products",
    aggregate: {
      groupBy: "/category",
      metrics: [{ op: "count" }, { op: "sum", path: "/stock" }, { op: "max", path: "/price" }],
    },
  });
  await ask("8. the three most expensive active products (sort)", {
    responsePath: "/products",
    filters: [{ path: "/status", value: "active" }],
    sort: [{ path: "/price", order: "desc" }],
    fields: ["sku", "name", "price"],
    pageSize: 3,
  });
  section("done");
  console.log(
    "Put your own server behind it: npx bounded-mcp-proxy -- <command> [args...]  (see apps/proxy/README.md)",
  );
} finally {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
}
