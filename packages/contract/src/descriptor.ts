import { z } from "zod";
import { ArtifactRefSchema } from "./artifact.js";
import { CONTRACT_VERSION } from "./limits.js";

/**
 * What `resources/read` of `artifact://<namespace>/<id>` returns (SPEC.md §8): the artifact reference and
 * guidance, at most 8192 bytes, never payload (`rawReadable` is always false).
 */
export const DescriptorSchema = z.strictObject({
  descriptorVersion: z.literal(1),
  contractVersion: z.literal(CONTRACT_VERSION),
  ...ArtifactRefSchema.shape,
  rawReadable: z.literal(false),
  guidance: z.string(),
});
/** The body of an artifact descriptor resource; never the payload. */
export type Descriptor = z.infer<typeof DescriptorSchema>;
