import type { Readable } from "node:stream";

/**
 * Reads exactly `length` bytes off the front of a paused stream and leaves the rest in it (the
 * stream can then be piped on). Rejects when the stream ends or fails first.
 */
export async function readPrefix(stream: Readable, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < length) {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      total += chunk.byteLength;
      continue;
    }
    if (stream.readableEnded || stream.destroyed) {
      throw new Error(`the stream ended after ${total} of ${length} prefix bytes`);
    }
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        stream.off("readable", onReadable);
        stream.off("end", onEnd);
        stream.off("error", settle);
        if (error) reject(error);
        else resolve();
      };
      const onReadable = () => settle();
      const onEnd = () => settle();
      stream.once("readable", onReadable);
      stream.once("end", onEnd);
      stream.once("error", settle);
    });
  }
  const joined = Buffer.concat(chunks);
  if (joined.byteLength > length) stream.unshift(joined.subarray(length));
  return joined.subarray(0, length);
}
