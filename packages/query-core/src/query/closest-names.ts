/** Names compared per ranking at most: an error about a huge keyed object stays cheap. */
const MAX_RANKED_NAMES = 10_000;
/** Characters of a name (and of what was typed) compared; longer ones are compared by this prefix. */
const MAX_COMPARED_CHARS = 64;

function sharedPrefix(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  let index = 0;
  while (index < length && left.charCodeAt(index) === right.charCodeAt(index)) index += 1;
  return index;
}

/** Levenshtein distance (insert, delete, substitute, each 1) with two rows. */
function editDistance(left: string, right: string, row: number[], previous: number[]): number {
  for (let column = 0; column <= right.length; column += 1) previous[column] = column;
  for (let line = 1; line <= left.length; line += 1) {
    row[0] = line;
    const code = left.charCodeAt(line - 1);
    for (let column = 1; column <= right.length; column += 1) {
      const substitute =
        (previous[column - 1] as number) + (code === right.charCodeAt(column - 1) ? 0 : 1);
      const remove = (previous[column] as number) + 1;
      const insert = (row[column - 1] as number) + 1;
      row[column] = Math.min(substitute, remove, insert);
    }
    for (let column = 0; column <= right.length; column += 1)
      previous[column] = row[column] as number;
  }
  return previous[right.length] as number;
}

/**
 * Orders names by how close they are to what the caller typed, closest first, so the few an
 * error message lists are the likely corrections: case-insensitively equal first, then the
 * longest shared prefix (`displayOptions` for `display`), then the smallest edit distance
 * (`name` for `nmae`), then the original order. Only the first 10,000 names are ranked (the rest
 * follow in their order), each compared by its first 64 characters.
 */
export function rankByCloseness(names: readonly string[], typed: string): string[] {
  const target = typed.slice(0, MAX_COMPARED_CHARS).toLowerCase();
  const ranked = names.slice(0, MAX_RANKED_NAMES);
  const row: number[] = [];
  const previous: number[] = [];
  const scored = ranked.map((name, index) => {
    const candidate = name.slice(0, MAX_COMPARED_CHARS).toLowerCase();
    return {
      name,
      index,
      equal: candidate === target ? 0 : 1,
      prefix: sharedPrefix(candidate, target),
      distance: editDistance(candidate, target, row, previous),
    };
  });
  scored.sort(
    (left, right) =>
      left.equal - right.equal ||
      right.prefix - left.prefix ||
      left.distance - right.distance ||
      left.index - right.index,
  );
  return [...scored.map((entry) => entry.name), ...names.slice(MAX_RANKED_NAMES)];
}
