import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemsPayload } from "../support/fixtures.js";
import {
  type Caller,
  callTool,
  checkToolResult,
  fuzzParameters,
  fuzzRuns,
  fuzzTimeout,
  query,
  type Rig,
  type Route,
  startRig,
  upstreamResult,
} from "./support/rig.js";

const RUNS = fuzzRuns(1_300);
const PAGES_PER_VIEW = 3;

/** Views of the items document: each pages differently, so its cursors mean nothing to the others. */
const VIEWS: Record<string, unknown>[] = [
  { responsePath: "/data/items", pageSize: 7 },
  { responsePath: "/data/items", fields: ["id"], pageSize: 7 },
  {
    responsePath: "/data/items",
    filters: [{ path: "status", op: "ne", value: "draft" }],
    pageSize: 5,
  },
  { responsePath: "/data/items", sort: [{ path: "score", order: "desc" }], pageSize: 9 },
  { responsePath: "/data/items", textSearch: { query: "item 1" }, pageSize: 3 },
  { responsePath: "/data/items", aggregate: { groupBy: "/tags/0" }, pageSize: 2 },
  { jsonPath: "$.data.items[*].id", pageSize: 10 },
  { responsePath: "/data/items/0", objectMode: "entries", pageSize: 2 },
  { responsePath: "/data/items/0", pageSize: 2 },
];

/** A cursor the server issued, with the page it leads to. */
interface Issued {
  owner: string;
  artifactId: string;
  view: number;
  cursor: string;
  page: Record<string, unknown>;
}

let rig: Rig;
const artifacts: Record<string, string[]> = {};
let issued: Issued[] = [];

async function storeItems(caller: Caller, count: number): Promise<string> {
  const sent = upstreamResult(itemsPayload(count), "text");
  rig.next.result = sent;
  const { artifactId } = checkToolResult(sent, await callTool(caller, "attached", "upstream", {}));
  return artifactId as string;
}

beforeAll(async () => {
  rig = await startRig();
  // Alice holds two artifacts (different sizes), bob one with the very same bytes as alice's first.
  artifacts["alice"] = [await storeItems(rig.alice, 120), await storeItems(rig.alice, 90)];
  artifacts["bob"] = [await storeItems(rig.bob, 120)];
  for (const caller of [rig.alice, rig.bob]) {
    for (const artifactId of artifacts[caller.name]!) {
      for (const [view, request] of VIEWS.entries()) {
        let cursor = (await query(caller, "attached", { ...request, artifactId })).nextCursor;
        for (let page = 0; page < PAGES_PER_VIEW && cursor !== null; page += 1) {
          const next = await query(caller, "attached", { ...request, artifactId, cursor });
          expect(next.isError).toBe(false);
          issued.push({ owner: caller.name, artifactId, view, cursor, page: next.output });
          cursor = next.nextCursor;
        }
      }
    }
  }
  expect(new Set(issued.map((one) => one.view)).size).toBeGreaterThanOrEqual(VIEWS.length - 1);
});

afterAll(async () => {
  await rig?.close();
  issued = [];
});

const CURSOR_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Ways to damage a cursor: truncate, flip, extend, swap, replace, re-case; or keep it. */
const damage = fc.oneof(
  fc.constant((cursor: string) => cursor),
  fc.nat().map((at) => (cursor: string) => cursor.slice(0, at % cursor.length)),
  fc.tuple(fc.nat(), fc.constantFrom(...CURSOR_CHARS)).map(([at, char]) => (cursor: string) => {
    const index = at % cursor.length;
    return `${cursor.slice(0, index)}${char}${cursor.slice(index + 1)}`;
  }),
  fc.string({ minLength: 1, maxLength: 8 }).map((tail) => (cursor: string) => `${cursor}${tail}`),
  fc.nat().map((at) => (cursor: string) => {
    const index = at % Math.max(1, cursor.length - 1);
    return `${cursor.slice(0, index)}${cursor[index + 1] ?? ""}${cursor[index] ?? ""}${cursor.slice(index + 2)}`;
  }),
  fc.constant((cursor: string) => cursor.toUpperCase()),
  fc.constant((cursor: string) => `${cursor}=`),
  fc.constant((cursor: string) => Buffer.from(cursor, "base64url").toString("base64")),
);

const cursorCase = fc.record({
  source: fc.nat(),
  caller: fc.constantFrom("alice", "bob"),
  targetArtifact: fc.nat(),
  foreignArtifact: fc.boolean(),
  view: fc.nat({ max: VIEWS.length - 1 }),
  sameView: fc.boolean(),
  damage,
  route: fc.constantFrom<Route>("attached", "routed"),
});

describe("fuzz: forged, damaged and replayed cursors", () => {
  it(
    "accepts a cursor only with the view, artifact and caller it was issued for, and then answers the same page",
    async () => {
      await fc.assert(
        fc.asyncProperty(cursorCase, async (test) => {
          const source = issued[test.source % issued.length]!;
          const caller = test.caller === "alice" ? rig.alice : rig.bob;
          const other = test.caller === "alice" ? "bob" : "alice";
          const pool = artifacts[test.foreignArtifact ? other : test.caller]!;
          const artifactId =
            test.sameView && !test.foreignArtifact && test.caller === source.owner
              ? source.artifactId
              : pool[test.targetArtifact % pool.length]!;
          const view = test.sameView ? source.view : test.view;
          const cursor = test.damage(source.cursor);
          const outcome = await query(caller, test.route, { ...VIEWS[view], artifactId, cursor });
          if (test.foreignArtifact) {
            expect(outcome.code, "another caller's artifact answered").toBe(
              "INVALID_ARTIFACT_HANDLE",
            );
            return;
          }
          const genuine =
            caller.name === source.owner &&
            artifactId === source.artifactId &&
            view === source.view;
          if (!outcome.isError) {
            // Accepted: only a cursor that decodes to the issued one, where it was issued.
            expect(genuine, "a cursor was accepted outside its view, artifact or caller").toBe(
              true,
            );
            expect(outcome.output).toEqual(source.page);
          } else {
            expect(outcome.code).toMatch(/^(INVALID_RESPONSE_CURSOR|INVALID_RESPONSE_CONTROLS)$/);
            if (genuine) expect(cursor).not.toBe(source.cursor);
          }
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS),
  );
});
