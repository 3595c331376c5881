/**
 * Guarded fast paths in front of the basic URL parser, for the shapes most
 * real URLs have.
 *
 * Optimisation: learned from ada. A fast path accepts an input only when the
 * full state machine would provably produce the same record by slicing: pure
 * printable ASCII (so no trimming, no tab or newline removal, nothing to
 * percent-encode in any encoding), a lower-case special scheme other than
 * file followed by "//", no credentials, a domain that needs only lower-casing
 * (for an ASCII domain, domain to ASCII is lower-casing: whatwg/url#914) and
 * does not end in a number, no dot segments, no backslashes. Anything else
 * returns `undefined` and the caller runs the full state machine. The whole
 * WPT data set runs through both (see test/core/fast-path.test.ts).
 *
 * @module
 */

import { isDoubleDotPathSegment, isSingleDotPathSegment } from "./infra.ts";
import type { URLRecord } from "./url-record.ts";

/** Bit flags per ASCII code unit: which components may hold it unchanged. */
const HOST = 1;
const PATH = 2;
const QUERY = 4;
const FRAGMENT = 8;
const UPPER = 16;

const table: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (let c = 0x21; c < 0x7f; c++) {
    // Path: not in the path percent-encode set, not a delimiter ("?", "#"), not "\" (a special-URL slash).
    if (!'"#<>?`{}^\\'.includes(String.fromCharCode(c))) t[c]! |= PATH;
    // Query: not in the special-query percent-encode set, not "#".
    if (!"\"#<>'".includes(String.fromCharCode(c))) t[c]! |= QUERY;
    // Fragment: not in the fragment percent-encode set.
    if (!'"<>`'.includes(String.fromCharCode(c))) t[c]! |= FRAGMENT;
    // Host: not a forbidden domain code point, and not "%" (percent-decoding would apply).
    if (!"#%/:<>?@[\\]^|".includes(String.fromCharCode(c))) t[c]! |= HOST;
    if (c >= 0x41 && c <= 0x5a) t[c]! |= UPPER;
  }
  return t;
})();

/** Default ports of the special schemes the absolute fast path takes. */
function fastScheme(input: string): [scheme: string, defaultPort: number] | null {
  // "http://", "https://", "ws://", "wss://", "ftp://" in lower case.
  const c0 = input.charCodeAt(0);
  if (c0 === 0x68) {
    if (input.startsWith("https://")) return ["https", 443];
    if (input.startsWith("http://")) return ["http", 80];
  } else if (c0 === 0x77) {
    if (input.startsWith("wss://")) return ["wss", 443];
    if (input.startsWith("ws://")) return ["ws", 80];
  } else if (c0 === 0x66) {
    if (input.startsWith("ftp://")) return ["ftp", 21];
  }
  return null;
}

/**
 * Whether the host `input[start, end)` ends in a number
 * (https://url.spec.whatwg.org/#ends-in-a-number-checker), conservatively:
 * true also when the last label merely starts with a digit, which sends the
 * input to the full parser.
 */
function mayEndInANumber(input: string, start: number, end: number): boolean {
  if (input.charCodeAt(end - 1) === 0x2e) end--;
  const dot = input.lastIndexOf(".", end - 1);
  const labelStart = dot < start ? start : dot + 1;
  if (labelStart >= end) return false;
  const c = input.charCodeAt(labelStart);
  return c >= 0x30 && c <= 0x39;
}

/**
 * Scans a path from `start` (which is "/") and returns where it ends, or -1
 * when the path needs the full parser (something to percent-encode, a
 * backslash, or a dot segment).
 */
function scanPath(input: string, start: number): number {
  const length = input.length;
  let segmentStart = start + 1;
  let i = start + 1;
  for (; i < length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x80 || (table[c]! & PATH) === 0) {
      if (c === 0x3f || c === 0x23) break;
      return -1;
    }
    if (c === 0x2f) {
      if (isDot(input, segmentStart, i)) return -1;
      segmentStart = i + 1;
    }
  }
  if (isDot(input, segmentStart, i)) return -1;
  return i;
}

function isDot(input: string, start: number, end: number): boolean {
  const length = end - start;
  if (length === 0 || length > 6) return false;
  const c = input.charCodeAt(start);
  if (c !== 0x2e && c !== 0x25) return false;
  return isSingleDotPathSegment(input, start, end) || isDoubleDotPathSegment(input, start, end);
}

/** Scans `input` from `start` while `flag` allows; returns the stop index. */
function scanWhile(input: string, start: number, flag: number, stop: number): number {
  const length = input.length;
  let i = start;
  for (; i < length; i++) {
    const c = input.charCodeAt(i);
    if (c === stop) break;
    if (c >= 0x80 || (table[c]! & flag) === 0) return -1;
  }
  return i;
}

/**
 * The absolute-URL fast path: returns the URL record the basic URL parser
 * would return for `input` with no base, or `undefined` when the input is
 * not of the common shape (then the caller runs the full parser). Never
 * returns a failure: every input it can't vouch for goes to the full parser.
 */
export function parseAbsoluteFast(input: string): URLRecord | undefined {
  const scheme = fastScheme(input);
  if (scheme === null) return undefined;
  const length = input.length;
  const hostStart = scheme[0].length + 3;
  // The host: up to ":", "/", "?", "#" or the end.
  let i = hostStart;
  let upper = false;
  for (; i < length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x80) return undefined;
    const flags = table[c]!;
    if ((flags & HOST) === 0) {
      if (c === 0x3a || c === 0x2f || c === 0x3f || c === 0x23) break;
      return undefined;
    }
    if ((flags & UPPER) !== 0) upper = true;
  }
  const hostEnd = i;
  if (hostEnd === hostStart || mayEndInANumber(input, hostStart, hostEnd)) return undefined;
  let host = input.slice(hostStart, hostEnd);
  if (upper) host = host.toLowerCase();
  // The port.
  let port: number | null = null;
  if (i < length && input.charCodeAt(i) === 0x3a) {
    i++;
    const portStart = i;
    let value = 0;
    for (; i < length; i++) {
      const c = input.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
      if (value > 65535) return undefined;
    }
    if (i < length) {
      const c = input.charCodeAt(i);
      if (c !== 0x2f && c !== 0x3f && c !== 0x23) return undefined;
    }
    if (i > portStart && value !== scheme[1]) port = value;
  }
  // The path.
  let path = "/";
  if (i < length && input.charCodeAt(i) === 0x2f) {
    const pathEnd = scanPath(input, i);
    if (pathEnd === -1) return undefined;
    path = input.slice(i, pathEnd);
    i = pathEnd;
  }
  // The query and the fragment.
  let query: string | null = null;
  let fragment: string | null = null;
  if (i < length && input.charCodeAt(i) === 0x3f) {
    const queryEnd = scanWhile(input, i + 1, QUERY, 0x23);
    if (queryEnd === -1) return undefined;
    query = input.slice(i + 1, queryEnd);
    i = queryEnd;
  }
  if (i < length) {
    // Only "#" can be here.
    const fragmentEnd = scanWhile(input, i + 1, FRAGMENT, -1);
    if (fragmentEnd === -1) return undefined;
    fragment = input.slice(i + 1);
  }
  return {
    scheme: scheme[0],
    username: "",
    password: "",
    host,
    port,
    path,
    opaquePath: false,
    query,
    fragment,
  };
}

/**
 * Scans a relative path from `start` to its end ("?", "#" or the end of
 * input). Returns the end, or -1 when something needs the full parser; sets
 * `dots.value` when a segment is a single-dot or double-dot segment.
 */
function scanRelativePath(input: string, start: number, dots: { value: boolean }): number {
  const length = input.length;
  let segmentStart = start;
  let i = start;
  for (; i < length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x80 || (table[c]! & PATH) === 0) {
      if (c === 0x3f || c === 0x23) break;
      return -1;
    }
    if (c === 0x2f) {
      if (isDot(input, segmentStart, i)) dots.value = true;
      segmentStart = i + 1;
    }
  }
  if (isDot(input, segmentStart, i)) dots.value = true;
  return i;
}

/**
 * Appends the segments of `input[start, end)` to the serialized `path` as the
 * path state does for a special, non-file URL: "." is dropped, ".." shortens
 * the path, and either as the last segment leaves an empty segment.
 */
function appendSegments(path: string, input: string, start: number, end: number): string {
  let segmentStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && input.charCodeAt(i) !== 0x2f) continue;
    const last = i === end;
    if (isSingleDotPathSegment(input, segmentStart, i)) {
      if (last) path += "/";
    } else if (isDoubleDotPathSegment(input, segmentStart, i)) {
      const slash = path.lastIndexOf("/");
      if (slash !== -1) path = path.slice(0, slash);
      if (last) path += "/";
    } else {
      path += "/" + input.slice(segmentStart, i);
    }
    segmentStart = i + 1;
  }
  return path;
}

/**
 * The relative-reference fast path: returns the record the basic URL parser
 * would return for `input` against `base`, or `undefined` to defer to the
 * full parser. Takes a base that is special, not file, with a host (the
 * common http(s) document), and inputs that are printable ASCII with nothing
 * to percent-encode: "#f", "?q", "/abs/path", "rel/path" (dot segments
 * included), and absolute URLs through {@link parseAbsoluteFast}.
 */
export function parseRelativeFast(input: string, base: URLRecord): URLRecord | undefined {
  const length = input.length;
  if (length === 0 || base.host === null || base.opaquePath) return undefined;
  const scheme = base.scheme;
  if (scheme !== "https" && scheme !== "http" && scheme !== "wss" && scheme !== "ws" && scheme !== "ftp") return undefined;
  const first = input.charCodeAt(0);
  if (first >= 0x80 || first <= 0x20) return undefined;
  // An input that starts with a scheme is absolute.
  if ((first | 0x20) >= 0x61 && (first | 0x20) <= 0x7a) {
    for (let i = 1; i < length; i++) {
      const c = input.charCodeAt(i);
      if (c === 0x3a) return parseAbsoluteFast(input);
      const lower = c | 0x20;
      if (!((lower >= 0x61 && lower <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) break;
    }
  }
  let path: string;
  let i: number;
  let query: string | null = null;
  if (first === 0x23) {
    // "#fragment": the base with another fragment.
    path = base.path;
    query = base.query;
    i = 0;
  } else if (first === 0x3f) {
    // "?query": the base's path with another query.
    path = base.path;
    i = 0;
  } else if (first === 0x2f) {
    // "//host…" is scheme-relative: leave it to the full parser unless it is the absolute shape.
    if (input.charCodeAt(1) === 0x2f || input.charCodeAt(1) === 0x5c) return parseAbsoluteFast(scheme + ":" + input);
    const dots = { value: false };
    const end = scanRelativePath(input, 1, dots);
    if (end === -1) return undefined;
    path = dots.value ? appendSegments("", input, 1, end) : input.slice(0, end);
    i = end;
  } else {
    // A path-relative reference: the base's path without its last segment, then the input's segments.
    const dots = { value: false };
    const end = scanRelativePath(input, 0, dots);
    if (end === -1) return undefined;
    const directory = base.path.slice(0, Math.max(base.path.lastIndexOf("/"), 0));
    path = dots.value ? appendSegments(directory, input, 0, end) : directory + "/" + input.slice(0, end);
    i = end;
  }
  if (i < length && input.charCodeAt(i) === 0x3f) {
    const queryEnd = scanWhile(input, i + 1, QUERY, 0x23);
    if (queryEnd === -1) return undefined;
    query = input.slice(i + 1, queryEnd);
    i = queryEnd;
  }
  let fragment: string | null = null;
  if (i < length) {
    const fragmentEnd = scanWhile(input, i + 1, FRAGMENT, -1);
    if (fragmentEnd === -1) return undefined;
    fragment = input.slice(i + 1);
  }
  return {
    scheme,
    username: base.username,
    password: base.password,
    host: base.host,
    port: base.port,
    path,
    opaquePath: false,
    query,
    fragment,
  };
}
