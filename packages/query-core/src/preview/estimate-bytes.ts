import { exactLiteral, isExactNumber } from "../exact/exact-number.js";

/** Objects with at least this many keys keep their key list for as long as they live. */
const LARGE_OBJECT_KEYS = 1024;
const largeObjectKeys = new WeakMap<object, readonly string[]>();

/**
 * Lists an object's own keys. The lists of large objects are remembered for as long as the object
 * lives (a WeakMap, so they go with the document): analyzeDocument and the preview of the same
 * parsed payload enumerate a huge keyed object once between them. Documents are treated as
 * immutable; a key added after the first call is not seen.
 */
export function keysOf(record: object): readonly string[] {
  const remembered = largeObjectKeys.get(record);
  if (remembered !== undefined) return remembered;
  const keys = Object.keys(record);
  if (keys.length >= LARGE_OBJECT_KEYS) largeObjectKeys.set(record, Object.freeze(keys));
  return keys;
}

/** A guess for a container that the work budget no longer lets us look into, per child. */
const UNSEEN_CHILD_BYTES = 16;

/** A guess for an object the work budget no longer lets us look into (not even to count keys). */
const UNSEEN_OBJECT_BYTES = 128;

/**
 * Estimates the compact-JSON byte size of a parsed value without serializing it. Work is capped by
 * `budget` (values looked at): a container with more children than its share of the budget is
 * measured on evenly spaced samples and scaled up, so the cost on a 50 MiB document stays that of
 * a few thousand values. Deterministic: the same value and budget give the same estimate. Strings
 * count one byte per UTF-16 unit and escapes are ignored, so it is a ranking aid, not a measure.
 */
export function estimateJsonBytes(value: unknown, budget: number): number {
  if (value === null || value === undefined) return 4;
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
      return Number.isFinite(value) ? String(value).length : 4;
    case "boolean":
      return value ? 4 : 5;
    case "object":
      if (isExactNumber(value)) return exactLiteral(value).length;
      return Array.isArray(value)
        ? estimateArray(value, budget)
        : estimateObject(value as Record<string, unknown>, budget);
    default:
      return 4;
  }
}

/** About 2·√budget samples, so each sampled child still gets a useful share of the budget. */
function sampleCount(count: number, budget: number): number {
  return Math.min(count, Math.max(1, Math.floor(2 * Math.sqrt(budget))));
}

function estimateArray(items: readonly unknown[], budget: number): number {
  const count = items.length;
  if (count === 0) return 2;
  const framing = 2 + count - 1;
  if (budget <= 1) return framing + count * UNSEEN_CHILD_BYTES;
  const samples = sampleCount(count, budget);
  const childBudget = Math.max(1, Math.floor((budget - 1 - samples) / samples));
  let sampled = 0;
  for (let sample = 0; sample < samples; sample++) {
    const item = items[Math.floor((sample * count) / samples)];
    sampled += estimateJsonBytes(item, childBudget);
  }
  return framing + (sampled * count) / samples;
}

function estimateObject(record: Record<string, unknown>, budget: number): number {
  if (budget <= 1) return UNSEEN_OBJECT_BYTES;
  const keys = keysOf(record);
  const count = keys.length;
  if (count === 0) return 2;
  const framing = 2 + count - 1;
  const samples = sampleCount(count, budget);
  const childBudget = Math.max(1, Math.floor((budget - 1 - samples) / samples));
  let sampled = 0;
  for (let sample = 0; sample < samples; sample++) {
    const key = keys[Math.floor((sample * count) / samples)]!;
    sampled += key.length + 3 + estimateJsonBytes(record[key], childBudget);
  }
  return framing + (sampled * count) / samples;
}
