import { FILTER_OPS } from "./filter.js";
import { DEFAULT_LIMITS } from "./limits.js";
import { SORT_ORDERS } from "./query-extensions.js";
import { QUERY_REQUEST_CONFLICTS, type QueryRequest } from "./query-request.js";

// The hand-written check of the request shapes that page through views (every later page of a
// view sends one again): the plain keys, plain filters, sort and textSearch. It only ever says
// "valid, and here is the copy" for input the schema would accept with that very copy; anything
// it is not sure of (aggregate, anyOf, measure on a text op, a nested filter value, an undefined
// member, a prototype other than Object's, an unknown key, any invalid value) it leaves to the
// schema, so every error, and every rarer valid shape, comes from the schema as before.

const L = DEFAULT_LIMITS;
const OPS: ReadonlySet<string> = new Set(FILTER_OPS);
const ORDERS: ReadonlySet<string> = new Set(SORT_ORDERS);

type Checked = Record<string, unknown>;

/** A plain object of data: Object's (or no) prototype, every own property enumerable. */
function plainKeys(value: unknown): string[] | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return null;
  const keys = Object.keys(value);
  return Object.getOwnPropertyNames(value).length === keys.length ? keys : null;
}

/** A plain array without holes or other own properties, or null. */
function plainArray(value: unknown, max: number): readonly unknown[] | null {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return null;
  const length = value.length;
  if (length > max || Object.getOwnPropertyNames(value).length !== length + 1) return null;
  return value;
}

function isPath(value: unknown): value is string {
  return typeof value === "string" && value.length <= L.maxPathChars;
}

/** A JSON scalar the schema takes as is (zod's number refuses NaN and the infinities). */
function isScalar(value: unknown): boolean {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

/** A filter value: a scalar or a flat array of scalars (copied); undefined when unsure. */
function filterValue(value: unknown): { value: unknown } | undefined {
  if (isScalar(value)) return { value };
  const list = plainArray(value, Number.POSITIVE_INFINITY);
  if (list === null) return undefined;
  const copy = new Array<unknown>(list.length);
  for (let index = 0; index < list.length; index += 1) {
    const item = list[index];
    if (!isScalar(item)) return undefined;
    copy[index] = item;
  }
  return { value: copy };
}

/** The schema's rule of a plain filter's value for its op (and measure), as a yes or no. */
function valueFits(op: string, value: unknown, measured: boolean): boolean {
  const present = value !== undefined;
  if (op === "exists") return !present || typeof value === "boolean";
  if (op === "in" || op === "nin") {
    return Array.isArray(value) && (!measured || value.every((item) => typeof item === "number"));
  }
  if (measured) return typeof value === "number";
  if (op === "lt" || op === "lte" || op === "gt" || op === "gte") {
    return typeof value === "number" || typeof value === "string";
  }
  if (op === "icontains") return typeof value === "string";
  return present;
}

function copyFilter(filter: unknown): Checked | undefined {
  const keys = plainKeys(filter);
  if (keys === null) return undefined;
  const source = filter as Checked;
  const copy: Checked = {};
  let value: unknown;
  for (const key of keys) {
    const member = source[key];
    if (key === "path") {
      if (!isPath(member)) return undefined;
      copy[key] = member;
    } else if (key === "op") {
      if (typeof member !== "string" || !OPS.has(member)) return undefined;
      copy[key] = member;
    } else if (key === "measure") {
      if (member !== "length") return undefined;
      copy[key] = member;
    } else if (key === "value") {
      const checked = filterValue(member);
      if (checked === undefined) return undefined;
      value = checked.value;
      copy[key] = value;
    } else return undefined;
  }
  if (copy["path"] === undefined) return undefined;
  const op = (copy["op"] as string | undefined) ?? "eq";
  const measured = copy["measure"] !== undefined;
  if (measured && (op === "contains" || op === "icontains")) return undefined;
  return valueFits(op, value, measured) ? copy : undefined;
}

function copySortKey(key: unknown): Checked | undefined {
  const keys = plainKeys(key);
  if (keys === null) return undefined;
  const source = key as Checked;
  const copy: Checked = {};
  for (const name of keys) {
    const member = source[name];
    const fits =
      name === "path"
        ? isPath(member)
        : name === "order"
          ? typeof member === "string" && ORDERS.has(member)
          : name === "measure" && member === "length";
    if (!fits) return undefined;
    copy[name] = member;
  }
  return copy["path"] === undefined ? undefined : copy;
}

function copyTextSearch(value: unknown): Checked | undefined {
  const keys = plainKeys(value);
  if (keys === null) return undefined;
  const source = value as Checked;
  const copy: Checked = {};
  for (const name of keys) {
    const member = source[name];
    const fits =
      name === "query"
        ? typeof member === "string" &&
          member.length >= L.minTextSearchQueryChars &&
          member.length <= L.maxTextSearchQueryChars
        : name === "caseSensitive" && typeof member === "boolean";
    if (!fits) return undefined;
    copy[name] = member;
  }
  return copy["query"] === undefined ? undefined : copy;
}

/** Each element copied by `copy`, or undefined when one is not sure or the list is not. */
function copyList(
  value: unknown,
  min: number,
  max: number,
  copy: (element: unknown) => unknown,
): unknown[] | undefined {
  const list = plainArray(value, max);
  if (list === null || list.length < min) return undefined;
  const copied = new Array<unknown>(list.length);
  for (let index = 0; index < list.length; index += 1) {
    const element = copy(list[index]);
    if (element === undefined) return undefined;
    copied[index] = element;
  }
  return copied;
}

const asPath = (value: unknown): unknown => (isPath(value) ? value : undefined);

/** One top-level member checked and copied; undefined when unsure (the schema decides). */
function copyMember(key: string, member: unknown): unknown {
  switch (key) {
    case "artifactId":
    case "cursor":
      return typeof member === "string" ? member : undefined;
    case "responsePath":
    case "jsonPath":
      return asPath(member);
    case "describe":
      return typeof member === "boolean" ? member : undefined;
    case "objectMode":
      return member === "entries" ? member : undefined;
    case "pageSize":
      return Number.isSafeInteger(member) &&
        (member as number) >= L.minPageSize &&
        (member as number) <= L.maxPageSize
        ? member
        : undefined;
    case "fields":
      return copyList(member, 0, L.maxFields, asPath);
    case "filters":
      return copyList(member, 0, L.maxFilters, copyFilter);
    case "sort":
      return copyList(member, 1, L.maxSortKeys, copySortKey);
    case "textSearch":
      return copyTextSearch(member);
    default:
      return undefined;
  }
}

function isSet(request: Checked, key: string): boolean {
  return key === "describe" ? request[key] === true : request[key] !== undefined;
}

/** Whether two of the arguments exclude each other (the schema's conflict rule). */
function conflicts(request: Checked): boolean {
  for (const [key, excluded] of QUERY_REQUEST_CONFLICTS) {
    if (isSet(request, key) && excluded.some((other) => isSet(request, other))) return true;
  }
  return false;
}

/**
 * The request when `input` is one of the common valid shapes (the plain arguments, plain
 * filters with a scalar or flat-list value, sort, textSearch), as a copy that equals what
 * `structuredClone` gives (same keys, same order); undefined for anything else, which the
 * schema then judges. Never accepts what the schema refuses: a property test pins it to the
 * schema. Reads each member once; throws only what a getter of the input throws.
 */
export function parseCommonRequest(input: unknown): QueryRequest | undefined {
  const keys = plainKeys(input);
  if (keys === null) return undefined;
  const source = input as Checked;
  const copy: Checked = {};
  for (const key of keys) {
    const member = copyMember(key, source[key]);
    if (member === undefined) return undefined;
    copy[key] = member;
  }
  if (copy["artifactId"] === undefined || conflicts(copy)) return undefined;
  return copy as QueryRequest;
}
