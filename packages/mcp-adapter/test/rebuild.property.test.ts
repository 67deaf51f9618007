import { createHash, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseJsonExact, stringifyExact } from "@bounded-mcp/query-core";
import { type ArtifactMeta, type ArtifactStore, createMemoryStore } from "@bounded-mcp/stores";
import { createFsStore } from "@bounded-mcp/stores/fs";
import { createS3Store } from "@bounded-mcp/stores/s3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { connectLowLevelServer, createTestAdapter, TEST_NOW } from "./support/harness.js";
import { type JsonTextCase, jsonTexts, plainTexts } from "./support/json-texts.js";
import { type RebuildCounts, rebuildArtifact } from "./support/rebuild.js";
import { s3rverStoreOptions, startTestS3Server, type TestS3Server } from "./support/s3rver.js";

// The rebuild property (SPEC.md §10): for random JSON texts (lone surrogates, __proto__ keys, a
// chains of 1,500 to 2,200 levels, astral and combining characters, number literals in several
// spellings, inexact ones such as 12345678901234567890, 1e400 and -0 among them), bound the result through a real SDK Client and Server, page through the artifact
// with query_response_artifact and rebuild the document from the answers' text blocks: it must
// equal the upstream's text value for value, from the parse cache, and again from the store in a
// second adapter with no parse cache (a restart, another replica), for the memory, fs and S3
// stores. Texts that are not JSON (lines with lone surrogates) are rebuilt the same way as their
// `{"lines": [...]}` document. Values are compared as exact JSON text (inexact numbers by their
// literal, parsed and written with query-core's parseJsonExact and stringifyExact).

/** Small budgets, so a case of a few dozen KiB is bounded and read back over many pages. */
const LIMITS = { inlineBytes: 16_384, previewBytes: 4_096 };

/** Where one backend's artifacts live: a store for the adapter that bounds, one for the reader. */
interface Backend {
  open(): ArtifactStore;
  close(): Promise<void>;
}

interface Ref {
  id: string;
  byteLength: number;
  sha256: string;
}

/** A value's JSON text with every inexact number written as its literal (SPEC.md §10). */
function exactJson(value: unknown): string {
  return stringifyExact(value)?.text ?? "undefined";
}

/** Where two JSON texts first differ, with a little context; undefined when they are equal. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at += 1;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 60), at + 60));
  return `differs at ${at}: got ${around(actual)}, expected ${around(expected)}`;
}

/** The document of an upstream text (SPEC.md §2): its JSON value, else `{"lines": [...]}`. */
function documentOf(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch {
    return { lines: text.split("\n") };
  }
}

/** The document a stored artifact holds, decoded as its metadata says. */
function storedDocument(stored: { meta: ArtifactMeta; body: Buffer }): unknown {
  const text = stored.body.toString("utf8");
  if (stored.meta.bodyEncoding === "json-string") {
    return { lines: (JSON.parse(text) as string).split("\n") };
  }
  return stored.meta.mediaType === "text/plain"
    ? { lines: text.split("\n") }
    : parseJsonExact(text);
}

/** Bounds `kase` in one adapter, rebuilds it from the cache, then from the store in a second one. */
async function roundTrip(
  kase: JsonTextCase,
  pageSize: number,
  backend: Backend,
): Promise<RebuildCounts> {
  const expected = exactJson(documentOf(kase.text));
  const adapters: BoundedMcp[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    const writer = createTestAdapter({ ...LIMITS, artifactStore: backend.open() });
    adapters.push(writer);
    const upstream = await connectLowLevelServer(writer, {
      dump: { result: () => ({ content: [{ type: "text", text: kase.text }] }) },
    });
    closers.push(upstream.close);
    const bounded = await upstream.client.callTool({ name: "dump" });
    const artifact = (
      bounded.structuredContent as { responseMeta?: { artifact?: Ref } } | undefined
    )?.responseMeta?.artifact;
    if (artifact === undefined)
      throw new Error(`not bounded: ${JSON.stringify(bounded).slice(0, 300)}`);

    const stored = await writer.store.get(artifact.id);
    if (stored === null || !("body" in stored)) throw new Error("the artifact was not stored");
    expect({
      byteLength: stored.body.byteLength,
      sha256: createHash("sha256").update(stored.body).digest("hex"),
      storedValue: firstDifference(exactJson(storedDocument(stored)), expected),
    }).toEqual({
      byteLength: artifact.byteLength,
      sha256: artifact.sha256,
      storedValue: undefined,
    });

    const cached = await rebuildArtifact(upstream.client, artifact.id, pageSize);
    expect(firstDifference(exactJson(cached.value), expected)).toBeUndefined();

    const reader = createTestAdapter({
      ...LIMITS,
      artifactStore: backend.open(),
      parseCacheBytes: 0,
    });
    adapters.push(reader);
    const replica = await connectLowLevelServer(reader, {});
    closers.push(replica.close);
    const fromStore = await rebuildArtifact(replica.client, artifact.id, pageSize);
    expect(firstDifference(exactJson(fromStore.value), expected)).toBeUndefined();
    expect(fromStore.counts).toEqual(cached.counts);
    return cached.counts;
  } finally {
    for (const close of closers) await close();
    for (const adapter of adapters.reverse()) await adapter.dispose();
  }
}

/**
 * Runs the property over `backend`: `runs` JSON texts and `runs / 2` plain texts (a failure is
 * reported with its seed and the case's size), then checks that the runs did page and did read
 * compacted elements again, so a generator that drifted into tiny documents cannot pass unseen.
 */
async function checkRebuild(backend: () => Promise<Backend>, runs: number): Promise<void> {
  const total: RebuildCounts = { queries: 0, compacted: 0 };
  const run = async (kase: JsonTextCase, pageSize: number) => {
    const opened = await backend();
    try {
      const counts = await roundTrip(kase, pageSize, opened);
      total.queries += counts.queries;
      total.compacted += counts.compacted;
    } finally {
      await opened.close();
    }
  };
  const pageSize = fc.integer({ min: 2, max: 100 });
  await fc.assert(fc.asyncProperty(jsonTexts({ inexactLiterals: true }), pageSize, run), {
    numRuns: runs,
    endOnFailure: true,
  });
  await fc.assert(fc.asyncProperty(plainTexts(), pageSize, run), {
    numRuns: Math.ceil(runs / 2),
    endOnFailure: true,
  });
  expect(total.compacted).toBeGreaterThan(0);
  expect(total.queries).toBeGreaterThan(runs * 4);
}

/** Per-test timeout: a generous allowance per case on a loaded 2-core machine. */
const timeoutFor = (runs: number) => runs * 10_000;

const MEMORY_RUNS = 12;
const FS_RUNS = 8;
const S3_RUNS = 4;

describe("a bounded text is rebuilt value for value from query answers (SPEC.md §10)", () => {
  it(
    "with the memory store: from the cache, and from the store in an adapter without a cache",
    async () => {
      await checkRebuild(async () => {
        const store = createMemoryStore({ clock: () => TEST_NOW });
        return { open: () => store, close: async () => undefined };
      }, MEMORY_RUNS);
    },
    timeoutFor(MEMORY_RUNS),
  );

  it(
    "with the fs store: a second adapter over the same folder reads what the first stored",
    async () => {
      await checkRebuild(async () => {
        const dir = await mkdtemp(join(tmpdir(), "adapter-rebuild-"));
        return {
          open: () => createFsStore({ dir, clock: () => TEST_NOW, sweepIntervalMs: 0 }),
          close: () => rm(dir, { recursive: true, force: true }),
        };
      }, FS_RUNS);
    },
    timeoutFor(FS_RUNS),
  );

  describe("with the S3 store (s3rver)", () => {
    let server: TestS3Server;
    beforeAll(async () => {
      server = await startTestS3Server();
    });
    afterAll(async () => {
      await server?.destroy();
    });

    it(
      "a second adapter with its own client reads what the first stored",
      async () => {
        await checkRebuild(async () => {
          const prefix = `rebuild-${randomUUID()}/`;
          return {
            open: () =>
              createS3Store({ ...s3rverStoreOptions(server, prefix), clock: () => TEST_NOW }),
            close: async () => undefined,
          };
        }, S3_RUNS);
      },
      timeoutFor(S3_RUNS),
    );
  });
});
