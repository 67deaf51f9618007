import { z } from "zod";
import { QUERY_TOOL_NAME } from "./limits.js";

/** An artifact id (SPEC.md §7): 20..100 url-safe characters, unguessable. */
export const ARTIFACT_ID_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;
/** An artifact id as it appears in envelopes; requests take any string and answer INVALID_ARTIFACT_HANDLE. */
export const ArtifactIdSchema = z.string().regex(ARTIFACT_ID_PATTERN);

/** How a stored payload is queried: JSON as parsed, text as `{"lines": [...]}`. */
export const ARTIFACT_MEDIA_TYPES = ["application/json", "text/plain"] as const;
/** The media type of a stored payload. */
export const ArtifactMediaTypeSchema = z.enum(ARTIFACT_MEDIA_TYPES);
/** "application/json" or "text/plain": how the stored payload is queried. */
export type ArtifactMediaType = z.infer<typeof ArtifactMediaTypeSchema>;

/**
 * An RFC 6901 pointer: "" (the whole document) or "/"-prefixed. `[\s\S]` rather than `.` with
 * the s flag: JSON Schema patterns drop regex flags, and a key (so a pointer) may hold a newline.
 */
export const PointerSchema = z.string().regex(/^(\/[\s\S]*)?$/);

/** The artifact reference of a bounded envelope (SPEC.md §2) and of a descriptor (§8). */
export const ArtifactRefSchema = z.strictObject({
  id: ArtifactIdSchema,
  uri: z.string().optional(),
  mediaType: ArtifactMediaTypeSchema,
  byteLength: z.int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  expiresAt: z.iso.datetime(),
  queryTool: z.literal(QUERY_TOOL_NAME),
  responseRoot: PointerSchema,
  primaryPaths: z.array(PointerSchema).max(6),
  sourceTruncated: z.boolean(),
});
/** `responseMeta.artifact` of a bounded envelope: where the payload went and how to query it. */
export type ArtifactRef = z.infer<typeof ArtifactRefSchema>;
