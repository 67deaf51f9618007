import { describe, expect, it } from "vitest";
import {
  createErrorResult,
  EXACT_NUMBER_BRAND,
  isExactNumberValue,
  parseQueryRequest,
} from "../src/index.js";

// SPEC.md §10: a filter value read exactly from the raw request. The contract sees query-core's
// ExactNumber only through its registry-symbol brand, so this stand-in is built the same way.

const ID = "Zq3xV9kLm2Pw8RtY6uNb4A";

class BrandedNumber {
  constructor(readonly literal: string) {
    Object.freeze(this);
  }
  toJSON(): number {
    return Number(this.literal);
  }
}
Object.defineProperty(BrandedNumber.prototype, EXACT_NUMBER_BRAND, { value: true });

const big = new BrandedNumber("12345678901234567890");

describe("parseQueryRequest with ExactNumber filter values", () => {
  it("brands by the registry symbol", () => {
    expect(EXACT_NUMBER_BRAND).toBe(Symbol.for("@bounded-mcp/exact-number"));
    expect(isExactNumberValue(big)).toBe(true);
    expect(isExactNumberValue({ literal: "1" })).toBe(false);
    expect(isExactNumberValue(12)).toBe(false);
  });

  it("accepts one for eq, ordering ops, in, nin, anyOf and measure length, kept by reference", () => {
    const filters = [
      { path: "/id", value: big },
      { path: "/id", op: "gt", value: big },
      { path: "/id", op: "in", value: [1, big] },
      { path: "/id", op: "nin", value: [big] },
      { path: "/tags", op: "lte", measure: "length", value: big },
      {
        anyOf: [
          { path: "/id", op: "ne", value: big },
          { path: "/x", value: { nested: big } },
        ],
      },
    ];
    const parsed = parseQueryRequest({ artifactId: ID, filters });
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    const out = parsed.data.filters as unknown as Record<string, unknown>[];
    const at = (index: number) => out[index] as Record<string, unknown>;
    expect(out).not.toBe(filters);
    expect(at(0)["value"]).toBe(big);
    expect(at(1)["value"]).toBe(big);
    expect((at(2)["value"] as unknown[])[1]).toBe(big);
    expect((at(3)["value"] as unknown[])[0]).toBe(big);
    expect(at(4)["value"]).toBe(big);
    const anyOf = at(5)["anyOf"] as Record<string, unknown>[];
    expect((anyOf[0] as Record<string, unknown>)["value"]).toBe(big);
    expect(
      ((anyOf[1] as Record<string, unknown>)["value"] as Record<string, unknown>)["nested"],
    ).toBe(big);
  });

  it("keeps a __proto__ key of a filter value as data next to an ExactNumber", () => {
    const value = JSON.parse('{"__proto__": {"a": 1}}') as Record<string, unknown>;
    const parsed = parseQueryRequest({
      artifactId: ID,
      filters: [
        { path: "/id", value: big },
        { path: "/o", value },
      ],
    });
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    const copied = ((parsed.data.filters ?? [])[1] as unknown as { value: object }).value;
    expect(Object.hasOwn(copied, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
  });

  it("still refuses an unbranded object for an ordering op", () => {
    const parsed = parseQueryRequest({
      artifactId: ID,
      filters: [{ path: "/id", op: "gt", value: { literal: "12345678901234567890" } }],
    });
    expect(parsed).toMatchInlineSnapshot(`
      {
        "error": {
          "code": "INVALID_RESPONSE_CONTROLS",
          "details": {
            "expected": "a number or a string for op gt",
            "field": "filters[0].value",
          },
          "message": "Invalid argument filters[0].value: expected a number or a string for op gt. Correct it and call query_response_artifact again.",
        },
        "success": false,
      }
    `);
  });

  it("refuses an ExactNumber outside a filter value, as any object", () => {
    const parsed = parseQueryRequest({ artifactId: ID, pageSize: big });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error.details).toEqual({ field: "pageSize", expected: expect.any(String) });
    const inPath = parseQueryRequest({ artifactId: ID, filters: [{ path: big, value: 1 }] });
    expect(inPath.success).toBe(false);
  });
});

describe("createErrorResult with an echoed ExactNumber", () => {
  it("keeps it itself in details and in a whole suggestedRequest, for the exact writer", () => {
    const result = createErrorResult({
      code: "INVALID_RESPONSE_CONTROLS",
      message: "m",
      details: {
        value: big,
        suggestedRequest: { artifactId: ID, filters: [{ path: "/value/id", value: big }] },
      },
    });
    const details = result.response.error.details as Record<string, unknown>;
    expect(details["value"]).toBe(big);
    const suggested = details["suggestedRequest"] as { filters: { value: unknown }[] };
    expect(suggested.filters[0]?.value).toBe(big);
  });
});
