/**
 * The basic URL parser, state by state, and the API URL parser.
 *
 * https://url.spec.whatwg.org/#concept-basic-url-parser
 *
 * The pointer walks UTF-16 code units; every delimiter the standard tests for
 * is ASCII, so this is exact. Optimisation: where the standard appends code
 * point by code point to a buffer encoded as a whole, the buffer here is a
 * range of the input encoded in one go (the same string).
 *
 * @module
 */

import type { OutputEncodingName } from "./encoding.ts";
import { codePointWidth, ErrorSink } from "./error-sink.ts";
import { parseAbsoluteFast, parseRelativeFast } from "./fast-path.ts";
import { parseHost, reportInvalidURLUnits } from "./host.ts";
import {
  isASCIIAlpha,
  isASCIIAlphanumeric,
  isASCIIDigit,
  isDoubleDotPathSegment,
  isSingleDotPathSegment,
  isWindowsDriveLetter,
  startsWithWindowsDriveLetter,
  toScalarValueString,
} from "./infra.ts";
import { percentEncodeAfterEncoding, requireEncoder } from "./encoders.ts";
import {
  c0ControlPercentEncodeSet,
  fragmentPercentEncodeSet,
  pathPercentEncodeSet,
  queryPercentEncodeSet,
  specialQueryPercentEncodeSet,
  userinfoPercentEncodeSet,
  utf8PercentEncodeRange,
} from "./percent-encoding.ts";
import { createURLRecord, defaultPort, includesCredentials, isSpecialScheme, type URLRecord } from "./url-record.ts";

/**
 * The states a caller may start the basic URL parser in (the standard's
 * "state override"), by the standard's names.
 *
 * @example
 * ```ts
 * const state: StateOverride = "hostname state";
 * ```
 */
export type StateOverride =
  | "scheme start state"
  | "host state"
  | "hostname state"
  | "port state"
  | "path start state"
  | "query state"
  | "fragment state";

// https://url.spec.whatwg.org/#scheme-start-state and the states after it.
const SCHEME_START = 1;
const SCHEME = 2;
const NO_SCHEME = 3;
const SPECIAL_RELATIVE_OR_AUTHORITY = 4;
const PATH_OR_AUTHORITY = 5;
const RELATIVE = 6;
const RELATIVE_SLASH = 7;
const SPECIAL_AUTHORITY_SLASHES = 8;
const SPECIAL_AUTHORITY_IGNORE_SLASHES = 9;
const AUTHORITY = 10;
const HOST = 11;
const HOSTNAME = 12;
const PORT = 13;
const FILE = 14;
const FILE_SLASH = 15;
const FILE_HOST = 16;
const PATH_START = 17;
const PATH = 18;
const OPAQUE_PATH = 19;
const QUERY = 20;
const FRAGMENT = 21;

const stateOverrides: Readonly<Record<StateOverride, number>> = {
  "scheme start state": SCHEME_START,
  "host state": HOST,
  "hostname state": HOSTNAME,
  "port state": PORT,
  "path start state": PATH_START,
  "query state": QUERY,
  "fragment state": FRAGMENT,
};

/** The EOF code point. */
const EOF = -1;

/**
 * Options of {@link basicURLParse}.
 *
 * @example
 * ```ts
 * const options: BasicURLParseOptions = { base: parseURL("https://a/")!, encoding: "windows-1252" };
 * ```
 */
export interface BasicURLParseOptions {
  /** https://url.spec.whatwg.org/#basic-url-parser — the base URL. */
  base?: URLRecord | null;
  /**
   * The encoding for the query of special URLs (other than ws and wss): an
   * output encoding's name as `getEncoding` returns it (default "UTF-8").
   */
  encoding?: OutputEncodingName;
  /** A URL record to modify, with `stateOverride`. */
  url?: URLRecord;
  /** The state to start in; requires `url`. */
  stateOverride?: StateOverride;
  /** Where to report validation errors; absent on the normal path. */
  errors?: ErrorSink | null;
}

/**
 * Steps 1–3 of the basic URL parser: removes leading and trailing C0 control
 * or space and every ASCII tab or newline, reporting errors with offsets into
 * the original input.
 */
function preprocess(input: string, trim: boolean, errors: ErrorSink | null): string {
  let start = 0;
  let end = input.length;
  if (trim) {
    // 1.2. If input contains any leading or trailing C0 control or space, invalid-URL-unit validation error.
    // 1.3. Remove any leading and trailing C0 control or space from input.
    while (start < end && input.charCodeAt(start) <= 0x20) start++;
    while (end > start && input.charCodeAt(end - 1) <= 0x20) end--;
    // Deviation (count): the standard reports one error; a leading and a trailing run are two,
    // so that each range covers only offending code points (see ValidationError).
    if (errors !== null) {
      if (start > 0) errors.report("invalid-URL-unit", 0, start);
      if (end < input.length) errors.report("invalid-URL-unit", end, input.length);
    }
  }
  // 2. If input contains any ASCII tab or newline, invalid-URL-unit validation error.
  // 3. Remove all ASCII tab or newline from input.
  let first = -1;
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) {
      first = i;
      break;
    }
  }
  if (first === -1) return start === 0 && end === input.length ? input : input.slice(start, end);
  const parts: string[] = [input.slice(start, first)];
  let runStart = first + 1;
  let last = first;
  for (let i = first + 1; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) {
      if (runStart < i) parts.push(input.slice(runStart, i));
      runStart = i + 1;
      last = i;
    }
  }
  if (runStart < end) parts.push(input.slice(runStart, end));
  // Deviation (count): one error per run of tabs and newlines where the standard reports one for
  // the input, so that each range covers only offending code points (see ValidationError).
  if (errors !== null) errors.reportRuns("invalid-URL-unit", input, first, last + 1, isASCIITabOrNewline);
  return parts.join("");
}

/** 1 when the code unit at `i` is an ASCII tab or newline, else 0. */
function isASCIITabOrNewline(input: string, i: number): number {
  const c = input.charCodeAt(i);
  return c === 0x09 || c === 0x0a || c === 0x0d ? 1 : 0;
}

/**
 * https://url.spec.whatwg.org/#concept-basic-url-parser
 *
 * Without `url`, returns a new URL record or null (failure). With `url` and
 * `stateOverride`, modifies `url` and returns it, or returns null when the
 * standard says to return failure (the URL setters then do nothing).
 * `encoding` must be an output encoding's name (see `getEncoding`); an unknown
 * name is treated as UTF-8. Never throws (but in `docbase/core/utf-8`, where
 * a legacy `encoding` throws `LegacyEncodingUnavailableError`).
 *
 * @example
 * ```ts
 * basicURLParse("https://EXAMPLE.com/a/../b"); // { scheme: "https", host: "example.com", path: "/b", … }
 * const url = basicURLParse("https://example.com/")!;
 * basicURLParse("example.org", { url, stateOverride: "hostname state" });
 * url.host; // "example.org"
 * ```
 */
export function basicURLParse(input: string, options?: BasicURLParseOptions): URLRecord | null {
  // Without the legacy encoders (docbase/core/utf-8), a legacy encoding throws before any input is read.
  if (options?.encoding !== undefined && options.encoding !== "UTF-8") requireEncoder(options.encoding);
  if (options === undefined || (options.url === undefined && (options.errors ?? null) === null)) {
    // Optimisation: the common shapes are parsed by guarded fast paths (see fast-path.ts).
    const base = options?.base ?? null;
    const fast = base === null ? parseAbsoluteFast(input) : parseRelativeFast(input, base);
    if (fast !== undefined) return fast;
    if (options === undefined) options = {};
  }
  const base = options.base ?? null;
  const given = options.url;
  const override = options.stateOverride === undefined || given === undefined ? 0 : stateOverrides[options.stateOverride];
  const errors = options.errors ?? null;
  // The standard's input is a scalar value string; lone surrogates become U+FFFD here.
  const rawInput = toScalarValueString(input);
  // The preprocessing reports in the caller's coordinates; the state machine reports in the
  // preprocessed input's, mapped back by validateURL. Two sinks keep the two apart.
  // Each bounded as the caller's sink is (see ErrorSink.bounded).
  const preprocessErrors = errors === null ? null : errors.sibling();
  const text = preprocess(rawInput, given === undefined, preprocessErrors);
  const machineErrors = errors === null ? null : errors.sibling();
  const url = given ?? createURLRecord();
  const ok = runStateMachine(text, url, base, options.encoding ?? "UTF-8", override, machineErrors);
  if (errors !== null) {
    const map = offsetMap(rawInput, given === undefined);
    for (const e of preprocessErrors!.errors) errors.report(e.type, e.start, e.end);
    for (const e of machineErrors!.errors) {
      const start = map(e.start, false);
      // An empty range (a missing "//", a missing host) stays empty, at its mapped start.
      errors.report(e.type, start, e.end === e.start ? start : map(e.end, true));
    }
    errors.addOmitted(preprocessErrors!.omitted + machineErrors!.omitted);
  }
  return ok ? url : null;
}

/** Maps an offset in the preprocessed input back to the original input (built only when errors are asked for). */
function offsetMap(input: string, trim: boolean): (offset: number, isEnd: boolean) => number {
  let start = 0;
  if (trim) while (start < input.length && input.charCodeAt(start) <= 0x20) start++;
  const kept: number[] = [];
  let end = input.length;
  if (trim) while (end > start && input.charCodeAt(end - 1) <= 0x20) end--;
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c !== 0x09 && c !== 0x0a && c !== 0x0d) kept.push(i);
  }
  return (offset, isEnd) => {
    if (kept.length === 0) return start;
    if (isEnd) return offset === 0 ? kept[0]! : kept[Math.min(offset, kept.length) - 1]! + 1;
    return offset < kept.length ? kept[offset]! : kept[kept.length - 1]! + 1;
  };
}

/** https://url.spec.whatwg.org/#shorten-a-urls-path — on the path as a list. */
function shortenPath(path: string[], scheme: string): void {
  // 3. If url's scheme is "file", path's size is 1, and path[0] is a normalized Windows drive letter, then return.
  if (scheme === "file" && path.length === 1 && isWindowsDriveLetter(path[0]!, 0, path[0]!.length, true)) return;
  // 4. Remove path's last item, if any.
  path.pop();
}

/**
 * The path list of a serialized (non-opaque) path.
 *
 * Optimisation: the state machine works on a list, serialized once at the
 * end; shortening a string would copy the path each time.
 */
function pathList(serialized: string): string[] {
  return serialized === "" ? [] : serialized.slice(1).split("/");
}

/** The first segment of a serialized (non-opaque) path, as [start, end) of url.path, or null when the path is empty. */
function firstSegmentEnd(path: string): number {
  const next = path.indexOf("/", 1);
  return next === -1 ? path.length : next;
}

/** The state machine proper (steps 4 onwards); false for failure. */
function runStateMachine(
  input: string,
  url: URLRecord,
  base: URLRecord | null,
  encoding: OutputEncodingName,
  stateOverride: number,
  errors: ErrorSink | null,
): boolean {
  const length = input.length;
  let state = stateOverride === 0 ? SCHEME_START : stateOverride;
  // The buffer is a range of the input starting at bufferStart (-1: the empty buffer).
  let bufferStart = -1;
  let atSignSeen = false;
  let special = isSpecialScheme(url.scheme);
  let pointer = 0;
  // The path as a list while this run changes it (null: untouched, url.path holds it).
  let path: string[] | null = null;

  for (; ; pointer++) {
    const c = pointer < length ? input.charCodeAt(pointer) : EOF;
    switch (state) {
      // https://url.spec.whatwg.org/#scheme-start-state
      case SCHEME_START: {
        if (c !== EOF && isASCIIAlpha(c)) {
          state = SCHEME;
          bufferStart = pointer;
        } else if (stateOverride === 0) {
          state = NO_SCHEME;
          pointer--;
        } else {
          return false;
        }
        break;
      }

      // https://url.spec.whatwg.org/#scheme-state
      case SCHEME: {
        // Optimisation: consume the run of scheme code points at once.
        let end = pointer;
        while (end < length) {
          const d = input.charCodeAt(end);
          if (isASCIIAlphanumeric(d) || d === 0x2b || d === 0x2d || d === 0x2e) end++;
          else break;
        }
        pointer = end;
        const d = end < length ? input.charCodeAt(end) : EOF;
        if (d === 0x3a) {
          const buffer = input.slice(bufferStart, end).toLowerCase();
          const bufferIsSpecial = isSpecialScheme(buffer);
          if (stateOverride !== 0) {
            // "If url's scheme is a special scheme and buffer is not a special scheme, then return."
            if (special !== bufferIsSpecial) return false;
            // "If url includes credentials or has a non-null port, and buffer is "file", then return."
            if ((includesCredentials(url) || url.port !== null) && buffer === "file") return false;
            // "If url's scheme is "file" and its host is an empty host, then return."
            if (url.scheme === "file" && url.host === "") return false;
          }
          url.scheme = buffer;
          special = bufferIsSpecial;
          if (stateOverride !== 0) {
            // "If url's port is url's scheme's default port, then set url's port to null."
            if (url.port !== null && url.port === defaultPort(url.scheme)) url.port = null;
            return true;
          }
          bufferStart = -1;
          if (url.scheme === "file") {
            if (!(input.charCodeAt(pointer + 1) === 0x2f && input.charCodeAt(pointer + 2) === 0x2f)) {
              errors?.report("special-scheme-missing-following-solidus", pointer + 1, pointer + 1);
            }
            state = FILE;
          } else if (special && base !== null && base.scheme === url.scheme) {
            // Assert: base is special (and therefore does not have an opaque path).
            state = SPECIAL_RELATIVE_OR_AUTHORITY;
          } else if (special) {
            state = SPECIAL_AUTHORITY_SLASHES;
          } else if (input.charCodeAt(pointer + 1) === 0x2f) {
            state = PATH_OR_AUTHORITY;
            pointer++;
          } else {
            url.path = "";
            url.opaquePath = true;
            state = OPAQUE_PATH;
          }
        } else if (stateOverride === 0) {
          // "Otherwise, if state override is not given, set buffer to the empty string,
          // state to no scheme state, and start over (from the first code point in input)."
          bufferStart = -1;
          state = NO_SCHEME;
          pointer = -1;
        } else {
          return false;
        }
        break;
      }

      // https://url.spec.whatwg.org/#no-scheme-state
      case NO_SCHEME: {
        if (base === null || (base.opaquePath && c !== 0x23)) {
          errors?.report("missing-scheme-non-relative-URL", 0, Math.max(length, 1));
          return false;
        } else if (base.opaquePath && c === 0x23) {
          url.scheme = base.scheme;
          special = isSpecialScheme(url.scheme);
          url.path = base.path;
          url.opaquePath = true;
          url.query = base.query;
          url.fragment = "";
          state = FRAGMENT;
        } else if (base.scheme !== "file") {
          state = RELATIVE;
          pointer--;
        } else {
          state = FILE;
          pointer--;
        }
        break;
      }

      // https://url.spec.whatwg.org/#special-relative-or-authority-state
      case SPECIAL_RELATIVE_OR_AUTHORITY: {
        if (c === 0x2f && input.charCodeAt(pointer + 1) === 0x2f) {
          state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
          pointer++;
        } else {
          errors?.report("special-scheme-missing-following-solidus", pointer, pointer);
          state = RELATIVE;
          pointer--;
        }
        break;
      }

      // https://url.spec.whatwg.org/#path-or-authority-state
      case PATH_OR_AUTHORITY: {
        if (c === 0x2f) {
          state = AUTHORITY;
        } else {
          state = PATH;
          pointer--;
        }
        break;
      }

      // https://url.spec.whatwg.org/#relative-state
      case RELATIVE: {
        // Assert: base's scheme is not "file".
        const b = base!;
        url.scheme = b.scheme;
        special = isSpecialScheme(url.scheme);
        if (c === 0x2f) {
          state = RELATIVE_SLASH;
        } else if (special && c === 0x5c) {
          errors?.report("invalid-reverse-solidus", pointer, pointer + 1);
          state = RELATIVE_SLASH;
        } else {
          url.username = b.username;
          url.password = b.password;
          url.host = b.host;
          url.port = b.port;
          url.path = b.path;
          url.opaquePath = b.opaquePath;
          url.query = b.query;
          if (c === 0x3f) {
            url.query = "";
            state = QUERY;
          } else if (c === 0x23) {
            url.fragment = "";
            state = FRAGMENT;
          } else if (c !== EOF) {
            url.query = null;
            path = pathList(url.path);
            shortenPath(path, url.scheme);
            state = PATH;
            pointer--;
          }
        }
        break;
      }

      // https://url.spec.whatwg.org/#relative-slash-state
      case RELATIVE_SLASH: {
        if (special && (c === 0x2f || c === 0x5c)) {
          if (c === 0x5c) errors?.report("invalid-reverse-solidus", pointer, pointer + 1);
          state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
        } else if (c === 0x2f) {
          state = AUTHORITY;
        } else {
          const b = base!;
          url.username = b.username;
          url.password = b.password;
          url.host = b.host;
          url.port = b.port;
          state = PATH;
          pointer--;
        }
        break;
      }

      // https://url.spec.whatwg.org/#special-authority-slashes-state
      case SPECIAL_AUTHORITY_SLASHES: {
        if (c === 0x2f && input.charCodeAt(pointer + 1) === 0x2f) {
          state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
          pointer++;
        } else {
          errors?.report("special-scheme-missing-following-solidus", pointer, pointer);
          state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
          pointer--;
        }
        break;
      }

      // https://url.spec.whatwg.org/#special-authority-ignore-slashes-state
      case SPECIAL_AUTHORITY_IGNORE_SLASHES: {
        if (c !== 0x2f && c !== 0x5c) {
          state = AUTHORITY;
          pointer--;
        } else {
          errors?.report("special-scheme-missing-following-solidus", pointer, pointer + 1);
        }
        break;
      }

      // https://url.spec.whatwg.org/#authority-state
      case AUTHORITY: {
        // Optimisation: the standard moves each buffer of userinfo into username and
        // password at every "@" (prepending "%40" after the first). Scanning to the end
        // of the authority and splitting the text before the last "@" at its first ":"
        // gives the same username and password, since "@" and ":" are in the userinfo
        // percent-encode set.
        let end = pointer;
        let lastAt = -1;
        while (end < length) {
          const d = input.charCodeAt(end);
          if (d === 0x2f || d === 0x3f || d === 0x23 || (special && d === 0x5c)) break;
          if (d === 0x40) {
            // "If c is U+0040 (@), then: invalid-credentials validation error."
            errors?.report("invalid-credentials", end, end + 1);
            lastAt = end;
          }
          end++;
        }
        if (lastAt !== -1) {
          atSignSeen = true;
          // "If atSignSeen is true and buffer is the empty string, host-missing validation error, return failure."
          if (lastAt + 1 === end) {
            errors?.report("host-missing", end, end);
            return false;
          }
          let colon = input.indexOf(":", pointer);
          if (colon === -1 || colon > lastAt) colon = lastAt;
          url.username += utf8PercentEncodeRange(input, pointer, colon, userinfoPercentEncodeSet);
          if (colon < lastAt) {
            url.password += utf8PercentEncodeRange(input, colon + 1, lastAt, userinfoPercentEncodeSet);
          }
          pointer = lastAt + 1;
        }
        // "… decrease pointer by buffer's code point length + 1, set buffer to the empty string, and set state to host state."
        state = HOST;
        pointer--;
        break;
      }

      // https://url.spec.whatwg.org/#host-state
      // https://url.spec.whatwg.org/#hostname-state
      case HOST:
      case HOSTNAME: {
        // 1. If state override is given and url's scheme is "file", then decrease pointer by 1 and set state to file host state.
        if (stateOverride !== 0 && url.scheme === "file") {
          state = FILE_HOST;
          pointer--;
          break;
        }
        // Optimisation: the buffer is the run up to the end of the host.
        let end = pointer;
        let insideBrackets = false;
        while (end < length) {
          const d = input.charCodeAt(end);
          if (d === 0x3a && !insideBrackets) break;
          if (d === 0x2f || d === 0x3f || d === 0x23 || (special && d === 0x5c)) break;
          if (d === 0x5b) insideBrackets = true;
          else if (d === 0x5d) insideBrackets = false;
          end++;
        }
        const d = end < length ? input.charCodeAt(end) : EOF;
        if (d === 0x3a) {
          // 2. Otherwise, if c is U+003A (:) and insideBrackets is false, then: …
          // "If buffer is the empty string, host-missing validation error, return failure."
          // The host is missing before the ":", an empty range there (see ValidationError).
          if (end === pointer) {
            errors?.report("host-missing", pointer, pointer);
            return false;
          }
          if (stateOverride === HOSTNAME) return false;
          const host = parseHost(input.slice(pointer, end), !special, errors?.within(pointer, end - pointer, true) ?? null);
          if (host === null) return false;
          url.host = host;
          state = PORT;
          pointer = end;
        } else {
          // 3. Otherwise, if c is the EOF code point, "/", "?" or "#", or url is special and c is "\": …
          if (special && end === pointer) {
            errors?.report("host-missing", pointer, pointer);
            return false;
          }
          if (stateOverride !== 0 && end === pointer && (includesCredentials(url) || url.port !== null)) return false;
          const host = parseHost(input.slice(pointer, end), !special, errors?.within(pointer, end - pointer, true) ?? null);
          if (host === null) return false;
          url.host = host;
          state = PATH_START;
          if (stateOverride !== 0) return true;
          pointer = end - 1;
        }
        break;
      }

      // https://url.spec.whatwg.org/#port-state
      case PORT: {
        let end = pointer;
        let port = 0;
        while (end < length && isASCIIDigit(input.charCodeAt(end))) {
          // Optimisation: stop accumulating past 65535; the value only matters up to there.
          if (port <= 65535) port = port * 10 + (input.charCodeAt(end) - 0x30);
          end++;
        }
        const d = end < length ? input.charCodeAt(end) : EOF;
        if (d === EOF || d === 0x2f || d === 0x3f || d === 0x23 || (special && d === 0x5c) || stateOverride !== 0) {
          if (end > pointer) {
            if (port > 65535) {
              errors?.report("port-out-of-range", pointer, end);
              return false;
            }
            url.port = port === defaultPort(url.scheme) ? null : port;
            if (stateOverride !== 0) return true;
          }
          // "If state override is given, then return failure."
          if (stateOverride !== 0) return false;
          state = PATH_START;
          pointer = end - 1;
        } else {
          errors?.report("port-invalid", end, end + codePointWidth(input, end));
          return false;
        }
        break;
      }

      // https://url.spec.whatwg.org/#file-state
      case FILE: {
        url.scheme = "file";
        special = true;
        url.host = "";
        if (c === 0x2f || c === 0x5c) {
          if (c === 0x5c) errors?.report("invalid-reverse-solidus", pointer, pointer + 1);
          state = FILE_SLASH;
        } else if (base !== null && base.scheme === "file") {
          url.host = base.host;
          url.path = base.path;
          url.opaquePath = base.opaquePath;
          url.query = base.query;
          if (c === 0x3f) {
            url.query = "";
            state = QUERY;
          } else if (c === 0x23) {
            url.fragment = "";
            state = FRAGMENT;
          } else if (c !== EOF) {
            url.query = null;
            // "If the code point substring from pointer to the end of input does not start with a
            // Windows drive letter, then shorten url's path."
            if (!startsWithWindowsDriveLetter(input, pointer)) {
              path = pathList(url.path);
              shortenPath(path, url.scheme);
            } else {
              errors?.report("file-invalid-Windows-drive-letter", pointer, pointer + 2);
              path = [];
            }
            state = PATH;
            pointer--;
          }
        } else {
          state = PATH;
          pointer--;
        }
        break;
      }

      // https://url.spec.whatwg.org/#file-slash-state
      case FILE_SLASH: {
        if (c === 0x2f || c === 0x5c) {
          if (c === 0x5c) errors?.report("invalid-reverse-solidus", pointer, pointer + 1);
          state = FILE_HOST;
        } else {
          if (base !== null && base.scheme === "file") {
            url.host = base.host;
            // "If the code point substring from pointer to the end of input does not start with a
            // Windows drive letter and base's path[0] is a normalized Windows drive letter, then
            // append base's path[0] to url's path."
            if (!startsWithWindowsDriveLetter(input, pointer) && !base.opaquePath && base.path !== "") {
              const segmentEnd = firstSegmentEnd(base.path);
              if (isWindowsDriveLetter(base.path, 1, segmentEnd, true)) {
                path ??= pathList(url.path);
                path.push(base.path.slice(1, segmentEnd));
              }
            }
          }
          state = PATH;
          pointer--;
        }
        break;
      }

      // https://url.spec.whatwg.org/#file-host-state
      case FILE_HOST: {
        let end = pointer;
        while (end < length) {
          const d = input.charCodeAt(end);
          if (d === 0x2f || d === 0x5c || d === 0x3f || d === 0x23) break;
          end++;
        }
        if (stateOverride === 0 && isWindowsDriveLetter(input, pointer, end)) {
          // "This is a (platform-independent) Windows drive letter quirk. buffer is not reset
          // here and instead used in the path state."
          errors?.report("file-invalid-Windows-drive-letter-host", pointer, end);
          state = PATH;
          bufferStart = pointer;
          pointer = end - 1;
        } else if (end === pointer) {
          url.host = "";
          if (stateOverride !== 0) return true;
          state = PATH_START;
          pointer = end - 1;
        } else {
          let host = parseHost(input.slice(pointer, end), !special, errors?.within(pointer, end - pointer, true) ?? null);
          if (host === null) return false;
          if (host === "localhost") host = "";
          url.host = host;
          if (stateOverride !== 0) return true;
          state = PATH_START;
          pointer = end - 1;
        }
        break;
      }

      // https://url.spec.whatwg.org/#path-start-state
      case PATH_START: {
        if (special) {
          if (c === 0x5c) errors?.report("invalid-reverse-solidus", pointer, pointer + 1);
          state = PATH;
          if (c !== 0x2f && c !== 0x5c) pointer--;
        } else if (stateOverride === 0 && c === 0x3f) {
          url.query = "";
          state = QUERY;
        } else if (stateOverride === 0 && c === 0x23) {
          url.fragment = "";
          state = FRAGMENT;
        } else if (c !== EOF) {
          state = PATH;
          if (c !== 0x2f) pointer--;
        } else if (stateOverride !== 0 && url.host === null) {
          path ??= pathList(url.path);
          path.push("");
        }
        break;
      }

      // https://url.spec.whatwg.org/#path-state
      case PATH: {
        // Optimisation: the buffer is the run up to the next segment delimiter, percent-encoded at once.
        let end = pointer;
        while (end < length) {
          const d = input.charCodeAt(end);
          if (d === 0x2f || (special && d === 0x5c) || (stateOverride === 0 && (d === 0x3f || d === 0x23))) break;
          end++;
        }
        const start = bufferStart === -1 ? pointer : bufferStart;
        bufferStart = -1;
        if (errors !== null) reportInvalidURLUnits(input, pointer, end, errors);
        const d = end < length ? input.charCodeAt(end) : EOF;
        const slash = d === 0x2f || (special && d === 0x5c);
        if (special && d === 0x5c) errors?.report("invalid-reverse-solidus", end, end + 1);
        path ??= pathList(url.path);
        if (isDoubleDotPathSegment(input, start, end)) {
          // "If buffer is a double-dot URL path segment, then: shorten url's path; if neither c is "/",
          // nor url is special and c is "\", append the empty string to url's path."
          shortenPath(path, url.scheme);
          if (!slash) path.push("");
        } else if (isSingleDotPathSegment(input, start, end)) {
          if (!slash) path.push("");
        } else if (url.scheme === "file" && path.length === 0 && isWindowsDriveLetter(input, start, end)) {
          // "This is a (platform-independent) Windows drive letter quirk."
          path.push(input[start] + ":");
        } else {
          path.push(utf8PercentEncodeRange(input, start, end, pathPercentEncodeSet));
        }
        pointer = end;
        if (d === 0x3f && stateOverride === 0) {
          url.query = "";
          state = QUERY;
        } else if (d === 0x23 && stateOverride === 0) {
          url.fragment = "";
          state = FRAGMENT;
        }
        break;
      }

      // https://url.spec.whatwg.org/#cannot-be-a-base-url-path-state
      case OPAQUE_PATH: {
        let end = pointer;
        while (end < length) {
          const d = input.charCodeAt(end);
          if (d === 0x3f || d === 0x23) break;
          end++;
        }
        if (errors !== null) reportInvalidURLUnits(input, pointer, end, errors);
        // "If c is U+0020 SPACE: if remaining starts with U+003F (?) or U+0023 (#), then append
        // "%20" to url's path; otherwise append U+0020 SPACE." Only the last space of the run
        // can be followed by "?" or "#".
        if (end < length && end > pointer && input.charCodeAt(end - 1) === 0x20) {
          url.path += utf8PercentEncodeRange(input, pointer, end - 1, c0ControlPercentEncodeSet) + "%20";
        } else {
          url.path += utf8PercentEncodeRange(input, pointer, end, c0ControlPercentEncodeSet);
        }
        pointer = end;
        if (end < length) {
          if (input.charCodeAt(end) === 0x3f) {
            url.query = "";
            state = QUERY;
          } else {
            url.fragment = "";
            state = FRAGMENT;
          }
        }
        break;
      }

      // https://url.spec.whatwg.org/#query-state
      case QUERY: {
        let end = pointer;
        if (stateOverride === 0) {
          end = input.indexOf("#", pointer);
          if (end === -1) end = length;
        } else {
          end = length;
        }
        if (errors !== null) reportInvalidURLUnits(input, pointer, end, errors);
        // 1. If encoding is not UTF-8 and url is not special or url's scheme is "ws" or "wss", set encoding to UTF-8.
        const queryEncoding = !special || url.scheme === "ws" || url.scheme === "wss" ? "UTF-8" : encoding;
        const set = special ? specialQueryPercentEncodeSet : queryPercentEncodeSet;
        const encoded =
          queryEncoding === "UTF-8"
            ? utf8PercentEncodeRange(input, pointer, end, set)
            : percentEncodeAfterEncoding(queryEncoding, input.slice(pointer, end), set);
        url.query = url.query === null ? encoded : url.query + encoded;
        pointer = end;
        if (end < length) {
          url.fragment = "";
          state = FRAGMENT;
        }
        break;
      }

      // https://url.spec.whatwg.org/#fragment-state
      case FRAGMENT: {
        if (errors !== null) reportInvalidURLUnits(input, pointer, length, errors);
        const encoded = utf8PercentEncodeRange(input, pointer, length, fragmentPercentEncodeSet);
        url.fragment = url.fragment === null ? encoded : url.fragment + encoded;
        pointer = length;
        break;
      }
    }
    // "If after a run pointer points to the EOF code point, go to the next step.
    // Otherwise, increase pointer by 1 and continue with the state machine."
    if (pointer >= length) break;
  }
  if (path !== null) url.path = path.length === 0 ? "" : "/" + path.join("/");
  return true;
}
