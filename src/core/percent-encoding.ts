/**
 * Percent-encoded bytes: the percent-encode sets, percent-encoding and
 * percent-decoding.
 *
 * https://url.spec.whatwg.org/#percent-encoded-bytes
 *
 * @module
 */

/**
 * A percent-encode set: a 128-entry table, 1 where the ASCII code point is in
 * the set (every set holds all code points above U+007E).
 *
 * Optimisation: a typed-array lookup instead of a predicate per code point.
 *
 * @example
 * ```ts
 * const set: PercentEncodeSet = pathPercentEncodeSet;
 * set[0x20]; // 1 (space)
 * ```
 */
export type PercentEncodeSet = Uint8Array;

function makeSet(base: PercentEncodeSet | null, extra: string): PercentEncodeSet {
  const set = base === null ? new Uint8Array(128) : base.slice();
  for (let i = 0; i < extra.length; i++) set[extra.charCodeAt(i)] = 1;
  return set;
}

/**
 * https://url.spec.whatwg.org/#c0-control-percent-encode-set — C0 controls and U+007F (all above U+007E).
 *
 * @example
 * ```ts
 * c0ControlPercentEncodeSet[0x7f]; // 1
 * c0ControlPercentEncodeSet[0x20]; // 0
 * ```
 */
export const c0ControlPercentEncodeSet: PercentEncodeSet = (() => {
  const set = new Uint8Array(128);
  for (let i = 0; i <= 0x1f; i++) set[i] = 1;
  set[0x7f] = 1;
  return set;
})();

/**
 * https://url.spec.whatwg.org/#fragment-percent-encode-set
 *
 * @example
 * ```ts
 * fragmentPercentEncodeSet[0x3c]; // 1 ("<")
 * ```
 */
export const fragmentPercentEncodeSet: PercentEncodeSet = makeSet(c0ControlPercentEncodeSet, ' "<>`');

/**
 * https://url.spec.whatwg.org/#query-percent-encode-set
 *
 * @example
 * ```ts
 * queryPercentEncodeSet[0x23]; // 1 ("#")
 * queryPercentEncodeSet[0x27]; // 0 ("'" is in the special-query set only)
 * ```
 */
export const queryPercentEncodeSet: PercentEncodeSet = makeSet(c0ControlPercentEncodeSet, ' "#<>');

/**
 * https://url.spec.whatwg.org/#special-query-percent-encode-set
 *
 * @example
 * ```ts
 * specialQueryPercentEncodeSet[0x27]; // 1 ("'")
 * ```
 */
export const specialQueryPercentEncodeSet: PercentEncodeSet = makeSet(queryPercentEncodeSet, "'");

/**
 * https://url.spec.whatwg.org/#path-percent-encode-set
 *
 * @example
 * ```ts
 * pathPercentEncodeSet[0x7b]; // 1 ("{")
 * ```
 */
export const pathPercentEncodeSet: PercentEncodeSet = makeSet(queryPercentEncodeSet, "?^`{}");

/**
 * https://url.spec.whatwg.org/#userinfo-percent-encode-set
 *
 * @example
 * ```ts
 * userinfoPercentEncodeSet[0x40]; // 1 ("@")
 * ```
 */
export const userinfoPercentEncodeSet: PercentEncodeSet = makeSet(pathPercentEncodeSet, "/:;=@[\\]^|");

/**
 * https://url.spec.whatwg.org/#component-percent-encode-set
 *
 * @example
 * ```ts
 * componentPercentEncodeSet[0x26]; // 1 ("&")
 * ```
 */
export const componentPercentEncodeSet: PercentEncodeSet = makeSet(userinfoPercentEncodeSet, "$%&+,");

/**
 * https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set
 *
 * @example
 * ```ts
 * formURLEncodedPercentEncodeSet[0x7e]; // 1 ("~")
 * ```
 */
export const formURLEncodedPercentEncodeSet: PercentEncodeSet = makeSet(componentPercentEncodeSet, "!'()~");

/**
 * "%00" … "%FF": https://url.spec.whatwg.org/#percent-encode (upper-case hex digits).
 *
 * @example
 * ```ts
 * percentEncodedBytes[0xe9]; // "%E9"
 * ```
 */
export const percentEncodedBytes: readonly string[] = Array.from(
  { length: 256 },
  (_, byte) => "%" + byte.toString(16).toUpperCase().padStart(2, "0"),
);

/**
 * https://url.spec.whatwg.org/#percent-encode — percent-encode one byte.
 *
 * @example
 * ```ts
 * percentEncode(0x20); // "%20"
 * ```
 */
export function percentEncode(byte: number): string {
  return percentEncodedBytes[byte & 0xff]!;
}

/**
 * Appends the UTF-8 percent-encoding of the code point at `input[i]` (a lone
 * surrogate as U+FFFD) and returns the code units consumed.
 */
function utf8PercentEncodeCodeUnitAt(input: string, i: number, out: string[]): number {
  const c = input.charCodeAt(i);
  if (c < 0x800) {
    out.push(percentEncodedBytes[0xc0 | (c >> 6)]! + percentEncodedBytes[0x80 | (c & 0x3f)]!);
    return 1;
  }
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < input.length) {
    const d = input.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      out.push(
        percentEncodedBytes[0xf0 | (cp >> 18)]! +
          percentEncodedBytes[0x80 | ((cp >> 12) & 0x3f)]! +
          percentEncodedBytes[0x80 | ((cp >> 6) & 0x3f)]! +
          percentEncodedBytes[0x80 | (cp & 0x3f)]!,
      );
      return 2;
    }
  }
  // Lone surrogates become U+FFFD (EF BF BD).
  const cp = c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
  out.push(
    percentEncodedBytes[0xe0 | (cp >> 12)]! +
      percentEncodedBytes[0x80 | ((cp >> 6) & 0x3f)]! +
      percentEncodedBytes[0x80 | (cp & 0x3f)]!,
  );
  return 1;
}

/**
 * https://url.spec.whatwg.org/#string-utf-8-percent-encode — UTF-8
 * percent-encode a string using a percent-encode set (the
 * "percent-encode after encoding" algorithm with UTF-8, which never fails).
 *
 * Optimisation: returns `input` itself when nothing needs encoding; otherwise
 * copies runs with `slice` rather than appending code point by code point.
 *
 * @example
 * ```ts
 * utf8PercentEncodeString("a b€", pathPercentEncodeSet); // "a%20b%E2%82%AC"
 * utf8PercentEncodeString("a b", formURLEncodedPercentEncodeSet, true); // "a+b"
 * ```
 */
export function utf8PercentEncodeString(
  input: string,
  percentEncodeSet: PercentEncodeSet,
  spaceAsPlus = false,
): string {
  return utf8PercentEncodeRange(input, 0, input.length, percentEncodeSet, spaceAsPlus);
}

/**
 * {@link utf8PercentEncodeString} of `input.slice(start, end)`, without
 * making the slice first when nothing needs encoding.
 *
 * @example
 * ```ts
 * utf8PercentEncodeRange("x/a b/y", 2, 5, pathPercentEncodeSet); // "a%20b"
 * ```
 */
export function utf8PercentEncodeRange(
  input: string,
  start: number,
  end: number,
  percentEncodeSet: PercentEncodeSet,
  spaceAsPlus = false,
): string {
  let i = start;
  for (; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x80 || percentEncodeSet[c] === 1 || (spaceAsPlus && c === 0x20)) break;
  }
  if (i === end) return start === 0 && end === input.length ? input : input.slice(start, end);
  const out: string[] = [];
  let runStart = start;
  while (i < end) {
    const c = input.charCodeAt(i);
    if (c < 0x80) {
      if (spaceAsPlus && c === 0x20) {
        if (runStart < i) out.push(input.slice(runStart, i));
        out.push("+");
        runStart = ++i;
      } else if (percentEncodeSet[c] === 1) {
        if (runStart < i) out.push(input.slice(runStart, i));
        out.push(percentEncodedBytes[c]!);
        runStart = ++i;
      } else {
        i++;
      }
    } else {
      if (runStart < i) out.push(input.slice(runStart, i));
      // A surrogate pair at the end of the range is still one code point.
      i += utf8PercentEncodeCodeUnitAt(input, i, out);
      runStart = i;
    }
  }
  if (runStart < end) out.push(input.slice(runStart, end));
  return out.join("");
}

/**
 * Whether `input` needs no change from {@link utf8PercentEncodeString} with
 * this set (pure ASCII, nothing in the set).
 *
 * @example
 * ```ts
 * isPercentEncodeClean("a/b", pathPercentEncodeSet); // true
 * isPercentEncodeClean("a b", pathPercentEncodeSet); // false
 * ```
 */
export function isPercentEncodeClean(input: string, percentEncodeSet: PercentEncodeSet): boolean {
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x80 || percentEncodeSet[c] === 1) return false;
  }
  return true;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/**
 * https://url.spec.whatwg.org/#percent-decode — percent-decode a byte
 * sequence (given here as a string of code units below 0x100, or as bytes).
 *
 * @example
 * ```ts
 * percentDecodeBytes(new TextEncoder().encode("%41%zz")); // bytes of "A%zz"
 * ```
 */
export function percentDecodeBytes(input: Uint8Array): Uint8Array {
  const output = new Uint8Array(input.length);
  let n = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    if (byte === 0x25 && i + 2 < input.length) {
      const hi = hexValue(input[i + 1]!);
      const lo = hexValue(input[i + 2]!);
      if (hi >= 0 && lo >= 0) {
        output[n++] = (hi << 4) | lo;
        i += 2;
        continue;
      }
    }
    output[n++] = byte;
  }
  return output.subarray(0, n);
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * https://url.spec.whatwg.org/#string-percent-decode — UTF-8 encode the
 * string, then percent-decode it.
 *
 * @example
 * ```ts
 * percentDecodeString("%E2%82%AC"); // Uint8Array [0xE2, 0x82, 0xAC]
 * ```
 */
export function percentDecodeString(input: string): Uint8Array {
  return percentDecodeBytes(utf8Encoder.encode(input));
}

/**
 * https://encoding.spec.whatwg.org/#utf-8-decode-without-bom — invalid
 * sequences become U+FFFD.
 *
 * @example
 * ```ts
 * utf8DecodeWithoutBOM(new Uint8Array([0x61, 0xff])); // "a\uFFFD"
 * ```
 */
export function utf8DecodeWithoutBOM(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/**
 * Percent-decode a string and UTF-8 decode the result without BOM: what the
 * host parser and the form-urlencoded parser do with their input.
 *
 * Optimisation: a string without "%" that is ASCII comes back unchanged.
 *
 * @example
 * ```ts
 * percentDecodeToString("caf%C3%A9"); // "café"
 * ```
 */
export function percentDecodeToString(input: string): string {
  let plain = true;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x25 || c >= 0x80) {
      plain = false;
      break;
    }
  }
  if (plain) return input;
  return utf8DecodeWithoutBOM(percentDecodeString(input));
}

/**
 * https://url.spec.whatwg.org/#utf-8-percent-encode — UTF-8 percent-encode a
 * single code point (given as a string of one code point) with a set.
 *
 * @example
 * ```ts
 * utf8PercentEncodeCodePoint("é", userinfoPercentEncodeSet); // "%C3%A9"
 * ```
 */
export function utf8PercentEncodeCodePoint(codePoint: string, percentEncodeSet: PercentEncodeSet): string {
  return utf8PercentEncodeString(codePoint, percentEncodeSet);
}
