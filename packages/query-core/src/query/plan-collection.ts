import {
  ContractError,
  type ExtensionName,
  metricLabel,
  type QueryRequest,
} from "@bounded-mcp/contract";
import { escapePointerToken, formatPointer } from "../pointer/pointer.js";
import { keysOf } from "../preview/estimate-bytes.js";
import { inChunks, type Work } from "../schedule/work.js";
import { arrayBytes, OBJECT_BYTES, stringBytes } from "../views/view-bytes.js";
import { entriesKey, planKey, type ViewSlot } from "../views/view-slot.js";
import type { CompiledAggregate } from "./aggregate-rows.js";
import {
  type CompiledPath,
  compileField,
  compileFilterPath,
  readPath,
  rebaseOnEntries,
  resolvesOnAny,
  stripFirstToken,
} from "./compiled-path.js";
import {
  aggregatePaths,
  type CompiledSortKey,
  compileAggregate,
  compileSort,
  extensionsUsed,
  mapAggregatePaths,
} from "./extensions.js";
import { type CompiledFilter, compileFilters, filterPaths, mapFilterPaths } from "./filters.js";
import { createRecord, fastRecord, isJsonObject } from "./json-values.js";
import { capitalize, unresolvedFields, where } from "./path-errors.js";
import type { SelectedValue } from "./select-path.js";

/** How a selection is answered when fields, filters or objectMode apply. */
export type CollectionPlan =
  | { kind: "single"; object: Record<string, unknown>; fields: CompiledPath[] }
  | {
      kind: "collection";
      items: readonly unknown[];
      /** The absolute pointer of item `index` (compaction warnings, AMBIGUOUS hints). */
      pointerOf: (index: number) => string;
      fields: CompiledPath[] | null;
      filters: CompiledFilter[] | null;
      /** Sort keys (SPEC.md §9); with aggregate they order the rows and are read on them. */
      sort: CompiledSortKey[] | null;
      aggregate: CompiledAggregate | null;
      /** Turns an item into what the page emits when no fields project it (default: itself). */
      emit?: (item: unknown, index: number) => unknown;
      /** The item keys an error lists (default: sampled from the items). */
      itemKeys?: string[];
    };

/** The §9 extensions of a plan: sort keys and aggregate, compiled. */
interface Extensions {
  sort: CompiledSortKey[] | null;
  aggregate: CompiledAggregate | null;
}

/**
 * The item paths the extensions read: aggregate's groupBy and metric paths, and the sort paths
 * when there is no aggregate (with aggregate, sort reads the rows, not the items).
 */
function extensionPaths(extensions: Extensions): CompiledPath[] {
  const paths = extensions.aggregate === null ? [] : aggregatePaths(extensions.aggregate);
  if (extensions.sort !== null && extensions.aggregate === null) {
    paths.push(...extensions.sort.map((key) => key.path));
  }
  return paths;
}

/** The extensions with every item path rewritten (rows' sort paths stay as they are). */
function mapExtensionPaths(
  extensions: Extensions,
  rewrite: (path: CompiledPath) => CompiledPath,
): Extensions {
  const aggregate =
    extensions.aggregate === null ? null : mapAggregatePaths(extensions.aggregate, rewrite);
  const sort =
    extensions.sort === null || aggregate !== null
      ? extensions.sort
      : extensions.sort.map((key) => ({ ...key, path: rewrite(key.path) }));
  return { sort, aggregate };
}

/** What planning adds to responseMeta. */
export interface PlanNotes {
  inferredResponsePath?: string | undefined;
  normalizedFields?: Record<string, string> | undefined;
  warnings: string[];
}

const MAX_CANDIDATES = 30;

function arrayChildren(object: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const key in object) {
    if (Object.hasOwn(object, key) && Array.isArray(object[key])) keys.push(key);
  }
  return keys;
}

/** SPEC.md §4.5: at least 2 entries, at least half of them objects, and not exactly one array child. */
function isKeyedObject(object: Record<string, unknown>, arrayKeys: readonly string[]): boolean {
  if (arrayKeys.length === 1) return false;
  let entries = 0;
  let objects = 0;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    entries += 1;
    if (isJsonObject(object[key])) objects += 1;
  }
  return entries >= 2 && objects * 2 >= entries;
}

/** The base pointer of an array collection (bound to arrayPointer). */
interface ArrayPointers {
  readonly base: string;
}

function arrayPointer(this: ArrayPointers, index: number): string {
  return `${this.base}/${index}`;
}

/**
 * The pointerOf of an array at `base`: one function for the process bound to the base, not a
 * closure per plan (a page calls it per element; the optimized code of a closure made per plan
 * went with the plans a full collection found dead, and each new view optimized it again).
 */
export function arrayPointerOf(base: string): (index: number) => string {
  return arrayPointer.bind({ base });
}

/** An entries collection: the object's pointer and its keys (bound to entryPointer, entryRow). */
interface EntryKeys {
  readonly pointer: string;
  readonly keys: readonly string[];
}

function entryPointer(this: EntryKeys, index: number): string {
  return `${this.pointer}/${escapePointerToken(this.keys[index] as string)}`;
}

/** The `{key, value}` row an entries page emits for entry `index` (a fastRecord). */
function entryRow(this: EntryKeys, item: unknown, index: number): unknown {
  const row = fastRecord();
  row.key = this.keys[index];
  row.value = item;
  return row;
}

/**
 * The keys and values of an object, in key order: objectMode "entries" without row objects. The
 * key list of a large object is the one remembered for that parsed document (keysOf), so repeated
 * queries on one keyed object enumerate it once; documents are treated as immutable. The values
 * are read in chunks that yield (SPEC.md §9 rule 6), and kept in the view cache when the request
 * has a slot there (`views`), keyed by the object's pointer, so the next page reads none again.
 */
export function* splitEntries(
  object: Record<string, unknown>,
  views: ViewSlot | null = null,
  pointer = "",
): Work<Entries> {
  const key = entriesKey(pointer);
  const kept = views?.get(key) as Entries | undefined;
  if (kept !== undefined) return kept;
  const keys = keysOf(object);
  const values = new Array<unknown>(keys.length);
  yield* inChunks(keys.length, (start, end) => {
    for (let index = start; index < end; index += 1) values[index] = object[keys[index] as string];
  });
  const entries: Entries = { keys, values };
  // The key list is the one keysOf keeps for the document; the values array is what is new.
  views?.set(key, entries, OBJECT_BYTES + arrayBytes(values.length));
  return entries;
}

/** An object's keys and values in key order (objectMode "entries"); shared, never changed. */
interface Entries {
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

/** The request rewritten for objectMode "entries": every path moved under /value or to /key. */
function suggestEntriesRequest(
  request: QueryRequest,
  selection: SelectedValue,
  object: Record<string, unknown>,
  fields: readonly CompiledPath[],
  filters: readonly CompiledFilter[],
): Record<string, unknown> {
  const values = Object.values(object);
  const rewritePath = (path: CompiledPath): string =>
    resolvesOnAny(values, null, path) ? `/value${formatPointer(path.tokens)}` : "/key";
  const rewrite = (path: string): string => rewritePath(compileFilterPath(path));
  const suggested: Record<string, unknown> = {
    artifactId: request.artifactId,
    responsePath: selection.pointer,
    objectMode: "entries",
  };
  if (request.fields !== undefined) suggested.fields = [...new Set(fields.map(rewritePath))];
  if (request.filters !== undefined) {
    suggested.filters = request.filters.map((filter, index) => {
      if ("anyOf" in filter) {
        return { anyOf: filter.anyOf.map((leaf) => ({ ...leaf, path: rewrite(leaf.path) })) };
      }
      return { ...filter, path: rewritePath((filters[index] as CompiledFilter).path) };
    });
  }
  const labels = new Map<string, string>();
  if (request.aggregate !== undefined) {
    const aggregate = request.aggregate;
    const suggestedAggregate: Record<string, unknown> = { ...aggregate };
    if (aggregate.groupBy !== undefined) {
      const paths = typeof aggregate.groupBy === "string" ? [aggregate.groupBy] : aggregate.groupBy;
      const rewritten = paths.map(rewrite);
      paths.forEach((path, index) => {
        labels.set(path, rewritten[index] as string);
      });
      // Two paths that both become /key would be one label twice: keep one of them.
      suggestedAggregate.groupBy =
        typeof aggregate.groupBy === "string" ? rewritten[0] : [...new Set(rewritten)];
    }
    if (aggregate.metrics !== undefined) {
      const seen = new Set<string>();
      suggestedAggregate.metrics = aggregate.metrics.flatMap((metric) => {
        const moved =
          metric.path === undefined ? metric : { ...metric, path: rewrite(metric.path) };
        labels.set(metricLabel(metric), metricLabel(moved));
        if (seen.has(metricLabel(moved))) return [];
        seen.add(metricLabel(moved));
        return [moved];
      });
    }
    suggested.aggregate = suggestedAggregate;
  }
  if (request.sort !== undefined) {
    // With aggregate a sort path may name a row label: it follows its label's rewrite.
    suggested.sort = request.sort.map((key) => ({
      ...key,
      path:
        request.aggregate === undefined ? rewrite(key.path) : (labels.get(key.path) ?? key.path),
    }));
  }
  if (request.pageSize !== undefined) suggested.pageSize = request.pageSize;
  return suggested;
}

/** When a path names one of the keyed object's entries, how to read that entry instead. */
function entryHint(
  pointer: string,
  object: Record<string, unknown>,
  paths: readonly CompiledPath[],
): string {
  const named = paths.find(
    (path) => path.tokens[0] !== undefined && Object.hasOwn(object, path.tokens[0]),
  );
  if (named === undefined) return "";
  const entry = `${pointer}/${escapePointerToken(named.tokens[0] as string)}`;
  return ` "${named.label}" names the entry "${entry}": to read that entry itself, send responsePath "${entry}" instead.`;
}

function candidatesOf(base: string, keys: readonly string[]): string[] {
  return keys.slice(0, MAX_CANDIDATES).map((key) => `${base}/${escapePointerToken(key)}`);
}

function ambiguous(message: string, candidates: string[]): ContractError {
  return new ContractError({
    code: "AMBIGUOUS_COLLECTION",
    message: `${message} Send responsePath set to one of: ${candidates.slice(0, 10).join(", ")}.`,
    details: { candidates },
  });
}

/**
 * Plans fields and filters on an object selection without objectMode (SPEC.md §4.2 to §4.5): a keyed
 * object fails with OBJECT_MODE_REQUIRED and a ready-to-send suggestedRequest unless every pointer
 * repeats the prefix of one of its arrays; fields alone that resolve on the object itself project
 * it (exact first); else exactly one array child is selected (SPEC.md §4.3), a collection prefix repeated
 * by every pointer path is read relative to each item (SPEC.md §4.4), and mixed prefixes or several arrays
 * fail with AMBIGUOUS_COLLECTION.
 */
function planObject(
  request: QueryRequest,
  selection: SelectedValue,
  object: Record<string, unknown>,
  fields: CompiledPath[],
  filters: CompiledFilter[],
  extensions: Extensions,
  notes: PlanNotes,
): CollectionPlan {
  const arrayKeys = arrayChildren(object);
  const itemPaths = [...fields, ...filters.flatMap(filterPaths), ...extensionPaths(extensions)];
  const pointerPaths = itemPaths.filter((path) => !path.literal);
  const prefixed = pointerPaths.filter(
    (path) => path.tokens.length >= 2 && Array.isArray(object[path.tokens[0] as string]),
  );
  const prefixes = [...new Set(prefixed.map((path) => path.tokens[0] as string))].filter((key) =>
    Object.hasOwn(object, key),
  );
  const everyPointerUses = (key: string): boolean =>
    pointerPaths.length > 0 &&
    pointerPaths.every((path) => path.tokens[0] === key && path.tokens.length >= 2);

  const recoverable =
    arrayKeys.length !== 1 && prefixes.length === 1 && everyPointerUses(prefixes[0] as string);
  if (!recoverable && isKeyedObject(object, arrayKeys)) {
    throw new ContractError({
      code: "OBJECT_MODE_REQUIRED",
      message: `${capitalize(where(selection.pointer))} is a keyed object (its entries are objects), so ${extensions.sort === null && extensions.aggregate === null ? "fields and filters" : "fields, filters, sort and aggregate"} apply to its entries: send details.suggestedRequest (objectMode "entries", paths under /value, the entry name as /key).${entryHint(selection.pointer, object, itemPaths)}`,
      details: {
        suggestedRequest: suggestEntriesRequest(request, selection, object, fields, filters),
      },
    });
  }
  if (
    filters.length === 0 &&
    extensions.sort === null &&
    extensions.aggregate === null &&
    fields.some((field) => readPath(object, field) !== undefined)
  ) {
    return { kind: "single", object, fields };
  }
  let collectionKey: string | undefined;
  let strip = false;
  if (arrayKeys.length === 1) {
    collectionKey = arrayKeys[0] as string;
    const items = object[collectionKey] as unknown[];
    strip =
      everyPointerUses(collectionKey) &&
      pointerPaths.some((path) => !resolvesOnAny(items, null, path));
  } else if (recoverable) {
    collectionKey = prefixes[0] as string;
    strip = true;
  } else if (prefixes.length >= 1) {
    throw ambiguous(
      `The pointer fields and filters of this request name different collections or mix a collection prefix with other paths below ${where(selection.pointer)}, so no single collection can be inferred.`,
      candidatesOf(selection.pointer, prefixes.length > 1 ? prefixes : arrayKeys),
    );
  } else if (arrayKeys.length >= 2) {
    throw ambiguous(
      `${capitalize(where(selection.pointer))} holds ${arrayKeys.length} arrays, so the collection that fields and filters apply to cannot be inferred.`,
      candidatesOf(selection.pointer, arrayKeys),
    );
  }
  if (collectionKey === undefined) {
    return planWithoutCollection(request, selection, object, fields, filters);
  }

  const base = `${selection.pointer}/${escapePointerToken(collectionKey)}`;
  notes.inferredResponsePath = base;
  if (strip) {
    const normalized = createRecord<string>();
    const rewrite = (path: CompiledPath): CompiledPath => {
      if (path.literal) return path;
      const stripped = stripFirstToken(path);
      normalized[path.label] = formatPointer(stripped.tokens);
      return stripped;
    };
    fields = fields.map(rewrite);
    filters = filters.map((filter) => mapFilterPaths(filter, rewrite));
    extensions = mapExtensionPaths(extensions, rewrite);
    notes.normalizedFields = normalized;
    notes.warnings.push(
      `Every pointer repeated the collection prefix "/${escapePointerToken(collectionKey)}", so the fields and filters were interpreted relative to each item of "${base}" (see normalizedFields); labels are kept. Send responsePath "${base}" with the normalized paths to avoid this.`,
    );
  }
  return {
    kind: "collection",
    items: object[collectionKey] as unknown[],
    pointerOf: arrayPointerOf(base),
    fields: request.fields === undefined ? null : fields,
    filters: request.filters === undefined ? null : filters,
    ...extensions,
  };
}

function planWithoutCollection(
  request: QueryRequest,
  selection: SelectedValue,
  object: Record<string, unknown>,
  fields: CompiledPath[],
  filters: CompiledFilter[],
): CollectionPlan {
  const field =
    filters.length > 0
      ? "filters"
      : request.sort !== undefined
        ? "sort"
        : request.aggregate !== undefined
          ? "aggregate"
          : undefined;
  if (field !== undefined) {
    throw new ContractError({
      code: "INVALID_RESPONSE_CONTROLS",
      message: `${capitalize(field)} ${field === "filters" ? "apply" : "applies"} to the items of a collection, and ${where(selection.pointer)} is an object without one: select a JSON array with responsePath, or send objectMode "entries" to ${field === "filters" ? "filter" : "read"} its entries.`,
      details: {
        field,
        expected: "a responsePath that selects an array, or objectMode entries",
      },
    });
  }
  throw unresolvedFields(fields, [object], selection.pointer);
}

/**
 * Turns a selection plus fields, filters and objectMode into what gets paged: the items of an
 * array, the `{key, value}` rows of objectMode "entries", an inferred collection, or one projected
 * object. Throws ContractError for the SPEC.md §4 failures (INVALID_RESPONSE_CONTROLS, AMBIGUOUS_COLLECTION,
 * OBJECT_MODE_REQUIRED, INVALID_FIELD_PATH).
 */
export function* planCollection(
  request: QueryRequest,
  selection: SelectedValue,
  notes: PlanNotes,
  views: ViewSlot | null = null,
): Work<CollectionPlan> {
  const fields = (request.fields ?? []).map(compileField);
  const filters = compileFilters(request.filters ?? []);
  const extensions: Extensions = {
    sort: compileSort(request),
    aggregate: compileAggregate(request),
  };
  const value = selection.value;
  if (request.objectMode === "entries") {
    if (!isJsonObject(value)) {
      throw new ContractError({
        code: "INVALID_RESPONSE_CONTROLS",
        message: `objectMode "entries" needs an object, and ${where(selection.pointer)} is ${Array.isArray(value) ? "an array (page it without objectMode)" : "a scalar"}.`,
        details: { field: "objectMode", expected: "a responsePath that selects an object" },
      });
    }
    const { keys, values } = yield* splitEntries(value, views, selection.pointer);
    const rebase = (path: CompiledPath): CompiledPath => rebaseOnEntries(path, keys);
    const entryKeys: EntryKeys = { pointer: selection.pointer, keys };
    return {
      kind: "collection",
      items: values,
      pointerOf: entryPointer.bind(entryKeys),
      fields: request.fields === undefined ? null : fields.map(rebase),
      filters:
        request.filters === undefined
          ? null
          : filters.map((filter) => mapFilterPaths(filter, rebase)),
      ...mapExtensionPaths(extensions, rebase),
      emit: entryRow.bind(entryKeys),
      itemKeys: ["key", "value"],
    };
  }
  if (Array.isArray(value)) {
    return {
      kind: "collection",
      items: value,
      pointerOf: arrayPointerOf(selection.pointer),
      fields: request.fields === undefined ? null : fields,
      filters: request.filters === undefined ? null : filters,
      ...extensions,
    };
  }
  if (isJsonObject(value)) {
    return planObject(request, selection, value, fields, filters, extensions, notes);
  }
  throw new ContractError({
    code: "INVALID_RESPONSE_CONTROLS",
    message: `Fields, filters, sort and aggregate apply to arrays and objects, and ${where(selection.pointer)} is a scalar: drop them, or select its parent with responsePath.`,
    details: {
      field:
        request.fields !== undefined
          ? "fields"
          : request.filters !== undefined
            ? "filters"
            : request.sort !== undefined
              ? "sort"
              : "aggregate",
      expected: "a responsePath that selects an array or an object",
    },
  });
}

/** A plan kept for its view, with what planning added to the notes. */
interface KeptPlan {
  readonly plan: CollectionPlan;
  /** The §9 extensions the request uses (extensionsUsed). */
  readonly extensions: ExtensionName[];
  readonly warnings: readonly string[];
  readonly inferredResponsePath: string | undefined;
  readonly normalizedFields: Record<string, string> | undefined;
}

/** Bytes of a kept plan: its objects and closures, and per compiled path its label and tokens. */
function planBytes(kept: KeptPlan): number {
  const plan = kept.plan;
  const paths =
    plan.kind === "single"
      ? plan.fields
      : [...(plan.fields ?? []), ...(plan.filters ?? []).flatMap(filterPaths)];
  let bytes = OBJECT_BYTES * 8;
  for (const path of paths) {
    bytes += OBJECT_BYTES * 4 + stringBytes(path.label) * 2 + arrayBytes(path.tokens.length);
  }
  for (const warning of kept.warnings) bytes += stringBytes(warning);
  return bytes;
}

/**
 * planCollection once per view, with the request's extensionsUsed: with a slot in the view cache
 * (`views`) the plan is kept under the view's hash, with those names and the notes planning added (warnings, inferredResponsePath,
 * normalizedFields), and a later page of the same view (same document, same arguments but the
 * cursor) takes it instead of compiling its paths and inferring its collection again. The same
 * view of the same document plans the same way, so the kept plan is the plan it would make. A
 * request that fails planning keeps nothing. Without a slot this is planCollection.
 */
export function* planCollectionOnce(
  request: QueryRequest,
  selection: SelectedValue,
  notes: PlanNotes,
  views: ViewSlot | null,
): Work<Pick<KeptPlan, "plan" | "extensions">> {
  const key = views === null ? null : planKey(views);
  const found = key === null ? undefined : (views?.get(key) as KeptPlan | undefined);
  if (found !== undefined) {
    notes.warnings.push(...found.warnings);
    if (found.inferredResponsePath !== undefined) {
      notes.inferredResponsePath = found.inferredResponsePath;
    }
    if (found.normalizedFields !== undefined) notes.normalizedFields = found.normalizedFields;
    return found;
  }
  const before = notes.warnings.length;
  const plan = yield* planCollection(request, selection, notes, views);
  const extensions = extensionsUsed(request);
  if (key !== null && views !== null) {
    const kept: KeptPlan = {
      plan,
      extensions,
      warnings: notes.warnings.slice(before),
      inferredResponsePath: notes.inferredResponsePath,
      normalizedFields: notes.normalizedFields,
    };
    views.set(key, kept, planBytes(kept));
  }
  return { plan, extensions };
}
