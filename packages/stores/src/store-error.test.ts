import { BoundedMcpError, ContractError } from "@bounded-mcp/contract";
import { describe, expect, it, vi } from "vitest";
import { assertValidArtifactId, isValidArtifactId } from "./artifact-id.js";
import { StoreError } from "./store-error.js";

describe("StoreError", () => {
  it("names the backend and the operation in its message and keeps the cause", () => {
    const cause = new Error("connect ECONNREFUSED 127.0.0.1:9000");
    const error = new StoreError({
      code: "STORE_UNAVAILABLE",
      store: "s3",
      operation: "GetObject",
      cause,
    });
    expect({
      name: error.name,
      message: error.message,
      code: error.code,
      store: error.store,
      operation: error.operation,
      cause: error.cause,
      isError: error instanceof Error,
    }).toEqual({
      name: "StoreError",
      message: "[stores:s3] GetObject failed",
      code: "STORE_UNAVAILABLE",
      store: "s3",
      operation: "GetObject",
      cause,
      isError: true,
    });
  });

  it("isInstance recognises a StoreError of any copy by the BoundedMcpError marker, and nothing else", async () => {
    vi.resetModules();
    const copy: typeof import("./store-error.js") = await import("./store-error.js");
    const fromCopy = new copy.StoreError({ code: "QUOTA_EXCEEDED", store: "fs", operation: "put" });
    const contract = new ContractError({ code: "AMBIGUOUS_COLLECTION", message: "Pick one." });
    expect([
      fromCopy instanceof StoreError,
      StoreError.isInstance(fromCopy),
      BoundedMcpError.isInstance(fromCopy),
      StoreError.isInstance(contract),
      StoreError.isInstance(new Error("[stores:s3] GetObject failed")),
      StoreError.isInstance(null),
      StoreError.isInstance("StoreError"),
    ]).toEqual([false, true, true, false, false, false, false]);
  });
});

describe("isValidArtifactId", () => {
  it("accepts 20 to 100 url-safe characters and nothing else", () => {
    expect({
      twenty: isValidArtifactId("a".repeat(20)),
      hundred: isValidArtifactId("a-_Z9".repeat(20)),
      nineteen: isValidArtifactId("a".repeat(19)),
      hundredAndOne: isValidArtifactId("a".repeat(101)),
      traversal: isValidArtifactId("../../aaaaaaaaaaaaaaaaaaaa"),
      notAString: isValidArtifactId(42),
    }).toEqual({
      twenty: true,
      hundred: true,
      nineteen: false,
      hundredAndOne: false,
      traversal: false,
      notAString: false,
    });
  });

  it("assertValidArtifactId throws INVALID_ARTIFACT_ID naming the store and operation", () => {
    const error = (() => {
      try {
        assertValidArtifactId("../etc/passwd", "fs", "get");
      } catch (caught) {
        return caught;
      }
    })();
    expect(StoreError.isInstance(error) && { code: error.code, message: error.message }).toEqual({
      code: "INVALID_ARTIFACT_ID",
      message: "[stores:fs] get failed: the artifact id does not match /^[A-Za-z0-9_-]{20,100}$/",
    });
  });
});
