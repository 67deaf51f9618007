import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/**
 * Accepts any result object as sent, so relayed results are not re-validated, stripped or copied
 * (docs/sdk-notes.md 6): a structural check only, the downstream client validates it anyway.
 */
export const PASS_THROUGH_RESULT = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
);

/** JSON-RPC error codes the relay answers with (the SDK's names). */
export const RELAY_ERROR_CODES = Object.freeze({
  internalError: ErrorCode.InternalError as number,
  invalidRequest: ErrorCode.InvalidRequest as number,
  connectionClosed: ErrorCode.ConnectionClosed as number,
});

/**
 * Cuts an upstream client that serves many downstream requests (stateless HTTP) off from any
 * one of them: its notifications are dropped and its requests (sampling, elicitation, roots)
 * refused with -32601, as no downstream connection outlives a request.
 */
export function detachFromDownstream(client: Client): void {
  client.fallbackNotificationHandler = async () => {};
  client.fallbackRequestHandler = async (request) => {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `${request.method} cannot reach a stateless downstream client`,
    );
  };
}

/**
 * A fresh SDK Client that introduces itself upstream as `clientInfo` with `capabilities`.
 * Connect it to transports passed through {@link withFastDispatch} (the usual messages skip the
 * SDK's zod classification).
 */
export function createUpstreamClient(
  clientInfo: Implementation,
  capabilities: ClientCapabilities,
): Client {
  return new Client(clientInfo, { capabilities });
}

/** Sends one request upstream and returns its result as sent (not re-validated). */
export async function requestAsSent(
  client: Client,
  request: { method: string; params?: unknown },
  options?: RequestOptions,
): Promise<Record<string, unknown>> {
  return client.request(request as Parameters<Client["request"]>[0], PASS_THROUGH_RESULT, options);
}
