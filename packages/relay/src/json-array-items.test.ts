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
});
