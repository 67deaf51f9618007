/** The compact JSON of a value, and whether JSON.stringify alone could not produce it. */
export interface SerializedJson {
  /** As JSON.stringify(value) gives it; undefined for undefined, a function or a symbol. */
  text: string | undefined;
  /**
   * True when the value is nested too deep for JSON.stringify (V8 throws "Maximum call stack
   * size exceeded" from about 10,000 levels): anything that serializes it again with
   * JSON.stringify, such as an SDK transport sending it, fails too.
   */
  tooDeep: boolean;
}

/**
 * The compact JSON of `value` at any depth: JSON.stringify, and when it overflows the stack, the
 * same text built iteratively (same key order, toJSON, boxed primitives, undefined, functions and
 * symbols as JSON.stringify treats them). Limits: the fallback is slower (one string per token,
 * joined once); a cycle or a BigInt throws the TypeError JSON.stringify throws.
 */
export function serializeJson(value: unknown): SerializedJson {
  try {
    return { text: JSON.stringify(value), tooDeep: false };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return { text: stringifyIteratively(value), tooDeep: true };
}

interface Frame {
  container: Record<string, unknown> | unknown[];
  /** The object's keys; null for an array. */
  keys: readonly string[] | null;
  length: number;
  index: number;
  wrote: boolean;
}

/** The value JSON.stringify serializes for `holder[key]`: after toJSON, boxed primitives unwrapped. */
function jsonValue(key: string, value: unknown): unknown {
  let current = value;
  if ((typeof current === "object" && current !== null) || typeof current === "bigint") {
    const toJson = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJson === "function") current = toJson.call(current, key);
  }
  if (current instanceof Number) return Number(current);
  if (current instanceof String) return String(current);
  if (current instanceof Boolean) return current.valueOf();
  return current;
}

/** The JSON text of a non-object value; undefined when JSON.stringify leaves it out. */
function leafText(value: unknown): string | undefined {
  if (typeof value === "bigint") throw new TypeError("Do not know how to serialize a BigInt");
  return JSON.stringify(value);
}

function stringifyIteratively(root: unknown): string | undefined {
  const first = jsonValue("", root);
  if (typeof first !== "object" || first === null) return leafText(first);
  const out: string[] = [];
  const onPath = new Set<object>();
  const stack: Frame[] = [];
  const enter = (container: object) => {
    if (onPath.has(container)) throw new TypeError("Converting circular structure to JSON");
    onPath.add(container);
    const keys = Array.isArray(container) ? null : Object.keys(container);
    const length = keys === null ? (container as unknown[]).length : keys.length;
    out.push(keys === null ? "[" : "{");
    stack.push({
      container: container as Frame["container"],
      keys,
      length,
      index: 0,
      wrote: false,
    });
  };
  enter(first);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.index >= frame.length) {
      out.push(frame.keys === null ? "]" : "}");
      onPath.delete(frame.container);
      stack.pop();
      continue;
    }
    const index = frame.index;
    frame.index += 1;
    const key = frame.keys === null ? String(index) : (frame.keys[index] as string);
    const raw =
      frame.keys === null
        ? (frame.container as unknown[])[index]
        : (frame.container as Record<string, unknown>)[key];
    const value = jsonValue(key, raw);
    const composite = typeof value === "object" && value !== null;
    let text: string | undefined;
    if (!composite) {
      text = leafText(value);
      if (text === undefined) {
        if (frame.keys !== null) continue;
        text = "null";
      }
    }
    if (frame.wrote) out.push(",");
    frame.wrote = true;
    if (frame.keys !== null) out.push(JSON.stringify(key), ":");
    if (composite) enter(value);
    else out.push(text as string);
  }
  return out.join("");
}
