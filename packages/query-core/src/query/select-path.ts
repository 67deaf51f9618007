import { ContractError, type QueryRequest } from "@bounded-mcp/contract";
import { resolvePointer } from "../pointer/pointer.js";

/** The value a request selects and where it lives. */
export interface SelectedValue {
  /** The responsePath echoed in the result: the path as sent, or responseRoot when omitted. */
  responsePath: string;
  /** The absolute pointer of the selected value. */
  pointer: string;
  value: unknown;
  /** Set when the value was found only as responseRoot + responsePath (§4.1). */
  inferredResponsePath?: string;
}

/**
 * Resolves responsePath (CONTRACT-v3 §4.1): omitted means the artifact's responseRoot; a
 * non-empty path must start with `/` (else INVALID_RESPONSE_PATH with `suggestedPath`); it is
 * resolved exactly first, then once as responseRoot + path, reported as inferredResponsePath.
 * A miss reports where the exact attempt stopped.
 */
export function selectResponsePath(
  document: unknown,
  request: QueryRequest,
  responseRoot: string,
): SelectedValue {
  const responsePath = request.responsePath ?? responseRoot;
  if (responsePath !== "" && !responsePath.startsWith("/")) {
    throw new ContractError({
      code: "INVALID_RESPONSE_PATH",
      message: `responsePath "${responsePath}" is not an RFC 6901 JSON Pointer: a non-empty path starts with "/". Send responsePath "/${responsePath}".`,
      details: { suggestedPath: `/${responsePath}` },
    });
  }
  const exact = resolvePointer(document, responsePath);
  if (exact.found) return { responsePath, pointer: responsePath, value: exact.value };
  const fallback = `${responseRoot}${responsePath}`;
  if (request.responsePath !== undefined && responseRoot !== "" && responsePath !== "") {
    const relative = resolvePointer(document, fallback);
    if (relative.found) {
      return {
        responsePath,
        pointer: fallback,
        value: relative.value,
        inferredResponsePath: fallback,
      };
    }
  }
  const tried =
    request.responsePath !== undefined && responseRoot !== "" && responsePath !== ""
      ? ` (also tried "${fallback}" below responseRoot "${responseRoot}")`
      : "";
  const children = exact.availableChildren.length
    ? ` Available children of "${exact.resolvedPrefix}": ${exact.availableChildren.slice(0, 10).join(", ")}.`
    : "";
  throw new ContractError({
    code: "INVALID_RESPONSE_PATH",
    message: `responsePath "${responsePath}" does not resolve${tried}: "${exact.failedAt}" is not a child of the ${exact.typeAtFailure} at "${exact.resolvedPrefix}".${children} Use describe to see the shape.`,
    details: {
      resolvedPrefix: exact.resolvedPrefix,
      failedAt: exact.failedAt,
      typeAtFailure: exact.typeAtFailure,
      availableChildren: exact.availableChildren,
    },
  });
}
