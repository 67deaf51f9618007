import fc from "fast-check";

/**
 * Random JSON documents for the adapter fuzz tests: trees of unicode keys and leaves, deep
 * chains, wide objects and arrays, big strings, keyed objects and arrays of objects. Keys include
 * `__proto__`, pointer syntax (`/`, `~`) and the preview's marker names, set as own properties so
 * JSON.stringify writes them. Sizes stay modest (most documents are a few KiB to a few hundred
 * KiB) so thousands of cases run in seconds; `bigString` reaches past artifactMaxBytes of the rig.
 */

/** Sets `key` as an own enumerable property, `__proto__` included (plain assignment would not). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** An object with the given entries as own properties; a later duplicate key wins, as in JSON. */
export function objectOf(
  entries: readonly (readonly [string, unknown])[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) setOwn(out, key, value);
  return out;
}

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));

/** Keys that have tripped JSON code elsewhere: prototype names, pointer syntax, marker names. */
export const TRICKY_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "",
  "/",
  "~",
  "~0",
  "~1",
  "a/b",
  "a~b",
  "0",
  "-1",
  "length",
  "_omittedItems",
  "_omittedKeys",
  "...",
  "…",
  "$",
  "*",
  "key with spaces",
  "ключ",
  "键",
  "🔑",
] as const;

/** A document key: ascii, grapheme, any code point, a lone surrogate, or a tricky one. */
export const documentKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: loneSurrogate, minLength: 1, maxLength: 2 }) },
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY_KEYS) },
);

/** Strings that look like other JSON values or numbers. */
export const LOOKALIKE_STRINGS = [
  "NaN",
  "-NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "1e309",
  "0x10",
  "null",
  "true",
  "undefined",
  "{}",
  "[]",
  "",
  " ",
  "\u0000",
  "\u2028\u2029",
  '"',
  "\\",
] as const;

const repeatedString = fc
  .tuple(
    fc.constantFrom("x", "é", "€", "😀", "ab ", "\n", "\u0000"),
    fc.integer({ min: 50, max: 3_000 }),
  )
  .map(([unit, count]) => unit.repeat(count));

/** A leaf value: strings of every kind, numbers at the edges, booleans, null. */
export const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: loneSurrogate, maxLength: 3 }) },
  { weight: 1, arbitrary: repeatedString },
  { weight: 2, arbitrary: fc.constantFrom(...LOOKALIKE_STRINGS) },
  { weight: 4, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Number.MAX_SAFE_INTEGER + 2,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      1e21,
      -0,
      0.1 + 0.2,
    ),
  },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constant(null) },
);

/** Entries of an object with keys from `key` and values from `value`. */
function objectArbitrary(
  value: fc.Arbitrary<unknown>,
  options: { minKeys?: number; maxKeys: number; key?: fc.Arbitrary<string> },
): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .array(fc.tuple(options.key ?? documentKey, value), {
      minLength: options.minKeys ?? 0,
      maxLength: options.maxKeys,
    })
    .map(objectOf);
}

/** A random tree of objects and arrays, a few levels deep. */
export const tree: fc.Arbitrary<unknown> = fc.letrec<{
  value: unknown;
  array: unknown[];
  object: Record<string, unknown>;
}>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 6 }),
  object: objectArbitrary(tie("value"), { maxKeys: 6 }),
})).value;

/** A chain `depth` levels deep (arrays and objects alternating by `pattern`) around `bottom`. */
export const deepChain: fc.Arbitrary<unknown> = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 20, max: 200 }), fc.integer({ min: 200, max: 1_500 })),
    pattern: fc.constantFrom("arrays", "objects", "mixed"),
    key: documentKey,
    bottom: tree,
  })
  .map(({ depth, pattern, key, bottom }) => {
    let value: unknown = bottom;
    for (let level = 0; level < depth; level += 1) {
      const asArray = pattern === "arrays" || (pattern === "mixed" && level % 2 === 0);
      value = asArray
        ? [value, level]
        : objectOf([
            [key, value],
            ["level", level],
          ]);
    }
    return { deep: value };
  });

/** Records that share most keys, as API list results do. */
export const record: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      id: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.string({ maxLength: 8 })),
      name: fc.string({ unit: "grapheme", maxLength: 16 }),
      status: fc.constantFrom("active", "archived", "draft", null),
      score: fc.oneof(
        fc.integer({ min: -100, max: 1_000 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      ),
      tags: fc.array(fc.constantFrom("a", "b", "ü", "__proto__", ""), { maxLength: 4 }),
      nested: fc.oneof(leaf, objectArbitrary(leaf, { maxKeys: 3 })),
      extra: objectArbitrary(leaf, { maxKeys: 2 }),
    },
    { requiredKeys: ["id"] },
  )
  .map((value) => objectOf(Object.entries(value)));

/** `{items: [...]}` (or a bare array, or under data) of 0 to 150 records. */
export const arrayOfObjects: fc.Arbitrary<unknown> = fc
  .tuple(fc.array(record, { maxLength: 150 }), fc.constantFrom("items", "bare", "data"))
  .map(([items, wrap]) =>
    wrap === "bare" ? items : wrap === "items" ? { items } : { success: true, data: { items } },
  );

/** A keyed object: `{byId: {<key>: record}}` with up to 400 keys. */
export const keyedObject: fc.Arbitrary<unknown> = fc
  .array(fc.tuple(fc.oneof(documentKey, fc.uuid()), record), { maxLength: 400 })
  .map((entries) => ({ byId: objectOf(entries), count: entries.length }));

/** A wide object (leaves under up to 1,000 keys) or a wide array of leaves. */
export const wide: fc.Arbitrary<unknown> = fc.oneof(
  fc.array(fc.tuple(documentKey, leaf), { minLength: 100, maxLength: 1_000 }).map(objectOf),
  fc.array(leaf, { minLength: 100, maxLength: 1_200 }).map((values) => ({ values })),
);

/** One big string (up to about 600 KiB of UTF-8), alone or beside a little structure. */
export const bigString: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.constantFrom("x", "é", "€", "😀", "line\n", '\\"', "\u0000"),
    fc.oneof(fc.integer({ min: 1_000, max: 20_000 }), fc.integer({ min: 20_000, max: 150_000 })),
    fc.string({ maxLength: 20 }),
  )
  .map(([unit, count, needle]) => ({ text: `${needle}${unit.repeat(count)}${needle}`, needle }));

/** Any document of the shapes above. */
export const document: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: tree },
  { weight: 4, arbitrary: arrayOfObjects },
  { weight: 2, arbitrary: keyedObject },
  { weight: 2, arbitrary: wide },
  { weight: 1, arbitrary: deepChain },
  { weight: 1, arbitrary: bigString },
);

/** How the upstream tool returns a document: text JSON, structuredContent, plain text. */
export type ResultForm = "text" | "indented" | "structured" | "plain" | "error";

/** The forms of a tool result, chosen per case. */
export const resultForm: fc.Arbitrary<ResultForm> = fc.constantFrom(
  "text",
  "text",
  "indented",
  "structured",
  "plain",
  "error",
);

/**
 * `document`, or the document beside a padding array when its JSON is under `minBytes`, so most
 * cases are stored (oversized) and some still pass through inline (`keepSmall`).
 */
export function sized(documentValue: unknown, minBytes: number, keepSmall: boolean): unknown {
  const bytes = Buffer.byteLength(JSON.stringify(documentValue) ?? "null");
  if (keepSmall || bytes > minBytes) return documentValue;
  const count = Math.ceil((minBytes - bytes) / 40) + 1;
  return {
    document: documentValue,
    padding: Array.from({ length: count }, (_, index) => ({ index, note: "padding padding" })),
  };
}
