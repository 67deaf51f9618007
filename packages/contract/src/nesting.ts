interface Frame {
  value: unknown;
  depth: number;
  key: PropertyKey;
  parent: Frame | null;
}

function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let current: Frame | null = frame; current?.parent; current = current.parent) {
    path.unshift(current.key);
  }
  return path;
}

/**
 * The path to the first object or array nested deeper than `maxDepth` levels inside `value`, or
 * null when there is none. A cycle nests forever, so it is found too. Iterative (depth first), so
 * hostile input cannot overflow the stack; getters run, and may throw.
 */
export function findTooDeep(value: unknown, maxDepth: number): PropertyKey[] | null {
  const stack: Frame[] = [{ value, depth: 0, key: "", parent: null }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const current = frame.value;
    if (current === null || typeof current !== "object") continue;
    if (frame.depth >= maxDepth) return pathOf(frame);
    const depth = frame.depth + 1;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index += 1) {
        stack.push({ value: current[index], depth, key: index, parent: frame });
      }
    } else {
      for (const [key, item] of Object.entries(current)) {
        stack.push({ value: item, depth, key, parent: frame });
      }
    }
  }
  return null;
}
