import { describe, expect, it } from "vitest";
import { TEXT_RESPONSE_ROOT, textToDocument } from "./text-document.js";

describe("textToDocument", () => {
  it('splits on "\\n" exactly, keeping "\\r" and an empty last line', () => {
    expect(textToDocument("a\r\nb\n\nc\n")).toEqual({ lines: ["a\r", "b", "", "c", ""] });
  });

  it("turns empty text into one empty line", () => {
    expect(textToDocument("")).toEqual({ lines: [""] });
  });

  it("is queried at /lines", () => {
    expect(TEXT_RESPONSE_ROOT).toBe("/lines");
  });
});
