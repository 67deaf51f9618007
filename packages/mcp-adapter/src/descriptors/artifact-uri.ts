/** The descriptor URI of an artifact (SPEC.md §8). */
export function formatArtifactUri(namespace: string, id: string): string {
  return `artifact://${namespace}/${id}`;
}

/** The URI template registered for descriptor reads: `artifact://<namespace>/{id}`. */
export function artifactUriTemplate(namespace: string): string {
  return `artifact://${namespace}/{id}`;
}

/** The id in a descriptor URI of this namespace, or null for any other URI. */
export function parseArtifactUri(namespace: string, uri: string): string | null {
  const prefix = `artifact://${namespace}/`;
  if (!uri.startsWith(prefix)) return null;
  const id = uri.slice(prefix.length);
  return id === "" || id.includes("/") ? null : id;
}
