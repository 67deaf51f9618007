import fc from "fast-check";

/**
 * Random JSON texts as an upstream may write them, for the rebuild property test: keys such as
 * `__proto__`, `constructor`, `""`, `a/b`, `~0` and integer-like ones, repeated keys; strings with
 * astral characters, combining marks, quotes, control characters, marker-like text and lone
 * surrogates (written raw or as `\uXXXX` escapes); number literals in several spellings; random
 * whitespace between tokens; and optionally a thin chain nested 1,500 to 2,200 levels deep.
 */
export interface JsonTextOptions {
  /**
   * Also write inexact number literals (`12345678901234567890`, `1e400`, `-0`,
   * `0.30000000000000000001`, SPEC.md §10). Off by default; a test that turns it on must compare
   * numbers by their literal (parseJsonExact, stringifyExact), not by the parsed double.
   */
  inexactLiterals?: boolean;
  /** Rows of the table that makes the text larger than the inline budget; default 150..300. */
  rows?: { min: number; max: number };
  /** Levels of the deep chain when one is made; default 1500..2200 (see jsonTexts). */
  chainDepth?: { min: number; max: number };
}

/** One generated text and what it was built from. */
export interface JsonTextCase {
  text: string;
  /** Levels of the deep chain in it (0: none). */
  chainDepth: number;
}

/** A case as fast-check prints a counterexample: its size and start, not 100 KiB of text (the seed reproduces it). */
function printable(kase: JsonTextCase): JsonTextCase {
  return Object.assign(kase, {
    [fc.toStringMethod]: () =>
      `${Buffer.byteLength(kase.text)} bytes, chain ${kase.chainDepth}: ${JSON.stringify(kase.text.slice(0, 120))}…`,
  });
}

/** A value as text-to-be: its JSON written by `write` with the case's whitespace. */
type Node =
  | { kind: "literal"; text: string }
  | { kind: "array"; items: Node[] }
  | { kind: "object"; entries: [string, Node][] };

const PIECES = [
  "a",
  "row",
  "Zoë",
  "e\u0301",
  "😀",
  "𝄞",
  "\ud800",
  "\udfff",
  "\udbff\udc00",
  '"',
  "\\",
  "\n",
  "\u0000",
  "\u2028",
  "/",
  "~1",
  " ",
  "…[12 chars total]",
  "_omittedItems",
];

const KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "",
  "a/b",
  "~0",
  "~1/",
  "0",
  "10",
  "id",
  "é",
  "e\u0301",
  "😀",
  "\ud800",
  "_omittedKeys",
  "lines",
];

const WHITESPACE = ["", "", "", " ", "\n", "\t", "\r\n  ", "  "];

/** A JSON string literal of `value`, each lone surrogate escaped or (when `raw`) written as is. */
function stringLiteral(value: string, raw: boolean): string {
  const escaped = JSON.stringify(value);
  if (!raw) return escaped;
  // JSON.stringify escapes exactly the lone surrogates (as \udXXX); the pattern consumes every
  // escape pair, so `\\ud800` (a backslash, then text) is never taken for one.
  return escaped.replace(/\\(?:u(d[89a-f][0-9a-f]{2})|.)/g, (pair, unit: string | undefined) =>
    unit === undefined ? pair : String.fromCharCode(Number.parseInt(unit, 16)),
  );
}

const text = fc
  .tuple(fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }), fc.boolean())
  .map(([pieces, raw]): Node => ({ kind: "literal", text: stringLiteral(pieces.join(""), raw) }));

const key = fc.oneof(
  fc.constantFrom(...KEYS),
  fc
    .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.join("")),
);

/** Spellings of one exact value: `1.5`, `1.50`, `15e-1`, `1.5E0` (SPEC.md §10: all exact). */
function exactSpellings(value: number): string[] {
  const plain = String(value);
  const spellings = [plain];
  if (!/[eE]/.test(plain)) {
    spellings.push(plain.includes(".") ? `${plain}0` : `${plain}.0`, `${plain}E0`, `${plain}e+0`);
  }
  return spellings;
}

const exactNumber = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: -1000, max: 1000 }),
      fc.maxSafeInteger(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Object.is(value, -0)),
      fc.constantFrom(0.1, 1.5, -2.25, 1e21, 5e-324, 1.7976931348623157e308),
    ),
    fc.nat(),
  )
  .map(([value, pick]): Node => {
    const spellings = exactSpellings(value);
    return { kind: "literal", text: spellings[pick % spellings.length] as string };
  });

const INEXACT = [
  "12345678901234567890",
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "0.30000000000000000001",
];

function leafOf(options: JsonTextOptions) {
  const literals = [
    fc.constantFrom<Node>(
      { kind: "literal", text: "null" },
      { kind: "literal", text: "true" },
      { kind: "literal", text: "false" },
    ),
    exactNumber,
    text,
  ];
  if (options.inexactLiterals === true) {
    literals.push(
      fc.constantFrom(...INEXACT).map((literal): Node => ({ kind: "literal", text: literal })),
    );
  }
  return fc.oneof(...literals);
}

function treeOf(options: JsonTextOptions) {
  const leaf = leafOf(options);
  return fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", maxDepth: 5 },
      leaf,
      fc.array(tie("node"), { maxLength: 6 }).map((items): Node => ({ kind: "array", items })),
      fc
        .array(fc.tuple(key, tie("node")), { maxLength: 6 })
        .map((entries): Node => ({ kind: "object", entries })),
    ),
  })).node;
}

/** The text of a thin chain `depth` levels deep: `[` or `{"d":` per level (bits), then a leaf. */
function chainText(depth: number, bits: number[], leaf: string): string {
  let open = "";
  let close = "";
  for (let level = 0; level < depth; level += 1) {
    const object = ((bits[level % bits.length] as number) >> (level % 7)) % 4 === 0;
    open += object ? '{"d":' : "[";
    close = (object ? "}" : "]") + close;
  }
  return open + leaf + close;
}

/** Writes `node` with whitespace taken in turn from `spaces`. */
function write(node: Node, spaces: string[]): string {
  let turn = 0;
  const space = () => spaces[turn++ % spaces.length] as string;
  const go = (current: Node): string => {
    if (current.kind === "literal") return current.text;
    if (current.kind === "array") {
      return `[${current.items.map((item) => space() + go(item) + space()).join(",")}]`;
    }
    const members = current.entries.map(
      ([name, value]) =>
        `${space()}${stringLiteral(name, turn % 2 === 0)}${space()}:${space()}${go(value)}`,
    );
    return `{${members.join(",")}${space()}}`;
  };
  return go(node);
}

/**
 * Random JSON texts (see JsonTextOptions): an object or an array at the root holding a table of
 * rows (so the text is larger than a small inline budget), random trees, and in about half the
 * cases a deep chain under the key `deep`.
 */
export function jsonTexts(options: JsonTextOptions = {}): fc.Arbitrary<JsonTextCase> {
  const tree = treeOf(options);
  const rows = options.rows ?? { min: 150, max: 300 };
  // A chain of objects is 6 bytes a level (`{"d":` and `}`): at most 2,200 levels keep it within
  // the rebuild test's 16 KiB page beside its metadata, so it is answered whole. A deeper one is
  // compacted, and reading it again needs a pointer over maxPathChars (500), which no query can
  // send (at up to 3,000 levels this failed now and then).
  const chain = options.chainDepth ?? { min: 1500, max: 2200 };
  const row = fc.tuple(fc.nat({ max: 100_000 }), text, tree).map(
    ([id, name, extra]): Node => ({
      kind: "object",
      entries: [
        ["id", { kind: "literal", text: String(id) }],
        ["name", name],
        ["extra", extra],
      ],
    }),
  );
  return fc
    .record({
      arrayRoot: fc.boolean(),
      table: fc.array(row, { minLength: rows.min, maxLength: rows.max }),
      trees: fc.array(fc.tuple(key, tree), { maxLength: 6 }),
      chain: fc.option(
        fc.record({
          depth: fc.integer(chain),
          bits: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
          leaf: leafOf(options),
        }),
      ),
      spaces: fc.array(fc.constantFrom(...WHITESPACE), { minLength: 1, maxLength: 12 }),
    })
    .map(({ arrayRoot, table, trees, chain: deep, spaces }): JsonTextCase => {
      const chainLiteral =
        deep === null ? undefined : chainText(deep.depth, deep.bits, write(deep.leaf, spaces));
      const parts: [string, Node][] = [["rows", { kind: "array", items: table }], ...trees];
      if (chainLiteral !== undefined) parts.push(["deep", { kind: "literal", text: chainLiteral }]);
      const root: Node = arrayRoot
        ? { kind: "array", items: parts.map(([, value]) => value) }
        : { kind: "object", entries: parts };
      return printable({ text: write(root, spaces), chainDepth: deep?.depth ?? 0 });
    });
}

/**
 * Random texts that are not JSON (stored as text/plain, queried as `{"lines": [...]}`): lines of
 * the same pieces, lone surrogates among them, larger than a small inline budget.
 */
export function plainTexts(lines = { min: 1000, max: 1600 }): fc.Arbitrary<JsonTextCase> {
  const line = fc
    .array(fc.constantFrom(...PIECES.filter((piece) => piece !== "\n")), { maxLength: 10 })
    .map((pieces) => `line ${pieces.join("")}`);
  return fc
    .array(line, { minLength: lines.min, maxLength: lines.max })
    .map((all) => printable({ text: all.join("\n"), chainDepth: 0 }));
}
