import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "./tokens.js";

/** What a model reads of a tool result: every content block (text as is, others as JSON). */
export function readableText(result: CallToolResult): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : JSON.stringify(block)))
    .join("\n");
}

/** Untyped JSON as a model reads it: previews, answers, raw results. */
// biome-ignore lint/suspicious/noExplicitAny: question scripts read JSON as a model does, untyped.
export type Json = any;

/** The bounded envelope as a model reads it (the JSON of its text block). */
export interface Envelope {
  success: boolean;
  data: Json;
  responseMeta: {
    artifact: { id: string; responseRoot: string; primaryPaths: string[] };
    [key: string]: unknown;
  };
  guidance?: string;
}

/** A query_response_artifact answer (success or error), as its structuredContent. */
export interface QueryAnswer {
  response?: Json;
  responseMeta: {
    totalCount?: number | null;
    nextCursor: string | null;
    [key: string]: unknown;
  };
  [key: string]: Json;
}

/**
 * What a question's script may use, and all it may use: the envelope the model saw and the
 * query tool. Every call is counted (the arguments the model writes and the text it reads back).
 */
export interface ModelView {
  readonly envelope: Envelope;
  /** One query_response_artifact call on this envelope's artifact; an error answer throws. */
  query(args: Record<string, unknown>): Promise<QueryAnswer>;
  /** Follows nextCursor to the end (pageSize 100) and returns every page's items. */
  queryAll(args: Record<string, unknown>): Promise<Json[]>;
  /** The number of items a (filtered) selection holds: one item fetched, totalCount read. */
  count(args: Record<string, unknown>): Promise<number>;
}

/** The token ledger of one question: the envelope once, then every call. */
export interface Ledger {
  envelopeTokens: number;
  calls: number;
  callTokens: number;
}

/** Builds the view of one question over `envelope`, counting into a fresh ledger. */
export function createModelView(
  client: Client,
  envelope: Envelope,
  envelopeTokens: number,
): { view: ModelView; ledger: Ledger } {
  const ledger: Ledger = { envelopeTokens, calls: 0, callTokens: 0 };
  const artifactId = envelope.responseMeta.artifact.id;
  const query = async (args: Record<string, unknown>): Promise<QueryAnswer> => {
    const request = { artifactId, ...args };
    const result = (await client.callTool({
      name: QUERY_TOOL_NAME,
      arguments: request,
    })) as CallToolResult;
    ledger.calls++;
    ledger.callTokens += countTokens(JSON.stringify(request)) + countTokens(readableText(result));
    const answer = result.structuredContent as QueryAnswer;
    if (result.isError === true) {
      throw new Error(`query failed: ${JSON.stringify(answer).slice(0, 600)}`);
    }
    return answer;
  };
  const view: ModelView = {
    envelope,
    query,
    async queryAll(args) {
      const items: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page: QueryAnswer = await query({
          pageSize: 100,
          ...args,
          ...(cursor === null ? {} : { cursor }),
        });
        items.push(...(page.response as unknown[]));
        cursor = page.responseMeta.nextCursor;
      } while (cursor !== null);
      return items;
    },
    async count(args) {
      const page = await query({ ...args, pageSize: 1 });
      const total = page.responseMeta.totalCount;
      if (typeof total !== "number") throw new Error("no totalCount in the answer");
      return total;
    },
  };
  return { view, ledger };
}
