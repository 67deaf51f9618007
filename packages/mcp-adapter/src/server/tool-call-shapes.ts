import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "null", "an array", "a string", ... for messages. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type === "bigint" ? "number" : type}`;
}

/**
 * What is wrong with the `arguments` of a tools/call, or undefined when they can be passed on
 * unchanged: absent, or a JSON object without an own `__proto__` key. Non-object arguments fail
 * the SDK's schema with a raw zod dump (-32603), and a `__proto__` key is turned into a prototype
 * by the SDK's record parsing, so the tool would silently receive other arguments.
 */
export function findArgumentsProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    return `was called with arguments that are ${kindOf(value)}, not a JSON object; send the arguments as an object of named values`;
  }
  if (Object.hasOwn(value, "__proto__")) {
    return 'was called with an argument named "__proto__", which cannot be passed on as data (it would be dropped); rename or remove it';
  }
  return undefined;
}

function blockProblem(block: unknown, where: string): string | undefined {
  if (!isObject(block)) return `${where} is ${kindOf(block)}, not a content block`;
  if (typeof block.type !== "string") return `${where}.type is ${kindOf(block.type)}, not a string`;
  switch (block.type) {
    case "text":
      return typeof block.text === "string"
        ? undefined
        : `${where}.text is ${kindOf(block.text)}, not a string`;
    case "image":
    case "audio":
      return typeof block.data === "string"
        ? undefined
        : `${where}.data is ${kindOf(block.data)}, not a base64 string`;
    case "resource": {
      const resource = block.resource;
      if (!isObject(resource)) return `${where}.resource is ${kindOf(resource)}, not an object`;
      if (typeof resource.text === "string" || typeof resource.blob === "string") return undefined;
      return `${where}.resource has neither a string text nor a string blob`;
    }
    default:
      // Other block types (resource_link, newer ones) are the client's to validate.
      return undefined;
  }
}

/**
 * What makes `result` not a CallToolResult the adapter can bound and the client can show, or
 * undefined when it is one: an object whose `content` (when present) is an array of blocks with
 * a string `type`, text blocks with a string `text`, image and audio blocks with string `data`,
 * resource blocks with a string `text` or `blob`; `structuredContent` not null. Block types it
 * does not know pass (the client validates them). Limits: a structural check of what bounding
 * reads, not the SDK's schema; linear in the number of blocks.
 */
export function findResultProblem(result: unknown): string | undefined {
  if (!isObject(result)) return `returned ${kindOf(result)}, not a CallToolResult object`;
  const { content } = result as Partial<CallToolResult> & Record<string, unknown>;
  if (content !== undefined) {
    if (!Array.isArray(content)) {
      return `returned a result whose content is ${kindOf(content)}, not an array of content blocks`;
    }
    for (let index = 0; index < content.length; index += 1) {
      const problem = blockProblem(content[index], `content[${index}]`);
      if (problem !== undefined) return `returned a result whose ${problem}`;
    }
  }
  if (result.structuredContent === null) {
    return "returned a result whose structuredContent is null, not an object";
  }
  return undefined;
}
