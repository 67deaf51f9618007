#!/usr/bin/env node
// A stdio MCP server for the relay's outcome tests: each tool answers tools/call with one result
// written as raw JSON text, results an SDK server would never send (result null, a text block
// whose text is not a string, structuredContent nested 100,000 deep). `echo_arguments` answers
// with the arguments it received, as JSON text.
import { createInterface } from "node:readline";
import { SPACED_STRUCTURED } from "./spaced-structured.mjs";

const DEPTH = 100_000;
const deepValue = `${'{"a":['.repeat(DEPTH)}1${"]}".repeat(DEPTH)}`;

/** Raw result text by tool name. */
const RESULTS = {
  null_result: "null",
  string_result: '"done"',
  array_result: "[]",
  content_not_array: '{"content":"done"}',
  text_not_string: `{"content":[{"type":"text","text":{"rows":[${Array.from({ length: 2000 }, (_, index) => `{"id":${index},"name":"row ${index} ${"x".repeat(20)}"}`).join(",")}]}}]}`,
  deep_structured: `{"content":[{"type":"text","text":"deep"}],"structuredContent":${deepValue}}`,
  spaced_structured: `{"content":[{"type":"text","text":"spaced"}], "structuredContent" :  ${SPACED_STRUCTURED}  }`,
  deep_text: `{"content":[{"type":"text","text":${JSON.stringify(deepValue)}}]}`,
};

const TOOLS = [...Object.keys(RESULTS), "echo_arguments"].map((name) => ({
  name,
  inputSchema: { type: "object" },
}));

function reply(id, resultText) {
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultText}}\n`);
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  if (message.method === "initialize") {
    reply(
      message.id,
      JSON.stringify({
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "raw-result-server", version: "1.0.0" },
      }),
    );
  } else if (message.method === "tools/list") {
    reply(message.id, JSON.stringify({ tools: TOOLS }));
  } else if (message.method === "tools/call" && message.params.name === "echo_arguments") {
    const text = JSON.stringify(message.params.arguments ?? null);
    reply(message.id, JSON.stringify({ content: [{ type: "text", text }] }));
  } else if (message.method === "tools/call") {
    reply(message.id, RESULTS[message.params.name] ?? '{"content":[]}');
  } else {
    reply(message.id, "{}");
  }
}
