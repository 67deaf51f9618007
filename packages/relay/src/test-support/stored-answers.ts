import { createHash } from "node:crypto";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { z } from "zod";
import type { StartedRelay } from "./start-relay.js";

/** The artifact of an envelope, as these tests read it. */
export interface Artifact {
  id: string;
  byteLength: number;
  sha256: string;
}

/** The hex sha256 of `text` as UTF-8, as an artifact names its bytes. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A result schema that takes any object: the test reads the answer as the relay sent it. */
export const AS_SENT = z.custom<Record<string, unknown>>((value) => typeof value === "object");

/** The stored body of artifact `id` as UTF-8 text (or what the store answered instead). */
export async function storedText(relay: StartedRelay, id: string): Promise<unknown> {
  const stored = await relay.bounded.store.get(id);
  return stored !== null && "body" in stored ? stored.body.toString("utf8") : stored;
}

/** The answer text of a query of artifact `id` for `responsePath`. */
export async function queryText(
  relay: StartedRelay,
  id: string,
  responsePath: string,
): Promise<string> {
  const page = (await relay.downstream.request(
    {
      method: "tools/call",
      params: { name: QUERY_TOOL_NAME, arguments: { artifactId: id, responsePath } },
    } as never,
    AS_SENT,
  )) as { content: { type: string; text: string }[] };
  return page.content[0]?.text ?? "";
}
