import type { Json } from "../model.js";
import { distinct, type Question, type Source, sorted } from "../question.js";
import { mostBy } from "./n8n.js";

/** server-filesystem reads of the generated files (paths relative to the served folder). */
export function fileSources(dir: string): Source[] {
  return ["catalog.json", "accounts.json", "orders.json"].map((name) => ({
    id: name.replace(".json", ""),
    server: "files" as const,
    tool: "read_text_file",
    arguments: { path: `${dir}/${name}` },
    label: `read_text_file ${name}`,
  }));
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Questions over the generated catalog (array), accounts (keyed object) and orders. */
export const FILE_QUESTIONS: Question[] = [
  {
    id: "catalog-tools",
    source: "catalog",
    text: "How many products are in the tools category?",
    truth: (raw) => raw.products.filter((product: Json) => product.category === "tools").length,
    answer: (model) =>
      model.count({
        responsePath: "/products",
        filters: [{ path: "/category", value: "tools" }],
        fields: ["sku"],
      }),
  },
  {
    id: "catalog-price",
    source: "catalog",
    text: "What does SKU-004217 cost?",
    truth: (raw) => raw.products.find((product: Json) => product.sku === "SKU-004217").price,
    async answer(model) {
      const page = await model.query({
        responsePath: "/products",
        filters: [{ path: "/sku", value: "SKU-004217" }],
        fields: ["price"],
      });
      return page.response[0].price;
    },
  },
  {
    id: "catalog-out-of-stock",
    source: "catalog",
    text: "How many products are out of stock?",
    truth: (raw) => raw.products.filter((product: Json) => product.stock === 0).length,
    answer: (model) =>
      model.count({
        responsePath: "/products",
        filters: [{ path: "/stock", value: 0 }],
        fields: ["sku"],
      }),
  },
  {
    id: "catalog-clearance",
    source: "catalog",
    text: "How many products are tagged clearance?",
    truth: (raw) =>
      raw.products.filter((product: Json) => product.tags.includes("clearance")).length,
    answer: (model) =>
      model.count({
        responsePath: "/products",
        filters: [{ path: "/tags", op: "contains", value: "clearance" }],
        fields: ["sku"],
      }),
  },
  {
    id: "catalog-german-suppliers",
    source: "catalog",
    text: "Which suppliers based in Germany (DE) supply the catalog (names)?",
    truth: (raw) =>
      sorted(
        distinct(
          raw.products
            .filter((product: Json) => product.supplier.country === "DE")
            .map((product: Json) => product.supplier.name),
        ),
      ),
    async answer(model) {
      const items = await model.queryAll({
        responsePath: "/products",
        filters: [{ path: "/supplier/country", value: "DE" }],
        fields: ["/supplier/name"],
      });
      return sorted(distinct(items.map((item) => item["/supplier/name"])));
    },
  },
  {
    id: "catalog-most-rated-audio",
    source: "catalog",
    text: "Which audio product has the most ratings (its SKU)?",
    truth: (raw) =>
      mostBy(
        raw.products
          .filter((product: Json) => product.category === "audio")
          .map((product: Json) => ({ sku: product.sku, count: product.ratings.count })),
        "count",
      ).sku,
    async answer(model) {
      const items = await model.queryAll({
        responsePath: "/products",
        filters: [{ path: "/category", value: "audio" }],
        fields: ["sku", "/ratings/count"],
      });
      return mostBy(
        items.map((item) => ({ sku: item.sku, count: item["/ratings/count"] })),
        "count",
      ).sku;
    },
  },
  {
    id: "accounts-enterprise",
    source: "accounts",
    text: "How many accounts are on the enterprise plan?",
    truth: (raw) =>
      Object.values(raw).filter((account: Json) => account.plan === "enterprise").length,
    answer: (model) =>
      model.count({
        objectMode: "entries",
        filters: [{ path: "/value/plan", value: "enterprise" }],
        fields: ["/key"],
      }),
  },
  {
    id: "accounts-owner-email",
    source: "accounts",
    text: "What is the owner's email of acct_10042?",
    truth: (raw) => raw.acct_10042.owner.email,
    async answer(model) {
      const page = await model.query({ responsePath: "/acct_10042/owner/email" });
      return page.response;
    },
  },
  {
    id: "accounts-big-eu",
    source: "accounts",
    text: "Which EU accounts have more than 700 seats (ids)?",
    truth: (raw) =>
      Object.entries(raw)
        .filter(([, account]: [string, Json]) => account.region === "eu" && account.seats > 700)
        .map(([id]) => id),
    async answer(model) {
      const items = await model.queryAll({
        objectMode: "entries",
        filters: [
          { path: "/value/region", value: "eu" },
          { path: "/value/seats", op: "gt", value: 700 },
        ],
        fields: ["/key"],
      });
      return items.map((item) => item["/key"]);
    },
  },
  {
    id: "orders-refunded",
    source: "orders",
    text: "How many orders were refunded?",
    truth: (raw) => raw.orders.filter((order: Json) => order.status === "refunded").length,
    answer: (model) =>
      model.count({
        responsePath: "/orders",
        filters: [{ path: "/status", value: "refunded" }],
        fields: ["id"],
      }),
  },
  {
    id: "orders-revenue-day",
    source: "orders",
    text: "What is the total of the orders placed on 2026-03-15?",
    truth: (raw) =>
      round2(
        raw.orders
          .filter((order: Json) => order.placedAt.startsWith("2026-03-15"))
          .reduce((sum: number, order: Json) => sum + order.total, 0),
      ),
    async answer(model) {
      const items = await model.queryAll({
        responsePath: "/orders",
        filters: [
          { path: "/placedAt", op: "gte", value: "2026-03-15" },
          { path: "/placedAt", op: "lt", value: "2026-03-16" },
        ],
        fields: ["total"],
      });
      return round2(items.reduce((sum, item) => sum + item.total, 0));
    },
  },
  {
    id: "orders-with-sku",
    source: "orders",
    text: "Which orders contain SKU-000123 (ids)?",
    truth: (raw) =>
      raw.orders
        .filter((order: Json) => order.lines.some((line: Json) => line.sku === "SKU-000123"))
        .map((order: Json) => order.id),
    async answer(model) {
      const matches = await model.queryAll({ textSearch: { query: "SKU-000123" } });
      const indexes = distinct(matches.map((match) => Number(match.pointer.split("/")[2])));
      const ids: string[] = [];
      for (const index of indexes) {
        const page = await model.query({ responsePath: `/orders/${index}/id` });
        ids.push(page.response);
      }
      return ids;
    },
  },
];
