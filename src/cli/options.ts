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
}

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
