/**
 * The error core raises when a function is called with an argument of the
 * wrong type — a programming error, not a bad URL (a bad URL is `null`).
 *
 * @module
 */

import { brandedError, brandGuard } from "./branded-error.ts";

/** How a value is named in a message: its type, and the value where it is short. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `the ${typeof value} ${String(value)}`;
  if (typeof value === "object") return Array.isArray(value) ? "an array" : `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}

/**
 * Thrown by `parseURL`, `validateURL` and the like when an argument has the
 * wrong type: `input` that is not a string, a `base` that is neither a
 * string nor a URL record, options that are not an object. Its message
 * names the function, the argument and what was given. A `TypeError`; use
 * {@link isURLArgumentError} across realms.
 *
 * @example
 * ```ts
 * try {
 *   parseURL(42 as never);
 * } catch (error) {
 *   isURLArgumentError(error); // true
 *   // error.message: "parseURL: input must be a string, not the number 42"
 * }
 * ```
 */
export class URLArgumentError extends brandedError<TypeError>("URLArgumentError", TypeError) {
  constructor(fn: string, argument: string, expected: string, value: unknown) {
    super(`${fn}: ${argument} must be ${expected}, not ${describe(value)}`);
  }
}

/**
 * Whether `value` is a {@link URLArgumentError} from any realm.
 *
 * @example
 * ```ts
 * isURLArgumentError(new URLArgumentError("parseURL", "input", "a string", 42)); // true
 * ```
 */
export const isURLArgumentError = brandGuard<URLArgumentError>("URLArgumentError");

/**
 * Checks the arguments every API parser takes: a string input and, if given,
 * an options object whose `base` is a string, a URL record or null.
 *
 * @example
 * ```ts
 * checkParseArguments("parseURL", "a", { base: 1 }); // throws URLArgumentError: parseURL: options.base must be a string or a URL record, not the number 1
 * ```
 */
export function checkParseArguments(fn: string, input: unknown, options: unknown): void {
  if (typeof input !== "string") throw new URLArgumentError(fn, "input", "a string", input);
  if (options === undefined) return;
  if (options === null || typeof options !== "object") throw new URLArgumentError(fn, "options", "an object", options);
  const base = (options as { base?: unknown }).base;
  if (base !== undefined && base !== null && typeof base !== "string" && (typeof base !== "object" || typeof (base as { scheme?: unknown }).scheme !== "string")) {
    throw new URLArgumentError(fn, "options.base", "a string or a URL record", base);
  }
  const encoding = (options as { encoding?: unknown }).encoding;
  if (encoding !== undefined && typeof encoding !== "string") throw new URLArgumentError(fn, "options.encoding", "a string (an encoding label)", encoding);
}
