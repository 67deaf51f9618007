import { describe, expect, it } from "vitest";
import { ContractError, createErrorResult } from "../src/index.js";

describe("ContractError", () => {
  it("carries a code, details and the cause, and is an Error", () => {
    const cause = new Error("pointer token ~2");
    const error = new ContractError({
      code: "INVALID_RESPONSE_PATH",
      message: 'responsePath has an invalid escape "~2": use ~0 for "~" and ~1 for "/".',
      details: { failedAt: "~2" },
      cause,
    });
    expect({
      isError: error instanceof Error,
      name: error.name,
      code: error.code,
      message: error.message,
      details: error.details,
      cause: error.cause,
    }).toEqual({
      isError: true,
      name: "ContractError",
      code: "INVALID_RESPONSE_PATH",
      message: 'responsePath has an invalid escape "~2": use ~0 for "~" and ~1 for "/".',
      details: { failedAt: "~2" },
      cause,
    });
  });

  it("also takes code, message, details and options as arguments", () => {
    const cause = new Error("x");
    const error = new ContractError("INVALID_FIELD_PATH", "Use /a.", { field: "a" }, { cause });
    expect([error.code, error.message, error.details, error.cause]).toEqual([
      "INVALID_FIELD_PATH",
      "Use /a.",
      { field: "a" },
      cause,
    ]);
  });

  it("has no cause or details keys when none are given", () => {
    const error = new ContractError({ code: "AMBIGUOUS_COLLECTION", message: "Pick one." });
    expect(["cause" in error, "details" in error]).toEqual([false, false]);
  });

  it("is recognised by isInstance, and nothing else is (copies and realms: bounded-mcp-error.test.ts)", () => {
    const error = new ContractError({ code: "AMBIGUOUS_COLLECTION", message: "Pick one." });
    const lookalike = Object.assign(new Error("x"), {
      name: "ContractError",
      code: "AMBIGUOUS_COLLECTION",
    });
    expect([
      ContractError.isInstance(error),
      ContractError.isInstance(lookalike),
      ContractError.isInstance(new Error("x")),
      ContractError.isInstance({ code: "AMBIGUOUS_COLLECTION" }),
      ContractError.isInstance(null),
    ]).toEqual([true, false, false, false, false]);
  });

  it("turns into the wire error envelope at the top", () => {
    const error = new ContractError({
      code: "FILTER_PATH_UNRESOLVED",
      message: 'Filter path "status" resolves on no item; use one of itemKeys.',
      details: { path: "status", itemKeys: ["id", "name"] },
    });
    const result = createErrorResult({ ...error, message: error.message, artifactId: "a" });
    expect(result.response).toEqual({
      error: {
        code: "FILTER_PATH_UNRESOLVED",
        message: 'Filter path "status" resolves on no item; use one of itemKeys.',
        details: { path: "status", itemKeys: ["id", "name"] },
      },
    });
  });
});
