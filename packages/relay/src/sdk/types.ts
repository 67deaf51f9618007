// The SDK types the relay names, in one place (with the rest of src/sdk/, the only code that
// imports @modelcontextprotocol/sdk): moving to the SDK's next major changes this folder only.

export type { Client } from "@modelcontextprotocol/sdk/client/index.js";
export type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
export type { Server } from "@modelcontextprotocol/sdk/server/index.js";
export type {
  RequestHandlerExtra,
  RequestOptions,
} from "@modelcontextprotocol/sdk/shared/protocol.js";
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
export type {
  CallToolRequest,
  CallToolResult,
  ClientCapabilities,
  Implementation,
  JSONRPCMessage,
  LoggingLevel,
  MessageExtraInfo,
  RequestId,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";

import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

/** The handler context of one downstream request: signal, session id, auth info, notifications. */
export type DownstreamExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
