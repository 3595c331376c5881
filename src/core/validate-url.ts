/**
 * Validation: parse a URL and report every validation error the URL
 * Standard names, with where it is in the input.
 *
 * https://url.spec.whatwg.org/#validation-error
 *
 * @module
 */

import { checkParseArguments, URLArgumentError } from "./argument-errors.ts";
import { type OutputEncodingName, resolveEncodingLabel } from "./encoding.ts";
import { ErrorSink } from "./error-sink.ts";
import type { ParseURLOptions } from "./api-url-parser.ts";
import { basicURLParse } from "./parser.ts";
import type { URLRecord } from "./url-record.ts";
import type { ValidationError } from "./validation-errors.ts";

/**
 * What {@link validateURL} returns: the parsed URL (null on failure) and the
 * validation errors in the order the parser met them.
 *
 * @example
 * ```ts
 * const result: ValidateURLResult = validateURL("https://a/");
 * result.errors; // []
 * ```
 */
export interface ValidateURLResult {
  url: URLRecord | null;
  errors: ValidationError[];
  /** With `maxErrors`: how many errors were found beyond it and not kept (absent when none). */
  omitted?: number;
}

/**
 * Options of {@link validateURL}: {@link parseURL}'s, and a bound on the
 * errors kept.
 *
 * @example
 * ```ts
 * const options: ValidateURLOptions = { base: "https://example.com/", maxErrors: 100 };
 * ```
 */
export interface ValidateURLOptions extends ParseURLOptions {
  /**
   * The most errors kept (default: all): an input with more, say a
   * million invalid code points, is validated in bounded memory, and
   * `omitted` counts the rest.
   */
  maxErrors?: number | undefined;
}

/**
 * Parses `input` like {@link parseURL} and reports the standard's validation
 * errors (https://url.spec.whatwg.org/#validation-error), each with its
 * {@link ValidationError} range in `input` as given. A string base that fails
 * gives `url: null` without its errors. Two choices, listed against
 * whatwg-url in test/core/validation-errors-vs-whatwg-url.json: one error per
 * run where a step signals one for its whole input; and a lone surrogate is
 * U+FFFD (a URL code point) by the time the parser sees it, as for `new URL()`.
 *
 * @example
 * ```ts
 * validateURL("https://user@exa mple.com:99999/");
 * // { url: null, errors: [
 * //   { type: "invalid-credentials", start: 12, end: 13 },
 * //   { type: "domain-to-ASCII", start: 16, end: 17 } ] }
 * validateURL("http:\\\\example.com\\a").errors.map((e) => e.type);
 * // ["special-scheme-missing-following-solidus", "invalid-reverse-solidus", …]
 * ```
 */
export function validateURL(input: string, options?: ValidateURLOptions): ValidateURLResult {
  // Misuse is a named error, not an internal TypeError from deep inside the parser.
  checkParseArguments("validateURL", input, options);
  let encoding: OutputEncodingName = "UTF-8";
  if (options?.encoding !== undefined) encoding = resolveEncodingLabel(options.encoding);
  let base: URLRecord | null = null;
  const givenBase = options?.base;
  if (typeof givenBase === "string") {
    base = basicURLParse(givenBase);
    if (base === null) return { url: null, errors: [] };
  } else if (givenBase !== undefined && givenBase !== null) {
    base = givenBase;
  }
  const maxErrors = options?.maxErrors;
  if (maxErrors !== undefined && !(typeof maxErrors === "number" && maxErrors >= 0 && (Number.isInteger(maxErrors) || maxErrors === Infinity))) {
    throw new URLArgumentError("validateURL", "options.maxErrors", "a whole number (0 or more, or Infinity)", maxErrors);
  }
  const errors = maxErrors === undefined ? new ErrorSink() : ErrorSink.bounded(maxErrors);
  const url = basicURLParse(input, { base, encoding, errors });
  return errors.omitted === 0 ? { url, errors: errors.errors } : { url, errors: errors.errors, omitted: errors.omitted };
}
