export {
  runStoreConformanceSuite,
  type StoreConformanceOptions,
  type StoreFactory,
  type StoreFactoryOptions,
} from "./conformance-suite.js";
export {
  binaryBody,
  createTestClock,
  metaFor,
  patternBody,
  sha256Of,
  type TestClock,
  testArtifactId,
} from "./fixtures.js";
export { createRecordingStoreLogger, type RecordingStoreLogger } from "./recording-logger.js";
