import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { document, resultForm, sized } from "./support/documents.js";
import { factsOf, plausibleRequest } from "./support/requests.js";
import {
  callTool,
  checkToolResult,
  FUZZ_LIMITS,
  fuzzParameters,
  fuzzRuns,
  fuzzTimeout,
  query,
  type Rig,
  type Route,
  startRig,
  upstreamResult,
} from "./support/rig.js";

const RUNS = fuzzRuns(1_200);
let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.close();
});

/** The value at an RFC 6901 pointer, or undefined when it does not resolve. */
function resolve(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let current = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key))
      return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The document the adapter stores: structuredContent wraps a non-object as `{value}`. */
function storedDocument(value: unknown, form: string): unknown {
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  return form === "structured" && !isObject ? { value } : value;
}

const route = fc.constantFrom<Route>("attached", "routed");
const documentCase = fc
  .record({
    document,
    form: resultForm,
    keepSmall: fc.integer({ min: 0, max: 7 }).map((choice) => choice === 0),
    route,
  })
  .chain((base) => {
    const value = sized(base.document, FUZZ_LIMITS.inlineBytes, base.keepSmall);
    return fc
      .record({
        requests: fc.array(
          fc.tuple(plausibleRequest(factsOf(storedDocument(value, base.form))), route),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        pages: fc.integer({ min: 0, max: 2 }),
      })
      .map((rest) => ({ ...base, value, ...rest }));
  });

describe("fuzz: random documents through the real adapter", () => {
  it(
    "bounds every document and answers every plausible query with a contract envelope within the limits",
    async () => {
      await fc.assert(
        fc.asyncProperty(documentCase, async (test) => {
          const { value, form, requests, pages } = test;
          const sent = upstreamResult(value, form);
          rig.next.result = sent;
          const bounded = checkToolResult(
            sent,
            await callTool(rig.alice, test.route, "upstream", {}),
          );
          if (bounded.artifactId === null) return;
          const artifactId = bounded.artifactId;
          for (const [request, via] of requests) {
            const args: Record<string, unknown> = { ...request, artifactId };
            const first = await query(rig.alice, via, args);
            if (!first.isError && form !== "plain" && typeof args["responsePath"] === "string") {
              const meta = (
                first.output as { responseMeta: { complete: boolean; truncated: boolean } }
              ).responseMeta;
              const expected = resolve(
                JSON.parse(JSON.stringify(storedDocument(value, form))),
                args["responsePath"] as string,
              );
              const plain = Object.keys(args).every(
                (key) => key === "artifactId" || key === "responsePath",
              );
              if (
                plain &&
                meta.complete &&
                !meta.truncated &&
                expected !== undefined &&
                (expected === null || typeof expected !== "object")
              ) {
                // Compared as JSON, what any transport carries: an in-process -0 is the wire's 0.
                expect(JSON.stringify(first.output["response"])).toBe(JSON.stringify(expected));
              }
            }
            let cursor = first.nextCursor;
            for (let page = 0; page < pages && cursor !== null; page += 1) {
              cursor = (await query(rig.alice, via, { ...args, cursor })).nextCursor;
            }
          }
          // Another caller asking for this artifact is told it does not exist.
          const foreign = await query(rig.bob, test.route, {
            ...requests[0]![0],
            artifactId,
          });
          expect(foreign.isError).toBe(true);
          expect(foreign.code).toMatch(
            /^(INVALID_ARTIFACT_HANDLE|INVALID_RESPONSE_CONTROLS|INVALID_RESPONSE_CURSOR)$/,
          );
          if (foreign.code === "INVALID_ARTIFACT_HANDLE") {
            expect(
              (foreign.output as { response: { error: { details: unknown } } }).response.error
                .details,
            ).toEqual({ reason: "unknown" });
          }
        }),
        fuzzParameters(RUNS, 120),
      );
    },
    fuzzTimeout(RUNS, 120),
  );
});
