import { z } from "zod";
import { DEFAULT_LIMITS } from "./limits.js";

/** Filter operators of contract v3 (§3, §4.6) and `nin` (§9); `eq` when omitted. */
export const FILTER_OPS = [
  "eq",
  "ne",
  "in",
  "nin",
  "contains",
  "icontains",
  "lt",
  "lte",
  "gt",
  "gte",
  "exists",
] as const;
/** One filter operator; the schema rejects any other string with INVALID_RESPONSE_CONTROLS. */
export const FilterOpSchema = z.enum(FILTER_OPS);
/** One filter operator; `eq` when a filter omits it. */
export type FilterOp = z.infer<typeof FilterOpSchema>;

/**
 * `measure: "length"` (§9): compare (or sort, or aggregate) the length of a value instead of the
 * value: array items, string UTF-16 code units, object keys. A value without a length (a number,
 * a boolean, null) counts as missing.
 */
export const MeasureSchema = z.literal("length");
/** The one measure of §9. */
export type Measure = z.infer<typeof MeasureSchema>;

/** Any JSON value (what a filter compares against). */
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
);
/** A JSON value as it travels on the wire (no undefined, no functions). */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A path of a filter, sort key, groupBy or metric: an item key, or a pointer relative to it. */
export const PathSchema = z.string().max(DEFAULT_LIMITS.maxPathChars);

const ORDERING_OPS: readonly FilterOp[] = ["lt", "lte", "gt", "gte"];
const LIST_OPS: readonly FilterOp[] = ["in", "nin"];
const TEXT_OPS: readonly FilterOp[] = ["contains", "icontains"];

/** What a filter's `value` must be for its op; null when any present JSON value will do. */
function valueProblem(op: FilterOp, value: unknown): string | null {
  if (op === "exists") {
    return value === undefined || typeof value === "boolean"
      ? null
      : "a boolean for op exists (true: the path resolves; false: it does not; default true)";
  }
  if (LIST_OPS.includes(op)) {
    return Array.isArray(value) ? null : `an array of candidate values for op ${op}`;
  }
  if (ORDERING_OPS.includes(op)) {
    return typeof value === "number" || typeof value === "string"
      ? null
      : `a number or a string for op ${op}`;
  }
  if (op === "icontains") {
    return typeof value === "string" ? null : "a string for op icontains";
  }
  return value === undefined ? `a value for op ${op}` : null;
}

/** Under measure length the compared value is a number: the value must be one (or a list of them). */
function measuredValueProblem(op: FilterOp, value: unknown): string | null {
  if (op === "exists") return valueProblem(op, value);
  const isNumber = (candidate: unknown) => typeof candidate === "number";
  if (LIST_OPS.includes(op)) {
    return Array.isArray(value) && value.every(isNumber)
      ? null
      : `an array of numbers for op ${op} with measure length (lengths are numbers)`;
  }
  return isNumber(value)
    ? null
    : `a number for op ${op} with measure length (a length is a number)`;
}

interface LeafShape {
  op?: FilterOp | undefined;
  value?: unknown;
  measure?: Measure | undefined;
}

function checkLeaf(filter: LeafShape, context: z.RefinementCtx): void {
  const op = filter.op ?? "eq";
  if (filter.measure !== undefined && TEXT_OPS.includes(op)) {
    const expected =
      "no measure with op contains or icontains (a length is a number: use eq, ne, in, nin, lt, lte, gt, gte or exists)";
    context.addIssue({
      code: "custom",
      path: ["measure"],
      message: `Invalid filter: expected ${expected}.`,
      params: { expected },
    });
    return;
  }
  const expected =
    filter.measure === undefined
      ? valueProblem(op, filter.value)
      : measuredValueProblem(op, filter.value);
  if (expected === null) return;
  context.addIssue({
    code: "custom",
    path: ["value"],
    message: `Invalid filter value: expected ${expected}.`,
    params: { expected },
  });
}

/**
 * One plain filter: `{path, op?, value?, measure?}`. The value must fit the op: `in` and `nin` an
 * array, ordering ops a number or a string, `icontains` a string, `exists` a boolean (default
 * true), the other ops any JSON value (required). With `measure: "length"` the value is a number
 * (an array of numbers for in and nin) and contains/icontains are refused. A mismatch carries
 * `params.expected` for the error details.
 */
export const LeafFilterSchema = z
  .strictObject({
    path: PathSchema,
    op: FilterOpSchema.optional(),
    value: JsonValueSchema.optional(),
    measure: MeasureSchema.optional(),
  })
  .superRefine(checkLeaf);
/** One plain filter as the caller sent it (no defaults filled in). */
export type LeafFilter = z.infer<typeof LeafFilterSchema>;

/**
 * `{anyOf: [2..5 plain filters]}` (§9): holds when any of its filters holds; one level only (no
 * anyOf inside), and it counts as one filter against maxFilters.
 */
export const AnyOfFilterSchema = z.strictObject({
  anyOf: z.array(LeafFilterSchema).min(DEFAULT_LIMITS.minAnyOf).max(DEFAULT_LIMITS.maxAnyOf),
});
/** An anyOf filter as the caller sent it. */
export type AnyOfFilter = z.infer<typeof AnyOfFilterSchema>;

/** One entry of `filters`: a plain filter or an anyOf of plain filters; filters are ANDed. */
export const FilterSchema = z.union([LeafFilterSchema, AnyOfFilterSchema]);
/** One entry of `filters` as the caller sent it. */
export type Filter = z.infer<typeof FilterSchema>;

/** True when a filter is an anyOf (else it is a plain filter with a path). */
export function isAnyOfFilter(filter: Filter): filter is AnyOfFilter {
  return Object.hasOwn(filter, "anyOf");
}

/** The keys of a plain filter, in documentation order. */
export const FILTER_KEYS = Object.freeze(
  Object.keys(LeafFilterSchema.shape) as (keyof LeafFilter)[],
);
