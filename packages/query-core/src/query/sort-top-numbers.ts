import { CHUNK_ITEMS, inChunks, type Work } from "../schedule/work.js";

// The top-k of one all-number sort key (sort-order.ts, the usual "top 20 by views"): a bounded
// max-heap by (key, position), with the number negated when descending so the smallest key is
// the best. A strided sample of the candidates first gives a bound no top-k entry can be worse
// than, so the full pass offers the heap only the few candidates within it: on a document whose
// values grow the way it is sorted (each candidate beats the heap's worst), that turns one heap
// replacement per candidate into one comparison per candidate.

/**
 * Offers `buffer[0]` to `buffer[length - 1]` (candidate positions, ascending) to a bounded
 * max-heap of `positions.length` entries by (key, position), key = sign * number, the worst at the
 * root, with each entry's key beside it in `keys`; returns the heap's new size. Candidates come
 * in position order, so a newcomer equal in key to an entry comes after it: ties never displace.
 */
function offerCandidates(
  positions: Int32Array,
  keys: Float64Array,
  size: number,
  numbers: Float64Array,
  sign: number,
  buffer: Int32Array,
  length: number,
): number {
  const limit = positions.length;
  let kept = size;
  for (let at = 0; at < length; at += 1) {
    const position = buffer[at] as number;
    const key = sign * (numbers[position] as number);
    if (kept < limit) {
      let child = kept;
      kept += 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        const parentKey = keys[parent] as number;
        if (key < parentKey) break;
        positions[child] = positions[parent] as number;
        keys[child] = parentKey;
        child = parent;
      }
      positions[child] = position;
      keys[child] = key;
    } else if (key < (keys[0] as number)) {
      let parent = 0;
      for (;;) {
        const left = 2 * parent + 1;
        if (left >= kept) break;
        const right = left + 1;
        let worse = left;
        if (right < kept) {
          const rightKey = keys[right] as number;
          const leftKey = keys[left] as number;
          if (
            rightKey > leftKey ||
            (rightKey === leftKey && (positions[right] as number) > (positions[left] as number))
          ) {
            worse = right;
          }
        }
        if ((keys[worse] as number) <= key) break;
        positions[parent] = positions[worse] as number;
        keys[parent] = keys[worse] as number;
        parent = worse;
      }
      positions[parent] = position;
      keys[parent] = key;
    }
  }
  return kept;
}

/**
 * Writes into `buffer` the positions `start`, `start + step`, ... below `end` whose
 * (sign * number, position) is at most (`boundKey`, `boundPosition`); how many. A loop of one
 * comparison per candidate, apart from the heap's, so skipping most candidates costs little.
 */
function collectWithin(
  numbers: Float64Array,
  sign: number,
  start: number,
  end: number,
  step: number,
  boundKey: number,
  boundPosition: number,
  buffer: Int32Array,
): number {
  let length = 0;
  for (let position = start; position < end; position += step) {
    const key = sign * (numbers[position] as number);
    if (key < boundKey || (key === boundKey && position <= boundPosition)) {
      buffer[length] = position;
      length += 1;
    }
  }
  return length;
}

/** Sampled candidates per heap entry: a bound about this many times the heap's size in. */
const SAMPLE_PER_ENTRY = 64;
/** Below this stride a sample would cost about as much as it saves: no sample. */
const MIN_SAMPLE_STRIDE = 8;

/**
 * The positions of the `limit` best candidates (0 < limit <= count) by (sign * number, position),
 * unordered. When the candidates are many per entry, every `stride`-th one is offered to a heap
 * first; once full, its worst entry is a bound: at least `limit` candidates are at most it, so
 * every top entry is too, and the full pass offers the heap only the candidates within it. Each
 * pass runs in chunks of CHUNK_ITEMS candidates with a yield between two (SPEC.md §9 rule 6).
 */
export function* selectTopNumbers(
  numbers: Float64Array,
  sign: number,
  count: number,
  limit: number,
): Work<Int32Array> {
  const buffer = new Int32Array(Math.min(count, CHUNK_ITEMS));
  const stride = Math.floor(count / (limit * SAMPLE_PER_ENTRY));
  let boundKey = Number.POSITIVE_INFINITY;
  let boundPosition = count;
  // One heap for both passes: the full pass starts it again from size 0.
  const positions = new Int32Array(limit);
  const keys = new Float64Array(limit);
  let size = 0;
  if (stride >= MIN_SAMPLE_STRIDE) {
    yield* inChunks(
      count,
      (start, end) => {
        const first = Math.ceil(start / stride) * stride;
        const length = collectWithin(numbers, sign, first, end, stride, boundKey, count, buffer);
        size = offerCandidates(positions, keys, size, numbers, sign, buffer, length);
      },
      CHUNK_ITEMS * stride,
    );
    if (size === limit) {
      boundKey = keys[0] as number;
      boundPosition = positions[0] as number;
    }
    size = 0;
  }
  yield* inChunks(count, (start, end) => {
    const length = collectWithin(numbers, sign, start, end, 1, boundKey, boundPosition, buffer);
    size = offerCandidates(positions, keys, size, numbers, sign, buffer, length);
  });
  return positions.subarray(0, size);
}
