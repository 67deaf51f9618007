/**
 * ARCHITECTURE.md's one-way layering as data. A package may depend on (package.json) and import
 * (source) only what its rule names; Node built-ins are allowed unless `builtins` lists the only
 * ones it may use; `scoped` confines a dependency to one folder of src/ that is its own entry
 * point; `confined` confines a dependency to one folder of src/ the rest of the package imports.
 * For every package, production sources (not tests, benchmarks or test-support/) never import
 * another package's `/testing` entry (check-layering.ts).
 */
export interface LayerRule {
  /** Workspace packages and npm packages this package may depend on and import. */
  allowed: string[];
  /** When set, the only Node built-ins the package's sources may import. */
  builtins?: string[];
  /**
   * Dependency name -> the src/ sub-folder (relative) that alone may import it; the folder is a
   * separate entry point (a subpath), so no other source may import the folder either.
   */
  scoped?: Record<string, string>;
  /**
   * Dependency name -> the src/ sub-folder (relative) whose sources alone import it (tests
   * excepted); the rest of the package goes through that folder, so replacing the dependency
   * changes that folder only.
   */
  confined?: Record<string, string>;
  /** Extra npm packages its tests and benchmarks may import (devDependencies). */
  testOnly?: string[];
}

const PACKAGES = [
  "@bounded-mcp/contract",
  "@bounded-mcp/query-core",
  "@bounded-mcp/stores",
  "@bounded-mcp/mcp-adapter",
  "@bounded-mcp/relay",
];

export const LAYER_RULES: Record<string, LayerRule> = {
  "@bounded-mcp/contract": { allowed: ["zod"], builtins: [] },
  "@bounded-mcp/query-core": {
    allowed: ["@bounded-mcp/contract", "jsonpath-plus"],
    builtins: ["node:crypto", "node:buffer"],
    // The §9 benchmark's DuckDB peer (bench/peers/duckdb.ts).
    testOnly: ["@duckdb/node-api"],
  },
  "@bounded-mcp/stores": {
    allowed: ["@bounded-mcp/contract", "@aws-sdk/client-s3", "vitest"],
    scoped: { "@aws-sdk/client-s3": "s3", vitest: "testing" },
    testOnly: ["s3rver"],
  },
  "@bounded-mcp/mcp-adapter": {
    allowed: [
      "@bounded-mcp/contract",
      "@bounded-mcp/query-core",
      "@bounded-mcp/stores",
      "@modelcontextprotocol/sdk",
      "zod",
    ],
    testOnly: [
      "@modelcontextprotocol/server-everything",
      "@modelcontextprotocol/server-filesystem",
      "js-tiktoken",
      // The rebuild property test's S3 store (test/support/s3rver.ts).
      "s3rver",
    ],
  },
  "@bounded-mcp/relay": {
    allowed: [
      "@bounded-mcp/contract",
      "@bounded-mcp/query-core",
      "@bounded-mcp/stores",
      "@bounded-mcp/mcp-adapter",
      "@modelcontextprotocol/sdk",
      // The SDK's own SSE parser, so the HTTP result guard splits events as the SDK does.
      "eventsource-parser",
      "zod",
    ],
    confined: { "@modelcontextprotocol/sdk": "sdk", "eventsource-parser": "sdk", zod: "sdk" },
    testOnly: [
      "@modelcontextprotocol/server-everything",
      "@modelcontextprotocol/server-filesystem",
      "js-tiktoken",
    ],
  },
  "bounded-mcp-proxy": { allowed: [...PACKAGES, "*"] },
  "n8n-mcp-bounded": { allowed: [...PACKAGES, "*"] },
};

/** Workspace names that no package may depend on or import. */
export const APPS = ["bounded-mcp-proxy", "n8n-mcp-bounded"];

/** Test tools every workspace may use in tests and benchmarks. */
export const SHARED_TEST_TOOLS = [
  "vitest",
  "fast-check",
  "@bounded-mcp/vitest-config",
  "@bounded-mcp/bench-utils",
  "@bounded-mcp/tsconfig",
];
