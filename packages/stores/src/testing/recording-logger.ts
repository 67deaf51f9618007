import type { StoreLogger } from "../shared/logger.js";

/** A StoreLogger that keeps every line, for tests that check what a store reported. */
export interface RecordingStoreLogger extends StoreLogger {
  readonly lines: { message: string; fields: Record<string, unknown> | undefined }[];
}

/** A fresh RecordingStoreLogger. */
export function createRecordingStoreLogger(): RecordingStoreLogger {
  const lines: RecordingStoreLogger["lines"] = [];
  return {
    lines,
    warn(message, fields) {
      lines.push({ message, fields });
    },
  };
}
