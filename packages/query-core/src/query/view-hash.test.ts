import { describe, expect, it } from "vitest";
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
