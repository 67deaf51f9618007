import { describe, expect, it } from "vitest";
import { createLineFramer, type OversizedLine } from "./line-framer.js";

function collect(maxLineBytes: number, edgeBytes = 4, retainedBufferBytes = 0) {
  const lines: string[] = [];
  const oversized: { byteLength: number; head: string; tail: string }[] = [];
  const framer = createLineFramer({
    maxLineBytes,
    edgeBytes,
    retainedBufferBytes,
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

  it("reports a line over the cap that arrives whole in one chunk", () => {
    const { framer, lines, oversized } = collect(5);
    framer.push(Buffer.from("123456\nok\n"));
    expect(oversized).toEqual([{ byteLength: 6, head: "1234", tail: "3456" }]);
    expect(lines).toEqual(["ok"]);
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

  it("decodes large lines split inside multi-byte characters, ASCII or not, with or without a kept buffer", () => {
    for (const retainedBufferBytes of [0, 16 * 1024 * 1024]) {
      const { framer, lines } = collect(8 * 1024 * 1024, 4, retainedBufferBytes);
      const ascii = "a".repeat(2 * 1024 * 1024);
      const mixed = "é€😀x".repeat(300_000);
      const bytes = Buffer.from(`${ascii}\n${mixed}\r\n`.repeat(2));
      for (let offset = 0; offset < bytes.length; offset += 65_535) {
        framer.push(bytes.subarray(offset, offset + 65_535));
      }
      expect(lines.length).toBe(4);
      expect(lines.map((line) => line === ascii || line === `${mixed}\r`)).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(lines[0] === lines[2] && lines[1] === lines[3]).toBe(true);
    }
  });

  it("keeps no line buffer by default", () => {
    const { framer, lines } = collect(1024 * 1024);
    framer.push(Buffer.from("x".repeat(200_000)));
    framer.push(Buffer.from("\n"));
    expect(lines[0]?.length).toBe(200_000);
    expect(framer.bufferBytes).toBe(0);
  });

  it("keeps a buffer sized after a line that spanned chunks, reuses it, and releases it on request after the line in progress", () => {
    const { framer, lines } = collect(1024 * 1024, 4, 1024 * 1024);
    framer.push(Buffer.from("x".repeat(150_000)));
    framer.push(Buffer.from(`${"x".repeat(50_000)}\n`));
    expect(framer.bufferBytes).toBe(250_000);
    framer.push(Buffer.from("y".repeat(150_000)));
    framer.push(Buffer.from(`${"y".repeat(60_000)}\n`));
    expect(framer.bufferBytes).toBe(250_000);
    framer.push(Buffer.from("z".repeat(10)));
    framer.releaseBuffer();
    expect(framer.bufferBytes).toBe(250_000);
    framer.push(Buffer.from("z\n"));
    expect(framer.bufferBytes).toBe(0);
    expect(lines.map((line) => line.length)).toEqual([200_000, 210_000, 11]);
  });

  it("continues a line that outgrows the kept buffer without splitting a character at the switch", () => {
    const { framer, lines } = collect(1000, 4, 1000);
    framer.push(Buffer.from("a".repeat(40)));
    framer.push(Buffer.from(`${"a".repeat(40)}\n`));
    expect(framer.bufferBytes).toBe(100);
    const bytes = Buffer.from(`${"é".repeat(100)}\n`);
    for (let offset = 0; offset < bytes.length; offset += 33) {
      framer.push(bytes.subarray(offset, offset + 33));
    }
    expect(lines).toEqual(["a".repeat(80), "é".repeat(100)]);
    expect(framer.bufferBytes).toBe(250);
  });

  it("frames the next lines after a grown partial line was reset or went over the cap", () => {
    const { framer, lines, oversized } = collect(3 * 1024 * 1024, 4);
    framer.push(Buffer.from("a".repeat(1_500_000)));
    framer.reset();
    framer.push(Buffer.from(`${"b".repeat(1_500_000)}`));
    framer.push(Buffer.from(`${"c".repeat(1_600_000)}`));
    framer.push(Buffer.from(`${"d".repeat(1_000_000)}\n`));
    framer.push(Buffer.from(`${"é".repeat(1_000_000)}`));
    framer.push(Buffer.from("!\n"));
    expect(oversized.map((line) => line.byteLength)).toEqual([4_100_000]);
    expect(lines.length).toBe(1);
    expect(lines[0] === `${"é".repeat(1_000_000)}!`).toBe(true);
  });

  it("keeps no buffer for a line longer than retainedBufferBytes", () => {
    const { framer } = collect(1024 * 1024, 4, 100_000);
    framer.push(Buffer.from("x".repeat(300_000)));
    framer.push(Buffer.from("\n"));
    expect(framer.bufferBytes).toBe(0);
  });
});
