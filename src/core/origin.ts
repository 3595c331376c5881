/**
 * Origins of URLs and their serialization.
 *
 * https://url.spec.whatwg.org/#origin and https://html.spec.whatwg.org/multipage/browsers.html#origin
 *
 * @module
 */

import { basicURLParse } from "./parser.ts";
import type { URLRecord } from "./url-record.ts";

/**
 * https://html.spec.whatwg.org/multipage/browsers.html#concept-origin — a
 * tuple origin, or an opaque origin (which serializes to "null").
 *
 * @example
 * ```ts
 * const origin: Origin = { type: "tuple", scheme: "https", host: "example.com", port: null, domain: null };
 * ```
 */
export type Origin =
  | { type: "opaque" }
  | { type: "tuple"; scheme: string; host: string; port: number | null; domain: string | null };

const opaqueOrigin: Origin = Object.freeze({ type: "opaque" });

/**
 * https://url.spec.whatwg.org/#concept-url-origin
 *
 * Deviation: every opaque origin returned is the same frozen value; the
 * standard makes a new one each time, which only matters for identity
 * comparison, not for serialization.
 *
 * @example
 * ```ts
 * urlOrigin(parseURL("https://example.com:8080/x")!);
 * // { type: "tuple", scheme: "https", host: "example.com", port: 8080, domain: null }
 * urlOrigin(parseURL("blob:https://a.example/uuid")!); // tuple origin of https://a.example
 * urlOrigin(parseURL("file:///etc/passwd")!); // { type: "opaque" }
 * ```
 */
export function urlOrigin(url: URLRecord): Origin {
  switch (url.scheme) {
    case "blob": {
      // "If url's blob URL entry is non-null, then return url's blob URL entry's environment's
      // origin." docbase has no blob URL store, so that step never applies.
      const pathURL = basicURLParse(url.path);
      // "If pathURL's scheme is "http", "https", or "file", then return pathURL's origin."
      if (pathURL !== null && (pathURL.scheme === "http" || pathURL.scheme === "https" || pathURL.scheme === "file")) {
        return urlOrigin(pathURL);
      }
      return opaqueOrigin;
    }
    case "ftp":
    case "http":
    case "https":
    case "ws":
    case "wss":
      return { type: "tuple", scheme: url.scheme, host: url.host ?? "", port: url.port, domain: null };
    case "file":
      // "Unfortunate as it is, this is left as an exercise to the reader. When in doubt, return a new opaque origin."
      return opaqueOrigin;
    default:
      return opaqueOrigin;
  }
}

/**
 * https://html.spec.whatwg.org/multipage/browsers.html#ascii-serialisation-of-an-origin
 *
 * @example
 * ```ts
 * serializeOrigin(urlOrigin(parseURL("https://example.com:8080/x")!)); // "https://example.com:8080"
 * serializeOrigin({ type: "opaque" }); // "null"
 * ```
 */
export function serializeOrigin(origin: Origin): string {
  if (origin.type === "opaque") return "null";
  let result = origin.scheme + "://" + origin.host;
  if (origin.port !== null) result += ":" + origin.port;
  return result;
}
