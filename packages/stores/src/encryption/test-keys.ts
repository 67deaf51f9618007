import { createHash } from "node:crypto";
import { type AtRestKeys, createAtRestKeys } from "./at-rest-keys.js";

/** A deterministic 32-byte test key named `kid` (never use outside tests). */
export function testKey(kid: string): { kid: string; key: Uint8Array } {
  return { kid, key: createHash("sha256").update(`test-key:${kid}`).digest() };
}

/** AtRestKeys of the named test keys, the first encrypting. */
export function testKeys(...kids: string[]): AtRestKeys {
  return createAtRestKeys(kids.map(testKey));
}
