// Deterministic n8n-like documents for the benchmark: the same size gives the same bytes.

const NODE_TYPES = [
  "n8n-nodes-base.httpRequest",
  "n8n-nodes-base.code",
  "n8n-nodes-base.set",
  "n8n-nodes-base.if",
  "n8n-nodes-base.slack",
] as const;

/** A small seeded PRNG (mulberry32), so documents are reproducible run to run. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function words(random: () => number, count: number): string {
  const vocabulary = ["item", "json", "value", "return", "const", "data", "user", "order", "map"];
  const output: string[] = [];
  for (let index = 0; index < count; index++) {
    output.push(vocabulary[Math.floor(random() * vocabulary.length)]!);
  }
  return output.join(" ");
}

function parametersFor(type: string, index: number, random: () => number): unknown {
  switch (type) {
    case "n8n-nodes-base.httpRequest":
      return {
        method: index % 2 === 0 ? "GET" : "POST",
        url: `https://api.example.com/v1/resource/${index}`,
        options: {
          timeout: 10_000 + index,
          headers: {
            parameters: [
              { name: "Accept", value: "application/json" },
              { name: "X-Request", value: `req-${index}` },
            ],
          },
        },
      };
    case "n8n-nodes-base.code":
      return { mode: "runOnceForAllItems", jsCode: words(random, 40 + Math.floor(random() * 80)) };
    case "n8n-nodes-base.set":
      return {
        assignments: {
          assignments: Array.from({ length: 3 }, (_, position) => ({
            id: `assign-${index}-${position}`,
            name: `field${position}`,
            value: words(random, 4),
            type: "string",
          })),
        },
      };
    case "n8n-nodes-base.if":
      return {
        conditions: {
          combinator: "and",
          conditions: [
            {
              leftValue: "={{ $json.total }}",
              rightValue: index,
              operator: { type: "number", operation: "gt" },
            },
          ],
        },
      };
    default:
      return { channel: `#channel-${index % 17}`, text: words(random, 12), otherOptions: {} };
  }
}

/** One n8n-like node: {id, name, type, typeVersion, position, parameters, disabled}. */
export function createNode(index: number, random: () => number) {
  const type = NODE_TYPES[index % NODE_TYPES.length]!;
  return {
    id: `${index.toString(16).padStart(8, "0")}-4b1d-4c8e-9f00-${(index * 7919).toString(16).padStart(12, "0")}`,
    name: `Node ${index}`,
    type,
    typeVersion: 1 + (index % 4),
    position: [(index % 40) * 220, Math.floor(index / 40) * 180],
    parameters: parametersFor(type, index, random),
    disabled: index % 10 === 0,
  };
}

const TAGS = ["ai", "crm", "sales", "ops", "marketing", "finance", "dev", "support"] as const;

/** A node with `tags`: 0 to 3 strings, for the aggregate-with-unwind case. */
function withTags(node: ReturnType<typeof createNode>, index: number, random: () => number) {
  const count = index % 4;
  const tags = Array.from({ length: count }, () => TAGS[Math.floor(random() * TAGS.length)]!);
  return { ...node, tags };
}

/**
 * The JSON text of an array of nodes of about targetBytes, and the same nodes keyed by name.
 * With `tags`, every node also has a `tags` array of strings (a different document: the v3
 * cases keep measuring the same bytes as before).
 */
export function generateDocuments(
  targetBytes: number,
  options: { tags?: boolean } = {},
): { arrayText: string; keyedText: string } {
  const random = createRandom(targetBytes);
  const nodes: ReturnType<typeof createNode>[] = [];
  let bytes = 2;
  while (bytes < targetBytes) {
    const plain = createNode(nodes.length, random);
    const node = options.tags === true ? withTags(plain, nodes.length, random) : plain;
    bytes += JSON.stringify(node).length + 1;
    nodes.push(node);
  }
  const keyed = Object.fromEntries(nodes.map((node) => [node.name, node]));
  return { arrayText: JSON.stringify(nodes), keyedText: JSON.stringify(keyed) };
}
