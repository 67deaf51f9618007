import { createHash } from "node:crypto";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { RAW_RESULT_SERVER_PATH } from "./test-support/fixture-paths.js";
import { SPACED_STRUCTURED } from "./test-support/spaced-structured.mjs";
import {
  recordedStdioUpstream,
  type StartedRelay,
  startRelay,
} from "./test-support/start-relay.js";

const AS_SENT = z.custom<Record<string, unknown>>((value) => typeof value === "object");

interface Bounded {
  structuredContent: {
    responseMeta: { artifact: { id: string; byteLength: number; sha256: string } };
  };
}

let relay: StartedRelay | undefined;

afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

async function callSpaced(started: StartedRelay): Promise<Bounded["structuredContent"]> {
  const result = (await started.downstream.request(
    { method: "tools/call", params: { name: "spaced_structured" } } as never,
    AS_SENT,
  )) as unknown as Bounded;
  return result.structuredContent;
}

describe("the stored bytes of structuredContent that arrives on the stdio wire", () => {
  it("are the upstream's bytes: its spacing and its `1.50` kept, sha256 and byteLength over them (they were of the value serialized again)", async () => {
    relay = await startRelay({
      upstream: recordedStdioUpstream("raw", [RAW_RESULT_SERVER_PATH], []),
    });
    const { artifact } = (await callSpaced(relay)).responseMeta;
    expect({ byteLength: artifact.byteLength, sha256: artifact.sha256 }).toEqual({
      byteLength: Buffer.byteLength(SPACED_STRUCTURED),
      sha256: sha256(SPACED_STRUCTURED),
    });
    const stored = await relay.bounded.store.get(artifact.id);
    expect(stored !== null && "body" in stored ? stored.body.toString("utf8") : stored).toBe(
      SPACED_STRUCTURED,
    );
    const page = (await relay.downstream.request(
      {
        method: "tools/call",
        params: {
          name: QUERY_TOOL_NAME,
          arguments: { artifactId: artifact.id, responsePath: "/total" },
        },
      } as never,
      AS_SENT,
    )) as { structuredContent: { response: unknown } };
    expect(page.structuredContent.response).toBe(1.5);
  });

  it("answer a number a double cannot hold as the upstream wrote it, from the parse cache too (SPEC.md §10)", async () => {
    relay = await startRelay({
      upstream: recordedStdioUpstream("raw", [RAW_RESULT_SERVER_PATH], []),
    });
    const { artifact } = (await callSpaced(relay)).responseMeta;
    const page = (await relay.downstream.request(
      {
        method: "tools/call",
        params: {
          name: QUERY_TOOL_NAME,
          arguments: { artifactId: artifact.id, responsePath: "/big" },
        },
      } as never,
      AS_SENT,
    )) as { content: { type: string; text: string }[] };
    const answer = page.content[0]?.text ?? "";
    expect(answer).toContain('"response":12345678901234567890');
    expect(answer).toContain('"inexactNumbers":{"pointers":[""],"total":1}');
  });

  it("are the value serialized again when a tool hook ran (a hook may change the value in place)", async () => {
    relay = await startRelay({
      upstream: recordedStdioUpstream("raw", [RAW_RESULT_SERVER_PATH], []),
      hooks: {
        spaced_structured: ({ result }) => {
          (result.structuredContent as { hooked?: boolean }).hooked = true;
        },
      },
    });
    const { artifact } = (await callSpaced(relay)).responseMeta;
    const expected = JSON.stringify({ ...JSON.parse(SPACED_STRUCTURED), hooked: true });
    expect({ byteLength: artifact.byteLength, sha256: artifact.sha256 }).toEqual({
      byteLength: Buffer.byteLength(expected),
      sha256: sha256(expected),
    });
  });
});
