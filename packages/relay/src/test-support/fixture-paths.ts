import { fileURLToPath } from "node:url";

/** Path of the fixture MCP server script (SDK McpServer over stdio), run with node. */
export const FIXTURE_SERVER_PATH = fileURLToPath(new URL("./fixture-server.mjs", import.meta.url));

/** Path of the raw line server (pre-serialized N MiB answers), run as `node <path> <MiB> [noise]`. */
export const RAW_LINE_SERVER_PATH = fileURLToPath(
  new URL("./raw-line-server.mjs", import.meta.url),
);

/** Entry point of @modelcontextprotocol/server-everything; run as `node <path> stdio`. */
export const SERVER_EVERYTHING_PATH = fileURLToPath(
  new URL(
    "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    import.meta.url,
  ),
);

/** Entry point of @modelcontextprotocol/server-filesystem; run as `node <path> <allowed dir>`. */
export const SERVER_FILESYSTEM_PATH = fileURLToPath(
  new URL(
    "../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
    import.meta.url,
  ),
);
