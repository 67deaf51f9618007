/** What README.md's examples take as given: the items a tool of the reader's server loads. */
import { itemsPayload } from "./fixtures.js";

const items = itemsPayload(2_000).data.items;

/** The reader's own data source in the README examples: 2,000 fixture items. */
export async function loadItems() {
  return items;
}
