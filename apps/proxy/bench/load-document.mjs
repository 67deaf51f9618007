// The document of the HTTP load benchmark (http-load.ts): `{"rows":[...]}`, a node array of about
// N MiB whose rows have a group, a score and strings, so filters select a few percent of it. Both
// the upstream (load-upstream.mjs) and the in-process engine baseline build it from here, so they
// query the same bytes.

/** The JSON text of a document of about `mebibytes` MiB. */
export function loadDocumentText(mebibytes) {
  const rows = [];
  let length = 0;
  for (let index = 0; length < mebibytes * 1024 * 1024; index += 1) {
    const n = (index * 2_654_435_761) >>> 0;
    const text = JSON.stringify({
      id: index,
      name: `item-${index}`,
      group: `g-${n % 16}`,
      score: n % 1_000,
      tags: [`t-${n % 5}`, `t-${index % 7}`],
      note: `row ${index} ${"lorem ipsum ".repeat(4 + (n % 8))}`,
    });
    rows.push(text);
    length += text.length + 1;
  }
  return `{"rows":[${rows.join(",")}]}`;
}

/**
 * The filtered queries the clients and the engine cycle through: two filters and three fields
 * each, over one of 16 groups (about 6% of the rows match a group, half of those the score).
 */
export function loadQueries(artifactId) {
  return Array.from({ length: 16 }, (_, group) => ({
    artifactId,
    responsePath: "/rows",
    filters: [
      { path: "group", op: "eq", value: `g-${group}` },
      { path: "score", op: "gte", value: 500 },
    ],
    fields: ["id", "name", "score"],
    pageSize: 20,
  }));
}
