/** The names an entry file exports through named re-export blocks; throws on `export *`. */
export declare function readEntryExports(entryUrl: URL): { values: string[]; types: string[] };
