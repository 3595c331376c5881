/**
 * Where a command writes: standard output and standard error, or what a
 * caller of `run` gives instead.
 *
 * @module
 */

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
