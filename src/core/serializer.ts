/**
 * The URL serializer and the path serializer.
 *
 * https://url.spec.whatwg.org/#url-serializing
 *
 * @module
 */

import type { URLRecord } from "./url-record.ts";

/**
 * Options of {@link serializeURL}.
 *
 * @example
 * ```ts
 * const options: SerializeURLOptions = { excludeFragment: true };
 * ```
 */
export interface SerializeURLOptions {
  /** https://url.spec.whatwg.org/#url-serializer — leave out the fragment. */
  excludeFragment?: boolean;
}

/**
 * https://url.spec.whatwg.org/#concept-url-serializer
 *
 * @example
 * ```ts
 * serializeURL(parseURL("HTTPS://example.com:443/a?b#c")!); // "https://example.com/a?b#c"
 * serializeURL(parseURL("https://example.com/a#c")!, { excludeFragment: true }); // "https://example.com/a"
 * ```
 */
export function serializeURL(url: URLRecord, options?: SerializeURLOptions): string {
  // 1. Let output be url's scheme and U+003A (:) concatenated.
  let output = url.scheme + ":";
  // 2. If url's host is non-null: …
  if (url.host !== null) {
    output += "//";
    if (url.username !== "" || url.password !== "") {
      output += url.username;
      if (url.password !== "") output += ":" + url.password;
      output += "@";
    }
    output += url.host;
    if (url.port !== null) output += ":" + url.port;
  }
  // 3. If url's host is null, url does not have an opaque path, url's path's size is greater
  //    than 1, and url's path[0] is the empty string, then append U+002F (/) followed by
  //    U+002E (.) to output.
  if (url.host === null && !url.opaquePath && url.path.charCodeAt(1) === 0x2f && url.path.charCodeAt(0) === 0x2f) {
    output += "/.";
  }
  // 4. Append the result of URL path serializing url to output.
  output += url.path;
  // 5. If url's query is non-null, append U+003F (?), followed by url's query, to output.
  if (url.query !== null) output += "?" + url.query;
  // 6. If exclude fragment is false and url's fragment is non-null, then append U+0023 (#), followed by url's fragment, to output.
  if (url.fragment !== null && options?.excludeFragment !== true) output += "#" + url.fragment;
  return output;
}

/**
 * https://url.spec.whatwg.org/#url-path-serializer
 *
 * @example
 * ```ts
 * serializePath(parseURL("https://a/x/y")!); // "/x/y"
 * serializePath(parseURL("mailto:x@y")!); // "x@y"
 * ```
 */
export function serializePath(url: URLRecord): string {
  // The record keeps the path serialized (see URLRecord).
  return url.path;
}
