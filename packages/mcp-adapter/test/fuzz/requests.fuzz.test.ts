import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemsPayload } from "../support/fixtures.js";
import { UNKNOWN_ID } from "../support/harness.js";
import { document, type ResultForm, sized } from "./support/documents.js";
import {
  type DocumentFacts,
  factsOf,
  type Mutation,
  mutation,
  nonObjectArguments,
  plausibleRequest,
} from "./support/requests.js";
import {
  type Caller,
  callTool,
  checkToolResult,
  FUZZ_LIMITS,
  fuzzParameters,
  fuzzRuns,
  fuzzTimeout,
  jsonCopy,
  query,
  type Rig,
  type Route,
  startRig,
  upstreamResult,
} from "./support/rig.js";

const RUNS = fuzzRuns(2_300);
const NON_OBJECT_RUNS = fuzzRuns(200);

interface Stored {
  id: string;
  facts: DocumentFacts;
}

let rig: Rig;
let stored: Stored[] = [];
let bobsId = "";
let foreignCursors: string[] = [];

async function store(caller: Caller, value: unknown, form: ResultForm): Promise<string> {
  const sent = upstreamResult(value, form);
  rig.next.result = sent;
  const { artifactId } = checkToolResult(sent, await callTool(caller, "attached", "upstream", {}));
  expect(artifactId).not.toBeNull();
  return artifactId as string;
}

beforeAll(async () => {
  rig = await startRig();
  const keyed = {
    byId: Object.fromEntries(itemsPayload(200).data.items.map((item) => [item.id, item])),
  };
  const samples = fc.sample(document, { seed: 16, numRuns: 4 });
  const values: [unknown, ResultForm][] = [
    [itemsPayload(300), "text"],
    [keyed, "structured"],
    [itemsPayload(60), "plain"],
    ...samples.map((sample): [unknown, ResultForm] => [
      sized(sample, FUZZ_LIMITS.inlineBytes, false),
      "text",
    ]),
  ];
  for (const [value, form] of values) {
    stored.push({ id: await store(rig.alice, value, form), facts: factsOf(value) });
  }
  bobsId = await store(rig.bob, itemsPayload(300), "text");
  // Cursors of other requests: alice's first pages of a few views, bob's of his own artifact.
  for (const [caller, id] of [
    [rig.alice, stored[0]!.id],
    [rig.alice, stored[1]!.id],
    [rig.bob, bobsId],
  ] as const) {
    for (const request of [
      { responsePath: "/data/items", pageSize: 3 },
      { objectMode: "entries", responsePath: "/byId", pageSize: 3 },
      { textSearch: { query: "item" }, pageSize: 2 },
    ]) {
      const page = await query(caller, "attached", { ...request, artifactId: id });
      if (page.nextCursor !== null) foreignCursors.push(page.nextCursor);
    }
  }
  expect(foreignCursors.length).toBeGreaterThanOrEqual(4);
});

afterAll(async () => {
  await rig?.close();
  stored = [];
  foreignCursors = [];
});

const route = fc.constantFrom<Route>("attached", "routed");

function mutatedCase() {
  const foreign = {
    artifactIds: [bobsId, UNKNOWN_ID, ...stored.map((one) => one.id)],
    cursors: foreignCursors,
  };
  return fc.constantFrom(...stored).chain((target) =>
    fc.record({
      target: fc.constant(target),
      request: plausibleRequest(target.facts),
      mutations: fc.array(mutation(foreign), { minLength: 1, maxLength: 3 }),
      route,
    }),
  );
}

describe("fuzz: malformed and mutated query_response_artifact requests", () => {
  it(
    "answers every mutated request with a contract envelope within the limits, and never reads another caller's artifact",
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedCase(), async ({ target, request, mutations, route: via }) => {
          let args: unknown = jsonCopy({ ...request, artifactId: target.id });
          for (const change of mutations as Mutation[]) {
            args = change(args as Record<string, unknown>);
          }
          const outcome = await query(rig.alice, via, args);
          const sentId = (args as { artifactId?: unknown }).artifactId;
          if (sentId === bobsId)
            expect(outcome.isError, "bob's artifact answered to alice").toBe(true);
          if (!outcome.isError) expect(outcome.output["artifactId"]).toBe(sentId);
          if (via === "routed" && Object.hasOwn(args as object, "__proto__")) {
            expect(outcome.code).toBe("INVALID_RESPONSE_CONTROLS");
          }
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS),
  );

  it(
    "answers non-object arguments, sent as they are to the relay's session, with INVALID_RESPONSE_CONTROLS",
    async () => {
      await fc.assert(
        fc.asyncProperty(nonObjectArguments, async (args) => {
          fc.pre(typeof args !== "object" || args === null || Array.isArray(args));
          const outcome = await query(rig.alice, "routed", args);
          expect(outcome.code).toBe("INVALID_RESPONSE_CONTROLS");
        }),
        fuzzParameters(NON_OBJECT_RUNS),
      );
    },
    fuzzTimeout(NON_OBJECT_RUNS),
  );
});
