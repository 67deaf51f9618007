import { describe, expect, it } from "vitest";
import { splitMedia, unmirrorStructure } from "./media.js";

const text = { type: "text" as const, text: "caption" };
const small = { type: "image" as const, mimeType: "image/png", data: "AAAA" };
const large = { type: "audio" as const, mimeType: "audio/wav", data: "B".repeat(40) };

describe("splitMedia", () => {
  it("is undefined for a result without image or audio blocks, which is bounded as before", () => {
    expect(splitMedia({ content: [text] }, 10)).toBeUndefined();
  });

  it("counts base64 characters in content order and still tries the blocks after one that does not fit", () => {
    const split = splitMedia({ content: [small, large, text, small] }, 10);
    expect(split).toEqual({
      rest: [text],
      media: [
        { index: 0, block: small, fits: true },
        { index: 1, block: large, fits: false },
        { index: 3, block: small, fits: true },
      ],
    });
  });

  it("lets a budget of 0 pass no media", () => {
    expect(splitMedia({ content: [small] }, 0)?.media[0]?.fits).toBe(false);
  });
});

describe("unmirrorStructure", () => {
  const media = splitMedia({ content: [small, large] }, 100)?.media ?? [];

  it("replaces each string equal to a media block's data by the media's facts", () => {
    const structured = { content: [small], note: "AAAA!" };
    const found = unmirrorStructure(structured, media);
    expect(found?.mirrored).toEqual(new Set([media[0]]));
    expect(JSON.parse(found?.json ?? "null")).toEqual({
      content: [
        {
          type: "image",
          mimeType: "image/png",
          data: {
            type: "image",
            mimeType: "image/png",
            byteLength: 3,
            sha256: "709e80c88487a2411e1ee4dfb9f22a861492d20c4765150c0c794abd70f8147c",
            binaryOmitted: true,
          },
        },
      ],
      note: "AAAA!",
    });
  });

  it("is undefined when structuredContent repeats no media data", () => {
    expect(unmirrorStructure({ content: "caption" }, media)).toBeUndefined();
    expect(unmirrorStructure(undefined, media)).toBeUndefined();
  });

  it("is undefined for structuredContent too deep for JSON.stringify, which is bounded as JSON", () => {
    let deep: Record<string, unknown> = { data: small.data };
    for (let depth = 0; depth < 20_000; depth += 1) deep = { deep };
    expect(unmirrorStructure(deep, media)).toBeUndefined();
  });
});
