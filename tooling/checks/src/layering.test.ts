import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  checkLayering,
  findImports,
  readWorkspace,
  type WorkspacePackage,
} from "./check-layering.js";
import { LAYER_RULES } from "./rules.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

function fakePackage(
  name: string,
  files: Record<string, string>,
  deps: string[] = [],
): WorkspacePackage {
  return {
    name,
    dir: `/repo/packages/${name.split("/").pop()}`,
    dependencies: deps,
    devDependencies: [],
    files: Object.entries(files).map(([path, source]) => ({ path, imports: findImports(source) })),
  };
}

describe("the repository's layering", () => {
  it("has no violation in any package.json or import", () => {
    const packages = readWorkspace(ROOT);
    expect(packages.map((pkg) => pkg.name).sort()).toEqual(Object.keys(LAYER_RULES).sort());
    expect(checkLayering(packages, LAYER_RULES)).toEqual([]);
  });
});

describe("checkLayering", () => {
  it('finds static, type-only, side-effect, dynamic and re-export imports, and no "--import" flag', () => {
    const source = [
      'import { a } from "one";',
      'import type { B } from "two";',
      'import "three";',
      'const c = await import("four");',
      'spawn("node", ["--import", "tsx", script]);',
      'export { d } from "./five.js";',
    ].join("\n");
    expect(findImports(source).sort()).toEqual(["./five.js", "four", "one", "three", "two"]);
  });

  it("rejects query-core importing stores", () => {
    const pkg = fakePackage("@bounded-mcp/query-core", {
      "src/x.ts": 'import { createMemoryStore } from "@bounded-mcp/stores";',
    });
    expect(checkLayering([pkg], LAYER_RULES)).toEqual([
      {
        package: "@bounded-mcp/query-core",
        where: "src/x.ts",
        message: "may not import @bounded-mcp/stores",
      },
    ]);
  });

  it("rejects production code importing another package's /testing entry, not its tests", () => {
    const pkg = fakePackage("@bounded-mcp/relay", {
      "src/x.ts": 'import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";',
      "src/x.test.ts": 'import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";',
      "src/test-support/y.ts": 'import { metaFor } from "@bounded-mcp/stores/testing";',
    });
    expect(checkLayering([pkg], LAYER_RULES)).toEqual([
      {
        package: "@bounded-mcp/relay",
        where: "src/x.ts",
        message: "imports the test helpers @bounded-mcp/mcp-adapter/testing from production code",
      },
    ]);
  });

  it("rejects query-core doing I/O through a Node built-in", () => {
    const pkg = fakePackage("@bounded-mcp/query-core", {
      "src/x.ts": 'import { readFile } from "node:fs";',
    });
    expect(checkLayering([pkg], LAYER_RULES)[0]?.message).toBe(
      "may not use the Node built-in node:fs",
    );
  });

  it("rejects contract importing anything but zod", () => {
    const pkg = fakePackage("@bounded-mcp/contract", {
      "src/x.ts": 'import { z } from "zod";\nimport { JSONPath } from "jsonpath-plus";',
    });
    expect(checkLayering([pkg], LAYER_RULES).map((v) => v.message)).toEqual([
      "may not import jsonpath-plus",
    ]);
  });

  it("rejects any package importing or depending on an app", () => {
    const pkg = fakePackage(
      "@bounded-mcp/mcp-adapter",
      { "src/x.ts": 'import { main } from "bounded-mcp-proxy";' },
      ["n8n-mcp-bounded"],
    );
    expect(checkLayering([pkg], LAYER_RULES).map((v) => v.message)).toEqual([
      "depends on app n8n-mcp-bounded",
      "imports app bounded-mcp-proxy",
    ]);
  });

  it("rejects a package.json dependency the layer does not allow", () => {
    const pkg = fakePackage("@bounded-mcp/query-core", {}, ["@bounded-mcp/stores"]);
    expect(checkLayering([pkg], LAYER_RULES).map((v) => v.message)).toEqual([
      "may not depend on @bounded-mcp/stores",
    ]);
  });

  it("keeps the S3 SDK out of the stores' root entry", () => {
    const pkg = fakePackage("@bounded-mcp/stores", {
      "src/index.ts": 'export { createS3Store } from "./s3/index.js";',
      "src/memory.ts": 'import { S3Client } from "@aws-sdk/client-s3";',
      "src/s3/index.ts": 'import { S3Client } from "@aws-sdk/client-s3";',
    });
    expect(checkLayering([pkg], LAYER_RULES).map((v) => `${v.where}: ${v.message}`)).toEqual([
      "src/index.ts: imports the s3/ entry from outside it: ./s3/index.js",
      "src/memory.ts: imports @aws-sdk/client-s3 outside src/s3/",
    ]);
  });

  it("keeps the MCP SDK inside the relay's src/sdk/, which the rest of the relay imports", () => {
    const pkg = fakePackage("@bounded-mcp/relay", {
      "src/create-bounded-relay.ts": 'import { createRelayServer } from "./sdk/relay-server.js";',
      "src/serve-stdio.ts":
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";',
      "src/sdk/relay-server.ts":
        'import { Server } from "@modelcontextprotocol/sdk/server/index.js";',
      "src/relay-server.test.ts":
        'import { Client } from "@modelcontextprotocol/sdk/client/index.js";',
    });
    expect(checkLayering([pkg], LAYER_RULES).map((v) => `${v.where}: ${v.message}`)).toEqual([
      "src/serve-stdio.ts: imports @modelcontextprotocol/sdk outside src/sdk/",
    ]);
  });

  it("lets the relay use the adapter, and no app", () => {
    const pkg = fakePackage(
      "@bounded-mcp/relay",
      {
        "src/x.ts": 'import { createBoundedMcp } from "@bounded-mcp/mcp-adapter";',
        "src/y.ts": 'import { runProxy } from "bounded-mcp-proxy";',
      },
      ["@bounded-mcp/mcp-adapter"],
    );
    expect(checkLayering([pkg], LAYER_RULES).map((v) => v.message)).toEqual([
      "imports app bounded-mcp-proxy",
    ]);
  });

  it("rejects the adapter importing the relay (the layering is one-way)", () => {
    const pkg = fakePackage("@bounded-mcp/mcp-adapter", {
      "src/x.ts": 'import { createBoundedRelay } from "@bounded-mcp/relay";',
    });
    expect(checkLayering([pkg], LAYER_RULES).map((v) => v.message)).toEqual([
      "may not import @bounded-mcp/relay",
    ]);
  });

  it("rejects a relative import that reaches into another package", () => {
    const pkg = fakePackage("@bounded-mcp/query-core", {
      "src/x.ts": 'import { x } from "../../stores/src/index.js";',
    });
    expect(checkLayering([pkg], LAYER_RULES).map((v) => v.message)).toEqual([
      "imports outside its package: ../../stores/src/index.js",
    ]);
  });
});
