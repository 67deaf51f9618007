// The public surface of @bounded-mcp/relay (see README.md): named exports only. The relay
// re-serves an MCP server the caller does not control with the adapter's bounded results;
// everything that speaks to the MCP SDK lives in src/sdk/.

export { describeCall, type RelayCallEvent } from "./call-observer.js";
export {
  type BoundedRelay,
  type BoundedRelayOptions,
  type BoundedRelaySession,
  createBoundedRelay,
  type RelayConnectOptions,
} from "./create-bounded-relay.js";
export { type ChosenStore, chooseDefaultStdioStore } from "./default-stdio-store.js";
export { withExactQueryArguments, withExactToolArguments } from "./exact-query-arguments.js";
export {
  collectAfterLargeLines,
  createLinearStdioClientTransport,
  DEFAULT_MAX_MESSAGE_BYTES,
  type LinearStdioClientTransport,
  type LinearStdioClientTransportOptions,
} from "./linear-stdio-client-transport.js";
export {
  createLinearStdioServerTransport,
  type LinearStdioServerTransportOptions,
} from "./linear-stdio-server-transport.js";
export {
  defineRelayHooks,
  type RelayHooksModule,
  type ToolHook,
  type ToolHookContext,
  type ToolHooks,
  toolHooksFromModule,
} from "./relay-hooks.js";
export type { RestartBackoffOptions } from "./restart-backoff.js";
export type { DownstreamIdentity } from "./sdk/connect-relay.js";
export { UPSTREAM_REQUEST_OPTIONS } from "./sdk/relay-server.js";
export {
  type ServeStdioOptions,
  STDIO_SHUTDOWN_GRACE_MS,
  type StdioServing,
  serveStdio,
} from "./serve-stdio.js";
export {
  exposeFullCollection,
  prepareStdioProcess,
  type StdioProcessFlags,
} from "./stdio-process-flags.js";
export { type TrackedTransport, trackInFlight } from "./track-in-flight.js";
export {
  createUpstreamSupervisor,
  type UpstreamState,
  type UpstreamSupervisor,
  type UpstreamSupervisorOptions,
} from "./upstream-supervisor.js";
export type {
  HttpUpstream,
  StdioUpstream,
  TransportUpstream,
  UpstreamSpec,
} from "./upstream-transport.js";
export {
  openUserCacheStore,
  readOrCreateKeyFile,
  type UserCacheLocation,
  type UserCacheStore,
  userCacheDir,
} from "./user-cache-store.js";
