import { DEFAULT_LIMITS, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { parseJsonExact } from "@bounded-mcp/query-core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/** What one query answered, read from its text block (the JSON the model reads). */
interface Answer {
  response?: unknown;
  responseMeta: {
    truncated: boolean;
    truncationReason: string | null;
    returnedCount: number;
    nextCursor: string | null;
  };
}

/** One RFC 6901 reference token. */
function token(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own data property, so a `__proto__` key is data, never the prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Counts of what a rebuild asked, for the test's own checks. */
export interface RebuildCounts {
  queries: number;
  /** Elements that came compacted (item_size_limit) and were read again by their own pointer. */
  compacted: number;
}

/**
 * Reads a whole artifact back through `query_response_artifact` called by a real SDK Client:
 * every container is paged by nextCursor with `pageSize`, an element that came compacted
 * (item_size_limit, always the page's only element) is read again at its own pointer, and the
 * value is put together from the answers' text blocks (parsed exactly, inexact numbers by their literal, from what the model reads).
 * Fails loudly on an error answer, a compacted scalar, or a pointer over maxPathChars (a value
 * the query tool cannot reach, which the generator must not make).
 */
export async function rebuildArtifact(
  client: Client,
  artifactId: string,
  pageSize: number,
): Promise<{ value: unknown; counts: RebuildCounts }> {
  const counts: RebuildCounts = { queries: 0, compacted: 0 };
  const ask = async (responsePath: string, cursor?: string): Promise<Answer> => {
    if (responsePath.length > DEFAULT_LIMITS.maxPathChars) {
      throw new Error(
        `the rebuild needs a pointer longer than maxPathChars: ${responsePath.slice(0, 80)}…`,
      );
    }
    counts.queries += 1;
    const args = {
      artifactId,
      responsePath,
      pageSize,
      ...(cursor === undefined ? {} : { cursor }),
    };
    const result = await client.callTool({ name: QUERY_TOOL_NAME, arguments: args });
    const first = (result.content as { type: string; text?: string }[])[0];
    const answer = parseJsonExact(first?.text ?? "null") as Answer;
    if (result.isError === true) {
      throw new Error(`query ${JSON.stringify(args)} failed: ${first?.text}`);
    }
    return answer;
  };

  const read = async (pointer: string): Promise<unknown> => {
    let answer = await ask(pointer);
    const response = answer.response;
    if (!Array.isArray(response) && !isRecord(response)) {
      if (answer.responseMeta.truncated)
        throw new Error(`the scalar at "${pointer}" was compacted`);
      return response;
    }
    if (!answer.responseMeta.truncated) return response;
    const rebuilt: unknown[] | Record<string, unknown> = Array.isArray(response) ? [] : {};
    let offset = 0;
    for (;;) {
      const compacted = answer.responseMeta.truncationReason === "item_size_limit";
      if (Array.isArray(rebuilt)) {
        const items = answer.response as unknown[];
        for (const [index, item] of items.entries()) {
          rebuilt.push(compacted && index === 0 ? await read(`${pointer}/${offset}`) : item);
        }
      } else {
        const page = answer.response as Record<string, unknown>;
        for (const [index, key] of Object.keys(page).entries()) {
          const value =
            compacted && index === 0 ? await read(`${pointer}/${token(key)}`) : page[key];
          define(rebuilt, key, value);
        }
      }
      if (compacted) counts.compacted += 1;
      offset += answer.responseMeta.returnedCount;
      const cursor = answer.responseMeta.nextCursor;
      if (cursor === null) return rebuilt;
      answer = await ask(pointer, cursor);
    }
  };

  return { value: await read(""), counts };
}
