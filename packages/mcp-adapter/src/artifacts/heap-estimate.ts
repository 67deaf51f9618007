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

function scalarBytes(value: unknown): number {
  if (typeof value === "string") return stringBytes(value);
  if (typeof value === "number") {
    // A small integer is a Smi held in its slot; any other number is a 16-byte HeapNumber.
    return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 0 : 16;
  }
  return 0; // true, false, null: shared
}

/**
 * The walk, with an explicit stack (a document may be nested 100,000 deep): each item is a value,
 * how many values it stands for (its container's scale) and the nodes it may still visit.
 */
function estimate(root: unknown): number {
  let total = 0;
  const stack: [unknown, number, number][] = [[root, 1, BUDGET]];
  while (stack.length > 0) {
    const [value, times, budget] = stack.pop()!;
    if (value === null || typeof value !== "object") {
      total += times * scalarBytes(value);
      continue;
    }
    if (budget < 1) {
      total += times * UNSEEN_NODE;
      continue;
    }
    if (Array.isArray(value)) {
      const picked = sampledIndexes(value.length);
      // JSArray (32) + its FixedArray backing store (16 + a slot per element).
      total += times * (48 + value.length * SLOT);
      const scale = times * (picked.length === 0 ? 0 : value.length / picked.length);
      const share = (budget - 1) / Math.max(1, picked.length);
      for (const index of picked) stack.push([value[index], scale, share]);
      continue;
    }
    const keys = Object.keys(value);
    const picked = sampledIndexes(keys.length);
    const scale = times * (picked.length === 0 ? 0 : keys.length / picked.length);
    const share = (budget - 1) / Math.max(1, picked.length);
    if (keys.length <= FAST_MEMBERS) {
      // JSObject header (24) + one in-object slot per member; its keys live in a map that objects
      // of the same shape share, so they are not counted here.
      total += times * (24 + keys.length * SLOT);
    } else {
      // A dictionary: the object, a hash table of (key, value, details) triples at about twice
      // the members' count, and its own key strings.
      total += times * (24 + 32 + keys.length * 2 * 3 * SLOT);
      for (const index of picked) total += scale * stringBytes(keys[index] as string);
    }
    for (const index of picked) {
      stack.push([(value as Record<string, unknown>)[keys[index] as string], scale, share]);
    }
  }
  return total;
}

/**
 * An estimate of the V8 heap a parsed JSON value holds, for the parse cache's budget: a parsed
 * document costs about 1.1x (strings) to 4x (an object keyed by id) its text in heap, so
 * counting its serialized bytes under-counts most documents. Walks a sample of the value (up to
 * 32 children per array or object, 4,096 nodes in all) and scales each sample to its container,
 * with V8's 64-bit layout (headers, one 8-byte slot per element or member, 16-byte HeapNumbers,
 * one-byte strings; dictionary objects past 128 members). Calibrated against
 * `v8.getHeapStatistics()` around `JSON.parse` (packages/mcp-adapter/bench/parse-heap.mjs; the table is in
 * the mcp-adapter README). Limits: an estimate, not a measure: strings with characters over
 * U+00FF (two bytes each) are under-counted by up to 2x, repeated strings V8 shares are counted
 * each time, and a very uneven array is judged by its sampled elements.
 */
export function estimateHeapBytes(value: unknown): number {
  return Math.round(estimate(value));
}
