/**
 * Guarded fast paths in front of the basic URL parser, for the shapes most
 * real URLs have; anything else returns `undefined` and the caller runs the
 * full state machine.
 *
 * Optimisation (after ada): a fast path takes an input only when the state
 * machine would provably give the same record by slicing: printable ASCII
 * with nothing to percent-encode, a lower-case special scheme other than
 * file followed by "//", no credentials, a domain that needs only
 * lower-casing (whatwg/url#914) and does not end in a number, no dot
 * segments, no backslashes. test/core/fast-path.test.ts runs all of WPT
 * through both.
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

/** The special schemes the absolute fast path takes, in lower case with "//", and their default ports. */
function fastScheme(input: string): [scheme: string, defaultPort: number] | null {
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
 * https://url.spec.whatwg.org/#ends-in-a-number-checker, conservatively: true
 * also when the last label merely starts with a digit.
 */
function mayEndInANumber(input: string, start: number, end: number): boolean {
  if (input.charCodeAt(end - 1) === 0x2e) end--;
  const dot = input.lastIndexOf(".", end - 1);
  const labelStart = dot < start ? start : dot + 1;
  if (labelStart >= end) return false;
  const c = input.charCodeAt(labelStart);
  return c >= 0x30 && c <= 0x39;
}

/** Where the path from `start` ("/") ends, or -1 when it needs the full parser. */
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

/** Where the components of the last input {@link scanAbsolute} took are, indexed by the constants below. */
const HOST_START = 0;
const HOST_END = 1;
const PORT = 2; // The port number, or -1 when there is none (absent, empty, or the default).
const PATH_START = 3;
const PATH_END = 4; // PATH_START when the input has no path (it is "/").
const QUERY_START = 5; // After the "?", or -1.
const QUERY_END = 6;
const FRAGMENT_START = 7; // After the "#", or -1.
const FLAGS = 8;
/** In FLAGS: the host has ASCII upper case (it is lower-cased). */
const HOST_UPPER = 1;
/** In FLAGS: a port written as it serializes (digits without a leading zero, not the default). */
const PORT_VERBATIM = 2;
/** In FLAGS: nothing written at the port ("example.com:" or ":443" for https, or "08"). */
const PORT_OMITTED = 4;
const parts = new Int32Array(9);

/** Fills `parts` for an input of the absolute fast path's shape; returns its scheme and default port, or null. */
function scanAbsolute(input: string): [scheme: string, defaultPort: number] | null {
  const scheme = fastScheme(input);
  if (scheme === null) return null;
  const length = input.length;
  const hostStart = scheme[0].length + 3;
  let flags = 0;
  // The host: up to ":", "/", "?", "#" or the end.
  let i = hostStart;
  for (; i < length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x80) return null;
    const bits = table[c]!;
    if ((bits & HOST) === 0) {
      if (c === 0x3a || c === 0x2f || c === 0x3f || c === 0x23) break;
      return null;
    }
    if ((bits & UPPER) !== 0) flags |= HOST_UPPER;
  }
  const hostEnd = i;
  if (hostEnd === hostStart || mayEndInANumber(input, hostStart, hostEnd)) return null;
  parts[HOST_START] = hostStart;
  parts[HOST_END] = hostEnd;
  parts[PORT] = -1;
  if (i < length && input.charCodeAt(i) === 0x3a) {
    i++;
    const portStart = i;
    let value = 0;
    for (; i < length; i++) {
      const c = input.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
      if (value > 65535) return null;
    }
    if (i < length) {
      const c = input.charCodeAt(i);
      if (c !== 0x2f && c !== 0x3f && c !== 0x23) return null;
    }
    if (i > portStart && value !== scheme[1]) {
      parts[PORT] = value;
      if (input.charCodeAt(portStart) !== 0x30 || i === portStart + 1) flags |= PORT_VERBATIM;
    } else {
      flags |= PORT_OMITTED;
    }
  }
  parts[PATH_START] = i;
  if (i < length && input.charCodeAt(i) === 0x2f) {
    const pathEnd = scanPath(input, i);
    if (pathEnd === -1) return null;
    i = pathEnd;
  }
  parts[PATH_END] = i;
  // The query and the fragment.
  parts[QUERY_START] = -1;
  parts[FRAGMENT_START] = -1;
  if (i < length && input.charCodeAt(i) === 0x3f) {
    const queryEnd = scanWhile(input, i + 1, QUERY, 0x23);
    if (queryEnd === -1) return null;
    parts[QUERY_START] = i + 1;
    parts[QUERY_END] = queryEnd;
    i = queryEnd;
  }
  if (i < length) {
    // Only "#" can be here.
    if (scanWhile(input, i + 1, FRAGMENT, -1) === -1) return null;
    parts[FRAGMENT_START] = i + 1;
  }
  parts[FLAGS] = flags;
  return scheme;
}

/**
 * The absolute-URL fast path: the record the basic URL parser returns for
 * `input` with no base, or `undefined` for any other shape (never failure).
 *
 * @example
 * ```ts
 * parseAbsoluteFast("https://example.com/a?b")?.path; // "/a"
 * parseAbsoluteFast("https://EXAMPLE.com:443/")?.host; // "example.com"
 * parseAbsoluteFast("https://example.com/a/../b"); // undefined (dot segments)
 * ```
 */
export function parseAbsoluteFast(input: string): URLRecord | undefined {
  const scheme = scanAbsolute(input);
  if (scheme === null) return undefined;
  let host = input.slice(parts[HOST_START], parts[HOST_END]);
  if ((parts[FLAGS]! & HOST_UPPER) !== 0) host = host.toLowerCase();
  const port = parts[PORT]!;
  const pathStart = parts[PATH_START]!;
  const pathEnd = parts[PATH_END]!;
  const queryStart = parts[QUERY_START]!;
  const fragmentStart = parts[FRAGMENT_START]!;
  return {
    scheme: scheme[0],
    username: "",
    password: "",
    host,
    port: port === -1 ? null : port,
    path: pathEnd === pathStart ? "/" : input.slice(pathStart, pathEnd),
    opaquePath: false,
    query: queryStart === -1 ? null : input.slice(queryStart, parts[QUERY_END]),
    fragment: fragmentStart === -1 ? null : input.slice(fragmentStart),
  };
}

/** `input` itself when it is already its serialization by the absolute fast path; else undefined. */
function absoluteVerbatim(input: string): string | undefined {
  if (scanAbsolute(input) === null) return undefined;
  const flags = parts[FLAGS]!;
  if ((flags & (HOST_UPPER | PORT_OMITTED)) !== 0 || (parts[PORT] !== -1 && (flags & PORT_VERBATIM) === 0)) return undefined;
  return parts[PATH_END] === parts[PATH_START] ? undefined : input;
}

/** Where a relative path from `start` ends, or -1 for the full parser; sets `dots.value` on a dot segment. */
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

/** Appends the segments of `input[start, end)` to `path` as the path state does for a special, non-file URL. */
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

/** What {@link relativeShape} finds. */
const NOT_FAST = 0;
const RELATIVE = 1;
const ABSOLUTE = 2;

/** Whether the relative fast paths take `input` against `base` (special, not file, with a host); ABSOLUTE when it has a scheme. */
function relativeShape(input: string, base: Readonly<URLRecord>): typeof NOT_FAST | typeof RELATIVE | typeof ABSOLUTE {
  const length = input.length;
  if (length === 0 || base.host === null || base.opaquePath) return NOT_FAST;
  const scheme = base.scheme;
  if (scheme !== "https" && scheme !== "http" && scheme !== "wss" && scheme !== "ws" && scheme !== "ftp") return NOT_FAST;
  const first = input.charCodeAt(0);
  if (first >= 0x80 || first <= 0x20) return NOT_FAST;
  if ((first | 0x20) >= 0x61 && (first | 0x20) <= 0x7a) {
    for (let i = 1; i < length; i++) {
      const c = input.charCodeAt(i);
      if (c === 0x3a) return ABSOLUTE;
      const lower = c | 0x20;
      if (!((lower >= 0x61 && lower <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) break;
    }
  }
  return RELATIVE;
}

/**
 * The relative-reference fast path: the record the basic URL parser returns
 * for `input` against `base`, or `undefined` for the full parser. Takes "#f",
 * "?q", "/abs/path", "rel/path" and absolute URLs of the fast shape.
 *
 * @example
 * ```ts
 * parseRelativeFast("../b?q", parseURL("https://example.com/x/y/z")!)?.path; // "/x/b"
 * parseRelativeFast("a b", parseURL("https://example.com/")!); // undefined (a space to encode)
 * ```
 */
export function parseRelativeFast(input: string, base: URLRecord): URLRecord | undefined {
  const shape = relativeShape(input, base);
  if (shape === NOT_FAST) return undefined;
  if (shape === ABSOLUTE) return parseAbsoluteFast(input);
  const length = input.length;
  const scheme = base.scheme;
  const first = input.charCodeAt(0);
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

let prefixOf: { scheme: string; username: string; password: string; host: string | null; port: number | null; prefix: string } | null = null;

/**
 * The serialization of `base` up to its path
 * (https://url.spec.whatwg.org/#concept-url-serializer, steps 1–2).
 *
 * Optimisation: remembered for the last base, compared field by field (the
 * URL setters change records in place), as a page resolves against one base.
 */
function basePrefix(base: Readonly<URLRecord>): string {
  const last = prefixOf;
  if (last !== null && last.scheme === base.scheme && last.host === base.host && last.port === base.port && last.username === base.username && last.password === base.password) {
    return last.prefix;
  }
  let prefix = base.scheme + "://";
  if (base.username !== "" || base.password !== "") prefix += base.username + (base.password !== "" ? ":" + base.password : "") + "@";
  prefix += base.host!;
  if (base.port !== null) prefix += ":" + base.port;
  prefixOf = { scheme: base.scheme, username: base.username, password: base.password, host: base.host, port: base.port, prefix };
  return prefix;
}

/**
 * `serializeURL(basicURLParse(input, { base }))` for the shapes of the fast
 * paths, made without a URL record; undefined for any other input. Printable
 * ASCII encodes alike in every encoding, so the encoding does not matter.
 *
 * Internal: for document-base's `encodingParseAndSerializeURL` and links.
 *
 * Optimisation: a link's URL is mostly the input itself, or the base's
 * prefix followed by the input or a path built from both: one concatenation
 * instead of a record and the serializer.
 *
 * @example
 * ```ts
 * const base = parseURL("https://example.com/docs/v1/")!;
 * serializeFast("../page.html?q#s", base); // "https://example.com/docs/page.html?q#s"
 * serializeFast("https://example.org/x", null); // "https://example.org/x" (the input itself)
 * serializeFast("HTTPS://EXAMPLE.org/x", null); // undefined: the full parser lower-cases it
 * ```
 */
export function serializeFast(input: string, base: Readonly<URLRecord> | null): string | undefined {
  if (base === null) return absoluteVerbatim(input);
  const shape = relativeShape(input, base);
  if (shape === NOT_FAST) return undefined;
  if (shape === ABSOLUTE) return absoluteVerbatim(input);
  const length = input.length;
  const scheme = base.scheme;
  const first = input.charCodeAt(0);
  let head: string;
  let from = 0;
  let pathEnd = 0;
  if (first === 0x23) {
    // "#fragment": the base with another fragment.
    head = base.query === null ? base.path : base.path + "?" + base.query;
  } else if (first === 0x3f) {
    // "?query": the base's path with another query.
    head = base.path;
  } else if (first === 0x2f) {
    // "//host…" is scheme-relative: the absolute shape with the base's scheme, or the full parser.
    if (input.charCodeAt(1) === 0x2f || input.charCodeAt(1) === 0x5c) {
      const absolute = scheme + ":" + input;
      return absoluteVerbatim(absolute) === undefined ? undefined : absolute;
    }
    const dots = { value: false };
    pathEnd = scanRelativePath(input, 1, dots);
    if (pathEnd === -1) return undefined;
    // Without dot segments the path is the input's own.
    head = dots.value ? appendSegments("", input, 1, pathEnd) : "";
    from = dots.value ? pathEnd : 0;
  } else {
    // A path-relative reference: leading "./" and "../" move the end of the base's directory
    // back, so that `base.path.slice(0, directoryEnd)` is what appendSegments would build.
    const path = base.path;
    let directoryEnd = Math.max(path.lastIndexOf("/"), 0);
    let k = 0;
    for (;;) {
      if (input.charCodeAt(k) !== 0x2e) break;
      if (input.charCodeAt(k + 1) === 0x2f) {
        k += 2;
      } else if (input.charCodeAt(k + 1) === 0x2e && input.charCodeAt(k + 2) === 0x2f) {
        k += 3;
        directoryEnd = Math.max(path.lastIndexOf("/", directoryEnd - 1), 0);
      } else {
        break;
      }
    }
    const dots = { value: false };
    pathEnd = scanRelativePath(input, k, dots);
    if (pathEnd === -1) return undefined;
    head = dots.value ? appendSegments(path.slice(0, directoryEnd), input, k, pathEnd) : path.slice(0, directoryEnd) + "/";
    from = dots.value ? pathEnd : k;
  }
  let j = pathEnd;
  if (j < length && input.charCodeAt(j) === 0x3f) {
    j = scanWhile(input, j + 1, QUERY, 0x23);
    if (j === -1) return undefined;
  }
  if (j < length && scanWhile(input, j + 1, FRAGMENT, -1) === -1) return undefined;
  return basePrefix(base) + head + (from === 0 ? input : input.slice(from));
}

/** URL code points in ASCII (https://url.spec.whatwg.org/#url-code-points): alphanumerics and `!$&'()*+,-./:;=?@_~`. */
const urlUnit: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (const c of "!$&'()*+,-./:;=?@_~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") t[c.charCodeAt(0)] = 1;
  return t;
})();

function isASCIIHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** Host labels that strict ToASCII takes as they are (see {@link withoutValidationErrors}). */
const strictLabels = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Whether `input` against `base` (null: none) provably parses without a
 * validation error (https://url.spec.whatwg.org/#validation-error): a shape
 * of {@link serializeFast} whose code units are URL code points (apart from
 * the "#" of the fragment and "%" with two hex digits), with no "xn--" and
 * a host of plain labels. False means "not known": validate with the full
 * parser.
 *
 * Internal: for the links layer's validation of every link.
 *
 * Optimisation: most links have this shape, and the scan costs a fraction of
 * the full parser with an error sink.
 *
 * @example
 * ```ts
 * const base = parseURL("https://example.com/docs/")!;
 * withoutValidationErrors("../api/#x", base); // true
 * withoutValidationErrors("a b", base); // false (the space is an invalid-URL-unit)
 * withoutValidationErrors("/%zz", base); // false (a "%" without two hex digits)
 * ```
 */
export function withoutValidationErrors(input: string, base: Readonly<URLRecord> | null): boolean {
  let fragment = false;
  const length = input.length;
  for (let i = 0; i < length; i++) {
    const c = input.charCodeAt(i);
    if (c < 0x80 && urlUnit[c] === 1) continue;
    if (c === 0x25 && isASCIIHexDigit(input.charCodeAt(i + 1)) && isASCIIHexDigit(input.charCodeAt(i + 2))) {
      i += 2;
      continue;
    }
    // "#" is not a URL code point: only the first, which starts the fragment, is not an error.
    if (c === 0x23 && !fragment) {
      fragment = true;
      continue;
    }
    return false;
  }
  if (input.includes("xn--") || /xn--/i.test(input)) return false;
  const slashes = input.indexOf("//");
  if (slashes !== -1 && (slashes === 0 || input.charCodeAt(slashes - 1) === 0x3a)) {
    let end = slashes + 2;
    while (end < length && !"/?#:".includes(input[end]!)) end++;
    // Labels of 1 to 63 letters, digits and hyphens, no hyphen first or last or in places 3–4
    // (CheckHyphens), at most 253 in all (VerifyDnsLength); domain to ASCII reports the rest.
    const host = input.slice(slashes + 2, end);
    if (host.length > 253 || !strictLabels.test(host) || /(?:^|\.)[a-z0-9]{2}--/.test(host)) return false;
  }
  return serializeFast(input, base) !== undefined;
}
