export {
  ARTIFACT_ID_PATTERN,
  ARTIFACT_MEDIA_TYPES,
  ArtifactIdSchema,
  type ArtifactMediaType,
  ArtifactMediaTypeSchema,
  type ArtifactRef,
  ArtifactRefSchema,
  PointerSchema,
} from "./artifact.js";
export {
  BOUNDED_ERROR_CODES,
  type BoundedEnvelope,
  BoundedEnvelopeSchema,
  type BoundedError,
  type BoundedErrorCode,
  type BoundedErrorResponseMeta,
  BoundedErrorResponseMetaSchema,
  BoundedErrorSchema,
  type BoundedResponseMeta,
  BoundedResponseMetaSchema,
} from "./bounded.js";
export { type BoundedErrorInput, createBoundedError } from "./bounded-error.js";
export { BoundedMcpError, type BoundedMcpErrorOptions } from "./bounded-mcp-error.js";
export { ContractError, type ContractErrorOptions } from "./contract-error.js";
export { type Descriptor, DescriptorSchema } from "./descriptor.js";
export {
  CURSOR_ERROR_REASONS,
  type CursorErrorReason,
  ERROR_CODE_LIST,
  ERROR_CODES,
  type ErrorCode,
  HANDLE_ERROR_REASONS,
  type HandleErrorReason,
  isErrorCode,
} from "./error-codes.js";
export { type ErrorObject, ErrorObjectSchema } from "./error-object.js";
export { createErrorResult, type ErrorResultInput } from "./error-result.js";
export {
  EXACT_NUMBER_BRAND,
  type ExactNumberValue,
  isExactNumberValue,
} from "./exact-number-value.js";
export {
  type AnyOfFilter,
  AnyOfFilterSchema,
  FILTER_KEYS,
  FILTER_OPS,
  type Filter,
  type FilterOp,
  FilterOpSchema,
  FilterSchema,
  isAnyOfFilter,
  type JsonValue,
  JsonValueSchema,
  type LeafFilter,
  LeafFilterSchema,
  type Measure,
  MeasureSchema,
} from "./filter.js";
export {
  BOUNDED_ENVELOPE_JSON_SCHEMA,
  BOUNDED_ERROR_JSON_SCHEMA,
  DESCRIPTOR_JSON_SCHEMA,
  type JsonSchemaObject,
  QUERY_TOOL_INPUT_SCHEMA,
  QUERY_TOOL_OUTPUT_SCHEMA,
} from "./json-schemas.js";
export {
  CONTRACT_VERSION,
  DEFAULT_LIMITS,
  type Limits,
  QUERY_TOOL_NAME,
} from "./limits.js";
export { type ParseQueryRequestResult, parseQueryRequest } from "./parse-query-request.js";
export {
  AGGREGATE_KEYS,
  type Aggregate,
  AggregateSchema,
  EXTENSION_NAMES,
  type ExtensionName,
  ExtensionNameSchema,
  type GroupBy,
  GroupBySchema,
  groupByPaths,
  METRIC_KEYS,
  METRIC_OPS,
  type Metric,
  type MetricOp,
  MetricOpSchema,
  MetricSchema,
  metricLabel,
  SORT_KEYS,
  SORT_ORDERS,
  type SortKey,
  SortKeySchema,
} from "./query-extensions.js";
export {
  QUERY_REQUEST_CONFLICTS,
  QUERY_REQUEST_KEYS,
  type QueryRequest,
  QueryRequestSchema,
  TEXT_SEARCH_KEYS,
  type TextSearch,
  TextSearchSchema,
} from "./query-request.js";
export {
  type ErrorResponseMeta,
  ErrorResponseMetaSchema,
  type FilterApplied,
  FilterAppliedSchema,
  type InexactNumbers,
  InexactNumbersSchema,
  MAX_INEXACT_POINTERS,
  PAGE_UNITS,
  type PageUnit,
  PageUnitSchema,
  type QueryErrorResult,
  QueryErrorResultSchema,
  type QueryResult,
  QueryResultSchema,
  type QueryToolOutput,
  QueryToolOutputSchema,
  type ResponseMeta,
  ResponseMetaSchema,
  TRUNCATION_REASONS,
  type TruncationReason,
  TruncationReasonSchema,
} from "./query-result.js";
