import { errorMessage } from "../error-message.js";
import type { PayloadText } from "./payload.js";

/** What a redaction hook is told about the payload it rewrites. */
export interface RedactContext {
  /** The tool whose result this is, when known. */
  toolName: string | undefined;
  /** The upstream marked the result as an error. */
  isError: boolean;
}

/**
 * Rewrites an oversized result's payload text before anything is stored or previewed (the
 * artifact, the envelope's preview, every later query answer and the preview of a bounded error
 * all come from what it returns), e.g. to replace secrets. It gets the exact text that would be
 * stored (compact JSON of structuredContent, or the text block as received) and returns the text
 * to store, synchronously or as a promise. Rules: a payload that was JSON must stay JSON (its
 * media type and queries depend on it); a throw, a rejected promise, a non-string, or non-JSON
 * for a JSON payload refuses the result with a bounded ARTIFACT_STORE_UNAVAILABLE error
 * (`details.reason: "redaction_failed"`, no preview): nothing is stored and the unredacted text
 * is never shown. Limits: results at or under inlineBytes pass through unchanged and are not
 * given to the hook; the hook runs on the main thread for every oversized result, and the
 * returned text is parsed once (before encoding, so with a hook the hash no longer overlaps the
 * parse).
 */
export type RedactHook = (payloadText: string, context: RedactContext) => string | Promise<string>;

/** The redacted payload text, or why the result must be refused. */
export type RedactOutcome =
  | { ok: true; source: PayloadText }
  | {
      ok: false;
      /** What went wrong, for the caller's error message (never the hook's own error text). */
      problem: string;
      /** The hook's error, for the log only: it may quote the very text being redacted. */
      detail: string | undefined;
      byteLength: number;
    };

function parsesAsJson(text: string): { parsed: true; document: unknown } | { parsed: false } {
  try {
    return { parsed: true, document: JSON.parse(text) };
  } catch {
    return { parsed: false };
  }
}

/** True when the selected payload would be stored as application/json. */
function wasJson(source: PayloadText): boolean {
  if (source.parsed !== undefined) return source.parsed.mediaType === "application/json";
  return parsesAsJson(source.text).parsed;
}

/**
 * Runs `hook` on a selected payload (see RedactHook for the rules). Without a hook, or when it
 * returns the text unchanged, the selection is kept as is (its parsed value too).
 */
export async function redactPayloadText(
  hook: RedactHook | undefined,
  source: PayloadText,
  context: RedactContext,
): Promise<RedactOutcome> {
  if (hook === undefined) return { ok: true, source };
  const refuse = (problem: string, detail?: string): RedactOutcome => ({
    ok: false,
    problem,
    detail,
    byteLength: Buffer.byteLength(source.text),
  });
  let text: unknown;
  try {
    text = await hook(source.text, context);
  } catch (error) {
    return refuse("the redaction hook threw", errorMessage(error));
  }
  if (typeof text !== "string") return refuse(`the redaction hook returned a ${typeof text}`);
  if (text === source.text) return { ok: true, source };
  const json = parsesAsJson(text);
  if (json.parsed)
    return {
      ok: true,
      source: { text, parsed: { mediaType: "application/json", document: json.document } },
    };
  if (wasJson(source))
    return refuse("the redaction hook returned text that is not JSON for a JSON payload");
  return { ok: true, source: { text } };
}
