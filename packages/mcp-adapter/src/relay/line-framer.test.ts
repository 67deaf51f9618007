import { describe, expect, it } from "vitest";
import { createLineFramer, type OversizedLine } from "./line-framer.js";

function collect(maxLineBytes: number, edgeBytes = 4) {
  const lines: string[] = [];
  const oversized: { byteLength: number; head: string; tail: string }[] = [];
  const framer = createLineFramer({
    maxLineBytes,
    edgeBytes,
    onLine: (line) => lines.push(line),
    onOversizedLine: (line: OversizedLine) =>
      oversized.push({
        byteLength: line.byteLength,
        head: line.head.toString("utf8"),
        tail: line.tail.toString("utf8"),
      }),
  });
  return { framer, lines, oversized };
}

describe("createLineFramer", () => {
  it("splits lines across and within chunks, keeping a multi-byte character split by a chunk", () => {
    const { framer, lines } = collect(100);
    const bytes = Buffer.from("first\nsecönd\r\nthird\n");
    for (const chunk of [bytes.subarray(0, 3), bytes.subarray(3, 10), bytes.subarray(10)]) {
      framer.push(chunk);
    }
    expect(lines).toEqual(["first", "secönd\r", "third"]);
    expect(framer.pendingBytes).toBe(0);
  });

  it("holds a partial line until its newline and delivers it on flush", () => {
    const { framer, lines } = collect(100);
    framer.push(Buffer.from("a\nparti"));
    framer.push(Buffer.from("al"));
    expect(lines).toEqual(["a"]);
    expect(framer.pendingBytes).toBe(7);
    framer.flush();
    expect(lines).toEqual(["a", "partial"]);
  });

  it("reports a line over the cap by size, head and tail, and frames the next line normally", () => {
    const { framer, lines, oversized } = collect(10);
    framer.push(Buffer.from("ok\n0123456"));
    framer.push(Buffer.from("789abcdef"));
    framer.push(Buffer.from("ghij\nnext\n"));
    expect(oversized).toEqual([{ byteLength: 20, head: "0123", tail: "ghij" }]);
    expect(lines).toEqual(["ok", "next"]);
  });

  it("keeps a tail that spans several small chunks of an oversized line", () => {
    const { framer, oversized } = collect(3);
    for (const character of "abcdefgh") framer.push(Buffer.from(character));
    framer.push(Buffer.from("\n"));
    expect(oversized).toEqual([{ byteLength: 8, head: "abcd", tail: "efgh" }]);
  });

  it("accepts a line of exactly the cap", () => {
    const { framer, lines, oversized } = collect(5);
    framer.push(Buffer.from("12345\n"));
    expect(lines).toEqual(["12345"]);
    expect(oversized).toEqual([]);
  });

  it("drops a partial line on reset", () => {
    const { framer, lines } = collect(100);
    framer.push(Buffer.from("lost"));
    framer.reset();
    framer.push(Buffer.from("kept\n"));
    expect(lines).toEqual(["kept"]);
  });
});
