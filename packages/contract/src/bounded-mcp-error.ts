/** The registry symbol every bounded-mcp error carries; `Symbol.for`, so one per process. */
const BOUNDED_MCP_ERROR_MARKER = Symbol.for("@bounded-mcp/contract.BoundedMcpError");

/** What every BoundedMcpError may be given besides its code and message. */
export interface BoundedMcpErrorOptions {
  /** The error that caused this one; kept as `cause` (absent when not given). */
  cause?: unknown;
}

/** The kinds of an error's class chain, as the marker holds them. */
function kindsOf(target: unknown): readonly string[] {
  const kinds: string[] = [];
  for (let current = target; typeof current === "function"; ) {
    if (Object.hasOwn(current, "kind")) kinds.push(String(Reflect.get(current, "kind")));
    current = Object.getPrototypeOf(current);
  }
  return Object.freeze(kinds);
}

/**
 * The one base class of bounded-mcp's local errors (a store that failed, settings that cannot be
 * used, a key ring that cannot be built, a contract failure turned into an envelope at the top).
 * Each subclass is small: it declares its `kind` ("<package>.<ClassName>", whose last part is the
 * error's `name`), narrows `code`, and adds what it carries. Recognise errors with
 * `StoreError.isInstance(value)` rather than `instanceof`: the check reads a marker registered
 * with `Symbol.for` that lists the kinds of the error's class chain, so it holds across two
 * copies of a package (a bundled app and a dependency) and across realms (`node:vm`). Limits: an
 * error that was serialized (structured clone to a worker, JSON) loses the marker; what crosses
 * the wire is only an envelope's code and message.
 */
export class BoundedMcpError<Code extends string = string> extends Error {
  /** The kind of this class: "<package>.<ClassName>"; every subclass declares its own. */
  static readonly kind: string = "@bounded-mcp/contract.BoundedMcpError";
  /** A stable code a caller branches on (the subclass says which codes it uses). */
  readonly code: Code;

  constructor(code: Code, message: string, options: BoundedMcpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const kinds = kindsOf(new.target);
    const kind = kinds[0] ?? BoundedMcpError.kind;
    this.name = kind.slice(kind.lastIndexOf(".") + 1);
    this.code = code;
    // Not enumerable: the marker is no part of what an error shows or compares by.
    Object.defineProperty(this, BOUNDED_MCP_ERROR_MARKER, { value: kinds });
  }

  /**
   * True when `value` is an error of this class (or a subclass) from any copy of its package in
   * any realm: `BoundedMcpError.isInstance` accepts every bounded-mcp error,
   * `StoreError.isInstance` only store errors.
   */
  static isInstance<Instance>(
    this: { readonly kind: string; readonly prototype: Instance },
    value: unknown,
  ): value is Instance {
    if (typeof value !== "object" || value === null) return false;
    const kinds = (value as { [BOUNDED_MCP_ERROR_MARKER]?: unknown })[BOUNDED_MCP_ERROR_MARKER];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class isInstance was called on (a subclass answers for its own kind).
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}
