/**
 * A generated tool result payload of about `bytes` bytes: `{"success":true,"data":{"total":n,
 * "items":[...]}}` with deterministic records, written directly as compact JSON text (no giant
 * object graph is built to stringify it).
 */
export function generatePayloadText(bytes: number): { text: string; items: number } {
  const parts: string[] = [];
  let size = 0;
  const statuses = ["active", "archived", "draft"];
  while (size < bytes) {
    const index = parts.length;
    const part = JSON.stringify({
      id: `item-${String(index).padStart(8, "0")}`,
      name: `Item number ${index}`,
      status: statuses[index % 3],
      score: (index * 37) % 1000,
      tags: [`group-${index % 7}`, `batch-${Math.floor(index / 100)}`],
      owner: { id: index % 97, name: `Owner ${index % 97}` },
      description: `Description of item ${index}. `.repeat(3),
    });
    parts.push(part);
    size += part.length + 1;
  }
  const text = `{"success":true,"data":{"total":${parts.length},"items":[${parts.join(",")}]}}`;
  return { text, items: parts.length };
}

/** The plain first page of a generated payload's items (the cold query of the benchmark). */
export function firstPageRequest(artifactId: string) {
  return { artifactId, responsePath: "/data/items", pageSize: 20 };
}

/** The filtered and projected page of a generated payload's items (the warm query). */
export function filteredPageRequest(artifactId: string) {
  return {
    artifactId,
    responsePath: "/data/items",
    filters: [
      { path: "/status", value: "draft" },
      { path: "/score", op: "gte", value: 500 },
    ],
    fields: ["id", "name", "score"],
    pageSize: 20,
  };
}
