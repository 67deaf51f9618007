import { fileURLToPath } from "node:url";

/** The built CLI, as `npx bounded-mcp-proxy` runs it (build first: the tests spawn dist/). */
export const PROXY_CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

/** @modelcontextprotocol/server-everything; run as `node <path> stdio`. */
export const SERVER_EVERYTHING = fileURLToPath(
  new URL(
    "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    import.meta.url,
  ),
);

/** @modelcontextprotocol/server-filesystem; run as `node <path> <allowed dir>`. */
export const SERVER_FILESYSTEM = fileURLToPath(
  new URL(
    "../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
    import.meta.url,
  ),
);

/** A --hooks module that writes to console.log (stdout, unless the proxy redirects it). */
export const CHATTY_HOOKS = fileURLToPath(new URL("./chatty-hooks.mjs", import.meta.url));
