/**
 * The options the commands share, as commander gives them to a command,
 * and the check of `--encoding` (an Encoding Standard label).
 *
 * @module
 */

import { getEncoding } from "../core/index.ts";
import { UsageError } from "./errors.ts";

/**
 * Options every file-processing command takes (links, check, rewrite).
 *
 * @example
 * ```ts
 * const options: CommonOptions = { json: true, jobs: 2, quiet: true };
 * ```
 */
export interface CommonOptions {
  readonly json?: boolean | undefined;
  readonly encoding?: string | undefined;
  readonly jobs?: number | undefined;
  readonly quiet?: boolean | undefined;
  readonly progress?: boolean | undefined;
  /** Follow symbolic links out of the site root (`--follow-symlinks`). */
  readonly followSymlinks?: boolean | undefined;
  /** The largest file read, in bytes (`--max-file-size`); default DEFAULT_MAX_FILE_SIZE. */
  readonly maxFileSize?: number | undefined;
  /** The longest token of a file read as a stream, in characters (`--max-token`); default DEFAULT_MAX_TOKEN. */
  readonly maxToken?: number | undefined;
}

/**
 * Options of the commands that read standard input as a stream (`links -`,
 * `rewrite -`).
 *
 * @example
 * ```ts
 * const options: StreamingOptions = { maxHold: 4 * 1024 * 1024, spool: true };
 * ```
 */
export interface StreamingOptions {
  /** The most of standard input held in memory before it is spooled to a temporary file (`--max-hold`); default {@link DEFAULT_MAX_HOLD}. */
  readonly maxHold?: number | undefined;
  /** Spool standard input past `maxHold` (`--no-spool`: false, one stream, with a warning). Default true. */
  readonly spool?: boolean | undefined;
}

/**
 * The default of `--max-hold`: 1 MiB, the links layer's default hold (most
 * pages are smaller, and are read whole without a temporary file).
 *
 * @example
 * ```ts
 * DEFAULT_MAX_HOLD; // 1048576
 * ```
 */
export const DEFAULT_MAX_HOLD = 1024 * 1024;

/**
 * Checks `--encoding`: an Encoding Standard label, returned as given, or
 * a usage error naming it.
 *
 * @example
 * ```ts
 * encodingOption("latin1"); // "latin1"
 * encodingOption(undefined); // undefined
 * encodingOption("klingon"); // throws UsageError('--encoding: unknown encoding label: "klingon" (see ...)')
 * ```
 */
export function encodingOption(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  if (getEncoding(label) === null) throw new UsageError(`--encoding: unknown encoding label: ${JSON.stringify(label)} (see https://encoding.spec.whatwg.org/#names-and-labels)`);
  return label;
}
