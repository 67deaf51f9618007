import { ContractError, type FilterApplied, type QueryResult } from "@bounded-mcp/contract";
import { escapePointerToken } from "../pointer/pointer.js";
import { keysOf } from "../preview/estimate-bytes.js";
import type { Work } from "../schedule/work.js";
import { arrayBytes, OBJECT_BYTES, rowsBytes, stringBytes } from "../views/view-bytes.js";
import { type ViewSlot, viewKey } from "../views/view-slot.js";
import {
  type AggregatedRows,
  aggregateCandidates,
  type FilteredItems,
  filterItems,
  itemSortReaders,
  rowSortReaders,
  type SortedView,
  sortCandidates,
  sortedViewBytes,
} from "./collection-view.js";
import { type CompiledPath, resolvesOnAny } from "./compiled-path.js";
import { planDescribe } from "./describe.js";
import { fastRecord, isJsonObject } from "./json-values.js";
import {
  buildPage,
  type EnvelopeMemo,
  type EnvelopeTemplate,
  type FieldCounts,
  type PageElement,
  type PageLayout,
  type PageSpec,
} from "./page-result.js";
import { columnStoreOf } from "./path-columns.js";
import { suggestedFieldError, unresolvedFields, unresolvedPaths } from "./path-errors.js";
import { arrayPointerOf, type CollectionPlan, type PlanNotes } from "./plan-collection.js";
import type { QueryContext } from "./query-context.js";
import type { SelectedValue } from "./select-path.js";
import { readCompiled } from "./walk-path.js";

/**
 * What every page of one request shares: who asks, the offset, the page size, the cursor maker,
 * and the request's slot in the view cache (null: no cache).
 */
export type PageBase = Pick<
  PageSpec,
  "artifactId" | "responsePath" | "inlineBytes" | "sourceTruncated" | "nextCursor" | "extensions"
> & { offset: number; pageSize: number; warnings: string[]; views: ViewSlot | null };

/**
 * What the view cache keeps of one collection view (README "View cache"): the filter outcome,
 * the aggregate rows, and the sorted view (of the items, or of the rows under aggregate). Each
 * stage is complete when kept: no stage of a collection view stops at a work limit (only
 * textSearch does, and it is never cached).
 */
interface CollectionViewState {
  readonly filtered: FilteredItems;
  aggregated: AggregatedRows | undefined;
  sorted: SortedView | undefined;
  /** What the check of `fields` warned (it passed: a failing check throws and keeps nothing). */
  fieldWarnings: string[] | undefined;
  /** The envelope texts the view's pages share (filled by its first array page). */
  readonly envelope: EnvelopeMemo;
}

function stateBytes(state: CollectionViewState): number {
  const indices = state.filtered.indices;
  let bytes = OBJECT_BYTES * 4 + (indices === null ? 0 : arrayBytes(indices.length));
  bytes += JSON.stringify(state.filtered.applied ?? null).length * 2;
  if (state.aggregated !== undefined) bytes += rowsBytes(state.aggregated.rows);
  if (state.sorted !== undefined) bytes += sortedViewBytes(state.sorted);
  for (const warning of state.fieldWarnings ?? []) bytes += stringBytes(warning);
  const template = state.envelope.template;
  if (template !== null) {
    bytes += OBJECT_BYTES + arrayBytes(template.pieces.length);
    for (const piece of template.pieces) bytes += stringBytes(piece);
  }
  return bytes;
}

/**
 * After a page of a cached view: keeps the state again when the page filled, replaced or dropped
 * its envelope template (once per view, unless a page's shell did not fit it), so the cache
 * counts the template's texts as they are.
 */
function rememberTemplate(
  views: ViewSlot | null,
  state: CollectionViewState,
  before: EnvelopeTemplate | null,
): void {
  if (state.envelope.template !== before) remember(views, state);
}

/** A copy of one filter's counts (an anyOf's inner counts copied too). */
function copyApplied(applied: FilterApplied): FilterApplied {
  return "anyOf" in applied
    ? { ...applied, anyOf: applied.anyOf.map((leaf) => ({ ...leaf })) }
    : { ...applied };
}

/** The cached state of the request's view, if any. */
function cachedState(views: ViewSlot | null): CollectionViewState | undefined {
  return views === null ? undefined : (views.get(viewKey(views)) as CollectionViewState);
}

function remember(views: ViewSlot | null, state: CollectionViewState): void {
  if (views !== null) views.set(viewKey(views), state, stateBytes(state));
}

/** INVALID_RESPONSE_CURSOR for a cursor whose offset lies past the selection's end. */
export function pastEndError(offset: number, total: number): ContractError {
  return new ContractError({
    code: "INVALID_RESPONSE_CURSOR",
    message: `The cursor points past the end of the selection (offset ${offset}, total ${total}). Drop it to start from the first page.`,
    details: { reason: "past_end" },
  });
}

function checkOffset(offset: number, total: number): void {
  if (offset > total) throw pastEndError(offset, total);
}

/**
 * The projected record of one item (a fastRecord: serialized with the page). Each field is read
 * by readCompiled (an own key inline, else its steps walked by long-lived functions), not through
 * the reader closure compiled per request: those closures, and the code V8 optimized for them,
 * went with each view's plan, so every new view optimized them again.
 */
function project(
  item: unknown,
  index: number,
  fields: readonly CompiledPath[],
): Record<string, unknown> {
  const projected = fastRecord();
  for (const field of fields) {
    const value = readCompiled(field, item, index);
    if (value !== undefined) projected[field.label] = value;
  }
  return projected;
}

/**
 * What the elements of one collection page are read from: the items, the matching positions
 * (null: every item), the sorted order of those (null: their own order), the projection and the
 * emitter. A page's elementAt and countFields are functions made once for the process and bound
 * to this (collectionElement, countCollectionFields), not closures made per page: the optimized
 * code of a closure is held only through the closures, so a full collection between two
 * requests threw it away and every paging after it optimized them again.
 */
interface CollectionPage {
  readonly items: readonly unknown[];
  readonly indices: readonly number[] | null;
  readonly ordered: Int32Array | null;
  readonly fields: readonly CompiledPath[] | null;
  readonly emit: ((item: unknown, index: number) => unknown) | undefined;
  readonly pointerOf: (index: number) => string;
}

/** The index in the collection of the page's `index`-th candidate. */
function originalIndexOf(page: CollectionPage, index: number): number {
  const ordered = page.ordered;
  const position = ordered === null ? index : (ordered[index] as number);
  const indices = page.indices;
  return indices === null ? position : (indices[position] as number);
}

/** The value a collection page shows for the item at `original`: projected, emitted or itself. */
function valueOfItem(page: CollectionPage, original: number): unknown {
  const item = page.items[original];
  const fields = page.fields;
  const emit = page.emit;
  return fields !== null
    ? project(item, original, fields)
    : emit === undefined
      ? item
      : emit(item, original);
}

/** PageSpec.elementAt of a collection page (bound to its CollectionPage). */
function collectionElement(this: CollectionPage, index: number): PageElement {
  const original = originalIndexOf(this, index);
  return { value: valueOfItem(this, original), pointer: this.pointerOf(original) };
}

/** PageSpec.valueAt of a collection page (bound to its CollectionPage): elementAt's value. */
function collectionValue(this: CollectionPage, index: number): unknown {
  return valueOfItem(this, originalIndexOf(this, index));
}

/**
 * fieldsResolved of a page (PageSpec.countFields, bound to its CollectionPage, whose `fields`
 * are set): per field, how many of the returned items it resolves on. Given the projected page
 * (each element project's record for its item, none compacted), a field resolved on an item
 * exactly when its label is in that record, so the items are not read again.
 */
function countCollectionFields(
  this: CollectionPage,
  first: number,
  count: number,
  projected?: readonly unknown[],
): Record<string, number> {
  const fields = this.fields ?? [];
  const counts = fastRecord<number>();
  const records =
    projected !== undefined && projected.length === count
      ? (projected as readonly Record<string, unknown>[])
      : null;
  for (const field of fields) {
    let resolved = 0;
    if (records !== null) {
      for (const record of records) if (record[field.label] !== undefined) resolved += 1;
    } else {
      for (let index = first; index < first + count; index += 1) {
        const original = originalIndexOf(this, index);
        if (readCompiled(field, this.items[original], original) !== undefined) resolved += 1;
      }
    }
    counts[field.label] = resolved;
  }
  return counts;
}

/**
 * Fields that resolve on no returned-to-be item are left out and named in the warning. A field that
 * resolves on no item of the whole selection (before filters) is an error when its pointer form
 * would resolve (suggestedField) or when no field resolves at all.
 */
function checkFields(
  fields: readonly CompiledPath[],
  items: readonly unknown[],
  indices: readonly number[] | null,
  pointer: string,
  warnings: string[],
  itemKeys?: string[],
): void {
  const unresolved = fields.filter((field) => !resolvesOnAny(items, indices, field));
  if (unresolved.length === 0) return;
  const nowhere =
    indices === null
      ? unresolved
      : unresolved.filter((field) => !resolvesOnAny(items, null, field));
  const suggestion = itemKeys === undefined ? suggestedFieldError(nowhere, items, pointer) : null;
  if (suggestion !== null) throw suggestion;
  if (nowhere.length === fields.length && items.length > 0) {
    throw unresolvedFields(fields, items, pointer, itemKeys);
  }
  // No item matched the filters: every field "resolves on no item" of an empty page, which says
  // nothing about the fields; only those that resolve on no item of the selection are named.
  if (indices !== null && indices.length === 0) {
    if (nowhere.length > 0) {
      warnings.push(
        `Fields that resolve on no item of the selection: ${nowhere.map((field) => JSON.stringify(field.label)).join(", ")}.`,
      );
    }
    return;
  }
  warnings.push(
    `Fields that resolved on no item were left out: ${unresolved.map((field) => JSON.stringify(field.label)).join(", ")}.`,
  );
}

/**
 * Pages a collection (array items, objectMode entries, an inferred array, jsonPath rows) in the
 * order of work of SPEC.md §9 rule 1: filters on every item (honest counts), then aggregate (rows)
 * or sort, then fields, then one page. Every filter, sort, groupBy or metric path that resolves
 * on no item is reported at once (FILTER_PATH_UNRESOLVED).
 */
export function* pageCollection(
  plan: Extract<CollectionPlan, { kind: "collection" }>,
  base: PageBase,
  notes: PlanNotes,
  pointer: string,
  unit: "items" | "entries",
): Work<QueryResult> {
  const items = plan.items;
  const where = notes.inferredResponsePath ?? pointer;
  // A view without filters, sort or aggregate has nothing worth keeping.
  const views =
    plan.filters === null && plan.sort === null && plan.aggregate === null ? null : base.views;
  const cached = cachedState(views);
  const state: CollectionViewState = cached ?? {
    filtered: yield* filterItems(items, plan.filters, columnStoreOf(views)),
    aggregated: undefined,
    sorted: undefined,
    fieldWarnings: undefined,
    envelope: { template: null },
  };
  let changed = cached === undefined;
  const filtered = state.filtered;
  const indices = filtered.indices;
  // A copy: the kept counts are never handed out to be changed.
  const extra: PageExtra = {
    filtersApplied: filtered.applied === undefined ? undefined : filtered.applied.map(copyApplied),
    countFields: undefined,
    envelope: views === null ? undefined : state.envelope,
  };
  const templateBefore = state.envelope.template;
  if (plan.aggregate !== null) {
    if (state.aggregated === undefined) {
      state.aggregated = yield* aggregateCandidates(items, indices, plan.aggregate);
      changed = true;
    }
    if (changed) remember(views, state);
    const aggregated = state.aggregated;
    const unresolved = [...filtered.unresolved, ...aggregated.unresolved];
    if (unresolved.length > 0) throw unresolvedPaths(unresolved, items, where, plan.itemKeys);
    const rows = yield* pageRows(plan, state, views, base, notes, pointer, extra);
    rememberTemplate(views, state, templateBefore);
    return rows;
  }
  const total = indices === null ? items.length : indices.length;
  let positions: Int32Array | null = null;
  const unresolved = [...filtered.unresolved];
  if (plan.sort !== null) {
    const sorted = yield* sortCandidates(
      items,
      indices,
      plan.sort,
      itemSortReaders(plan.sort),
      base.offset + base.pageSize,
      state.sorted,
    );
    if (sorted !== state.sorted) {
      state.sorted = sorted;
      changed = true;
    }
    unresolved.push(...sorted.unresolved);
    positions = sorted.order;
  }
  if (changed) remember(views, state);
  if (unresolved.length > 0) throw unresolvedPaths(unresolved, items, where, plan.itemKeys);
  checkOffset(base.offset, total);
  const fields = plan.fields;
  const page: CollectionPage = {
    items,
    indices,
    ordered: positions,
    fields,
    emit: plan.emit,
    pointerOf: plan.pointerOf,
  };
  if (fields !== null) {
    if (state.fieldWarnings === undefined) {
      // The check may scan every item (a field that resolves on none): its warnings are kept.
      const before = base.warnings.length;
      checkFields(fields, items, indices, where, base.warnings, plan.itemKeys);
      state.fieldWarnings = base.warnings.slice(before);
      remember(views, state);
    } else base.warnings.push(...state.fieldWarnings);
    extra.countFields = countCollectionFields.bind(page);
  }
  const result = buildPage(
    arrayPageSpec(base, extra, notes, {
      unit,
      total,
      limit: Math.min(base.pageSize, total - base.offset),
      elementAt: collectionElement.bind(page),
      valueAt: collectionValue.bind(page),
    }),
  );
  rememberTemplate(views, state, templateBefore);
  return result;
}

/** Pages aggregate rows (`pageUnit: "rows"`), sorted by `sort` when given (row labels first). */
function* pageRows(
  plan: Extract<CollectionPlan, { kind: "collection" }>,
  state: CollectionViewState,
  views: ViewSlot | null,
  base: PageBase,
  notes: PlanNotes,
  pointer: string,
  extra: PageExtra,
): Work<QueryResult> {
  const { rows, skipped } = state.aggregated as AggregatedRows;
  let positions: Int32Array | null = null;
  if (plan.sort !== null) {
    const labels = rows.length === 0 ? [] : Object.keys(rows[0] as object);
    const sorted = yield* sortCandidates(
      rows,
      null,
      plan.sort,
      rowSortReaders(plan.sort, labels),
      base.offset + base.pageSize,
      state.sorted,
    );
    if (sorted !== state.sorted) {
      state.sorted = sorted;
      remember(views, state);
    }
    if (sorted.unresolved.length > 0) {
      const where = notes.inferredResponsePath ?? pointer;
      throw unresolvedPaths(sorted.unresolved, rows, where, labels, "rows");
    }
    positions = sorted.order;
  }
  checkOffset(base.offset, rows.length);
  const ordered = positions;
  const spec = arrayPageSpec(base, extra, notes, {
    unit: "rows",
    total: rows.length,
    limit: Math.min(base.pageSize, rows.length - base.offset),
    elementAt: (index) => ({
      value: rows[ordered === null ? index : (ordered[index] as number)],
      pointer: notes.inferredResponsePath ?? pointer,
    }),
  });
  spec.aggregateSkipped = skipped;
  return buildPage(spec);
}

/** What a page adds to the members every page of its request shares. */
type PagePart = Pick<
  PageSpec,
  "layout" | "unit" | "total" | "limit" | "elementAt" | "compactionReason" | "matchLimited"
> & {
  countFields?: FieldCounts | undefined;
  valueAt?: ((index: number) => unknown) | undefined;
};

/**
 * The filter counts, field counter and envelope memo of a collection page (every member set,
 * maybe undefined).
 */
interface PageExtra {
  filtersApplied: FilterApplied[] | undefined;
  countFields: FieldCounts | undefined;
  envelope: EnvelopeMemo | undefined;
}

/** The PageExtra of a page without filters or fields. */
const NO_EXTRA: PageExtra = Object.freeze({
  filtersApplied: undefined,
  countFields: undefined,
  envelope: undefined,
});

/**
 * The PageSpec of one page, member by member: what every page of the request shares (base), the
 * filter counts and field counter (extra), the planning notes (normalizedFields,
 * inferredResponsePath) and the page's own members. Written out instead of spreading these
 * objects into one literal: a second spread in a literal is a generic property copy (about
 * 6-10 µs a page, more than the rest of a cached page's overhead).
 */
function pageSpecOf(
  base: PageBase,
  extra: PageExtra,
  notes: Pick<PlanNotes, "normalizedFields" | "inferredResponsePath">,
  page: PagePart,
): PageSpec {
  // Every member in one literal, in one order, the optional ones undefined: every page spec has
  // one shape (a member added after the literal is a new hidden class, which optimized code of
  // buildPage checks for and which a full collection drops once no spec of it is alive).
  return {
    artifactId: base.artifactId,
    responsePath: base.responsePath,
    layout: page.layout,
    unit: page.unit,
    total: page.total,
    offset: base.offset,
    limit: page.limit,
    elementAt: page.elementAt,
    compactionReason: page.compactionReason,
    matchLimited: page.matchLimited,
    workLimited: undefined,
    inlineBytes: base.inlineBytes,
    warnings: base.warnings,
    extensions: base.extensions,
    filtersApplied: extra.filtersApplied,
    aggregateSkipped: undefined,
    countFields: page.countFields ?? extra.countFields,
    normalizedFields: notes.normalizedFields,
    inferredResponsePath: notes.inferredResponsePath,
    sourceTruncated: base.sourceTruncated,
    nextCursor: base.nextCursor,
    envelope: extra.envelope,
    valueAt: page.valueAt,
  };
}

/** An array page of a collection (items, entries or rows). */
function arrayPageSpec(
  base: PageBase,
  extra: PageExtra,
  notes: PlanNotes,
  page: Pick<PageSpec, "unit" | "total" | "limit" | "elementAt" | "valueAt">,
): PageSpec {
  return pageSpecOf(base, extra, notes, {
    layout: ARRAY_LAYOUT,
    unit: page.unit,
    total: page.total,
    limit: page.limit,
    elementAt: page.elementAt,
    valueAt: page.valueAt,
    compactionReason: "item_size_limit",
    matchLimited: false,
  });
}

/** The layout of every array page (buildPage only reads it). */
const ARRAY_LAYOUT: PageLayout = Object.freeze({ kind: "array" });

/** Answers fields on one object that holds them itself: the projected object as the response. */
export function pageSingle(
  object: Record<string, unknown>,
  fields: CompiledPath[],
  base: PageBase,
  notes: PlanNotes,
  pointer: string,
): QueryResult {
  checkOffset(base.offset, 1);
  checkFields(fields, [object], null, pointer, base.warnings);
  const single: CollectionPage = {
    items: [object],
    indices: null,
    ordered: null,
    fields,
    emit: undefined,
    pointerOf: () => pointer,
  };
  return pageOneValue(
    base,
    notes,
    () => ({ value: project(object, -1, fields), pointer }),
    "item_size_limit",
    countCollectionFields.bind(single),
  );
}

/**
 * The page of one value (the value layout: a projected object, or a scalar) once the caller has
 * checked the offset against its one element.
 */
function pageOneValue(
  base: PageBase,
  notes: PlanNotes,
  elementAt: PageSpec["elementAt"],
  compactionReason: PageSpec["compactionReason"],
  countFields?: PageSpec["countFields"],
): QueryResult {
  const page: PagePart = {
    layout: { kind: "value" },
    unit: undefined,
    total: 1,
    limit: 1 - base.offset,
    elementAt,
    compactionReason,
    matchLimited: false,
    countFields,
  };
  return buildPage(pageSpecOf(base, NO_EXTRA, notes, page));
}

/** Pages a selection without fields, filters or objectMode: items, entries in key order, or a scalar. */
export function* pagePlain(
  selection: SelectedValue,
  base: PageBase,
  notes: PlanNotes,
): Work<QueryResult> {
  const value = selection.value;
  const pointer = selection.pointer;
  if (Array.isArray(value)) {
    return yield* pageCollection(
      {
        kind: "collection",
        items: value,
        pointerOf: arrayPointerOf(pointer),
        fields: null,
        filters: null,
        sort: null,
        aggregate: null,
      },
      base,
      notes,
      pointer,
      "items",
    );
  }
  if (isJsonObject(value)) {
    const keys = keysOf(value);
    checkOffset(base.offset, keys.length);
    return buildPage(
      pageSpecOf(base, NO_EXTRA, notes, {
        layout: { kind: "object" },
        unit: "entries",
        total: keys.length,
        limit: Math.min(base.pageSize, keys.length - base.offset),
        elementAt: (index) => {
          const key = keys[index] as string;
          return { key, value: value[key], pointer: `${pointer}/${escapePointerToken(key)}` };
        },
        compactionReason: "item_size_limit",
        matchLimited: false,
      }),
    );
  }
  checkOffset(base.offset, 1);
  return pageOneValue(base, notes, () => ({ value, pointer }), "scalar_size_limit");
}

/** responseMeta.inferredResponsePath of a selection found below responseRoot, when it was. */
function inferredOf(selection: SelectedValue): Pick<PlanNotes, "inferredResponsePath"> {
  return selection.inferredResponsePath === undefined
    ? {}
    : { inferredResponsePath: selection.inferredResponsePath };
}

/** Answers describe: the shape of the selection, its key list paged by keys. */
export function pageDescribe(
  selection: SelectedValue,
  base: PageBase,
  context: QueryContext,
): QueryResult {
  const plan = planDescribe(selection.value, selection.pointer, context.limits.describeSampleItems);
  checkOffset(base.offset, plan.total);
  return buildPage(
    pageSpecOf(base, NO_EXTRA, inferredOf(selection), {
      layout:
        plan.listKey === undefined
          ? { kind: "shape", base: plan.base }
          : { kind: "shape", base: plan.base, listKey: plan.listKey },
      unit: "keys",
      total: plan.total,
      limit: Math.min(base.pageSize, plan.total - base.offset),
      elementAt: (index) => ({ value: plan.keyAt(index), pointer: selection.pointer }),
      compactionReason: "item_size_limit",
      matchLimited: false,
    }),
  );
}
