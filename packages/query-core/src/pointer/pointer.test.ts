import { ContractError } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPointer, parsePointer, resolvePointer } from "./pointer.js";

function contractErrorOf(action: () => unknown): { code: string; details: unknown } {
  try {
    action();
  } catch (error) {
    if (ContractError.isInstance(error)) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error("expected a ContractError");
}

describe("parsePointer / formatPointer", () => {
  it("reads the whole document, the empty key and escaped tokens (RFC 6901)", () => {
    expect({
      root: parsePointer(""),
      emptyKey: parsePointer("/"),
      escaped: parsePointer("/a~1b/m~0n/~01"),
      index: parsePointer("/items/0/name"),
    }).toEqual({
      root: [],
      emptyKey: [""],
      escaped: ["a/b", "m~n", "~1"],
      index: ["items", "0", "name"],
    });
  });

  it("formats tokens back to the same pointer", () => {
    expect(formatPointer(["a/b", "m~n", "", "0"])).toBe("/a~1b/m~0n//0");
  });

  it("round-trips any list of tokens", () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (tokens) => {
        expect(parsePointer(formatPointer(tokens))).toEqual(tokens);
      }),
    );
  });

  it("rejects a pointer without its leading slash and suggests the corrected path", () => {
    expect(contractErrorOf(() => parsePointer("data/items"))).toEqual({
      code: "INVALID_RESPONSE_PATH",
      details: { suggestedPath: "/data/items" },
    });
  });

  it("rejects a tilde that is not ~0 or ~1", () => {
    expect(contractErrorOf(() => parsePointer("/a~2"))).toEqual({
      code: "INVALID_RESPONSE_PATH",
      details: { failedAt: "a~2" },
    });
  });
});

describe("resolvePointer", () => {
  const document = {
    data: { items: [{ id: 1 }, { id: 2 }], "a/b": "slash", "": "empty" },
  };
  const parsed = JSON.parse(JSON.stringify(document)) as unknown;

  it("resolves object keys, array indices, escaped and empty keys", () => {
    expect([
      resolvePointer(parsed, "/data/items/1/id"),
      resolvePointer(parsed, "/data/a~1b"),
      resolvePointer(parsed, "/data/"),
      resolvePointer(parsed, ""),
    ]).toEqual([
      { found: true, value: 2 },
      { found: true, value: "slash" },
      { found: true, value: "empty" },
      { found: true, value: parsed },
    ]);
  });

  it("treats an own __proto__ key as data and never reads inherited members", () => {
    const withProto = JSON.parse('{"__proto__": {"x": 1}, "a": {}}') as unknown;
    expect([
      resolvePointer(withProto, "/__proto__/x"),
      resolvePointer(withProto, "/a/constructor").found,
      resolvePointer(withProto, "/a/toString").found,
    ]).toEqual([{ found: true, value: 1 }, false, false]);
  });

  it("rejects '-', leading zeros and out-of-range indices on arrays", () => {
    expect([
      resolvePointer(parsed, "/data/items/-").found,
      resolvePointer(parsed, "/data/items/01").found,
      resolvePointer(parsed, "/data/items/2").found,
    ]).toEqual([false, false, false]);
  });

  it("says where resolution stopped, on which token, what was there and what exists", () => {
    expect(resolvePointer(parsed, "/data/itemz/0")).toEqual({
      found: false,
      resolvedPrefix: "/data",
      failedAt: "itemz",
      typeAtFailure: "object",
      availableChildren: ["/data/items", "/data/a~1b", "/data/"],
    });
    expect(resolvePointer(parsed, "/data/items/0/id/deeper")).toEqual({
      found: false,
      resolvedPrefix: "/data/items/0/id",
      failedAt: "deeper",
      typeAtFailure: "number",
      availableChildren: [],
    });
  });

  it("lists at most 30 available children", () => {
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`k${index}`, index]));
    const miss = resolvePointer({ wide }, "/wide/missing");
    expect(miss.found === false && miss.availableChildren.length).toBe(30);
  });
});
