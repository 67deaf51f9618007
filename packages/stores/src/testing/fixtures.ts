import { createHash } from "node:crypto";
import type { ArtifactMeta } from "../types.js";

/** A clock the suite moves by hand: stores read it, tests set it. */
export interface TestClock {
  (): number;
  set(now: number): void;
}

/** A TestClock starting at `start`. */
export function createTestClock(start: number): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.set = (value) => {
    now = value;
  };
  return clock;
}

/** A valid, readable artifact id: `artifact_` and the number padded to 22 characters. */
export function testArtifactId(number: number): string {
  return `artifact_${String(number).padStart(13, "0")}`;
}

/** Metadata describing `body`, with overridable members. */
export function metaFor(
  id: string,
  body: Uint8Array,
  overrides: Partial<Omit<ArtifactMeta, "id" | "byteLength" | "sha256">> = {},
): ArtifactMeta {
  return {
    id,
    scopeHash: "scope-0123456789abcdef",
    mediaType: "application/json",
    byteLength: body.byteLength,
    sha256: createHash("sha256").update(body).digest("hex"),
    createdAt: 1_000,
    expiresAt: 1_000_000,
    responseRoot: "/items",
    primaryPaths: ["/items", "/meta/count"],
    sourceTruncated: false,
    contractVersion: 3,
    ...overrides,
  };
}

/** Every byte value from 0 to 255, then the same again reversed: binary-safe, not UTF-8. */
export function binaryBody(): Buffer {
  const forward = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
  return Buffer.concat([forward, Buffer.from(forward).reverse()]);
}

/** `length` bytes of a deterministic pseudo-random pattern (fast for large sizes). */
export function patternBody(length: number, seed = 1): Buffer {
  const body = Buffer.allocUnsafe(length);
  let state = seed >>> 0 || 1;
  let offset = 0;
  for (; offset + 4 <= length; offset += 4) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    body.writeUInt32LE(state >>> 0, offset);
  }
  for (; offset < length; offset += 1) body[offset] = offset & 0xff;
  return body;
}

/** The lowercase hex sha256 of `body`. */
export function sha256Of(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}
