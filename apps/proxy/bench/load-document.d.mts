/** The JSON text of the load benchmark's document of about `mebibytes` MiB (`{"rows":[...]}`). */
export function loadDocumentText(mebibytes: number): string;
/** The 16 filtered queries of the load benchmark, for one artifact id. */
export function loadQueries(artifactId: string): Record<string, unknown>[];
