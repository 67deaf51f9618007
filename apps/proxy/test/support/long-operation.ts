import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";

/**
 * Calls server-everything's trigger-long-running-operation (4 progress steps over `seconds`) and
 * runs `signal` (e.g. SIGTERM to the proxy) at the first progress notification, so the signal
 * lands while the call is in flight; then checks that the call still completed normally.
 */
export async function completeCallSignalledMidway(
  client: Client,
  seconds: number,
  signal: () => void,
): Promise<void> {
  let signalled = false;
  const result = await client.callTool(
    { name: "trigger-long-running-operation", arguments: { duration: seconds, steps: 4 } },
    undefined,
    {
      onprogress: () => {
        if (signalled) return;
        signalled = true;
        signal();
      },
    },
  );
  expect({ signalled, result }).toEqual({
    signalled: true,
    result: {
      content: [
        {
          type: "text",
          text: `Long running operation completed. Duration: ${seconds} seconds, Steps: 4.`,
        },
      ],
    },
  });
}
