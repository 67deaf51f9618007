import { z } from "zod";
import { MeasureSchema, PathSchema } from "./filter.js";
import { DEFAULT_LIMITS } from "./limits.js";

// The §9 extensions of the request ("answers, not pages"): sort and aggregate. Additive: a request
// without them means what it meant in v3.

/** The names `responseMeta.extensions` lists when a result used them (§9). */
export const EXTENSION_NAMES = ["sort", "aggregate", "anyOf", "nin", "measure"] as const;
/** One §9 extension name. */
export const ExtensionNameSchema = z.enum(EXTENSION_NAMES);
/** One §9 extension name. */
export type ExtensionName = z.infer<typeof ExtensionNameSchema>;

/** Sort orders; `asc` when omitted. */
export const SORT_ORDERS = ["asc", "desc"] as const;

/**
 * One sort key: `{path, order?, measure?}`. The path is read like a filter path (relative to each
 * item; `/key`, `/value/...` in objectMode); with aggregate, a path equal to a row label names
 * that label (`"sum(/price)"`, `"/category"`).
 */
export const SortKeySchema = z.strictObject({
  path: PathSchema,
  order: z.enum(SORT_ORDERS).optional(),
  measure: MeasureSchema.optional(),
});
/** One sort key as the caller sent it (order defaults to asc). */
export type SortKey = z.infer<typeof SortKeySchema>;

/** Metric operators of aggregate (§9). */
export const METRIC_OPS = ["count", "countDistinct", "sum", "avg", "min", "max"] as const;
/** One metric operator. */
export const MetricOpSchema = z.enum(METRIC_OPS);
/** One metric operator. */
export type MetricOp = z.infer<typeof MetricOpSchema>;

/**
 * One metric: `{op, path?, measure?}`. `count` takes no path (it counts the group's items); every
 * other op needs one, read like a filter path, and may measure its length.
 */
export const MetricSchema = z
  .strictObject({
    op: MetricOpSchema,
    path: PathSchema.optional(),
    measure: MeasureSchema.optional(),
  })
  .superRefine((metric, context) => {
    if (metric.op === "count") {
      for (const key of ["path", "measure"] as const) {
        if (metric[key] === undefined) continue;
        const expected = `no ${key} for op count (it counts the items of a group; use countDistinct with a path to count values)`;
        context.addIssue({
          code: "custom",
          path: [key],
          message: `Invalid metric: expected ${expected}.`,
          params: { expected },
        });
      }
      return;
    }
    if (metric.path !== undefined) return;
    const expected = `a path for op ${metric.op} (the value to aggregate, relative to each item)`;
    context.addIssue({
      code: "custom",
      path: ["path"],
      message: `Invalid metric: expected ${expected}.`,
      params: { expected },
    });
  });
/** One metric as the caller sent it. */
export type Metric = z.infer<typeof MetricSchema>;

/** groupBy: one path, or 1 to 3 of them (the row keys are the paths exactly as given). */
export const GroupBySchema = z.union([
  PathSchema,
  z.array(PathSchema).min(1).max(DEFAULT_LIMITS.maxGroupBy),
]);
/** groupBy as the caller sent it. */
export type GroupBy = z.infer<typeof GroupBySchema>;

interface LabelledParts {
  groupBy?: string | string[] | undefined;
  metrics?: Metric[] | undefined;
}

/** Row labels must differ: a row is an object, and two equal labels would hide one value. */
function checkDistinctLabels(aggregate: LabelledParts, context: z.RefinementCtx): void {
  const seen = new Set<string>();
  const groupBy =
    aggregate.groupBy === undefined
      ? []
      : typeof aggregate.groupBy === "string"
        ? [aggregate.groupBy]
        : aggregate.groupBy;
  const labels: [PropertyKey[], string][] = [
    ...groupBy.map((path, index): [PropertyKey[], string] => [
      typeof aggregate.groupBy === "string" ? ["groupBy"] : ["groupBy", index],
      path,
    ]),
    ...(aggregate.metrics ?? [{ op: "count" as const }]).map(
      (metric, index): [PropertyKey[], string] => [["metrics", index], metricLabel(metric)],
    ),
  ];
  for (const [path, label] of labels) {
    if (!seen.has(label)) {
      seen.add(label);
      continue;
    }
    const expected = `row labels that differ from each other ("${label}" appears twice)`;
    context.addIssue({
      code: "custom",
      path,
      message: `Invalid aggregate: expected ${expected}.`,
      params: { expected },
    });
    return;
  }
}

/**
 * `aggregate`: rows instead of items, one per group (§9 rule 3). Without groupBy, one row over
 * every selected item. `unwind: true` puts each distinct element of an array value in its own
 * group (it needs groupBy). Metrics default to `[{op: "count"}]`.
 */
export const AggregateSchema = z
  .strictObject({
    groupBy: GroupBySchema.optional(),
    unwind: z.boolean().optional(),
    metrics: z.array(MetricSchema).min(1).max(DEFAULT_LIMITS.maxMetrics).optional(),
  })
  .superRefine((aggregate, context) => {
    if (aggregate.unwind === true && aggregate.groupBy === undefined) {
      const expected = "groupBy with unwind (unwind splits the arrays of the groupBy paths)";
      context.addIssue({
        code: "custom",
        path: ["unwind"],
        message: `Invalid aggregate: expected ${expected}.`,
        params: { expected },
      });
    }
    checkDistinctLabels(aggregate, context);
  });
/** `aggregate` as the caller sent it (unwind false and metrics [{op: "count"}] by default). */
export type Aggregate = z.infer<typeof AggregateSchema>;

/** The keys of one sort key, in documentation order. */
export const SORT_KEYS = Object.freeze(Object.keys(SortKeySchema.shape) as (keyof SortKey)[]);
/** The keys of aggregate, in documentation order. */
export const AGGREGATE_KEYS = Object.freeze(
  Object.keys(AggregateSchema.shape) as (keyof Aggregate)[],
);
/** The keys of one metric, in documentation order. */
export const METRIC_KEYS = Object.freeze(Object.keys(MetricSchema.shape) as (keyof Metric)[]);

/** The paths of groupBy as a list (one path is a list of one). */
export function groupByPaths(aggregate: Aggregate): string[] {
  const groupBy = aggregate.groupBy;
  if (groupBy === undefined) return [];
  return typeof groupBy === "string" ? [groupBy] : [...groupBy];
}

/**
 * The row label of a metric (§9 rule 3): `count` for op count; `<op>(<path as given>)` for the
 * others, `<op>(len(<path>))` under measure length.
 */
export function metricLabel(metric: Metric): string {
  if (metric.op === "count") return "count";
  const path = metric.path ?? "";
  return `${metric.op}(${metric.measure === "length" ? `len(${path})` : path})`;
}
