/**
 * The error the command raises for misuse: a bad flag, a missing file, a
 * URL that is not absolute. The command prints its message and exits with
 * code 2.
 *
 * @module
 */

import { brandedError, brandGuard } from "../core/branded-error.ts";

/**
 * A usage error: the command line asks for something that cannot be done
 * (an unknown flag, two flags that exclude each other, an input that does
 * not exist, a `--url` that is not an absolute URL). Its message names the
 * bad value; `run` prints it and returns exit code 2. Use
 * {@link isUsageError} rather than `instanceof` across realms.
 *
 * @example
 * ```ts
 * try {
 *   await run(["node", "docbase", "links", "site", "--url", "/relative/"]);
 * } catch (error) {
 *   isUsageError(error); // never thrown by run: it returns 2 and prints
 *   // "docbase: --url: not an absolute URL: "/relative/""
 * }
 * new UsageError("--jobs: not a positive integer: \"0\"").exitCode; // 2
 * ```
 */
export class UsageError extends brandedError("UsageError", Error) {
  /** The process exit code for this error: always 2. */
  readonly exitCode: 2 = 2;
}

/**
 * Whether `value` is a {@link UsageError} from any realm.
 *
 * @example
 * ```ts
 * isUsageError(new UsageError("--url is required")); // true
 * isUsageError(new Error("x")); // false
 * ```
 */
export const isUsageError = brandGuard<UsageError>("UsageError");
