// The `@bounded-mcp/mcp-adapter/testing` entry: helpers for tests of code that embeds the
// adapter (a server, the relay, an app). Not for production code; the layering check in
// tooling/checks rejects a production import of any package's `/testing` entry.

// The channel name a transport announces a large payload on (the relay's stdio transport
// publishes it as a literal; its test subscribes with this, so the two cannot drift apart).
export { LARGE_PAYLOAD_CHANNEL } from "../bounding/hash-off-thread.js";
export {
  createRecordingLogger,
  type LogRecord,
  type RecordingLogger,
} from "./recording-logger.js";
export {
  findStrictSchemaProblems,
  type StrictSchemaProblem,
} from "./strict-schema-walker.js";
