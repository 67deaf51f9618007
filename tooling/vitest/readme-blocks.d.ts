import type { ChildProcessWithoutNullStreams } from "node:child_process";

/** A marker before a README fence: a test runs it by name, or it says why no test does. */
export type ReadmeBlockMarker =
  | { kind: "run"; name: string }
  | { kind: "not-runnable"; reason: string }
  | { kind: "invalid"; text: string };

/** One fenced block of a Markdown file. */
export interface CodeBlock {
  line: number;
  language: string;
  code: string;
  marker: ReadmeBlockMarker | null;
}

/** Languages whose blocks must carry a marker. */
export declare const CHECKED_LANGUAGES: string[];
/** Every fenced block of a Markdown text, with its marker (null when none). */
export declare function listCodeBlocks(text: string): CodeBlock[];
/** The code of the block marked `run NAME`; throws unless exactly one block has that name. */
export declare function readmeBlock(readme: string | URL, name: string): string;
/** Writes the block (with code around it) into the package's test-results/readme-blocks/. */
export declare function writeReadmeBlock(options: {
  readme: string | URL;
  name: string;
  packageDir: string | URL;
  before?: string;
  after?: string;
  extension?: string;
}): string;
/** The exit of a spawned block. */
export interface BlockExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}
/** Starts a written block with `node --import tsx`. */
export declare function spawnReadmeBlock(
  file: string,
  options?: { args?: string[]; env?: NodeJS.ProcessEnv; cwd?: string },
): {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<BlockExit>;
  collectStdout(): void;
  stderr(): string;
};
/**
 * Closes `client` (which ends the child's stdin only) and waits up to `deadlineMs` for the
 * spawned block to exit by itself: its exit, or "still running" (the child is then killed).
 */
export declare function closeAndAwaitExit(
  client: { close(): Promise<void> },
  running: { child: ChildProcessWithoutNullStreams; exited: Promise<BlockExit> },
  deadlineMs: number,
): Promise<BlockExit | "still running">;
/** The shape of the MCP SDK's Transport that a Client needs (structural: no SDK import here). */
export interface ChildStdioTransport {
  start(): Promise<void>;
  send(message: unknown): Promise<void>;
  close(): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK assigns its own typed callbacks.
  onmessage?: (message: any) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}
/** A client transport whose close() only ends the child's stdin. */
export declare function createChildStdioTransport(
  child: ChildProcessWithoutNullStreams,
): ChildStdioTransport;
