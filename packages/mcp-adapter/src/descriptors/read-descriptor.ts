import type { KeyRing } from "@bounded-mcp/query-core";
import {
  type ErrorCode,
  McpError,
  type ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { ScopeContext, ScopeFinder } from "../artifacts/scope.js";
import { parseArtifactUri } from "./artifact-uri.js";
import { createDescriptor } from "./descriptor.js";
import { isMediaArtifact, readMediaContents } from "./media-artifact.js";

/** MCP's "resource not found" code (docs/sdk-notes.md 3); a plain throw would become -32603. */
export const RESOURCE_NOT_FOUND = -32002;

/** Reads one descriptor resource; throws the uniform McpError -32002 when it is not available. */
export type DescriptorReader = (uri: string, context?: ScopeContext) => Promise<ReadResourceResult>;

/**
 * The one answer for every descriptor that cannot be read: malformed, unknown, expired, another
 * caller's, or a failing store. Its message and data depend only on the URI asked for, so a
 * caller cannot tell another scope's artifact from one that never existed.
 */
export function descriptorUnavailable(uri: string): McpError {
  return new McpError(
    RESOURCE_NOT_FOUND as ErrorCode,
    "Resource not found: no artifact descriptor is available at this URI",
    { uri },
  );
}

/** A stored media block as its blob; the uniform unavailable answer when it cannot be read. */
async function readMedia(
  artifacts: ArtifactService,
  uri: string,
  id: string,
  scopeHash: string,
): Promise<ReadResourceResult> {
  let opened: Awaited<ReturnType<ArtifactService["open"]>>;
  try {
    opened = await artifacts.open(id, scopeHash);
  } catch {
    throw descriptorUnavailable(uri);
  }
  const contents =
    opened.ok && "artifact" in opened
      ? readMediaContents(uri, opened.artifact.document)
      : undefined;
  if (contents === undefined) throw descriptorUnavailable(uri);
  return contents;
}

/**
 * Creates the reader behind `artifact://<namespace>/{id}` (SPEC.md §8): the descriptor
 * JSON (at most 8192 bytes) for the caller's own artifacts, never their payload; metadata only,
 * so the body is neither read nor parsed. The one exception is a media block stored because it
 * was over the media budget (recognised by its id, which only the key ring can mint, see
 * deriveMediaArtifactId): it is read as the blob the upstream sent, as its resource_link says.
 * Without `keyRing` no artifact is read as media.
 */
export function createDescriptorReader(dependencies: {
  namespace: string;
  artifacts: ArtifactService;
  findScope: ScopeFinder;
  keyRing?: KeyRing | undefined;
}): DescriptorReader {
  return async (uri, context = {}) => {
    const id = parseArtifactUri(dependencies.namespace, uri);
    if (id === null) throw descriptorUnavailable(uri);
    const scope = await dependencies.findScope(context);
    let found: Awaited<ReturnType<ArtifactService["head"]>>;
    try {
      found = await dependencies.artifacts.head(id, scope.hash);
    } catch {
      throw descriptorUnavailable(uri);
    }
    if (!found.ok) throw descriptorUnavailable(uri);
    const { keyRing } = dependencies;
    if (keyRing !== undefined && isMediaArtifact(keyRing, found.meta)) {
      return readMedia(dependencies.artifacts, uri, id, scope.hash);
    }
    const descriptor = createDescriptor(found.meta, uri);
    return {
      contents: [{ uri, mimeType: "application/json", text: JSON.stringify(descriptor) }],
    };
  };
}
