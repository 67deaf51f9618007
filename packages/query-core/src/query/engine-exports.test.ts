import { describe, expect, it } from "vitest";
import * as core from "../index.js";

describe("@bounded-mcp/query-core engine surface", () => {
  it("exports the query engine and pointer functions agreed in the cross-package API", () => {
    const names = [
      "runQuery",
      "computeViewHash",
      "parsePointer",
      "formatPointer",
      "resolvePointer",
    ];
    expect(
      Object.fromEntries(
        names.map((name) => [name, typeof (core as Record<string, unknown>)[name]]),
      ),
    ).toEqual({
      runQuery: "function",
      computeViewHash: "function",
      parsePointer: "function",
      formatPointer: "function",
      resolvePointer: "function",
    });
  });
});
