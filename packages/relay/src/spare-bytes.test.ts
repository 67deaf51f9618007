import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";
import { createPayloadText } from "./test-support/payload.mjs";
import { recordedStdioUpstream, startRelay } from "./test-support/start-relay.js";
import { type Artifact, AS_SENT, sha256, storedText } from "./test-support/stored-answers.js";

interface Bounded {
  structuredContent: { responseMeta: { artifact: Artifact } };
}

async function boundedPayload(hookText?: string): Promise<{ artifact: Artifact; stored: unknown }> {
  const relay = await startRelay({
    upstream: recordedStdioUpstream("fixture", [FIXTURE_SERVER_PATH], []),
    ...(hookText === undefined
      ? {}
      : {
          hooks: {
            payload: ({ result }) => {
              const [block] = result.content;
              // Changed in place: the spare memory of the line stands for nothing, so the bounder
              // must store the hooked text, not the upstream's.
              if (block?.type === "text") block.text = hookText;
            },
          },
        }),
  });
  try {
    const result = (await relay.downstream.request(
      { method: "tools/call", params: { name: "payload", arguments: { mebibytes: 30 } } } as never,
      AS_SENT,
    )) as unknown as Bounded;
    const { artifact } = result.structuredContent.responseMeta;
    return { artifact, stored: await storedText(relay, artifact.id) };
  } finally {
    await relay.close();
  }
}

describe("a 30 MiB result bounded in the memory its stdio line was read into", () => {
  it("stores exactly the upstream's text, sha256 and byteLength over it", async () => {
    const text = createPayloadText(30);
    const { artifact, stored } = await boundedPayload();
    expect({
      byteLength: artifact.byteLength,
      sha256: artifact.sha256,
      stored: stored === text,
    }).toEqual({ byteLength: Buffer.byteLength(text), sha256: sha256(text), stored: true });
  }, 60_000);

  it("stores the text a hook put in place of the upstream's, not the line's bytes", async () => {
    const hooked = createPayloadText(20).replace("{", '{"hooked":"é",');
    const { artifact, stored } = await boundedPayload(hooked);
    expect({
      byteLength: artifact.byteLength,
      sha256: artifact.sha256,
      stored: stored === hooked,
    }).toEqual({ byteLength: Buffer.byteLength(hooked), sha256: sha256(hooked), stored: true });
  }, 60_000);
});
