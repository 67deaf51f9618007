/**
 * mayHoldInexactNumbers (detect.ts) over UTF-8 bytes, without decoding them: the same answer as
 * the candidate regex on their text, for every input (detect.property.test.ts checks it against
 * the regex), by one pass that looks at the bytes after each place a JSON value can start (the
 * start, `[`, `:`, `,`, then whitespace) and reads only the number-like run there. Bytes of
 * 0x80 or more (every byte of a multi-byte UTF-8 char) match nothing, as no regex class holds a
 * non-ASCII char. No allocation and no copy (the helper thread reads shared memory in place,
 * where the regex needed the bytes decoded into a string of the same size first).
 *
 * Self-contained (no reference outside its body) so its source can be sent to a worker thread
 * as is (`String(mayHoldInexactNumbersInBytes)`). Limits: a JavaScript loop over every byte, a
 * little faster than the regex over a string on large payloads; on the calling thread it does
 * not make the test free.
 */
export function mayHoldInexactNumbersInBytes(bytes: Uint8Array): boolean {
  const length = bytes.length;
  // Where a value may start: 0, then after each anchor byte. `start` is the index after the
  // anchor (or 0); the bytes there are checked, then the scan goes on for the next anchor.
  let start = 0;
  for (;;) {
    let at = start;
    let code = at < length ? (bytes[at] as number) : -1;
    // [ \t\n\r]*
    while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) {
      at += 1;
      code = at < length ? (bytes[at] as number) : -1;
    }
    if (code === 0x2d || (code >= 0x30 && code <= 0x39) || code === 0x2e) {
      const minus = code === 0x2d;
      // -?[\d.]+ : the run of digits and points after an optional minus.
      const runStart = minus ? at + 1 : at;
      let end = runStart;
      for (; end < length; end += 1) {
        const digit = bytes[end] as number;
        if (!((digit >= 0x30 && digit <= 0x39) || digit === 0x2e)) break;
      }
      // -?[\d.]{16}
      if (end - runStart >= 16) return true;
      // -?[\d.]+[eE][+-]?\d{3}
      if (end > runStart && end < length && (bytes[end] === 0x65 || bytes[end] === 0x45)) {
        let sign = end + 1;
        if (sign < length && (bytes[sign] === 0x2b || bytes[sign] === 0x2d)) sign += 1;
        if (
          sign + 3 <= length &&
          (bytes[sign] as number) >= 0x30 &&
          (bytes[sign] as number) <= 0x39 &&
          (bytes[sign + 1] as number) >= 0x30 &&
          (bytes[sign + 1] as number) <= 0x39 &&
          (bytes[sign + 2] as number) >= 0x30 &&
          (bytes[sign + 2] as number) <= 0x39
        ) {
          return true;
        }
      }
      // -0(?:\.0*)?(?:[eE][+-]?\d+)?(?![\d.eE])
      if (minus && at + 1 < length && bytes[at + 1] === 0x30) {
        let next = at + 2;
        if (next < length && bytes[next] === 0x2e) {
          next += 1;
          while (next < length && bytes[next] === 0x30) next += 1;
        }
        let after = next < length ? (bytes[next] as number) : -1;
        let exponentOk = true;
        if (after === 0x65 || after === 0x45) {
          let digits = next + 1;
          if (digits < length && (bytes[digits] === 0x2b || bytes[digits] === 0x2d)) digits += 1;
          let digitsEnd = digits;
          while (
            digitsEnd < length &&
            (bytes[digitsEnd] as number) >= 0x30 &&
            (bytes[digitsEnd] as number) <= 0x39
          ) {
            digitsEnd += 1;
          }
          // Without exponent digits the `e` itself fails the lookahead.
          exponentOk = digitsEnd > digits;
          after = digitsEnd < length ? (bytes[digitsEnd] as number) : -1;
        }
        if (
          exponentOk &&
          !((after >= 0x30 && after <= 0x39) || after === 0x2e || after === 0x65 || after === 0x45)
        ) {
          return true;
        }
      }
      at = end;
    }
    // The next anchor: `[`, `:` or `,` (none of the bytes checked above is one).
    for (; at < length; at += 1) {
      const anchor = bytes[at];
      if (anchor === 0x3a || anchor === 0x2c || anchor === 0x5b) break;
    }
    if (at >= length) return false;
    start = at + 1;
  }
}
