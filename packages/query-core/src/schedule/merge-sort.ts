import { CHUNK_ITEMS, type Work } from "./work.js";

/** Output elements one merge step writes before it yields (about a millisecond of comparisons). */
const MERGE_STEP = CHUNK_ITEMS * 8;

/**
 * Sorts `positions` by `compare`, which must be a total order (no two positions equal), in steps
 * that yield: runs of CHUNK_ITEMS sorted by the typed array's own sort, then bottom-up merge passes
 * cut into steps of a few thousand outputs. A total order has one sorted permutation, so this
 * answers exactly what one `positions.sort(compare)` answers, but never holds the process for
 * the whole sort (SPEC.md §9 rule 6). Returns the sorted array (`positions` or its one buffer).
 */
export function* sortInSteps(
  positions: Int32Array,
  compare: (left: number, right: number) => number,
): Work<Int32Array> {
  const count = positions.length;
  for (let start = 0; start < count; start += CHUNK_ITEMS) {
    positions.subarray(start, Math.min(count, start + CHUNK_ITEMS)).sort(compare);
    yield;
  }
  if (count <= CHUNK_ITEMS) return positions;
  let source: Int32Array = positions;
  let target: Int32Array = new Int32Array(count);
  for (let width = CHUNK_ITEMS; width < count; width *= 2) {
    for (let low = 0; low < count; low += 2 * width) {
      const middle = Math.min(low + width, count);
      const high = Math.min(low + 2 * width, count);
      let left = low;
      let right = middle;
      let out = low;
      while (out < high) {
        const stop = Math.min(high, out + MERGE_STEP);
        while (out < stop) {
          if (
            left < middle &&
            (right >= high || compare(source[left] as number, source[right] as number) < 0)
          ) {
            target[out] = source[left] as number;
            left += 1;
          } else {
            target[out] = source[right] as number;
            right += 1;
          }
          out += 1;
        }
        yield;
      }
    }
    const swap = source;
    source = target;
    target = swap;
  }
  return source;
}
