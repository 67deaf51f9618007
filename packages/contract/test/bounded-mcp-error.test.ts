import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { BoundedMcpError, ContractError } from "../src/index.js";

/** A store-like subclass, as other packages declare theirs. */
class ShelfError extends BoundedMcpError<"SHELF_FULL"> {
  static override readonly kind = "@bounded-mcp/test.ShelfError";
  readonly shelf: string;
  constructor(shelf: string, options?: { cause?: unknown }) {
    super("SHELF_FULL", `shelf ${shelf} is full`, options);
    this.shelf = shelf;
  }
}

/**
 * Evaluates the built module (tests run after the build) in a fresh realm, with its own Error,
 * Object and Array: the module has no imports, so without its `export` keywords it is a script.
 */
function loadInAnotherRealm(): {
  BoundedMcpError: typeof BoundedMcpError;
  realmError: ErrorConstructor;
} {
  const built = readFileSync(new URL("../dist/bounded-mcp-error.js", import.meta.url), "utf8");
  const script = built.replace(/^export /gm, "");
  const sandbox = { exports: {} as Record<string, unknown> };
  runInNewContext(
    `${script}\nexports.BoundedMcpError = BoundedMcpError; exports.realmError = Error;`,
    sandbox,
  );
  return sandbox.exports as never;
}

describe("BoundedMcpError", () => {
  it("carries code, message, cause and a name taken from the kind, and is an Error", () => {
    const cause = new Error("disk");
    const error = new ShelfError("a", { cause });
    expect({
      isError: error instanceof Error,
      name: error.name,
      code: error.code,
      message: error.message,
      cause: error.cause,
      shelf: error.shelf,
      ownKeys: Object.keys(error).sort(),
    }).toEqual({
      isError: true,
      name: "ShelfError",
      code: "SHELF_FULL",
      message: "shelf a is full",
      cause,
      shelf: "a",
      ownKeys: ["code", "name", "shelf"],
    });
    expect("cause" in new ShelfError("b")).toBe(false);
  });

  it("isInstance accepts the class and its subclasses, and nothing else", () => {
    const shelf = new ShelfError("a");
    const contract = new ContractError({ code: "AMBIGUOUS_COLLECTION", message: "Pick one." });
    const lookalike = Object.assign(new Error("x"), { code: "SHELF_FULL", name: "ShelfError" });
    expect({
      base: [shelf, contract, lookalike, null, "x"].map((value) =>
        BoundedMcpError.isInstance(value),
      ),
      shelf: [shelf, contract, lookalike].map((value) => ShelfError.isInstance(value)),
      contract: [shelf, contract, lookalike].map((value) => ContractError.isInstance(value)),
    }).toEqual({
      base: [true, true, false, false, false],
      shelf: [true, false, false],
      contract: [false, true, false],
    });
  });

  it("isInstance holds across two copies of the module, where instanceof fails", async () => {
    vi.resetModules();
    const copy: typeof import("../src/contract-error.js") = await import(
      "../src/contract-error.js"
    );
    expect(copy.ContractError).not.toBe(ContractError);
    const fromCopy = new copy.ContractError({ code: "AMBIGUOUS_COLLECTION", message: "Pick one." });
    expect({
      instanceofHere: fromCopy instanceof ContractError,
      contractHere: ContractError.isInstance(fromCopy),
      baseHere: BoundedMcpError.isInstance(fromCopy),
      shelfHere: ShelfError.isInstance(fromCopy),
      copyOnOurs: copy.ContractError.isInstance(new ContractError("AMBIGUOUS_COLLECTION", "x")),
    }).toEqual({
      instanceofHere: false,
      contractHere: true,
      baseHere: true,
      shelfHere: false,
      copyOnOurs: true,
    });
  });

  it("isInstance holds across realms: an error built in a node:vm context", () => {
    const realm = loadInAnotherRealm();
    class RealmShelfError extends realm.BoundedMcpError {
      static override readonly kind = "@bounded-mcp/test.ShelfError";
    }
    const foreign = new RealmShelfError("SHELF_FULL", "shelf c is full");
    expect({
      instanceofError: foreign instanceof Error,
      instanceofRealmError: foreign instanceof realm.realmError,
      base: BoundedMcpError.isInstance(foreign),
      shelf: ShelfError.isInstance(foreign),
      contract: ContractError.isInstance(foreign),
      name: foreign.name,
      realmOnOurs: realm.BoundedMcpError.isInstance(new ShelfError("d")),
    }).toEqual({
      instanceofError: false,
      instanceofRealmError: true,
      base: true,
      shelf: true,
      contract: false,
      name: "ShelfError",
      realmOnOurs: true,
    });
  });
});
