const MEBIBYTE = 1024 * 1024;
const PADDING = "x".repeat(960);

/**
 * Deterministic JSON text of at least `mebibytes` MiB: `{"items":[{id, name, padding}, ...]}`.
 * The fixture server and the tests build the same text, so a test can compare it whole.
 * @param {number} mebibytes
 * @returns {string}
 */
export function createPayloadText(mebibytes) {
  const target = Math.ceil(mebibytes * MEBIBYTE);
  const items = [];
  let length = 12;
  for (let index = 0; length < target; index += 1) {
    const item = `{"id":${index},"name":"item-${index}","padding":"${PADDING}"}`;
    items.push(item);
    length += item.length + 1;
  }
  return `{"items":[${items.join(",")}]}`;
}
