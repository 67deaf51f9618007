import { describe, expect, it } from "vitest";
import { jsonArrayItemTexts } from "./json-array-items.js";

describe("the item texts of a JSON array", () => {
  it("are each item as it stands in the text, whitespace around it trimmed", () => {
    const items = [
      '{"big": 12345678901234567890, "s": "a,]}[{\\"\\\\"}',
      "1e400",
      '"\\ud800"',
      "[[], {}, [1, [2]]]",
      "null",
      '{\n  "pretty": [ -0 ]\n}',
    ];
    const text = `\n [ ${items.join(" ,\n\t")} ]\r\n`;
    expect(jsonArrayItemTexts(text)).toEqual(items);
  });

  it("parse to the items JSON.parse makes of the whole", () => {
    const text = '[{"a":[1,{"b":"]"}]},"x\\\\",2,{"__proto__":{"c":3}}]';
    const whole = JSON.parse(text) as unknown[];
    expect(jsonArrayItemTexts(text)?.map((item) => JSON.parse(item))).toEqual(whole);
  });

  it("are none for an empty array, and undefined for a text that is not one array", () => {
    expect(jsonArrayItemTexts(" [ ] ")).toEqual([]);
    for (const text of ['{"a":1}', '[1,"open]', "[1,[2]", "[1] [2]", "[1}", "[1],"]) {
      expect(jsonArrayItemTexts(text)).toBeUndefined();
    }
  });

  it("handle any depth", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(jsonArrayItemTexts(`[${deep},1]`)).toEqual([deep, "1"]);
  });

  it("are exactly the item texts a batch was written from, for random batches (seeded)", () => {
    let state = 20_261_201;
    const random = (below: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state % below;
    };
    const pieces = ['"', "\\", "]", "[", "}", "{", ",", ":", "a", "é", "\ud800", " "];
    const value = (depth: number): unknown => {
      const kind = random(depth > 4 ? 4 : 6);
      if (kind === 0) return random(1000) - 500;
      if (kind === 1) return Array.from({ length: random(6) }, () => pieces[random(12)]).join("");
      if (kind === 2) return [null, true, false][random(3)];
      if (kind === 3) return random(1_000_000) / 7;
      if (kind === 4) return Array.from({ length: random(4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: random(4) }, (_, index) => [`k${index}]"`, value(depth + 1)]),
      );
    };
    const spaces = () => [" ", "\n", "\t", "\r\n", ""][random(5)] ?? "";
    for (let round = 0; round < 300; round += 1) {
      const items = Array.from({ length: random(5) }, () =>
        JSON.stringify(value(0), null, random(2) === 0 ? undefined : random(3)),
      );
      const text = `${spaces()}[${items.map((item) => `${spaces()}${item}${spaces()}`).join(",")}]${spaces()}`;
      expect(jsonArrayItemTexts(text)).toEqual(items);
      expect(items.map((item) => JSON.parse(item))).toEqual(JSON.parse(text));
    }
  });
});
