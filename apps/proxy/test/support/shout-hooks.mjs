// A --hooks module for the tests: echo's result is replaced, in upper case, through the per-call
// result SDK; every other tool is left alone.
import { getRawCallToolRequest, setRawCallToolResult } from "@bounded-mcp/mcp-adapter";

export default {
  tools: {
    echo: ({ result }) => {
      const request = getRawCallToolRequest();
      setRawCallToolResult({
        content: [{ type: "text", text: result.content[0].text.toUpperCase() }],
        _meta: { hookedArguments: request?.params.arguments ?? null },
      });
    },
  },
};
