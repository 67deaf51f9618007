import { describe, expect, it } from "vitest";
import { structuredContentText } from "./structured-content-span.js";

/** A response line with `structured` (text) as result.structuredContent, members in `order`. */
function line(structured: string, order: "id-last" | "id-first" = "id-last"): string {
  const result = `{"content":[{"type":"text","text":"a } ] { [ \\" \\\\"}],"structuredContent":${structured},"isError":false}`;
  return order === "id-last"
    ? `{"result":${result},"jsonrpc":"2.0","id":7}`
    : `{"jsonrpc":"2.0","id":"x\\"y","result":${result}}`;
}

/** A small deterministic generator (no Math.random, so a failure repeats). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SPACES = ["", " ", "\t", "  ", "\r\n", " \n\t"];
const LEAVES = [
  "1.50",
  "-0",
  "1e400",
  "12345678901234567890",
  "true",
  "null",
  '"x\\"}]"',
  '"\\\\"',
  '"\\u00e9\\ud800"',
  '"{"',
];

/** Random JSON text with random whitespace between every token, nested up to `depth`. */
function randomJson(random: () => number, depth: number): string {
  const space = () => SPACES[Math.floor(random() * SPACES.length)] as string;
  const pick = random();
  if (depth === 0 || pick < 0.3) return LEAVES[Math.floor(random() * LEAVES.length)] as string;
  const count = Math.floor(random() * 4);
  const items = Array.from({ length: count }, (_, index) =>
    pick < 0.65
      ? `${space()}${randomJson(random, depth - 1)}${space()}`
      : `${space()}"k${index}\\"}"${space()}:${space()}${randomJson(random, depth - 1)}${space()}`,
  );
  return pick < 0.65 ? `[${items.join(",")}${space()}]` : `{${items.join(",")}${space()}}`;
}

describe("structuredContentText", () => {
  it("returns structuredContent exactly as written, whatever the spacing, literals and escapes", () => {
    const random = lcg(15);
    for (let round = 0; round < 300; round += 1) {
      const object = `{${SPACES[round % SPACES.length]}"v":${randomJson(random, 5)}}`;
      for (const order of ["id-last", "id-first"] as const) {
        expect(structuredContentText(line(object, order))).toBe(object);
      }
    }
  });

  it("takes the last of repeated keys, as JSON.parse does, and finds an escaped key", () => {
    expect(
      structuredContentText(
        '{"result":{"structuredContent":{"a":1},"structuredContent" : {"b":2}},"jsonrpc":"2.0","id":1}',
      ),
    ).toBe('{"b":2}');
    expect(
      structuredContentText('{"res\\u0075lt":{"structured\\u0043ontent":{ "c" :3 }},"id":1}'),
    ).toBe('{ "c" :3 }');
  });

  it("finds the result of the message, not a structuredContent nested in another member", () => {
    expect(
      structuredContentText(
        '{"meta":{"result":{"structuredContent":{"no":1}}},"result":{"content":[{"structuredContent":{"no":2}}]},"id":1}',
      ),
    ).toBeUndefined();
  });

  it("is undefined when structuredContent is missing or not an object, or the line is not one", () => {
    expect(
      [
        '{"result":{"content":[]},"id":1}',
        '{"result":{"structuredContent":[1]},"id":1}',
        '{"result":{"structuredContent":null},"id":1}',
        '{"result":null,"id":1}',
        '{"error":{"code":1,"message":"m"},"id":1}',
        '{"method":"x","params":{"structuredContent":{}}}',
        "[1]",
        '{"result":{"structuredContent":{"a":"unterminated',
      ].map(structuredContentText),
    ).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("follows structuredContent nested 100,000 deep without recursion", () => {
    const deep = `${'{"a":['.repeat(100_000)}1${"]}".repeat(100_000)}`;
    expect(structuredContentText(line(deep))).toBe(deep);
  });
});
