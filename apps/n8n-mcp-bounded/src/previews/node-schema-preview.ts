import { isRecord, isScalar } from "./json-shapes.js";
import { cutText, entriesWithin, jsonBytes, N8N_PREVIEW_BYTES, SUMMARIZED_KEY } from "./markers.js";

const HEADER_KEYS = [
  "nodeType",
  "workflowNodeType",
  "displayName",
  "description",
  "category",
  "version",
  "isVersioned",
  "isTrigger",
  "isWebhook",
  "isAITool",
] as const;

const ALWAYS = "always";

function describeConditionValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const LEADING_FIELDS = ["resource", "operation"];

/** resource first, then operation, then the other fields by name: one spelling per condition. */
function fieldOrder(left: string, right: string): number {
  const leftRank = LEADING_FIELDS.indexOf(left);
  const rightRank = LEADING_FIELDS.indexOf(right);
  if (leftRank !== rightRank) {
    if (leftRank === -1) return 1;
    if (rightRank === -1) return -1;
    return leftRank - rightRank;
  }
  return left < right ? -1 : left > right ? 1 : 0;
}

function describeConditions(conditions: unknown, negated: boolean): string[] {
  if (!isRecord(conditions)) return [];
  const entries = Object.entries(conditions).sort(([left], [right]) => fieldOrder(left, right));
  return entries.map(([field, values]) => {
    const listed = Array.isArray(values) ? values.map(describeConditionValue).join("|") : "?";
    return `${field}${negated ? "!=" : "="}${listed}`;
  });
}

/**
 * A property's display options in one line: `show` conditions as `field=a|b`, `hide` ones as
 * `field!=a|b`, joined with "; " (all must hold, as in n8n; resource, then operation, then the
 * other fields by name); "always" when there are none.
 */
export function summarizeDisplayOptions(displayOptions: unknown): string {
  if (!isRecord(displayOptions)) return ALWAYS;
  const parts = [
    ...describeConditions(displayOptions.show, false),
    ...describeConditions(displayOptions.hide, true),
  ];
  return parts.length === 0 ? ALWAYS : parts.join("; ");
}

/** A default longer than this (as JSON) is cut, marked `…[N chars total]`. */
export const MAX_DEFAULT_CHARS = 40;

/**
 * One property in one line: `name:type`, then `*` when n8n marks it required, then `=` and its
 * default as JSON when it has one (cut after 40 characters, marked `…[N chars total]`), e.g.
 * `channelId:string*=""`. Options, descriptions and type options are left to the artifact.
 */
export function describeProperty(property: Record<string, unknown>): string {
  const type = typeof property.type === "string" ? property.type : "unknown";
  const required = property.required === true ? "*" : "";
  const fallback = Object.hasOwn(property, "default")
    ? `=${cutText(JSON.stringify(property.default) ?? "null", MAX_DEFAULT_CHARS)}`
    : "";
  return `${String(property.name)}:${type}${required}${fallback}`;
}

/**
 * Properties grouped by when n8n shows them (`{"resource=message; operation=post":
 * ["text:string*=\"\"", ...]}`, each as {@link describeProperty}), in first-appearance order, so
 * a condition shared by many properties is written once.
 */
export function groupPropertiesByDisplay(properties: readonly unknown[]): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const property of properties) {
    if (!isRecord(property) || typeof property.name !== "string") continue;
    const key = summarizeDisplayOptions(property.displayOptions);
    groups[key] ??= [];
    groups[key].push(describeProperty(property));
  }
  return groups;
}

/** Operation values grouped by resource (`{"channel": ["archive", "close"]}`), in input order. */
export function groupOperationsByResource(
  operations: readonly unknown[],
): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const operation of operations) {
    if (!isRecord(operation)) continue;
    const value = operation.operation ?? operation.value ?? operation.name;
    if (typeof value !== "string") continue;
    const resource = typeof operation.resource === "string" ? operation.resource : "(none)";
    groups[resource] ??= [];
    groups[resource].push(value);
  }
  return groups;
}

/** Bytes of the preview the operations leave to the properties, at least. */
const PROPERTIES_ROOM = 400;

/** What each reshaped key of a node schema preview holds (the preview's `_summarized`). */
export const NODE_SCHEMA_SUMMARIES = Object.freeze({
  credentials: "names only",
  operations: "operation values by resource; full at /operations",
  properties: "by display options: name:type, *required, =default JSON; full at /properties",
});

/**
 * The preview of a `get_node` result with detail "full" (a node description with `properties`
 * and `operations` arrays): first `_summarized` (what the reshaped keys hold), then its header
 * fields, credential names, `operationCount` and the operations grouped by resource, then
 * `propertyCount` and the properties as {@link describeProperty} grouped by their display
 * options, as many whole groups as fit N8N_PREVIEW_BYTES (`"_omittedKeys": n` counts the groups
 * left out; operations leave at least 400 bytes to the properties). Undefined for other details (standard, docs,
 * search_properties), which get the generic preview.
 */
export function createNodeSchemaPreview(document: unknown): unknown {
  if (!isRecord(document) || !Array.isArray(document.properties)) return undefined;
  const credentials = Array.isArray(document.credentials) ? document.credentials : undefined;
  const { credentials: credentialsNote, ...notes } = NODE_SCHEMA_SUMMARIES;
  const preview: Record<string, unknown> = {
    [SUMMARIZED_KEY]:
      credentials === undefined ? notes : { credentials: credentialsNote, ...notes },
  };
  for (const key of HEADER_KEYS) {
    if (Object.hasOwn(document, key) && isScalar(document[key])) preview[key] = document[key];
  }
  if (credentials !== undefined) {
    preview.credentials = credentials.map((credential) =>
      isRecord(credential) ? credential.name : credential,
    );
  }
  const operations = Array.isArray(document.operations) ? document.operations : [];
  preview.operationCount = operations.length;
  preview.operations = entriesWithin(
    Object.entries(groupOperationsByResource(operations)),
    Math.max(0, N8N_PREVIEW_BYTES - PROPERTIES_ROOM - jsonBytes(preview)),
  );
  preview.propertyCount = document.properties.length;
  const room = N8N_PREVIEW_BYTES - jsonBytes(preview) - '"properties":,'.length;
  preview.properties = entriesWithin(
    Object.entries(groupPropertiesByDisplay(document.properties)),
    Math.max(0, room),
  );
  return preview;
}

/** The pointers of a node description's properties and operations, for primaryPaths. */
export function nodeSchemaPaths(document: unknown): string[] {
  if (!isRecord(document) || !Array.isArray(document.properties)) return [];
  return Array.isArray(document.operations) ? ["/properties", "/operations"] : ["/properties"];
}

/**
 * The responseRoot rule of every `get_node` result: `/properties` whenever the node description's
 * `properties` array is its largest top-level collection (compact JSON length, against every
 * other top-level array or object), so `{"filters": [...], "fields": [...]}` without responsePath
 * reads the properties of Notion, Slack, Zoho, Salesforce, GitHub and Jira alike. Undefined (the
 * generic analysis decides) for other shapes, such as detail "standard" or a description whose
 * operations outweigh its properties. Costs one serialization of the top-level collections.
 */
export function nodeSchemaRoot(document: unknown): string | undefined {
  if (!isRecord(document) || !Array.isArray(document.properties)) return undefined;
  const propertiesLength = JSON.stringify(document.properties).length;
  for (const [key, value] of Object.entries(document)) {
    if (key === "properties" || typeof value !== "object" || value === null) continue;
    if (JSON.stringify(value).length >= propertiesLength) return undefined;
  }
  return "/properties";
}
