/**
 * The URL record.
 *
 * https://url.spec.whatwg.org/#concept-url
 *
 * @module
 */

/**
 * A URL record: the parsed form of a URL, as the URL Standard defines it.
 *
 * Deviation (representation, not behaviour): as ada does, the record keeps
 * the *serialized* host (IPv6 in brackets, IPv4 dotted) and the *serialized*
 * path (`"/a/b"` for `["a", "b"]`, `""` for the empty list), so getters and
 * the serializer are slices and shortening is a `lastIndexOf("/")`. Use
 * {@link pathSegments} for the list.
 *
 * @example
 * ```ts
 * import { parseURL } from "docbase/core";
 * const url = parseURL("https://example.com:8080/a/b?q#f")!;
 * url.scheme; // "https"
 * url.host; // "example.com"
 * url.port; // 8080
 * url.path; // "/a/b"
 * url.query; // "q"
 * url.fragment; // "f"
 * ```
 */
export interface URLRecord {
  /** https://url.spec.whatwg.org/#concept-url-scheme — ASCII lower case, without ":". */
  scheme: string;
  /** https://url.spec.whatwg.org/#concept-url-username — percent-encoded. */
  username: string;
  /** https://url.spec.whatwg.org/#concept-url-password — percent-encoded. */
  password: string;
  /** https://url.spec.whatwg.org/#concept-url-host — serialized host, or null. */
  host: string | null;
  /** https://url.spec.whatwg.org/#concept-url-port — null when default or absent. */
  port: number | null;
  /**
   * https://url.spec.whatwg.org/#concept-url-path — the serialized path: for a
   * list, each segment preceded by "/"; for an opaque path, the opaque string.
   */
  path: string;
  /** https://url.spec.whatwg.org/#url-opaque-path — true when `path` is an opaque path. */
  opaquePath: boolean;
  /** https://url.spec.whatwg.org/#concept-url-query — percent-encoded, without "?". */
  query: string | null;
  /** https://url.spec.whatwg.org/#concept-url-fragment — percent-encoded, without "#". */
  fragment: string | null;
}

/**
 * Creates a new URL record with every field at the standard's initial value.
 *
 * @example
 * ```ts
 * const url = createURLRecord();
 * url.path; // "" (the empty list)
 * ```
 */
export function createURLRecord(): URLRecord {
  return {
    scheme: "",
    username: "",
    password: "",
    host: null,
    port: null,
    path: "",
    opaquePath: false,
    query: null,
    fragment: null,
  };
}

/**
 * Copies a URL record (the standard's records are values; the parser mutates
 * the one it is given under state override).
 *
 * @example
 * ```ts
 * const copy = cloneURLRecord(parseURL("https://a/")!);
 * ```
 */
export function cloneURLRecord(url: URLRecord): URLRecord {
  return {
    scheme: url.scheme,
    username: url.username,
    password: url.password,
    host: url.host,
    port: url.port,
    path: url.path,
    opaquePath: url.opaquePath,
    query: url.query,
    fragment: url.fragment,
  };
}

/**
 * The path as the standard's list of segments (or the opaque path string).
 *
 * https://url.spec.whatwg.org/#concept-url-path
 *
 * @example
 * ```ts
 * pathSegments(parseURL("https://a/x/y/")!); // ["x", "y", ""]
 * pathSegments(parseURL("mailto:me@example.com")!); // "me@example.com"
 * ```
 */
export function pathSegments(url: URLRecord): string[] | string {
  if (url.opaquePath) return url.path;
  if (url.path === "") return [];
  return url.path.slice(1).split("/");
}

/**
 * https://url.spec.whatwg.org/#special-scheme — the default port of each
 * special scheme (null for file, which has none).
 *
 * @example
 * ```ts
 * specialSchemes.get("wss"); // 443
 * specialSchemes.has("mailto"); // false
 * ```
 */
export const specialSchemes: ReadonlyMap<string, number | null> = new Map<string, number | null>([
  ["ftp", 21],
  ["file", null],
  ["http", 80],
  ["https", 443],
  ["ws", 80],
  ["wss", 443],
]);

/**
 * https://url.spec.whatwg.org/#is-special — a URL is special if its scheme is a special scheme.
 *
 * @example
 * ```ts
 * isSpecialScheme("https"); // true
 * isSpecialScheme("mailto"); // false
 * ```
 */
export function isSpecialScheme(scheme: string): boolean {
  // Optimisation: the two schemes nearly every URL has are checked first.
  return scheme === "https" || scheme === "http" || specialSchemes.has(scheme);
}

/**
 * https://url.spec.whatwg.org/#default-port
 *
 * @example
 * ```ts
 * defaultPort("https"); // 443
 * defaultPort("file"); // null
 * ```
 */
export function defaultPort(scheme: string): number | null {
  return specialSchemes.get(scheme) ?? null;
}

/**
 * https://url.spec.whatwg.org/#include-credentials
 *
 * @example
 * ```ts
 * includesCredentials(parseURL("https://u@a/")!); // true
 * ```
 */
export function includesCredentials(url: URLRecord): boolean {
  return url.username !== "" || url.password !== "";
}

/**
 * https://url.spec.whatwg.org/#cannot-have-a-username-password-port
 *
 * @example
 * ```ts
 * cannotHaveUsernamePasswordPort(parseURL("file:///x")!); // true
 * ```
 */
export function cannotHaveUsernamePasswordPort(url: URLRecord): boolean {
  return url.host === null || url.host === "" || url.scheme === "file";
}
