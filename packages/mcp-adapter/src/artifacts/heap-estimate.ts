/**
 * Bytes of one pointer-sized slot: Node's default V8 build has no pointer compression.
 * (A build with it halves pointers; the estimate then over-counts, which keeps the bound.)
 */
const SLOT = 8;
/** JSON.parse keeps an object's members in-object up to about this count, then a dictionary. */
const FAST_MEMBERS = 128;
/** Children looked at per array or object; the rest are taken to cost the same on average. */
const SAMPLE = 32;
/** Nodes looked at per document at most (the whole walk stays well under a millisecond). */
const BUDGET = 4_096;
/** What a node is taken to cost once the budget is spent (a small object). */
const UNSEEN_NODE = 64;

function stringBytes(text: string): number {
  // SeqOneByteString: a 16-byte header, then the characters rounded up to a slot. A string
  // with characters over U+00FF takes two bytes each; not checked (see the limits below).
  return 16 + Math.ceil(text.length / SLOT) * SLOT;
}

function sampledIndexes(length: number): number[] {
  if (length <= SAMPLE) return Array.from({ length }, (_, index) => index);
  return Array.from({ length: SAMPLE }, (_, index) => Math.floor((index * length) / SAMPLE));
}

function estimate(value: unknown, budget: number): number {
  if (typeof value === "string") return stringBytes(value);
  if (typeof value === "number") {
    // A small integer is a Smi held in its slot; any other number is a 16-byte HeapNumber.
    return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 0 : 16;
  }
  if (value === null || typeof value !== "object") return 0; // true, false, null: shared
  if (budget < 1) return UNSEEN_NODE;
  if (Array.isArray(value)) {
    const picked = sampledIndexes(value.length);
    const share = (budget - 1) / Math.max(1, picked.length);
    let children = 0;
    for (const index of picked) children += estimate(value[index], share);
    const scale = picked.length === 0 ? 0 : value.length / picked.length;
    // JSArray (32) + its FixedArray backing store (16 + a slot per element).
    return 48 + value.length * SLOT + children * scale;
  }
  const keys = Object.keys(value);
  const picked = sampledIndexes(keys.length);
  const share = (budget - 1) / Math.max(1, picked.length);
  let children = 0;
  let keyBytes = 0;
  for (const index of picked) {
    const key = keys[index] as string;
    children += estimate((value as Record<string, unknown>)[key], share);
    keyBytes += stringBytes(key);
  }
  const scale = picked.length === 0 ? 0 : keys.length / picked.length;
  if (keys.length <= FAST_MEMBERS) {
    // JSObject header (24) + one in-object slot per member; its keys live in a map that objects
    // of the same shape share, so they are not counted here.
    return 24 + keys.length * SLOT + children * scale;
  }
  // A dictionary: the object, a hash table of (key, value, details) triples at about twice the
  // members' count, and its own key strings.
  return 24 + 32 + keys.length * 2 * 3 * SLOT + (children + keyBytes) * scale;
}

/**
 * An estimate of the V8 heap a parsed JSON value holds, for the parse cache's budget: a parsed
 * document costs about 1.1x (strings) to 4x (an object keyed by id) its text in heap, so
 * counting its serialized bytes under-counts most documents. Walks a sample of the value (up to
 * 32 children per array or object, 4,096 nodes in all) and scales each sample to its container,
 * with V8's 64-bit layout (headers, one 8-byte slot per element or member, 16-byte HeapNumbers,
 * one-byte strings; dictionary objects past 128 members). Calibrated against
 * `v8.getHeapStatistics()` around `JSON.parse` (apps/proxy/bench/parse-heap.mjs; the table is in
 * the mcp-adapter README). Limits: an estimate, not a measure: strings with characters over
 * U+00FF (two bytes each) are under-counted by up to 2x, repeated strings V8 shares are counted
 * each time, and a very uneven array is judged by its sampled elements.
 */
export function estimateHeapBytes(value: unknown): number {
  return Math.round(estimate(value, BUDGET));
}
