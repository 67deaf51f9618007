import { describe, expect, it } from "vitest";
import { findArgumentsProblem, findResultProblem } from "./tool-call-shapes.js";

describe("findResultProblem", () => {
  it.each([
    [null, "returned null, not a CallToolResult object"],
    [[], "returned an array, not a CallToolResult object"],
    ["done", "returned a string, not a CallToolResult object"],
    [
      { content: {} },
      "returned a result whose content is an object, not an array of content blocks",
    ],
    [{ content: [7] }, "returned a result whose content[0] is a number, not a content block"],
    [
      { content: [{ text: "x" }] },
      "returned a result whose content[0].type is undefined, not a string",
    ],
    [
      {
        content: [
          { type: "text", text: "ok" },
          { type: "text", text: null },
        ],
      },
      "returned a result whose content[1].text is null, not a string",
    ],
    [
      { content: [{ type: "image", data: 1, mimeType: "image/png" }] },
      "returned a result whose content[0].data is a number, not a base64 string",
    ],
    [
      { content: [{ type: "resource", resource: { uri: "x://y" } }] },
      "returned a result whose content[0].resource has neither a string text nor a string blob",
    ],
    [
      { content: [], structuredContent: null },
      "returned a result whose structuredContent is null, not an object",
    ],
  ])("names what makes %j not a CallToolResult", (result, problem) => {
    expect(findResultProblem(result)).toBe(problem);
  });

  it("accepts results bounding can read, block types it does not know included", () => {
    expect(findResultProblem({})).toBeUndefined();
    expect(
      findResultProblem({
        content: [
          { type: "text", text: "a" },
          { type: "resource_link", uri: "x://y", name: "y" },
          { type: "widget", size: 3 },
          { type: "resource", resource: { uri: "x://z", blob: "AA==" } },
        ],
        structuredContent: { a: 1 },
        isError: false,
      }),
    ).toBeUndefined();
  });
});

describe("findArgumentsProblem", () => {
  it("accepts absent arguments and plain objects, a nested __proto__ included", () => {
    expect(findArgumentsProblem(undefined)).toBeUndefined();
    expect(findArgumentsProblem(JSON.parse('{"a":{"__proto__":1}}'))).toBeUndefined();
  });

  it("refuses non-object arguments and an own __proto__ key", () => {
    expect(findArgumentsProblem([])).toContain("arguments that are an array");
    expect(findArgumentsProblem(JSON.parse('{"__proto__":{}}'))).toContain('"__proto__"');
  });
});
