import {
  CONTRACT_VERSION,
  ContractError,
  type ExtensionName,
  type FilterApplied,
  type PageUnit,
  type QueryResult,
  type TruncationReason,
} from "@bounded-mcp/contract";
import { type ExactText, findInexactNumbers, stringifyExact } from "../exact/stringify-exact.js";
import { compactPreview } from "../preview/compact-preview.js";
import {
  createRecord,
  fastRecord,
  jsonBytes,
  measuredExactNumbers,
  utf8Length,
} from "./json-values.js";

/** One element of a page: a value, the key it goes under (object pages) and where it lives. */
export interface PageElement {
  value: unknown;
  key?: string;
  pointer: string;
}

/** How page elements become the result body (SPEC.md §5). */
export type PageLayout =
  | { kind: "array" }
  | { kind: "object" }
  | { kind: "value" }
  | { kind: "shape"; base: Record<string, unknown>; listKey?: string };

/** Everything needed to cut one page to the byte budget and write its envelope. */
export interface PageSpec {
  artifactId: string;
  responsePath: string;
  layout: PageLayout;
  unit: PageUnit | undefined;
  /** Elements in the whole (filtered) selection. */
  total: number;
  /** Index of the page's first element. */
  offset: number;
  /** Elements this page may hold at most: min(pageSize, total - offset). */
  limit: number;
  elementAt: (index: number) => PageElement;
  /** Why a compacted element was compacted. */
  compactionReason: "item_size_limit" | "scalar_size_limit";
  /** textSearch: a next page is reported as match_limit. */
  matchLimited: boolean;
  /**
   * The scan stopped at its work limit (SPEC.md §9 rule 6): `total` counts what was found so far,
   * `remainingCount` is null, the page is truncated with `work_limit` (after the compaction
   * reasons, before match_limit) and `nextCursor(offset)` resumes the scan.
   */
  workLimited?: boolean | undefined;
  inlineBytes: number;
  warnings: readonly string[];
  /** Optional responseMeta members, in output order, set when defined. */
  /** The §9 extensions the request used (set only when it used one). */
  extensions?: ExtensionName[] | undefined;
  filtersApplied?: FilterApplied[] | undefined;
  /** aggregate: items that formed no group. */
  aggregateSkipped?: number | undefined;
  countFields?: FieldCounts | undefined;
  normalizedFields?: Record<string, string> | undefined;
  inferredResponsePath?: string | undefined;
  sourceTruncated: boolean;
  /** The cursor of the page starting at `offset` (`position`: where a scan resumes, textSearch). */
  nextCursor: (offset: number, position?: number) => string;
  /**
   * The value `elementAt(index)` gives, without its pointer: what an array page serialized as one
   * array reads for its candidates after the first (undefined: elementAt).
   */
  valueAt?: ((index: number) => unknown) | undefined;
  /**
   * The envelope texts every page of one cached view shares (EnvelopeMemo, kept with the view's
   * state): an array page's text is then written from them and the page's own values instead of
   * serializing the envelope again. Undefined: the envelope is serialized per page.
   */
  envelope?: EnvelopeMemo | undefined;
}

/**
 * What the pages of one cached collection view share of their envelope's text (buildPage fills
 * it on the view's first array page and checks it on every later one): valid only for pages of
 * one view state, whose filter counts, aggregate rows and plan never change.
 */
export interface EnvelopeMemo {
  template: EnvelopeTemplate | null;
}

/** An envelope's text cut around the members a page writes (see templatedFinish); read-only. */
export interface EnvelopeTemplate {
  // What the constant texts were written from, checked on every page that uses them.
  readonly artifactId: string;
  readonly responsePath: string;
  readonly total: number;
  readonly warning: unknown;
  readonly unit: PageUnit | undefined;
  readonly sourceTruncated: boolean;
  readonly extensions: unknown;
  readonly aggregateSkipped: number | undefined;
  readonly normalizedFields: unknown;
  readonly inferredResponsePath: string | undefined;
  /** fieldsResolved's labels in order (null: no fieldsResolved). */
  readonly fieldLabels: readonly string[] | null;
  /**
   * The envelope's text between the page's own members: pieces[0], the page, pieces[1], then
   * the VARIABLE_MEMBERS values and each fieldsResolved count, each followed by its piece.
   */
  readonly pieces: readonly string[];
  /** UTF-8 bytes of all pieces. */
  readonly bytes: number;
}

/** The responseMeta members a page of a view writes itself, in the order buildMeta writes them. */
const VARIABLE_MEMBERS = [
  "truncated",
  "complete",
  "truncationReason",
  "returnedCount",
  "remainingCount",
  "nextCursor",
  "serializedBytes",
] as const;

/**
 * Counts fields over the returned page's elements (indices offset..offset+n-1); `projected`,
 * when given, holds those elements' values exactly as elementAt gave them (none compacted).
 */
export type FieldCounts = (
  first: number,
  count: number,
  projected?: readonly unknown[],
) => Record<string, number>;

const CURSOR_PLACEHOLDER = "x".repeat(64);
/** responseMeta.warning is cut to this many characters. */
const MAX_WARNING_CHARS = 2_000;

function joinWarnings(warnings: readonly string[]): string | null {
  if (warnings.length === 0) return null;
  const joined = warnings.join(" ");
  return joined.length <= MAX_WARNING_CHARS ? joined : `${joined.slice(0, MAX_WARNING_CHARS - 1)}…`;
}

function compactionWarning(spec: PageSpec, pointer: string): string {
  return spec.compactionReason === "scalar_size_limit"
    ? `The value at "${pointer}" is larger than the ${spec.inlineBytes}-byte result budget, so it was compacted (omissions marked in place). Narrow responsePath, or use textSearch to find the part you need.`
    : `The element at "${pointer}" is larger than what the ${spec.inlineBytes}-byte result budget leaves beside the page metadata, so it was compacted (omissions marked in place). Query it with a narrower responsePath ("${pointer}"), fields, or textSearch.`;
}

interface Draft {
  values: unknown[];
  keys: string[];
  /**
   * The values' texts as measured (array layout), so the answer's text is spliced from them
   * instead of serializing the page again; null once a value was put without its text.
   */
  texts: string[] | null;
  /**
   * The page's elements serialized as one array (`[a,b]`), when gatherPage wrote them so; the
   * answer's text is spliced from it instead of from `texts` (then empty).
   */
  arrayText?: string | undefined;
  /** ExactNumbers the texts write. */
  exactCount: number;
  /** Bytes of the page's elements as serialized, separators included. */
  used: number;
  compacted: boolean;
  warnings: string[];
}

function render(spec: PageSpec, draft: Draft, meta: Record<string, unknown>): QueryResult {
  const result = fastRecord() as unknown as QueryResult & Record<string, unknown>;
  result.artifactId = spec.artifactId;
  result.responsePath = spec.responsePath;
  const layout = spec.layout;
  if (layout.kind === "shape") {
    const shape = createRecord();
    for (const key of Object.keys(layout.base)) shape[key] = layout.base[key];
    if (layout.listKey !== undefined) shape[layout.listKey] = draft.values;
    result.shape = shape;
  } else if (layout.kind === "array") {
    result.response = draft.values;
  } else if (layout.kind === "object") {
    const page = createRecord();
    draft.keys.forEach((key, index) => {
      page[key] = draft.values[index];
    });
    result.response = page;
  } else {
    result.response = draft.values[0] ?? null;
  }
  result.responseMeta = meta as QueryResult["responseMeta"];
  return result;
}

function buildMeta(
  spec: PageSpec,
  draft: Draft,
  placeholder: boolean,
  serializedBytes: number,
): Record<string, unknown> {
  const returned = placeholder ? spec.limit : draft.values.length;
  const remaining = placeholder ? spec.total : spec.total - spec.offset - returned;
  const workLimited = spec.workLimited === true;
  const more = remaining > 0 || workLimited;
  const truncated = more || draft.compacted;
  let reason: TruncationReason | null = null;
  if (placeholder) reason = "scalar_size_limit";
  else if (draft.compacted) reason = spec.compactionReason;
  else if (workLimited) reason = "work_limit";
  else if (remaining > 0 && spec.matchLimited) reason = "match_limit";
  else if (remaining > 0 && returned < spec.limit) reason = "size_limit";
  else if (remaining > 0) reason = "page_limit";
  const meta = fastRecord();
  meta.contractVersion = CONTRACT_VERSION;
  meta.truncated = placeholder ? false : truncated;
  meta.complete = placeholder ? false : !truncated;
  meta.truncationReason = reason;
  meta.returnedCount = returned;
  meta.totalCount = spec.total;
  meta.remainingCount = workLimited && !placeholder ? null : remaining;
  meta.nextCursor = placeholder
    ? CURSOR_PLACEHOLDER
    : more
      ? spec.nextCursor(spec.offset + returned)
      : null;
  meta.serializedBytes = serializedBytes;
  meta.warning = joinWarnings(draft.warnings);
  if (spec.unit !== undefined) meta.pageUnit = spec.unit;
  if (spec.sourceTruncated) meta.sourceTruncated = true;
  if (spec.extensions !== undefined && spec.extensions.length > 0) {
    meta.extensions = spec.extensions;
  }
  if (spec.filtersApplied !== undefined) meta.filtersApplied = spec.filtersApplied;
  if (spec.aggregateSkipped !== undefined) meta.aggregateSkipped = spec.aggregateSkipped;
  if (spec.countFields !== undefined) {
    const counts = placeholder
      ? spec.countFields(spec.offset, 0)
      : spec.countFields(spec.offset, returned, draft.compacted ? undefined : draft.values);
    if (placeholder) for (const key of Object.keys(counts)) counts[key] = spec.limit;
    meta.fieldsResolved = counts;
  }
  if (spec.normalizedFields !== undefined) meta.normalizedFields = spec.normalizedFields;
  if (spec.inferredResponsePath !== undefined) {
    meta.inferredResponsePath = spec.inferredResponsePath;
  }
  // Walked only when an element measured held an ExactNumber (measuredExactNumbers).
  if (!placeholder && (draft.exactCount > 0 || measuredExactNumbers())) {
    const inexact = findInexactNumbers(pageBody(spec, draft));
    if (inexact.total > 0) meta.inexactNumbers = inexact;
  }
  return meta;
}

/**
 * What the page's inexactNumbers pointers are relative to: `response` as render writes it (the
 * shape layout's list under its key, relative to `shape`).
 */
function pageBody(spec: PageSpec, draft: Draft): unknown {
  const layout = spec.layout;
  if (layout.kind === "array") return draft.values;
  if (layout.kind === "value") return draft.values[0] ?? null;
  if (layout.kind === "shape") {
    return layout.listKey === undefined
      ? layout.base
      : { ...layout.base, [layout.listKey]: draft.values };
  }
  const page = createRecord();
  draft.keys.forEach((key, index) => {
    page[key] = draft.values[index];
  });
  return page;
}

/**
 * An element's bytes as jsonBytes measures them (0 for undefined, Infinity when nested too deep
 * to serialize) and its value's text when it has one.
 */
function measureElement(
  layout: PageLayout,
  element: PageElement,
): { bytes: number; text: string | undefined; count: number } {
  let written: ExactText | undefined;
  try {
    written = stringifyExact(element.value);
  } catch (error) {
    if (error instanceof RangeError) {
      return { bytes: Number.POSITIVE_INFINITY, text: undefined, count: 0 };
    }
    throw error;
  }
  const valueBytes = written === undefined ? 0 : utf8Length(written.text);
  const bytes =
    layout.kind === "object"
      ? utf8Length(JSON.stringify(element.key)) + 1 + valueBytes
      : valueBytes;
  return { bytes, text: written?.text, count: written?.count ?? 0 };
}

function elementBytes(layout: PageLayout, element: PageElement): number {
  const valueBytes = jsonBytes(element.value);
  return layout.kind === "object"
    ? utf8Length(JSON.stringify(element.key)) + 1 + valueBytes
    : valueBytes;
}

function digits(value: number): number {
  return String(value).length;
}

/** The byte size of a text of `withoutCount` bytes plus the decimal digits of that very size. */
function selfCountedBytes(withoutCount: number): number {
  let bytes = withoutCount + 1;
  while (withoutCount + digits(bytes) !== bytes) bytes = withoutCount + digits(bytes);
  return bytes;
}

const PAGE_SLOT = "\u0000bounded-mcp page slot\u0000";
const BYTES_SLOT = "\u0000bounded-mcp bytes slot\u0000";
const PAGE_SLOT_TEXT = JSON.stringify(PAGE_SLOT);
const BYTES_SLOT_TEXT = JSON.stringify(BYTES_SLOT);

const answerTexts = new WeakMap<object, ExactText>();

let measureEachElement = false;

/**
 * Runs `run` with buildPage on its element-by-element path (each candidate measured alone, the
 * envelope serialized by the caller, no pageText): the path every page took before the page was
 * serialized once. For tests that pin both paths to the same answers; not exported by the package.
 */
export function withElementByElementPages<T>(run: () => T): T {
  const previous = measureEachElement;
  measureEachElement = true;
  try {
    return run();
  } finally {
    measureEachElement = previous;
  }
}

/**
 * The text of a page result as buildPage wrote it (stringifyExact of the result, byte for byte,
 * and its ExactNumber count), so whoever sends the answer need not serialize the page again.
 * Undefined for a result written another way (errors, object and shape layouts, compacted
 * pages). Only valid while the result is not changed: a caller that edits the result must
 * serialize it itself.
 */
export function pageText(result: object): ExactText | undefined {
  return answerTexts.get(result);
}

interface Finished {
  result: QueryResult;
  bytes: number;
  text?: ExactText;
}

/** A slot string for the envelope template (never a value a page writes: it holds NUL). */
function templateSlot(index: number): string {
  return `\u0000bounded-mcp envelope slot ${index}\u0000`;
}

/**
 * The template of this page's envelope: the shell serialized once with a slot string for the
 * page and for each member the page writes itself (VARIABLE_MEMBERS, the fieldsResolved counts),
 * cut at the slots. Null when a slot is not found exactly once and in order, or the shell holds
 * an ExactNumber: then every page serializes its envelope.
 */
function buildTemplate(
  spec: PageSpec,
  draft: Draft,
  meta: Record<string, unknown>,
): EnvelopeTemplate | null {
  const resolved = meta.fieldsResolved as Record<string, number> | undefined;
  const fieldLabels = resolved === undefined ? null : Object.keys(resolved);
  const slots: string[] = [];
  const shellMeta = fastRecord();
  for (const key of Object.keys(meta)) shellMeta[key] = meta[key];
  for (const member of VARIABLE_MEMBERS) {
    slots.push(templateSlot(slots.length + 1));
    shellMeta[member] = slots[slots.length - 1];
  }
  if (fieldLabels !== null) {
    const counts = fastRecord();
    for (const label of fieldLabels) {
      slots.push(templateSlot(slots.length + 1));
      counts[label] = slots[slots.length - 1];
    }
    shellMeta.fieldsResolved = counts;
  }
  const shell = render(spec, { ...draft, values: [], keys: [] }, shellMeta) as QueryResult &
    Record<string, unknown>;
  shell.response = templateSlot(0);
  const written = stringifyExact(shell);
  if (written === undefined || written.count > 0) return null;
  const text = written.text;
  const pieces: string[] = [];
  let from = 0;
  for (let index = 0; index <= slots.length; index += 1) {
    const slotText = JSON.stringify(index === 0 ? templateSlot(0) : slots[index - 1]);
    const at = text.indexOf(slotText, from);
    if (at < 0 || text.indexOf(slotText, at + slotText.length) >= 0) return null;
    pieces.push(text.slice(from, at));
    from = at + slotText.length;
  }
  pieces.push(text.slice(from));
  let bytes = 0;
  for (const piece of pieces) bytes += utf8Length(piece);
  return {
    artifactId: spec.artifactId,
    responsePath: spec.responsePath,
    total: spec.total,
    warning: meta.warning,
    unit: spec.unit,
    sourceTruncated: spec.sourceTruncated,
    extensions: meta.extensions,
    aggregateSkipped: spec.aggregateSkipped,
    normalizedFields: meta.normalizedFields,
    inferredResponsePath: spec.inferredResponsePath,
    fieldLabels,
    pieces,
    bytes,
  };
}

/** Whether the template was written from this page's constant members. */
function fitsTemplate(
  template: EnvelopeTemplate,
  spec: PageSpec,
  meta: Record<string, unknown>,
): boolean {
  return (
    template.artifactId === spec.artifactId &&
    template.responsePath === spec.responsePath &&
    template.total === spec.total &&
    template.warning === meta.warning &&
    template.unit === spec.unit &&
    template.sourceTruncated === spec.sourceTruncated &&
    template.extensions === meta.extensions &&
    template.aggregateSkipped === spec.aggregateSkipped &&
    template.normalizedFields === meta.normalizedFields &&
    template.inferredResponsePath === spec.inferredResponsePath &&
    meta.inexactNumbers === undefined
  );
}

/** The JSON text of a value a page writes into its envelope (a boolean, number, string or null). */
function memberText(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/**
 * splicedFinish from the view's envelope template: the text is the template's pieces around the
 * page and the page's own members (VARIABLE_MEMBERS, fieldsResolved counts), each written as
 * JSON.stringify writes it, so the text is byte for byte the serialization of the result. Null
 * (the caller serializes the envelope) when no template fits this page.
 */
function templatedFinish(
  spec: PageSpec,
  draft: Draft,
  texts: string[],
  meta: Record<string, unknown>,
  memo: EnvelopeMemo,
): Finished | null {
  let template = memo.template;
  if (template === null || !fitsTemplate(template, spec, meta)) {
    // A page that reports inexact numbers is never the template's model (they are not a slot).
    if (meta.inexactNumbers !== undefined) return null;
    template = buildTemplate(spec, draft, meta);
    memo.template = template;
    if (template === null) return null;
  }
  const pieces = template.pieces;
  const labels = template.fieldLabels;
  const resolved = meta.fieldsResolved as Record<string, number> | undefined;
  if ((labels === null) !== (resolved === undefined)) return null;
  const values: string[] = [];
  let bytesAt = -1;
  let variableBytes = 0;
  for (const member of VARIABLE_MEMBERS) {
    if (member === "serializedBytes") {
      bytesAt = values.length;
      values.push("");
      continue;
    }
    const written = memberText(meta[member]);
    variableBytes += utf8Length(written);
    values.push(written);
  }
  if (labels !== null && resolved !== undefined) {
    let count = 0;
    for (const label in resolved) {
      if (labels[count] !== label) return null;
      const written = String(resolved[label]);
      variableBytes += written.length;
      values.push(written);
      count += 1;
    }
    if (count !== labels.length) return null;
  }
  const page = draft.arrayText ?? `[${texts.join(",")}]`;
  // The page is its elements' bytes (separators in draft.used) and its brackets.
  const withoutCount = template.bytes + draft.used + 2 + variableBytes;
  const bytes = selfCountedBytes(withoutCount);
  meta.serializedBytes = bytes;
  values[bytesAt] = String(bytes);
  let text = (pieces[0] as string) + page;
  for (let index = 0; index < values.length; index += 1) {
    text += (pieces[index + 1] as string) + (values[index] as string);
  }
  text += pieces[pieces.length - 1] as string;
  return {
    result: render(spec, draft, meta),
    bytes,
    text: { text, count: draft.exactCount },
  };
}

/**
 * The envelope of an array page spliced from the element texts measured while fitting: the
 * envelope is serialized once with a slot string for the page and one for serializedBytes, and
 * the slots replaced. Null (the caller renders the usual way) when a slot text is not found
 * exactly once, e.g. a warning or filter value that spells a slot.
 */
function splicedFinish(
  spec: PageSpec,
  draft: Draft,
  texts: string[],
  meta: Record<string, unknown>,
): Finished | null {
  const shell = render(spec, { ...draft, values: [], keys: [] }, meta) as QueryResult &
    Record<string, unknown>;
  shell.response = PAGE_SLOT;
  meta.serializedBytes = BYTES_SLOT;
  const written = stringifyExact(shell);
  if (written === undefined) return null;
  const shellText = written.text;
  const pageAt = shellText.indexOf(PAGE_SLOT_TEXT);
  const bytesAt = shellText.indexOf(BYTES_SLOT_TEXT);
  if (
    pageAt < 0 ||
    bytesAt < pageAt ||
    shellText.indexOf(PAGE_SLOT_TEXT, pageAt + 1) >= 0 ||
    shellText.indexOf(BYTES_SLOT_TEXT, bytesAt + 1) >= 0
  ) {
    return null;
  }
  // The slot texts are ASCII; the page is its elements' bytes (separators in draft.used) + "[]".
  const withoutCount =
    utf8Length(shellText) - PAGE_SLOT_TEXT.length - BYTES_SLOT_TEXT.length + draft.used + 2;
  const bytes = selfCountedBytes(withoutCount);
  meta.serializedBytes = bytes;
  const text =
    shellText.slice(0, pageAt) +
    (draft.arrayText ?? `[${texts.join(",")}]`) +
    shellText.slice(pageAt + PAGE_SLOT_TEXT.length, bytesAt) +
    String(bytes) +
    shellText.slice(bytesAt + BYTES_SLOT_TEXT.length);
  return {
    result: render(spec, draft, meta),
    bytes,
    text: { text, count: written.count + draft.exactCount },
  };
}

/**
 * Writes the final envelope. Its size is the size of the envelope around an empty page plus the
 * page's element bytes measured while fitting, so the page is not serialized again; serializedBytes
 * is then the byte length of the result it is part of (solved for its own digits). An array page
 * whose element texts were kept also gets its text, spliced from them (splicedFinish).
 */
function finish(spec: PageSpec, draft: Draft): Finished {
  const meta = buildMeta(spec, draft, false, 0);
  if (spec.layout.kind === "array" && draft.texts !== null) {
    if (spec.envelope !== undefined && draft.exactCount === 0) {
      const templated = templatedFinish(spec, draft, draft.texts, meta, spec.envelope);
      if (templated !== null) return templated;
    }
    const spliced = splicedFinish(spec, draft, draft.texts, meta);
    if (spliced !== null) return spliced;
  }
  const empty: Draft = { ...draft, values: [], keys: [] };
  const shellBytes = jsonBytes(render(spec, empty, meta));
  // An empty "value" page renders as null (4 bytes) where the value goes.
  const pageBytes =
    spec.layout.kind === "value" && draft.values.length > 0 ? draft.used - 4 : draft.used;
  const withoutCount = shellBytes + pageBytes - 1;
  const bytes = selfCountedBytes(withoutCount);
  meta.serializedBytes = bytes;
  return { result: render(spec, draft, meta), bytes };
}

/** An array page's candidates read and measured so far, each serialized once. */
interface Gathered {
  elements: PageElement[];
  measures: Array<{ bytes: number; text: string | undefined; count: number }>;
  /** True when all `limit` candidates were measured, each has a text, and they are in `draft`. */
  whole: boolean;
}

/**
 * Reads and measures an array page's candidates and stops at the first without a text
 * (undefined, nested too deep) or once they pass inlineBytes, where they cannot all fit. The
 * first is serialized alone; when it says the page is small (the page at that size would take
 * at most half the budget), the page is serialized once as one array (gatherWhole), else each
 * candidate alone, so a page of large items serializes at most one item beyond the budget, as
 * the cut does. When all were measured they go into `draft`.
 */
function gatherPage(spec: PageSpec, first: PageElement, draft: Draft): Gathered {
  const gathered: Gathered = { elements: [], measures: [], whole: false };
  const sample = measureElement(spec.layout, first);
  gathered.elements.push(first);
  gathered.measures.push(sample);
  if (sample.text === undefined || sample.bytes > spec.inlineBytes) return gathered;
  if (spec.limit > 1 && (sample.bytes + 1) * spec.limit * 2 <= spec.inlineBytes) {
    const text = sample.text;
    if (gatherWhole(spec, gathered, { bytes: sample.bytes, text, count: sample.count }, draft)) {
      return gathered;
    }
    if (gathered.elements.length === spec.limit) return gathered;
  }
  let used = sample.bytes;
  for (let position = gathered.measures.length; position < spec.limit; position += 1) {
    const element = gathered.elements[position] ?? spec.elementAt(spec.offset + position);
    const measured = measureElement(spec.layout, element);
    if (position >= gathered.elements.length) gathered.elements.push(element);
    gathered.measures.push(measured);
    used += measured.bytes + 1;
    if (measured.text === undefined || used > spec.inlineBytes) return gathered;
  }
  const texts: string[] = [];
  let exactCount = 0;
  for (const measured of gathered.measures) {
    texts.push(measured.text as string);
    exactCount += measured.count;
  }
  draft.values = gathered.elements.map((element) => element.value);
  draft.used = used;
  draft.texts = texts;
  draft.exactCount = exactCount;
  gathered.whole = true;
  return gathered;
}

/**
 * Reads the rest of the page's candidates and serializes them as one array: one string instead
 * of one per element and a join (an array's text is its elements' texts joined by commas). The
 * first candidate's text is the sample's (gatherPage), so the page's text is `[`, that text, `,`
 * and the rest's array text without its `[`: the first is not serialized twice. With
 * `spec.valueAt` the rest are read as values only (no PageElement, no pointer). Declines (false;
 * the candidates read by elementAt stay in `gathered.elements`, the caller measures the rest one
 * by one) when a candidate has no text of its own (undefined, a function or a symbol, which an
 * array writes as null), the array is nested too deep, or the page passes inlineBytes, where it
 * cannot fit.
 */
function gatherWhole(
  spec: PageSpec,
  gathered: Gathered,
  sample: { bytes: number; text: string; count: number },
  draft: Draft,
): boolean {
  const rest = new Array<unknown>(spec.limit - 1);
  const valueAt = spec.valueAt;
  for (let position = 1; position < spec.limit; position += 1) {
    let value: unknown;
    if (valueAt !== undefined) value = valueAt(spec.offset + position);
    else {
      const element = spec.elementAt(spec.offset + position);
      gathered.elements.push(element);
      value = element.value;
    }
    if (value === undefined || typeof value === "function" || typeof value === "symbol") {
      return false;
    }
    rest[position - 1] = value;
  }
  let written: ExactText | undefined;
  try {
    written = stringifyExact(rest);
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
  if (written === undefined) return false;
  const used = sample.bytes + 1 + utf8Length(written.text) - 2;
  if (used > spec.inlineBytes) return false;
  const values = new Array<unknown>(spec.limit);
  values[0] = (gathered.elements[0] as PageElement).value;
  for (let position = 1; position < spec.limit; position += 1)
    values[position] = rest[position - 1];
  draft.values = values;
  draft.used = used;
  draft.texts = [];
  draft.arrayText = `[${sample.text},${written.text.slice(1)}`;
  draft.exactCount = sample.count + written.count;
  gathered.whole = true;
  return true;
}

function emptyDraft(draft: Draft): void {
  draft.values = [];
  draft.used = 0;
  draft.texts = [];
  draft.arrayText = undefined;
  draft.exactCount = 0;
}

/**
 * How many bytes the placeholder skeleton (the envelope buildPage budgets against: every count
 * at its largest, a 64-character cursor, reason "scalar_size_limit", serializedBytes of
 * 10 x inlineBytes) can be larger than the envelope of this final result around an empty page.
 * Member by member: truncated and complete 1 byte each, truncationReason 15 ("scalar_size_limit"
 * against null), remainingCount digits(total) - 1, nextCursor 64 (66 against null's 4),
 * serializedBytes digits(10 x inlineBytes) - 1, each fieldsResolved count digits(limit) - 1; the
 * warning and every other member are the same, and inexactNumbers only makes the final larger.
 */
function skeletonSlack(spec: PageSpec, result: QueryResult): number {
  const resolved = (result.responseMeta as { fieldsResolved?: Record<string, number> })
    .fieldsResolved;
  const fields = resolved === undefined ? 0 : Object.keys(resolved).length;
  return (
    2 +
    15 +
    digits(spec.total) -
    1 +
    64 +
    digits(spec.inlineBytes * 10) -
    1 +
    fields * (digits(spec.limit) - 1)
  );
}

/**
 * Cuts the page (SPEC.md §4.7): the largest n <= limit elements whose serialized result fits
 * inlineBytes, measuring each candidate element once; an element that alone does not fit is
 * compacted (so the offset always advances) and the page ends there. Counts, nextCursor and
 * truncationReason follow SPEC.md §5. The fit is checked on the final bytes and an element is dropped
 * (or compacted harder) in the rare case the estimate was short.
 */
export function buildPage(spec: PageSpec): QueryResult {
  measuredExactNumbers(true);
  const baseWarnings = [...spec.warnings];
  const first = spec.limit > 0 ? spec.elementAt(spec.offset) : null;
  // The shell of a compacted page, with the compaction warning: made only when an element is
  // compacted (most pages never need it).
  let compactedShell: Draft | undefined;
  const reserved = (): Draft => {
    compactedShell ??= {
      values: [],
      keys: [],
      texts: null,
      arrayText: undefined,
      exactCount: 0,
      used: 0,
      compacted: false,
      warnings:
        first === null ? baseWarnings : [...baseWarnings, compactionWarning(spec, first.pointer)],
    };
    return compactedShell;
  };
  // Every Draft is written with all its members (arrayText too), so drafts have one shape.
  const draft: Draft = {
    values: [],
    keys: [],
    texts: spec.layout.kind === "array" && !measureEachElement ? [] : null,
    arrayText: undefined,
    exactCount: 0,
    used: 0,
    compacted: false,
    warnings: baseWarnings,
  };
  // An array page of candidates that all fit (the common case): each is serialized once, the
  // answer is written, and when it fits with room for every way the placeholder skeleton can be
  // larger (skeletonSlack), the element-by-element cut below would keep them all and write this
  // very answer; so the skeleton is not built.
  const gathered =
    spec.layout.kind === "array" && !measureEachElement && first !== null
      ? gatherPage(spec, first, draft)
      : null;
  if (gathered?.whole === true) {
    const whole = finish(spec, draft);
    if (whole.bytes + skeletonSlack(spec, whole.result) <= spec.inlineBytes) {
      if (whole.text !== undefined) answerTexts.set(whole.result, whole.text);
      return whole.result;
    }
    emptyDraft(draft);
  }
  // Elements that fit are measured against the envelope without the compaction warning; only an
  // element that is compacted pays for that warning.
  const skeletonOf = (shell: Draft) =>
    jsonBytes(render(spec, shell, buildMeta(spec, shell, true, spec.inlineBytes * 10)));
  const budget = spec.inlineBytes - skeletonOf(draft);
  for (let position = draft.values.length; position < spec.limit; position += 1) {
    const element =
      position === 0 && first !== null
        ? first
        : (gathered?.elements[position] ?? spec.elementAt(spec.offset + position));
    const separator = position === 0 ? 0 : 1;
    // Each element is serialized once: its text is both its measure and (array pages) its part
    // of the answer's text.
    const measured = measureEachElement
      ? { bytes: elementBytes(spec.layout, element), text: undefined, count: 0 }
      : (gathered?.measures[position] ?? measureElement(spec.layout, element));
    const bytes = measured.bytes + separator;
    if (draft.used + bytes <= budget) {
      draft.values.push(element.value);
      if (element.key !== undefined) draft.keys.push(element.key);
      draft.used += bytes;
      if (draft.texts !== null) {
        if (measured.text === undefined) draft.texts = null;
        else draft.texts.push(measured.text);
      }
      draft.exactCount += measured.count;
      continue;
    }
    if (position === 0) {
      const keyBytes = element.key === undefined ? 0 : utf8Length(JSON.stringify(element.key)) + 1;
      const room = spec.inlineBytes - skeletonOf(reserved()) - keyBytes;
      const compacted = compactPreview(element.value, Math.max(0, room));
      draft.values.push(compacted);
      if (element.key !== undefined) draft.keys.push(element.key);
      draft.used = keyBytes + jsonBytes(compacted);
      draft.texts = null;
      draft.compacted = true;
      draft.warnings = reserved().warnings;
    }
    break;
  }
  let outcome = finish(spec, draft);
  while (outcome.bytes > spec.inlineBytes && draft.values.length > 0) {
    if (draft.values.length > 1) {
      const removed = draft.values.pop();
      const key = draft.keys.length > draft.values.length ? draft.keys.pop() : undefined;
      draft.used -= elementBytes(spec.layout, { value: removed, key, pointer: "" }) + 1;
      // Texts kept one per element and no ExactNumber among them: drop the last; else the count
      // of what stays is not known without measuring again, so render the usual way.
      if (
        draft.texts !== null &&
        draft.exactCount === 0 &&
        draft.texts.length === draft.values.length + 1
      ) {
        draft.texts.pop();
      } else draft.texts = null;
    } else {
      const key = draft.keys[0];
      const keyBytes = key === undefined ? 0 : utf8Length(JSON.stringify(key)) + 1;
      const current = jsonBytes(draft.values[0]);
      const overshoot = outcome.bytes - spec.inlineBytes;
      const compacted = compactPreview(draft.values[0], Math.max(0, current - overshoot - 16));
      const compactedBytes = jsonBytes(compacted);
      draft.values[0] = compacted;
      draft.texts = null;
      draft.used = keyBytes + compactedBytes;
      if (!draft.compacted) {
        draft.compacted = true;
        draft.warnings = reserved().warnings;
      }
      // The tiny marker cannot shrink further: stop (the metadata alone is then over budget).
      if (compactedBytes >= current) {
        outcome = finish(spec, draft);
        break;
      }
    }
    outcome = finish(spec, draft);
  }
  if (outcome.bytes > spec.inlineBytes) {
    throw new ContractError({
      code: "INVALID_RESPONSE_CONTROLS",
      message: `The result's own metadata (field labels, filters, warnings) does not fit the ${spec.inlineBytes}-byte result budget: send fewer or shorter fields and filters.`,
      details: { field: "fields", expected: `labels and paths that fit ${spec.inlineBytes} bytes` },
    });
  }
  if (outcome.text !== undefined) answerTexts.set(outcome.result, outcome.text);
  return outcome.result;
}
