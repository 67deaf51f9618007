import { describe, expect, it } from "vitest";
import { serializeJson } from "./serialize-json.js";

describe("serializeJson", () => {
  it("gives JSON.stringify's text for ordinary values, not marked too deep", () => {
    const value = {
      a: [1, "two", null, true, undefined, () => 1, { b: undefined, c: new Date(0) }],
      d: Object.assign(Object.create(null), { __proto__: "data" }),
      e: new Number(3),
    };
    expect(serializeJson(value)).toEqual({ text: JSON.stringify(value), tooDeep: false });
  });

  it("serializes 100,000-deep nesting that JSON.stringify cannot, marked too deep", () => {
    const depth = 100_000;
    const text = `${'{"a":['.repeat(depth)}1${"]}".repeat(depth)}`;
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(serializeJson(value)).toEqual({ text, tooDeep: true });
  });

  it("keeps JSON.stringify's treatment of toJSON, holes, skipped members and boxed values when deep", () => {
    let inner: unknown = {
      when: new Date(0),
      skip: undefined,
      holes: [undefined, () => 0],
      boxed: [new String("s"), new Boolean(false)],
      order: { z: 1, 1: 2, a: 3 },
    };
    const expectedInner = JSON.stringify(inner);
    for (let level = 0; level < 50_000; level += 1) inner = [inner];
    expect(serializeJson(inner).text).toBe(
      `${"[".repeat(50_000)}${expectedInner}${"]".repeat(50_000)}`,
    );
  });

  it("throws JSON.stringify's TypeError for a cycle deep inside", () => {
    const root: Record<string, unknown> = {};
    let current = root;
    for (let level = 0; level < 50_000; level += 1) {
      const next: Record<string, unknown> = {};
      current.a = next;
      current = next;
    }
    current.back = root;
    expect(() => serializeJson(root)).toThrow(TypeError);
  });
});
