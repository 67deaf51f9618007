import type { PathStep } from "./compiled-path.js";

// The number gather of sort key extraction (sort-order.ts): a loop that handles only the usual
// cell, a plain number read from an object item, and leaves every other cell to the general
// extraction, so the loop that touches every item stays a few loads and branches long. A gather
// writes only the number of a cell it fills: it relies on a fresh column's classes being
// NUMBER_CLASS (0), as every column createSortColumns makes is, each cell written once.

/**
 * The class a gather leaves on a cell it did not fill: not a §9 class (those are 0-4), so the
 * general pass that follows finds every such cell and writes its real class over it.
 */
export const PENDING_CLASS = 255;

/**
 * Gathers a one-key path (`/views`) over candidates `start` to `end`: where the item is a
 * non-array object whose own property `key` holds a number, writes that number; every other cell
 * gets PENDING_CLASS. Relies on a fresh column's classes being NUMBER_CLASS (0), and on `key`
 * naming no Object.prototype member (an ownKey never does), so a number read is an own value.
 * Returns how many cells it left pending.
 */
export function gatherOwnKey(
  classes: Uint8Array,
  numbers: Float64Array,
  key: string,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  let pending = 0;
  for (let position = start; position < end; position += 1) {
    const item = items[indices === null ? position : (indices[position] as number)];
    if (typeof item === "object" && item !== null && !Array.isArray(item)) {
      const raw = (item as Record<string, unknown>)[key];
      if (typeof raw === "number") {
        numbers[position] = raw;
        continue;
      }
    }
    classes[position] = PENDING_CLASS;
    pending += 1;
  }
  return pending;
}

/**
 * Gathers a two-step path (`/position/1`, `/stats/views`) over candidates `start` to `end`:
 * where the path reads a number, writes it, else PENDING_CLASS. Only for steps that name no
 * Object.prototype member (`inherited` false; see gathersTwoSteps). The reads are fewer than
 * readSteps' but give the same number wherever they give one: the first step reads
 * `item[token]` on anything but null and undefined, and only an object or array it returns is
 * read further (an own property of an object item, or an array item's element at that index,
 * which is what readSteps reads there; a primitive or an array item yields no object by a name);
 * the second reads an array at its index (none for a step that names none) and any other object
 * by name, as readSteps does. Written as selects, not an early `continue`: on the 50 MiB node
 * array (126k items, fastest of 60 runs) 7.8 ms with the checks and branches readSteps makes,
 * 6.2-6.7 ms so, and 6.1 ms for a bare `items[i].position[1]` loop. Returns how many cells it
 * left pending.
 */
export function gatherTwoSteps(
  classes: Uint8Array,
  numbers: Float64Array,
  first: PathStep,
  second: PathStep,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  const token0 = first.token;
  const token1 = second.token;
  const index1 = second.index;
  let pending = 0;
  for (let position = start; position < end; position += 1) {
    const item = items[indices === null ? position : (indices[position] as number)];
    const inner = item != null ? (item as Record<string, unknown>)[token0] : undefined;
    const raw = Array.isArray(inner)
      ? index1 >= 0
        ? (inner[index1] as unknown)
        : undefined
      : typeof inner === "object" && inner !== null
        ? (inner as Record<string, unknown>)[token1]
        : undefined;
    if (typeof raw === "number") numbers[position] = raw;
    else {
      classes[position] = PENDING_CLASS;
      pending += 1;
    }
  }
  return pending;
}

/** True when a gather may read these steps (no step names an Object.prototype member). */
export function gathersTwoSteps(steps: readonly PathStep[]): boolean {
  return (
    steps.length === 2 && !(steps[0] as PathStep).inherited && !(steps[1] as PathStep).inherited
  );
}
