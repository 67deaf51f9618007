import { isRecord, isScalar } from "./json-shapes.js";

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

/**
 * Property names and types grouped by when n8n shows them (`{"resource=message; operation=post":
 * ["text:string", ...]}`), in first-appearance order, so a condition shared by many properties is
 * written once.
 */
export function groupPropertiesByDisplay(properties: readonly unknown[]): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const property of properties) {
    if (!isRecord(property) || typeof property.name !== "string") continue;
    const key = summarizeDisplayOptions(property.displayOptions);
    const type = typeof property.type === "string" ? property.type : "unknown";
    groups[key] ??= [];
    groups[key].push(`${property.name}:${type}`);
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

/**
 * The preview of a `get_node` result with detail "full" (a node description with `properties`
 * and `operations` arrays): its header fields, credential names, every operation grouped by
 * resource, and every property as `name:type` grouped by its display options. Undefined for
 * other details (standard, docs, search_properties), which get the generic preview.
 */
export function createNodeSchemaPreview(document: unknown): unknown {
  if (!isRecord(document) || !Array.isArray(document.properties)) return undefined;
  const preview: Record<string, unknown> = {};
  for (const key of HEADER_KEYS) {
    if (Object.hasOwn(document, key) && isScalar(document[key])) preview[key] = document[key];
  }
  if (Array.isArray(document.credentials)) {
    preview.credentials = document.credentials.map((credential) =>
      isRecord(credential) ? credential.name : credential,
    );
  }
  const operations = Array.isArray(document.operations) ? document.operations : [];
  preview.operationCount = operations.length;
  preview.operations = groupOperationsByResource(operations);
  preview.propertyCount = document.properties.length;
  preview.properties = groupPropertiesByDisplay(document.properties);
  return preview;
}

/** The pointers of a node description's properties and operations, for primaryPaths. */
export function nodeSchemaPaths(document: unknown): string[] {
  if (!isRecord(document) || !Array.isArray(document.properties)) return [];
  return Array.isArray(document.operations) ? ["/properties", "/operations"] : ["/properties"];
}
