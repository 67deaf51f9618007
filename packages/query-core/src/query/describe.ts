import { escapePointerToken } from "../pointer/pointer.js";
import { keysOf } from "../preview/estimate-bytes.js";
import { createRecord, describeType, isJsonObject } from "./json-values.js";

/** A describe answer before paging: the shape's fixed members and its paged key list. */
export interface DescribePlan {
  base: Record<string, unknown>;
  listKey?: "itemKeys" | "keys";
  total: number;
  keyAt: (index: number) => Record<string, unknown>;
}

function lengthOf(value: unknown): number | undefined {
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  if (isJsonObject(value)) return keysOf(value).length;
  return undefined;
}

function keyDescriptor(name: string, pointer: string, type: string, length: number | undefined) {
  const descriptor = createRecord();
  descriptor.name = name;
  descriptor.pointer = pointer;
  descriptor.type = type;
  if (length !== undefined) descriptor.length = length;
  return descriptor;
}

/**
 * describe (SPEC.md §4.8): an array gives `{type, length, sampledItems, itemKeys}` where
 * itemKeys is the union of the keys of the first `sampleItems` items (pointers relative to an
 * item; a key seen with several types has them joined by `|`; length is the largest seen); an
 * object gives `{type, entryCount, keys}` with absolute pointers; a scalar `{type, length?}`.
 * The key list is what gets paged.
 */
export function planDescribe(value: unknown, pointer: string, sampleItems: number): DescribePlan {
  const base = createRecord();
  if (Array.isArray(value)) {
    const sampled = Math.min(value.length, sampleItems);
    const stats = new Map<string, { types: string[]; length: number | undefined }>();
    for (let index = 0; index < sampled; index += 1) {
      const item = value[index];
      if (!isJsonObject(item)) continue;
      for (const key of Object.keys(item)) {
        const type = describeType(item[key]);
        const length = lengthOf(item[key]);
        const stat = stats.get(key);
        if (stat === undefined) {
          stats.set(key, { types: [type], length });
          continue;
        }
        if (!stat.types.includes(type)) stat.types.push(type);
        if (length !== undefined) stat.length = Math.max(stat.length ?? 0, length);
      }
    }
    const names = [...stats.keys()];
    base.type = "array";
    base.length = value.length;
    base.sampledItems = sampled;
    return {
      base,
      listKey: "itemKeys",
      total: names.length,
      keyAt: (index) => {
        const name = names[index] as string;
        const stat = stats.get(name) as { types: string[]; length: number | undefined };
        return keyDescriptor(
          name,
          `/${escapePointerToken(name)}`,
          stat.types.join("|"),
          stat.length,
        );
      },
    };
  }
  if (isJsonObject(value)) {
    const names = keysOf(value);
    base.type = "object";
    base.entryCount = names.length;
    return {
      base,
      listKey: "keys",
      total: names.length,
      keyAt: (index) => {
        const name = names[index] as string;
        const child = value[name];
        return keyDescriptor(
          name,
          `${pointer}/${escapePointerToken(name)}`,
          describeType(child),
          lengthOf(child),
        );
      },
    };
  }
  base.type = describeType(value);
  const length = lengthOf(value);
  if (length !== undefined) base.length = length;
  return { base, total: 0, keyAt: () => createRecord() };
}
