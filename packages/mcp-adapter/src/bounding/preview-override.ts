import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import type { DocumentAnalysis } from "@bounded-mcp/query-core";

const PREVIEW_OVERRIDE = Symbol.for("bounded-mcp.preview-override");

/**
 * What a preview hook knows about a payload beyond its preview: facts the generic analysis cannot
 * see (the collections a domain cares about, a truncation marker written in plain text by the
 * upstream). Every field is optional; an absent one keeps the generic value.
 */
export interface PreviewOverride {
  /** The reshaped preview (compacted to previewBytes like any other); absent: the generic one. */
  preview?: unknown;
  /** The artifact's primaryPaths, most useful first; at most 6 are kept. */
  primaryPaths?: readonly string[];
  /** The payload is partial by its own account (e.g. an upstream's own size cut). */
  sourceTruncated?: boolean;
  /**
   * The reshaped preview shows every key of the items it lists (say, each template with all its
   * fields), so the envelope's guidance does not suggest describe. Default false: a reshaped
   * preview cannot be compared with the document, so describe is suggested.
   */
  itemKeysShown?: boolean;
  /**
   * The artifact's responseRoot (RFC 6901 pointer, "" for the whole document), where a query
   * without responsePath starts: a domain rule that must hold for every payload of a tool, where
   * the generic size-share analysis may pick different roots for look-alike payloads. JSON
   * payloads only (a text payload's root stays `/lines`); not checked against the document.
   */
  responseRoot?: string;
}

type BrandedOverride = PreviewOverride & { readonly [PREVIEW_OVERRIDE]: true };

/**
 * Wraps a preview hook's answer so the bounder also applies its primaryPaths, sourceTruncated and
 * responseRoot.
 * A hook that returns any other value still only reshapes the preview, so a plain object with a
 * `preview` key is never misread as an override. The paths are stored as given (RFC 6901
 * pointers into the stored document); they are not checked against it.
 */
export function createPreviewOverride(override: PreviewOverride): PreviewOverride {
  const branded: BrandedOverride = { ...override, [PREVIEW_OVERRIDE]: true };
  return branded;
}

function isPreviewOverride(value: unknown): value is BrandedOverride {
  return typeof value === "object" && value !== null && PREVIEW_OVERRIDE in value;
}

/** The preview and artifact facts after a hook's answer: the hook's where given, else the analysis. */
export interface ResolvedPreview {
  preview: unknown;
  primaryPaths: string[];
  sourceTruncated: boolean;
  itemKeysShown: boolean;
  /** The hook's responseRoot, when it gave one. */
  responseRoot?: string;
}

/** Merges a preview hook's answer (undefined, a reshaped value, or an override) with the analysis. */
export function resolvePreview(hookAnswer: unknown, analysis: DocumentAnalysis): ResolvedPreview {
  if (!isPreviewOverride(hookAnswer)) {
    return {
      preview: hookAnswer,
      primaryPaths: analysis.primaryPaths,
      sourceTruncated: analysis.sourceTruncated,
      itemKeysShown: false,
    };
  }
  return {
    preview: hookAnswer.preview,
    primaryPaths:
      hookAnswer.primaryPaths === undefined
        ? analysis.primaryPaths
        : hookAnswer.primaryPaths.slice(0, DEFAULT_LIMITS.maxPrimaryPaths),
    sourceTruncated: hookAnswer.sourceTruncated ?? analysis.sourceTruncated,
    itemKeysShown: hookAnswer.itemKeysShown ?? false,
    ...(hookAnswer.responseRoot === undefined ? {} : { responseRoot: hookAnswer.responseRoot }),
  };
}
