import { DEFAULT_LIMITS, type Limits } from "@bounded-mcp/contract";
import { z } from "zod";

/** Where oversized results are kept: in memory, under a directory, or in an S3 bucket. */
export const STORE_KINDS = ["memory", "fs", "s3"] as const;
/** One of STORE_KINDS. */
export type StoreKind = (typeof STORE_KINDS)[number];

/** The smallest previewBytes accepted: an envelope's metadata and guidance need about this much. */
export const MIN_PREVIEW_BYTES = 1_024;
/** Shortest artifact lifetime accepted (1 s); shorter makes every cursor die before it is used. */
export const MIN_TTL_MS = 1_000;
/** Longest artifact lifetime accepted (365 days). */
export const MAX_TTL_MS = 365 * 86_400_000;
/** Default byte budget of the parse cache (serialized bytes of the artifacts it holds). */
export const DEFAULT_PARSE_CACHE_BYTES = 256 * 1_024 * 1_024;
/** Default namespace of descriptor URIs (`artifact://bounded-mcp/<id>`). */
export const DEFAULT_NAMESPACE = "bounded-mcp";
/** A namespace is the authority of an `artifact://` URI: lowercase letters, digits, `.`, `_`, `-`. */
export const NAMESPACE_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

const limitsShape = Object.fromEntries(
  Object.keys(DEFAULT_LIMITS).map((key) => [key, z.int().positive()]),
) as Record<keyof Limits, z.ZodInt>;

/** Where the store settings end up once `store`, `storeDir` and `s3.*` are reconciled. */
export const StoreSettingsSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("memory") }),
  z.strictObject({ kind: z.literal("fs"), dir: z.string().min(1) }),
  z.strictObject({
    kind: z.literal("s3"),
    bucket: z.string().min(1),
    prefix: z.string(),
    endpoint: z.url().nullable(),
    region: z.string().min(1).nullable(),
  }),
]);
/** The artifact store to create, as the settings say. */
export type StoreSettings = z.infer<typeof StoreSettingsSchema>;

/**
 * Every adapter setting except the key ring (which holds secrets and is not data), validated as
 * one object: each value on its own, then the relations between them. Paths of issues are the
 * settings paths (`limits.inlineBytes`) that resolveSettings maps back to variable names.
 */
export const SettingsDataSchema = z
  .strictObject({
    limits: z.strictObject(limitsShape),
    quotaBytes: z.int().positive().nullable(),
    parseCacheBytes: z.int().nonnegative(),
    store: StoreSettingsSchema,
    namespace: z.string().regex(NAMESPACE_PATTERN, {
      message:
        "must be 1..63 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit",
    }),
    resourceLinks: z.boolean(),
    includeOutputSchema: z.boolean(),
    includeStructuredContent: z.boolean(),
  })
  .superRefine((settings, context) => {
    const { limits } = settings;
    const relation = (holds: boolean, paths: string[], message: string): void => {
      if (!holds) context.addIssue({ code: "custom", message, path: [], params: { paths } });
    };
    relation(
      limits.previewBytes >= MIN_PREVIEW_BYTES,
      ["limits.previewBytes"],
      `previewBytes must be at least ${MIN_PREVIEW_BYTES}`,
    );
    relation(
      limits.previewBytes < limits.inlineBytes,
      ["limits.previewBytes", "limits.inlineBytes"],
      "previewBytes must be less than inlineBytes (an envelope must be smaller than what it replaces)",
    );
    relation(
      limits.inlineBytes <= limits.hardBytes,
      ["limits.inlineBytes", "limits.hardBytes"],
      "inlineBytes must not exceed hardBytes",
    );
    relation(
      limits.inlineBytes >= limits.maxErrorEnvelopeBytes,
      ["limits.inlineBytes"],
      `inlineBytes must be at least ${limits.maxErrorEnvelopeBytes} so that an error envelope fits a query result`,
    );
    relation(
      limits.inlineBytes <= limits.artifactMaxBytes,
      ["limits.inlineBytes", "limits.artifactMaxBytes"],
      "inlineBytes must not exceed artifactMaxBytes (results in between could be neither inlined nor stored)",
    );
    relation(
      settings.quotaBytes === null || settings.quotaBytes >= limits.artifactMaxBytes,
      ["quotaBytes", "limits.artifactMaxBytes"],
      "quotaBytes must be at least artifactMaxBytes (else an accepted artifact could never be stored)",
    );
    relation(
      limits.ttlMs >= MIN_TTL_MS && limits.ttlMs <= MAX_TTL_MS,
      ["limits.ttlMs"],
      "the artifact lifetime must be between 1s and 365d",
    );
    relation(
      limits.minPageSize <= limits.pageSize && limits.pageSize <= limits.maxPageSize,
      ["limits.pageSize"],
      `pageSize must be between ${limits.minPageSize} and ${limits.maxPageSize}`,
    );
  });
/** The validated settings data (everything but the key ring). */
export type SettingsData = z.infer<typeof SettingsDataSchema>;
