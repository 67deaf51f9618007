import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

/** The tokenizer's name, as the report states it. */
export const TOKENIZER = "o200k_base (js-tiktoken 1.0.21)";

const encoder = new Tiktoken(o200kBase);

/**
 * The number of tokens of `text` with a real BPE tokenizer (o200k_base, the GPT-4o family's).
 * Claude's current tokenizer is not published; raw and bounded are counted with the same
 * vocabulary, so the ratios are what the report compares. Costs about 1 s per MB of JSON.
 */
export function countTokens(text: string): number {
  return encoder.encode(text).length;
}
