/** Deterministic JSON text of at least `mebibytes` MiB (see payload.mjs). */
export declare function createPayloadText(mebibytes: number): string;
