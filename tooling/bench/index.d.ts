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

/** One figure of a bench part: a median with its spread and a ratio to a same-run baseline. */
export interface BenchFigure {
  name: string;
  median: number;
  low: number | null;
  high: number | null;
  spread: "min-max" | null;
  unit: string;
  n: number | null;
  baseline: string | null;
  ratio: number | null;
  lowerIsBetter: boolean;
}
/** One target of a bench part; `met` is null when the measure is not a finite number. */
export interface BenchTarget {
  id: string;
  text: string;
  measured: number;
  op: "<=" | ">=";
  limit: number;
  unit: string;
  met: boolean | null;
  figure: string | null;
}
export declare function partsDirectory(): string;
export declare function figureOf(
  name: string,
  samples: number[],
  options?: {
    unit?: string;
    baseline?: { name: string; median: number };
    lowerIsBetter?: boolean;
  },
): BenchFigure;
export declare function medianFigure(
  name: string,
  value: number,
  options?: { unit?: string; baseline?: { name: string; median: number }; n?: number | null },
): BenchFigure;
export declare function targetOf(
  id: string,
  text: string,
  measured: number,
  op: "<=" | ">=",
  limit: number,
  unit?: string,
  figure?: string | null,
): BenchTarget;
export declare function writeBenchResult(
  section: string,
  part: string,
  result: {
    title: string;
    figures?: BenchFigure[];
    targets?: BenchTarget[];
    notes?: string[];
    tables?: { title: string; header: string[]; rows: string[][] }[];
  },
): string;
