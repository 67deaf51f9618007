import { describe, expect, it } from "vitest";
import { rankByCloseness } from "./closest-names.js";

describe("rankByCloseness", () => {
  it("puts a case-insensitive equal first, then shared prefixes, then small edit distances", () => {
    expect(
      rankByCloseness(
        ["alpha", "nodes", "name", "Displayoptions", "displayName", "nmea", "isplay"],
        "display",
      ),
    ).toEqual(["displayName", "Displayoptions", "isplay", "alpha", "nmea", "nodes", "name"]);
    expect(rankByCloseness(["type", "Name", "names", "nmae"], "name")).toEqual([
      "Name",
      "names",
      "nmae",
      "type",
    ]);
  });

  it("keeps the original order among names equally close", () => {
    expect(rankByCloseness(["b1", "a1", "c1"], "zz")).toEqual(["b1", "a1", "c1"]);
  });
});
