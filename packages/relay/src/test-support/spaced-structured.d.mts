/** structuredContent text as raw-result-server.mjs writes it (see spaced-structured.mjs). */
export declare const SPACED_STRUCTURED: string;
