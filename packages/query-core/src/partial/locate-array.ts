import { JsonScanner } from "./json-scanner.js";

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
/** Thrown to stop a scan whose answer is already "not an array here". */
const DECLINED = Symbol("declined");

/** The elements of an array found in JSON text: how many, and those of one window, parsed. */
export interface ArrayWindow {
  /** How many elements the array has. */
  count: number;
  /** The parsed elements with index in [start, start + size), in order. */
  elements: unknown[];
}

/**
 * What a scan of the located array returns: the position after its ']' and what it read.
 * `scanArray` gets the scanner and the position of the array's '['.
 */
export type ArrayScan<T> = (scanner: JsonScanner, position: number) => { end: number; found: T };

/**
 * Finds the value at `tokens` (unescaped RFC 6901 reference tokens, each an object key) in JSON
 * text, the way JSON.parse + the engine's pointer resolution would see it (own keys, the last of
 * duplicate keys), and when it is an array hands it to `scanArray`, which reads what it needs of
 * it. Undefined when the path does not resolve through objects or does not end at an array (a
 * value that is not an array ends the scan at once: even if a later duplicate key held an array,
 * undefined only sends the caller to a full parse). Every byte of the text outside the array is
 * visited at most about once. Throws ScanError on text that is not JSON.
 */
export function locateArray<T>(
  bytes: Uint8Array,
  tokens: readonly string[],
  scanArray: ArrayScan<T>,
): T | undefined {
  const scanner = new JsonScanner(bytes);
  let found: { value: T } | undefined;

  const scanTarget = (position: number): number => {
    // Not an array: the caller parses the whole document anyway, so stop scanning now.
    if (scanner.at(position) !== OPEN_BRACKET) throw DECLINED;
    const scanned = scanArray(scanner, position);
    found = { value: scanned.found };
    return scanned.end;
  };

  // Returns the position after the value at `position`; sets `found` when the path below it ends
  // at an array. A later duplicate key clears what an earlier one found, as JSON.parse keeps the
  // last value.
  const visit = (position: number, depth: number): number => {
    if (depth === tokens.length) return scanTarget(position);
    const token = tokens[depth] as string;
    const first = scanner.at(position);
    if (first === OPEN_BRACE) {
      return scanner.forEachMember(position, (key, valueStart) => {
        if (key !== token) return scanner.skipValue(valueStart);
        found = undefined;
        return visit(valueStart, depth + 1);
      });
    }
    return scanner.skipValue(position);
  };

  try {
    const end = scanner.skipWhitespace(visit(scanner.skipWhitespace(0), 0));
    return end === scanner.length ? found?.value : undefined;
  } catch (error) {
    if (error === DECLINED) return undefined;
    throw error;
  }
}

/**
 * locateArray that counts the array's elements and parses only those in the window
 * [start, start + size): nothing outside the window is decoded or parsed.
 */
export function locateArrayWindow(
  bytes: Uint8Array,
  tokens: readonly string[],
  start: number,
  size: number,
): ArrayWindow | undefined {
  return locateArray(bytes, tokens, (scanner, position) => {
    const elements: unknown[] = [];
    const { count, end } = scanner.forEachElement(position, (index, valueStart) => {
      const valueEnd = scanner.skipValue(valueStart);
      if (index >= start && index < start + size) {
        elements.push(scanner.parse(valueStart, valueEnd));
      }
      return valueEnd;
    });
    return { end, found: { count, elements } };
  });
}
