const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** Where a number, true, false or null ends. */
const LITERAL_END = /[\s,\]}]/g;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function skipWhitespace(text: string, index: number): number {
  let at = index;
  while (at < text.length && isWhitespace(text.charCodeAt(at))) at += 1;
  return at;
}

/** The index after the string that opens at `start` (its quote). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw new SyntaxError("unterminated string");
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index after the value that starts at `start`; iterative, so any depth is fine. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    LITERAL_END.lastIndex = start;
    const found = LITERAL_END.exec(text);
    return found === null ? text.length : found.index;
  }
  let depth = 0;
  let at = start;
  const length = text.length;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      at = stringEnd(text, at);
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
    at += 1;
  }
  throw new SyntaxError("unterminated value");
}

interface Span {
  start: number;
  end: number;
}

/**
 * The span of the value of member `key` of the object spanning `object`, the last one when the
 * key repeats (JSON.parse keeps the last); undefined when there is none. Keys are compared after
 * JSON decoding, so an escaped key (`"res\u0075lt"`) is found like a plain one.
 */
function memberSpan(text: string, object: Span, key: string): Span | undefined {
  let at = skipWhitespace(text, object.start + 1);
  let found: Span | undefined;
  if (text.charCodeAt(at) === CLOSE_BRACE) return undefined;
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) throw new SyntaxError("expected a key");
    const keyEnd = stringEnd(text, at);
    const name: unknown = JSON.parse(text.slice(at, keyEnd));
    at = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(at) !== COLON) throw new SyntaxError("expected a colon");
    const start = skipWhitespace(text, at + 1);
    const end = valueEnd(text, start);
    if (name === key) found = { start, end };
    at = skipWhitespace(text, end);
    const next = text.charCodeAt(at);
    if (next === CLOSE_BRACE) return found;
    if (next !== COMMA) throw new SyntaxError("expected a comma");
    at = skipWhitespace(text, at + 1);
  }
}

function asObjectSpan(text: string, span: Span | undefined): Span | undefined {
  return span !== undefined && text.charCodeAt(span.start) === OPEN_BRACE ? span : undefined;
}

/**
 * The text of `result.structuredContent` exactly as it stands in one JSON-RPC response line (its
 * own spacing, number literals and escapes), found by one linear scan that skips every other
 * value without decoding it; undefined when the line has no object there. The line must be JSON
 * that JSON.parse accepted (the transport parses it first): the scan only checks enough structure
 * to find its way, and never throws (a line it cannot follow gives undefined, so the caller falls
 * back to serializing the parsed value). Limits: one pass over the result's members, linear in
 * the line's length; the key of each member of the message and of its result is decoded with
 * JSON.parse (a handful of short keys).
 */
export function structuredContentText(line: string): string | undefined {
  try {
    const start = skipWhitespace(line, 0);
    if (line.charCodeAt(start) !== OPEN_BRACE) return undefined;
    const message = { start, end: line.length };
    const result = asObjectSpan(line, memberSpan(line, message, "result"));
    if (result === undefined) return undefined;
    const structured = asObjectSpan(line, memberSpan(line, result, "structuredContent"));
    return structured === undefined ? undefined : line.slice(structured.start, structured.end);
  } catch {
    return undefined;
  }
}
