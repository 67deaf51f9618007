import { BoundedMcpError } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { loadN8nOptions, N8nUsageError } from "./load-n8n-options.js";

function refusalOf(argv: string[]): unknown {
  try {
    loadN8nOptions(argv, {});
  } catch (error) {
    return error;
  }
  throw new Error("expected loadN8nOptions to refuse");
}

describe("N8nUsageError", () => {
  it("is a BoundedMcpError with code USAGE, recognised by isInstance", () => {
    const error = refusalOf(["--no-such-flag"]);
    expect(N8nUsageError.isInstance(error)).toBe(true);
    expect(BoundedMcpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: "N8nUsageError", code: "USAGE" });
  });

  it("is not recognised in a plain Error with the same name and code", () => {
    const lookalike = Object.assign(new Error("x"), { name: "N8nUsageError", code: "USAGE" });
    expect(N8nUsageError.isInstance(lookalike)).toBe(false);
  });
});
