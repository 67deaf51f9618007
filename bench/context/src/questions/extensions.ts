import type { Json } from "../model.js";
import { type Question, sorted } from "../question.js";

/** Group sizes by value, largest first, ties by value: the order of aggregate rows. */
function rankedCounts(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort(([a, countA], [b, countB]) =>
    countB !== countA ? countB - countA : a < b ? -1 : a > b ? 1 : 0,
  );
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Questions that need the query tool's sort, aggregate, anyOf and measure (contract §9): each is
 * answered in one call where paging every item was the only way before.
 */
export const EXTENSION_QUESTIONS: Question[] = [
  {
    id: "templates-most-viewed-sorted",
    source: "templatesHttp",
    text: "Which three of these templates have the most views (ids)?",
    uses: ["sort"],
    truth: (raw) =>
      [...raw.items]
        .sort((a: Json, b: Json) => b.views - a.views)
        .slice(0, 3)
        .map((item: Json) => item.id),
    async answer(model) {
      const page = await model.query({
        sort: [{ path: "/views", order: "desc" }],
        fields: ["id"],
        pageSize: 3,
      });
      return page.response.map((item: Json) => item.id);
    },
  },
  {
    id: "templates-most-common-node",
    source: "templatesHttp",
    text: "Which node type do most of these templates use, and how many use it?",
    uses: ["aggregate"],
    truth: (raw) => {
      const [type, count] = rankedCounts(
        raw.items.flatMap((item: Json) => [...new Set(item.nodes as string[])]),
      )[0] as [string, number];
      return { type, count };
    },
    async answer(model) {
      const page = await model.query({
        aggregate: { groupBy: "/nodes", unwind: true },
        pageSize: 1,
      });
      const [row] = page.response;
      return { type: row["/nodes"], count: row.count };
    },
  },
  {
    id: "salesforce-property-types",
    source: "salesforce",
    text: "Which property types does the Salesforce node use, and how many of each?",
    uses: ["aggregate"],
    truth: (raw) =>
      Object.fromEntries(rankedCounts(raw.properties.map((property: Json) => property.type))),
    async answer(model) {
      const rows = await model.queryAll({ aggregate: { groupBy: "/type" } });
      return Object.fromEntries(rows.map((row) => [row["/type"], row.count]));
    },
  },
  {
    id: "notion-most-options",
    source: "notion",
    text: "Which Notion property offers the most options?",
    uses: ["sort", "measure"],
    truth: (raw) => {
      let best: Json;
      for (const property of raw.properties) {
        const count = Array.isArray(property.options) ? property.options.length : -1;
        if (best === undefined || count > best.count) best = { name: property.name, count };
      }
      return best.name;
    },
    async answer(model) {
      const page = await model.query({
        sort: [{ path: "/options", measure: "length", order: "desc" }],
        fields: ["name"],
        pageSize: 1,
      });
      return page.response[0].name;
    },
  },
  {
    id: "google-triggers-or-sheets",
    source: "nodesGoogle",
    text: "How many of the Google nodes found are triggers or about Sheets?",
    uses: ["anyOf"],
    truth: (raw) =>
      raw.results.filter(
        (node: Json) =>
          node.category === "trigger" || node.displayName.toLowerCase().includes("sheets"),
      ).length,
    answer: (model) =>
      model.count({
        responsePath: "/results",
        filters: [
          {
            anyOf: [
              { path: "/category", value: "trigger" },
              { path: "/displayName", op: "icontains", value: "sheets" },
            ],
          },
        ],
        fields: ["workflowNodeType"],
      }),
  },
  {
    id: "catalog-distinct-suppliers",
    source: "catalog",
    text: "How many distinct suppliers does the catalog have?",
    uses: ["aggregate"],
    truth: (raw) => new Set(raw.products.map((product: Json) => product.supplier.id)).size,
    async answer(model) {
      const page = await model.query({
        responsePath: "/products",
        aggregate: { metrics: [{ op: "countDistinct", path: "/supplier/id" }] },
      });
      return page.response[0]["countDistinct(/supplier/id)"];
    },
  },
  {
    id: "catalog-german-suppliers-grouped",
    source: "catalog",
    text: "Which suppliers based in Germany (DE) supply the catalog (names), in one call?",
    uses: ["aggregate"],
    truth: (raw) =>
      sorted([
        ...new Set<string>(
          raw.products
            .filter((product: Json) => product.supplier.country === "DE")
            .map((product: Json) => product.supplier.name),
        ),
      ]),
    async answer(model) {
      const rows = await model.queryAll({
        responsePath: "/products",
        filters: [{ path: "/supplier/country", value: "DE" }],
        aggregate: { groupBy: "/supplier/name" },
      });
      return sorted(rows.map((row) => row["/supplier/name"]));
    },
  },
  {
    id: "orders-revenue-by-status",
    source: "orders",
    text: "What is the order total per status?",
    uses: ["aggregate"],
    truth: (raw) => {
      const sums = new Map<string, number>();
      for (const order of raw.orders) {
        sums.set(order.status, (sums.get(order.status) ?? 0) + order.total);
      }
      return Object.fromEntries([...sums].map(([status, sum]) => [status, round2(sum)]));
    },
    async answer(model) {
      const rows = await model.queryAll({
        responsePath: "/orders",
        aggregate: { groupBy: "/status", metrics: [{ op: "sum", path: "/total" }] },
      });
      return Object.fromEntries(rows.map((row) => [row["/status"], round2(row["sum(/total)"])]));
    },
  },
  {
    id: "accounts-seats-by-plan",
    source: "accounts",
    text: "Which plan has the most seats in all, and how many?",
    uses: ["aggregate", "sort"],
    truth: (raw) => {
      const seats = new Map<string, number>();
      for (const account of Object.values(raw) as Json[]) {
        seats.set(account.plan, (seats.get(account.plan) ?? 0) + account.seats);
      }
      const [plan, total] = [...seats].sort(([, a], [, b]) => b - a)[0] as [string, number];
      return { plan, total };
    },
    async answer(model) {
      const page = await model.query({
        objectMode: "entries",
        aggregate: { groupBy: "/value/plan", metrics: [{ op: "sum", path: "/value/seats" }] },
        sort: [{ path: "sum(/value/seats)", order: "desc" }],
        pageSize: 1,
      });
      const [row] = page.response;
      return { plan: row["/value/plan"], total: row["sum(/value/seats)"] };
    },
  },
];
