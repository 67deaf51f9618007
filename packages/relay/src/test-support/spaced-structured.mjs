// Shared by raw-result-server.mjs and the tests that check what it stored.

/**
 * structuredContent as an upstream may write it: spaced oddly, `1.50` and `1.50e0` for 1.5, an
 * escaped key, a number a double cannot hold (`big`), over the default inlineBytes (so it is
 * bounded). One line: tabs, never a newline.
 */
export const SPACED_STRUCTURED = `{ "rows" :\t[ ${Array.from(
  { length: 600 },
  (_, index) =>
    `{"id": ${index} , "price" :1.50,"caf\\u00e9":"row ${index} ${"y".repeat(40)} {[\\"]}"}`,
).join(" ,  ")} ] , "total":  1.50e0 , "big" : 12345678901234567890 }`;
