/** One deterministic record of the fixture collections. */
export interface FixtureItem {
  id: string;
  name: string;
  status: "active" | "archived" | "draft";
  score: number;
  tags: string[];
  description: string;
}

const STATUSES = ["active", "archived", "draft"] as const;

/** Item `index` of the fixture collection; the same index always gives the same item. */
export function fixtureItem(index: number, descriptionChars = 120): FixtureItem {
  return {
    id: `item-${String(index).padStart(6, "0")}`,
    name: `Item number ${index}`,
    status: STATUSES[index % STATUSES.length] ?? "active",
    score: (index * 37) % 1000,
    tags: [`group-${index % 7}`, `batch-${Math.floor(index / 100)}`],
    description: `Description of item ${index}. `.repeat(8).slice(0, descriptionChars),
  };
}

/** `{success: true, data: {items: [...]}}` with `count` items. */
export function itemsPayload(count: number, descriptionChars?: number) {
  return {
    success: true,
    data: {
      total: count,
      items: Array.from({ length: count }, (_, index) => fixtureItem(index, descriptionChars)),
    },
  };
}

/** An items payload whose compact JSON is at least `bytes` long. */
export function itemsPayloadOfSize(bytes: number) {
  const itemBytes = Buffer.byteLength(JSON.stringify(fixtureItem(0))) + 1;
  return itemsPayload(Math.ceil(bytes / itemBytes) + 1);
}

/** A JSON text tool result (compact unless `indent` is given). */
export function jsonTextResult(value: unknown, indent?: number) {
  return { content: [{ type: "text" as const, text: JSON.stringify(value, null, indent) }] };
}

/** Compact JSON byte length. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
