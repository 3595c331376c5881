/**
 * Where a command writes — standard output and standard error, or what a
 * caller of `run` gives instead — and the writing of held results, in
 * order.
 *
 * @module
 */

import type { FileResult } from "./file-task.ts";

/**
 * Where a command writes: standard output and standard error (replaceable
 * for tests and embedding).
 *
 * @example
 * ```ts
 * const chunks: (string | Uint8Array)[] = [];
 * const output: Output = { out: (s) => chunks.push(s), err: (s) => process.stderr.write(s) };
 * await run(["node", "docbase", "links", "site", "--url", "https://example.com/", "--json"], output);
 * ```
 */
export interface Output {
  /** Standard output: text, or UTF-8 bytes. */
  readonly out: (text: string | Uint8Array) => void;
  readonly err: (text: string) => void;
  /** Resolves when standard output can take more (a stream's output waits for it); default: at once. */
  readonly drain?: (() => Promise<void>) | undefined;
}

/**
 * Writes held results, in order: each one's standard error, and its
 * standard output.
 *
 * Optimisation: standard output gets few large writes (up to 1 MiB each),
 * not one per page.
 *
 * @example
 * ```ts
 * writeResults(settled, output);
 * ```
 */
export function writeResults(results: readonly FileResult[], output: Output): void {
  const encoder = new TextEncoder();
  let chunks: Uint8Array[] = [];
  let size = 0;
  const flush = (): void => {
    if (size === 0) return;
    output.out(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    chunks = [];
    size = 0;
  };
  for (const result of results) {
    if (result.err !== "") {
      flush();
      output.err(result.err);
    }
    if (result.out === "") continue;
    const bytes = typeof result.out === "string" ? encoder.encode(result.out) : result.out;
    chunks.push(bytes);
    size += bytes.length;
    if (size >= 1 << 20) flush();
  }
  flush();
}
