import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** mulberry32: a tiny deterministic generator, so every run writes the same bytes. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const CATEGORIES = ["tools", "garden", "kitchen", "office", "toys", "sports", "audio", "lighting"];
const COUNTRIES = ["DE", "FR", "US", "JP", "BR", "IN", "PL", "CA"];
const TAGS = ["new", "clearance", "eco", "bundle", "bestseller", "fragile", "imported"];
const PLANS = ["free", "team", "business", "enterprise"];
const REGIONS = ["eu", "us", "apac", "latam"];
const FEATURES = ["sso", "audit", "api", "exports", "sandbox", "priority-support", "scim"];
const STATUSES = ["placed", "paid", "shipped", "delivered", "refunded", "cancelled"];
const WORDS = "sturdy compact premium classic modular quiet bright smart portable durable".split(
  " ",
);

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

/** `catalog.json`: {generatedAt, currency, products: [6,000 products]} (about 3 MB). */
export function generateCatalog() {
  const random = generator(1);
  const suppliers = Array.from({ length: 120 }, (_, index) => ({
    id: `SUP-${String(index).padStart(3, "0")}`,
    name: `Supplier ${index} ${pick(random, WORDS)} works`,
    country: pick(random, COUNTRIES),
  }));
  const products = Array.from({ length: 6000 }, (_, index) => {
    const adjective = pick(random, WORDS);
    const category = pick(random, CATEGORIES);
    return {
      sku: `SKU-${String(index).padStart(6, "0")}`,
      name: `${adjective} ${category} item ${index}`,
      category,
      price: Math.round(random() * 50_000) / 100,
      stock: random() < 0.07 ? 0 : Math.floor(random() * 500),
      supplier: pick(random, suppliers),
      tags: TAGS.filter(() => random() < 0.18),
      ratings: {
        average: Math.round((1 + random() * 4) * 10) / 10,
        count: Math.floor(random() * 900),
      },
      description: `A ${adjective} ${category} product. ${"Built to last and easy to use. ".repeat(1 + Math.floor(random() * 4))}`,
    };
  });
  return { generatedAt: "2026-01-01T00:00:00.000Z", currency: "EUR", products };
}

/** `accounts.json`: an object keyed by account id (3,000 accounts), as many APIs return maps. */
export function generateAccounts() {
  const random = generator(2);
  const accounts: Record<string, unknown> = {};
  for (let index = 0; index < 3000; index++) {
    const id = `acct_${10_000 + index}`;
    accounts[id] = {
      name: `Account ${index} ${pick(random, WORDS)}`,
      plan: pick(random, PLANS),
      region: pick(random, REGIONS),
      seats: 1 + Math.floor(random() * 800),
      features: FEATURES.filter(() => random() < 0.35),
      owner: {
        email: `owner${index}@example.com`,
        since: `20${10 + Math.floor(random() * 16)}-01-01`,
      },
      notes: "Renewal discussed; see the CRM for the full history. ".repeat(
        1 + Math.floor(random() * 3),
      ),
    };
  }
  return accounts;
}

/** `orders.json`: {orders: [5,000 orders with their lines]}. */
export function generateOrders() {
  const random = generator(3);
  const orders = Array.from({ length: 5000 }, (_, index) => {
    const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
      const price = Math.round(random() * 20_000) / 100;
      return {
        sku: `SKU-${String(Math.floor(random() * 6000)).padStart(6, "0")}`,
        qty: 1 + Math.floor(random() * 5),
        price,
      };
    });
    const day = 1 + Math.floor(random() * 28);
    return {
      id: `ORD-${String(index).padStart(6, "0")}`,
      customer: `customer-${Math.floor(random() * 900)}`,
      status: pick(random, STATUSES),
      placedAt: `2026-03-${String(day).padStart(2, "0")}T${String(Math.floor(random() * 24)).padStart(2, "0")}:00:00.000Z`,
      total: Math.round(lines.reduce((sum, line) => sum + line.qty * line.price, 0) * 100) / 100,
      lines,
    };
  });
  return { orders };
}

/** The generated files by name. */
export const FILES = Object.freeze({
  "catalog.json": generateCatalog,
  "accounts.json": generateAccounts,
  "orders.json": generateOrders,
});

/** Writes every generated file (pretty-printed, as tools and people write JSON) into `dir`. */
export function writeFiles(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, generate] of Object.entries(FILES)) {
    writeFileSync(join(dir, name), `${JSON.stringify(generate(), null, 2)}\n`);
  }
}
