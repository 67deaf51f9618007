import type { FilterGroup, LeafSlot, ScanRange } from "./filter-loops.js";
import { type IcontainsNeedle, includesNeedle } from "./icontains-needle.js";

/**
 * `icontains` of an array value (SPEC.md §9 rule 4): some string element contains the needle.
 * This module's own copy of filter-loops.ts's array test, so the loops here keep feedback of
 * their own; reached only for values that are not strings.
 */
function arrayHolds(needle: IcontainsNeedle, value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let at = 0; at < value.length; at += 1) {
    const element: unknown = value[at];
    if (typeof element === "string" && includesNeedle(element, needle)) return true;
  }
  return false;
}

/** True when a leaf is an own key or two steps of which neither names an inherited property. */
function isKeyLeaf(leaf: LeafSlot): boolean {
  return leaf.key !== undefined;
}

function isPlainTwoLeaf(leaf: LeafSlot): boolean {
  return leaf.two && !leaf.first.inherited && !leaf.second.inherited;
}

/**
 * The straight-line loop for an anyOf of two ASCII icontains, one leaf at an own key (`/name`)
 * and the other at two steps without inherited names (`/parameters/url`), the filter alone: for
 * this pair of path kinds every branch on how to read is decided before the loop, so an item
 * costs its reads, the two searches and six counters. Reads exactly what readKeyOrTwo in
 * filter-loops.ts reads: the own key of a non-array object item (undefined on arrays), and for
 * the two steps an array index on arrays (`index` -1 when the token names none), else the
 * property. Counts land at the key leaf's place (`keyAt`, 0 or 1) and the other's, since an
 * anyOf is an OR and the order in which its two leaves are decided changes no answer.
 */
function scanKeyTwo(
  items: readonly unknown[],
  start: number,
  end: number,
  key: string,
  needleKey: IcontainsNeedle,
  tokenA: string,
  indexA: number,
  tokenB: string,
  indexB: number,
  needleTwo: IcontainsNeedle,
  keyAt: number,
  counts: Float64Array,
  inner: Float64Array,
  indices: number[],
): void {
  let resolvedKey = 0;
  let matchedKey = 0;
  let resolvedTwo = 0;
  let matchedTwo = 0;
  let resolved = 0;
  let matched = 0;
  for (let index = start; index < end; index += 1) {
    const item = items[index];
    let valueKey: unknown;
    let valueTwo: unknown;
    let hitKey = false;
    let hitTwo = false;
    if (typeof item === "object" && item !== null) {
      let parent: unknown;
      if (!Array.isArray(item)) {
        valueKey = (item as Record<string, unknown>)[key];
        hitKey =
          typeof valueKey === "string"
            ? includesNeedle(valueKey, needleKey)
            : valueKey !== undefined && arrayHolds(needleKey, valueKey);
        parent = (item as Record<string, unknown>)[tokenA];
      } else parent = indexA < 0 ? undefined : item[indexA];
      if (typeof parent === "object" && parent !== null) {
        if (!Array.isArray(parent)) valueTwo = (parent as Record<string, unknown>)[tokenB];
        else valueTwo = indexB < 0 ? undefined : parent[indexB];
        hitTwo =
          typeof valueTwo === "string"
            ? includesNeedle(valueTwo, needleTwo)
            : valueTwo !== undefined && arrayHolds(needleTwo, valueTwo);
      }
    }
    resolvedKey += valueKey !== undefined ? 1 : 0;
    resolvedTwo += valueTwo !== undefined ? 1 : 0;
    resolved += valueKey !== undefined || valueTwo !== undefined ? 1 : 0;
    matchedKey += hitKey ? 1 : 0;
    matchedTwo += hitTwo ? 1 : 0;
    if (hitKey || hitTwo) {
      matched += 1;
      indices.push(index);
    }
  }
  const twoAt = 1 - keyAt;
  inner[2 * keyAt] = (inner[2 * keyAt] as number) + resolvedKey;
  inner[2 * keyAt + 1] = (inner[2 * keyAt + 1] as number) + matchedKey;
  inner[2 * twoAt] = (inner[2 * twoAt] as number) + resolvedTwo;
  inner[2 * twoAt + 1] = (inner[2 * twoAt + 1] as number) + matchedTwo;
  counts[0] = (counts[0] as number) + resolved;
  counts[1] = (counts[1] as number) + matched;
}

/**
 * A scan of a range for a lone anyOf of two ASCII icontains (filter-loops.ts isPlainIcontains),
 * or null when its path kinds have no loop here (applyAnyOfIcontains then runs). Made once per
 * scan: it picks the loop and unpacks the leaves' fields, so a slice costs one call.
 */
export function anyOfIcontainsScan(
  items: readonly unknown[],
  group: FilterGroup,
): ((range: ScanRange) => void) | null {
  const inner = group.inner as Float64Array;
  const leaf0 = group.leaves[0] as LeafSlot;
  const leaf1 = group.leaves[1] as LeafSlot;
  const keyFirst = isKeyLeaf(leaf0) && isPlainTwoLeaf(leaf1);
  if (!keyFirst && !(isPlainTwoLeaf(leaf0) && isKeyLeaf(leaf1))) return null;
  const keyLeaf = keyFirst ? leaf0 : leaf1;
  const twoLeaf = keyFirst ? leaf1 : leaf0;
  const key = keyLeaf.key as string;
  const needleKey = keyLeaf.needle as IcontainsNeedle;
  const tokenA = twoLeaf.first.token;
  const indexA = twoLeaf.first.index;
  const tokenB = twoLeaf.second.token;
  const indexB = twoLeaf.second.index;
  const needleTwo = twoLeaf.needle as IcontainsNeedle;
  const keyAt = keyFirst ? 0 : 1;
  return (range) =>
    scanKeyTwo(
      items,
      range.start,
      range.end,
      key,
      needleKey,
      tokenA,
      indexA,
      tokenB,
      indexB,
      needleTwo,
      keyAt,
      range.counts,
      inner,
      range.indices,
    );
}
