import type { QueryRequest } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonExact } from "../exact/parse-exact.js";
import { computeViewHash } from "./view-hash.js";

const artifactId = "art_0123456789abcdefghij";

describe("computeViewHash", () => {
  it("is the same view when only omitted defaults or the cursor differ", () => {
    const implicit = computeViewHash(
      { artifactId, filters: [{ path: "/a", value: 1 }], textSearch: { query: "x" } },
      "/data",
    );
    const explicit = computeViewHash(
      {
        artifactId,
        responsePath: "/data",
        pageSize: 20,
        cursor: "AQR0ZXN0",
        textSearch: { caseSensitive: false, query: "x" },
        filters: [{ value: 1, op: "eq", path: "/a" }],
      },
      "/data",
    );
    expect(implicit).toBe(explicit);
  });

  it("changes with every view argument and with the responseRoot an omitted path means", () => {
    const base = { artifactId, responsePath: "/rows" };
    const hashes = [
      computeViewHash(base, ""),
      computeViewHash({ ...base, pageSize: 5 }, ""),
      computeViewHash({ ...base, fields: ["id"] }, ""),
      computeViewHash({ ...base, filters: [{ path: "/a", op: "ne", value: 1 }] }, ""),
      computeViewHash({ ...base, describe: true }, ""),
      computeViewHash({ ...base, objectMode: "entries" }, ""),
      computeViewHash({ ...base, artifactId: "other_0123456789abcdefg" }, ""),
      computeViewHash({ artifactId }, ""),
      computeViewHash({ artifactId }, "/rows/0"),
      computeViewHash({ artifactId, jsonPath: "$..id" }, ""),
    ];
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it("is a base64url sha256", () => {
    expect(computeViewHash({ artifactId }, "")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("computeViewHash, remembered", () => {
  const reordered = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reordered);
    if (value === null || typeof value !== "object") return value;
    const entries = Object.entries(value).reverse();
    return Object.fromEntries(entries.map(([key, inner]) => [key, reordered(inner)]));
  };
  // Cursors and filter values share a few strings, and a value may be an object with a cursor
  // member, so a request's text can hold its own cursor member's text twice.
  const cursorText = fc.constantFrom("AQR0", "x", "", "a,b");
  const scalar = fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 6 }),
    fc.boolean(),
    fc.constant(null),
    fc.record({ cursor: cursorText }),
    fc.record({ cursor: cursorText, b: fc.integer() }),
  );
  const request = fc.record(
    {
      artifactId: fc.constantFrom(artifactId, "other_0123456789abcdefg"),
      responsePath: fc.constantFrom("/rows", ""),
      pageSize: fc.integer({ min: 1, max: 50 }),
      fields: fc.array(fc.constantFrom("id", "/a", "/b/c"), { maxLength: 3 }),
      filters: fc.array(
        fc.record(
          { path: fc.constantFrom("/a", "/b"), op: fc.constantFrom("eq", "ne"), value: scalar },
          { requiredKeys: ["path", "value"] },
        ),
        { maxLength: 2 },
      ),
      cursor: fc.oneof(fc.string({ maxLength: 8 }), cursorText),
    },
    { requiredKeys: ["artifactId"] },
  );

  it("gives every request the hash it gets when computed afresh, however often it is asked", () => {
    fc.assert(
      fc.property(
        fc.array(request, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("", "/x"),
        (requests, root) => {
          const first = requests.map((one) => computeViewHash(one as QueryRequest, root));
          // Reversed key order is another text (a fresh computation) of the same view.
          const fresh = requests.map((one) =>
            computeViewHash(reordered(one) as QueryRequest, root),
          );
          const again = [...requests]
            .reverse()
            .map((one) => computeViewHash(one as QueryRequest, root));
          expect(fresh).toEqual(first);
          expect(again.reverse()).toEqual(first);
        },
      ),
    );
  });

  it("tells exact number filter values apart that a double would merge", () => {
    const of = (literal: string) =>
      parseJsonExact(
        `{"artifactId":"${artifactId}","filters":[{"path":"/n","op":"eq","value":${literal}}]}`,
      ) as QueryRequest;
    const hashes = ["12345678901234567890", "12345678901234567889", "12345678901234567890"].map(
      (literal) => computeViewHash(of(literal), ""),
    );
    expect(hashes[0]).not.toBe(hashes[1]);
    expect(hashes[2]).toBe(hashes[0]);
    expect(computeViewHash(of("12345678901234567889"), "")).toBe(hashes[1]);
  });
});
