// The `@bounded-mcp/mcp-adapter/testing` entry: helpers for tests of code that embeds the
// adapter (a server, the relay, an app). Not for production code; the layering check in
// tooling/checks rejects a production import of any package's `/testing` entry.

export {
  createRecordingLogger,
  type LogRecord,
  type RecordingLogger,
} from "./recording-logger.js";
export {
  findStrictSchemaProblems,
  type StrictSchemaProblem,
} from "./strict-schema-walker.js";
