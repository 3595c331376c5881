/**
 * The API URL parser: parse a URL string against an optional base, in an
 * optional document encoding.
 *
 * https://url.spec.whatwg.org/#concept-url-parser
 *
 * @module
 */

import { checkParseArguments } from "./argument-errors.ts";
import { type OutputEncodingName, resolveEncodingLabel } from "./encoding.ts";
import { basicURLParse } from "./parser.ts";
import type { URLRecord } from "./url-record.ts";

/**
 * Options of {@link parseURL}.
 *
 * @example
 * ```ts
 * const options: ParseURLOptions = { base: "https://example.com/dir/", encoding: "windows-1252" };
 * ```
 */
export interface ParseURLOptions {
  /**
   * The base URL: a string (parsed first, as UTF-8) or an already-parsed
   * record. Resolving many references against one base should pass the
   * record, so the base is parsed once.
   */
  base?: string | URLRecord | null | undefined;
  /**
   * Any Encoding Standard label of the document's encoding ("latin1",
   * "sjis", "gb2312", …). It decides how the query of http(s), ftp and file
   * URLs is percent-encoded; UTF-16 and "replacement" use UTF-8. Default UTF-8.
   * An unknown label throws {@link UnknownEncodingError} (a TypeError).
   */
  encoding?: string | undefined;
}

/**
 * https://url.spec.whatwg.org/#concept-url-parser — returns the URL record,
 * or null when the input (or the base) is not a valid URL. Never throws for a
 * bad URL; throws `UnknownEncodingError` (a TypeError naming the label) for
 * an unknown `encoding` label, which is a programming error.
 *
 * @example
 * ```ts
 * parseURL("../c?q=é", { base: "https://example.com/a/b/" });
 * // { scheme: "https", host: "example.com", path: "/a/c", query: "q=%C3%A9", … }
 * parseURL("?q=é", { base: "https://example.com/", encoding: "latin1" })!.query; // "q=%E9"
 * parseURL("not a url"); // null
 * ```
 */
export function parseURL(input: string, options?: ParseURLOptions): URLRecord | null {
  // Misuse is a named error, not an internal TypeError from deep inside the parser.
  checkParseArguments("parseURL", input, options);
  let encoding: OutputEncodingName = "UTF-8";
  if (options?.encoding !== undefined) encoding = resolveEncodingLabel(options.encoding);
  let base: URLRecord | null = null;
  const givenBase = options?.base;
  if (typeof givenBase === "string") {
    // 1. If base is non-null: let parsedBase be the result of running the basic URL parser on base.
    base = basicURLParse(givenBase);
    // 2. If parsedBase is failure, then return failure.
    if (base === null) return null;
  } else if (givenBase !== undefined && givenBase !== null) {
    base = givenBase;
  }
  return basicURLParse(input, { base, encoding });
}
