import { type ArtifactRef, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { childOf, parsePointer } from "../pointer/pointer.js";
import { isJsonObject } from "../query/json-values.js";
import { keysOf } from "./estimate-bytes.js";
import {
  isCutText,
  isItemsMarker,
  OMITTED_ITEMS_KEY,
  OMITTED_KEYS_KEY,
} from "./preview-markers.js";

/** What the guidance of one envelope is written from. */
export interface GuidanceFacts {
  artifact: ArtifactRef;
  /** The parsed payload. */
  document: unknown;
  /** The preview as placed in `data` (null when none fit). */
  data: unknown;
  /** data is a hook's reshaped value, so the document's pointers do not lead into it. */
  reshaped: boolean;
  /** A reshaped preview that shows every key of its items (the hook says so). */
  itemKeysShown: boolean;
  /** The store loses artifacts when this process exits (the memory store). */
  ephemeralStore: boolean;
  /** The preview holds no value of the document, only markers, or nothing. */
  empty: boolean;
}

/** At most this many collections are named in the guidance (all are in primaryPaths). */
const MAX_NAMED_PATHS = 3;
/** A root object with at least this many keys is named for objectMode when nothing else is. */
const MIN_ROOT_ENTRIES = 5;

interface Collection {
  pointer: string;
  keyed: boolean;
  count: number;
  /** Items or entries the preview shows, or null when the preview cannot be followed there. */
  shown: number | null;
  /** Whether the preview shows every key of the items or entries it shows. */
  keysShown: boolean;
}

/** The value at a pointer, or not found (also for a malformed pointer a hook may have given). */
function valueAt(root: unknown, pointer: string): { found: boolean; value: unknown } {
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch {
    return { found: false, value: undefined };
  }
  let current = root;
  for (const token of tokens) {
    const step = childOf(current, token);
    if (!step.found) return step;
    current = step.value;
  }
  return { found: true, value: current };
}

/** Whether a shown item or entry value shows every key it has (scalars have none to hide). */
function showsAllKeys(value: unknown): boolean {
  return !isJsonObject(value) || !Object.hasOwn(value, OMITTED_KEYS_KEY);
}

function describeCollection(facts: GuidanceFacts, pointer: string): Collection | null {
  const source = valueAt(facts.document, pointer);
  if (!source.found) return null;
  if (!Array.isArray(source.value) && !isJsonObject(source.value)) return null;
  const keyed = !Array.isArray(source.value);
  const count = Array.isArray(source.value)
    ? source.value.length
    : isJsonObject(source.value)
      ? keysOf(source.value).length
      : 0;
  const shownValue = facts.reshaped
    ? { found: false, value: undefined }
    : valueAt(facts.data, pointer);
  if (!shownValue.found) {
    return { pointer, keyed, count, shown: null, keysShown: facts.reshaped && facts.itemKeysShown };
  }
  const items: unknown[] = Array.isArray(shownValue.value)
    ? shownValue.value.filter((item) => !isItemsMarker(item))
    : isJsonObject(shownValue.value)
      ? keysOf(shownValue.value)
          .filter((key) => key !== OMITTED_KEYS_KEY)
          .map((key) => (shownValue.value as Record<string, unknown>)[key])
      : [];
  const keysShown = items.length > 0 && items.every(showsAllKeys);
  return { pointer, keyed, count, shown: items.length, keysShown };
}

/** The markers that occur in a preview, named as the model will see them. */
function markersIn(data: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value === "string") {
      if (isCutText(value)) found.add('"…[N chars total]"');
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isJsonObject(value)) return;
    for (const key of keysOf(value)) {
      if (key === OMITTED_ITEMS_KEY) found.add('{"_omittedItems": n}');
      else if (key === OMITTED_KEYS_KEY) found.add('"_omittedKeys": n');
      else if (isCutText(key)) found.add('"…[N chars total]"');
      visit(value[key]);
    }
  };
  visit(data);
  return [...found].sort();
}

function pathLine(collection: Collection): string {
  const pointer = JSON.stringify(collection.pointer);
  if (collection.keyed) {
    const shown = collection.shown === null ? "" : `, ${collection.shown} in data`;
    return `${pointer}: ${collection.count} keyed entries${shown}; read them with {"responsePath": ${pointer}, "objectMode": "entries"}`;
  }
  const shown = collection.shown === null ? "" : `, ${collection.shown} in data`;
  return `${pointer}: ${collection.count} items${shown}`;
}

/**
 * The guidance of a bounded envelope, written from what its preview shows (contract SPEC.md §2):
 * which markers occur in data; the collections worth querying (arrays by item count, keyed
 * objects with the objectMode request that reads them); `describe` only when the preview hides
 * the keys of their items, shows no value at all, or there is no collection to name; items the
 * preview leaves out ("in the artifact") told apart from results the tool itself did not return
 * ("the tool's own paging"); and how long the artifact is kept, never longer than the store can.
 */
export function writeGuidance(facts: GuidanceFacts): string {
  const { artifact } = facts;
  const collections = artifact.primaryPaths
    .slice(0, MAX_NAMED_PATHS)
    .map((pointer) => describeCollection(facts, pointer))
    .filter((collection) => collection !== null);
  // No collection, but a large object at the root (a map of names to strings): its entries.
  if (collections.length === 0) {
    const root = describeCollection(facts, artifact.responseRoot);
    if (root?.keyed && root.count >= MIN_ROOT_ENTRIES) collections.push(root);
  }
  const sentences: string[] = [];
  const markers = markersIn(facts.data);
  const kind = facts.reshaped ? "a reshaped preview" : "a preview";
  sentences.push(
    `data is ${kind} of a ${artifact.byteLength}-byte result, not the result` +
      (markers.length > 0 ? `; cuts are marked ${markers.join(", ")}.` : "."),
  );
  const query = `Query it with ${QUERY_TOOL_NAME}, artifactId = responseMeta.artifact.id`;
  if (collections.length > 0) {
    sentences.push(`${query}. Collections: ${collections.map(pathLine).join("; ")}.`);
  } else {
    sentences.push(`${query}.`);
  }
  const keysHidden = collections.some((collection) => !collection.keysShown);
  if (facts.empty) {
    sentences.push('The preview had no room for values: start with {"describe": true}.');
  } else if (collections.length === 0 || keysHidden) {
    sentences.push('{"describe": true} lists the keys the preview hides.');
  } else {
    sentences.push("Use fields, filters, sort or aggregate; follow responseMeta.nextCursor.");
  }
  if (
    collections.some(
      (collection) => collection.shown !== null && collection.shown < collection.count,
    )
  ) {
    sentences.push("Items not in data are in the artifact.");
  }
  if (artifact.sourceTruncated) {
    sentences.push(
      "The tool reports its own result as partial: further results come only from the tool's own paging (call it again), not from the artifact.",
    );
  }
  sentences.push(
    facts.ephemeralStore
      ? "Kept while this server process runs, until expiresAt at the latest."
      : "Kept until expiresAt at the latest.",
  );
  return sentences.join(" ");
}
