import { isExactNumberValue } from "./exact-number-value.js";

type Replace = (value: unknown) => unknown;

function mapJson(value: unknown, replace: Replace): unknown {
  if (isExactNumberValue(value)) return replace(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return Array.from(value, (item) => mapJson(item, replace));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // Defined, not assigned, so a "__proto__" key stays data.
    Object.defineProperty(copy, key, {
      value: mapJson(item, replace),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** Whether a JSON value holds an ExactNumber anywhere (small values only: recursive). */
export function holdsExact(value: unknown): boolean {
  if (isExactNumberValue(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(holdsExact);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The filter values (`filters[].value`, `filters[].anyOf[].value`) of arguments, if any. */
function filterValues(input: unknown): unknown[] {
  if (!isRecord(input) || !Array.isArray(input["filters"])) return [];
  const values: unknown[] = [];
  for (const filter of input["filters"]) {
    if (!isRecord(filter)) continue;
    if (Object.hasOwn(filter, "value")) values.push(filter["value"]);
    if (!Array.isArray(filter["anyOf"])) continue;
    for (const inner of filter["anyOf"]) {
      if (isRecord(inner) && Object.hasOwn(inner, "value")) values.push(inner["value"]);
    }
  }
  return values;
}

/**
 * Whether the arguments hold an ExactNumber inside a filter value (SPEC.md §10: a literal of the
 * raw request a double does not hold), the one place the contract accepts one.
 */
export function holdsExactFilterValue(input: unknown): boolean {
  return filterValues(input).some(holdsExact);
}

/**
 * A copy of arguments with every ExactNumber inside a filter value replaced by `0`, for the
 * schema, which checks types only (an ExactNumber is a number there; 0, not its double, since
 * `1e400` is Infinity and zod refuses it). ExactNumbers anywhere else stay and fail the schema,
 * as any other object would.
 */
export function withExactFilterValuesAsZero(input: unknown): unknown {
  if (!isRecord(input) || !Array.isArray(input["filters"])) return input;
  const asZero = (filter: unknown): unknown => {
    if (!isRecord(filter)) return filter;
    const copy = mapJson(filter, (value) => value) as Record<string, unknown>;
    if (Object.hasOwn(filter, "value")) copy["value"] = mapJson(filter["value"], () => 0);
    if (Array.isArray(filter["anyOf"])) copy["anyOf"] = filter["anyOf"].map(asZero);
    return copy;
  };
  return { ...input, filters: input["filters"].map(asZero) };
}

/**
 * A deep copy of JSON arguments that keeps ExactNumbers by reference (they are frozen) and
 * `__proto__` keys as data: what `structuredClone` gives for plain JSON, which would turn an
 * ExactNumber into `{}`.
 */
export function cloneKeepingExact(input: unknown): unknown {
  return mapJson(input, (value) => value);
}
