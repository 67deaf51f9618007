// The naive reference the §9 property tests compare the engine with (extensions.property.test.ts,
// sort-fast-paths.property.test.ts): written from SPEC.md's text, with no code of the engine.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Reads a path the way §4.2 / §4.6 describe: "" the item, "/a/0" a pointer, "c" a literal key. */
export function readReference(item: Json | undefined, path: string): Json | undefined {
  if (path === "") return item;
  const tokens = path.startsWith("/") ? path.slice(1).split("/") : [path];
  if (!path.startsWith("/") && Array.isArray(item)) return undefined;
  let current: Json | undefined = item;
  for (const token of tokens) {
    if (current === null || typeof current !== "object") return undefined;
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else {
      current = Object.hasOwn(current, token) ? current[token] : undefined;
    }
  }
  return current;
}

/** Canonical JSON by its definition: keys sorted, no whitespace (recursive; test values are small). */
export function canonicalReference(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalReference).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalReference(value[key] as Json)}`).join(",")}}`;
}

function rank(value: Json | undefined): number {
  if (value === undefined || value === null) return 4;
  if (typeof value === "number") return 0;
  if (typeof value === "string") return 1;
  if (typeof value === "boolean") return 2;
  return 3;
}

/** §9 rule 2 from the text: present values ascending (or descending), missing and null last. */
export function compareReference(
  left: Json | undefined,
  right: Json | undefined,
  desc: boolean,
): number {
  const leftRank = rank(left);
  const rightRank = rank(right);
  if (leftRank === 4 || rightRank === 4) {
    return leftRank === rightRank ? 0 : leftRank === 4 ? 1 : -1;
  }
  let order: number;
  if (leftRank !== rightRank) order = leftRank - rightRank;
  else if (leftRank === 0) order = (left as number) - (right as number);
  else if (leftRank === 2) order = Number(left) - Number(right);
  else {
    const a = leftRank === 1 ? (left as string) : canonicalReference(left as Json);
    const b = leftRank === 1 ? (right as string) : canonicalReference(right as Json);
    order = a < b ? -1 : a > b ? 1 : 0;
  }
  // Infinity - Infinity is NaN: equal numbers of any size are a tie.
  const sign = Number.isNaN(order) ? 0 : Math.sign(order);
  return desc ? -sign : sign;
}
