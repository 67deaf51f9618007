export declare function quantile(values: number[], q: number): number;
export declare function median(values: number[]): number;
export declare function measure<S = undefined>(
  fn: (state: S) => unknown,
  options?: { runs?: number; warmup?: number; setup?: () => S | Promise<S> },
): Promise<number[]>;
export declare function summarize(samples: number[]): {
  median: number;
  p99: number;
  min: number;
  max: number;
  runs: number;
};
export declare function withPeakRss<T>(
  fn: () => T | Promise<T>,
  options?: { intervalMs?: number },
): Promise<{ result: T; peakRss: number; rssBefore: number }>;
export declare function formatMs(ms: number): string;
export declare function formatBytes(bytes: number): string;
export declare function printTable(title: string, rows: Record<string, unknown>[]): void;
