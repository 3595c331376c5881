/**
 * The code point classes and string helpers of the Infra Standard and the
 * URL Standard that every layer uses, on UTF-16 code units (every class
 * here is ASCII, so a code unit test is exact).
 *
 * https://infra.spec.whatwg.org/#code-points
 *
 * @module
 */

/**
 * https://infra.spec.whatwg.org/#ascii-digit
 *
 * @example
 * ```ts
 * isASCIIDigit(0x37); // true ("7")
 * ```
 */
export function isASCIIDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * https://infra.spec.whatwg.org/#ascii-alpha
 *
 * @example
 * ```ts
 * isASCIIAlpha(0x51); // true ("Q")
 * isASCIIAlpha(0x5b); // false ("[")
 * ```
 */
export function isASCIIAlpha(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/**
 * https://infra.spec.whatwg.org/#ascii-alphanumeric
 *
 * @example
 * ```ts
 * isASCIIAlphanumeric(0x5f); // false ("_")
 * ```
 */
export function isASCIIAlphanumeric(c: number): boolean {
  return isASCIIAlpha(c) || isASCIIDigit(c);
}

/**
 * https://infra.spec.whatwg.org/#ascii-hex-digit
 *
 * @example
 * ```ts
 * isASCIIHexDigit(0x46); // true ("F")
 * isASCIIHexDigit(0x67); // false ("g")
 * ```
 */
export function isASCIIHexDigit(c: number): boolean {
  if (isASCIIDigit(c)) return true;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66;
}

/**
 * https://infra.spec.whatwg.org/#ascii-tab-or-newline
 *
 * @example
 * ```ts
 * isASCIITabOrNewline(0x0d); // true (CR)
 * isASCIITabOrNewline(0x0c); // false (FF)
 * ```
 */
export function isASCIITabOrNewline(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * https://infra.spec.whatwg.org/#c0-control-or-space
 *
 * @example
 * ```ts
 * isC0ControlOrSpace(0x20); // true
 * isC0ControlOrSpace(0x7f); // false (DELETE is no C0 control)
 * ```
 */
export function isC0ControlOrSpace(c: number): boolean {
  return c <= 0x20;
}

/**
 * https://url.spec.whatwg.org/#windows-drive-letter — two code points, an
 * ASCII alpha followed by ":" or "|"; normalized when the second is ":".
 *
 * @example
 * ```ts
 * isWindowsDriveLetter("c|", 0, 2); // true
 * isWindowsDriveLetter("c|", 0, 2, true); // false
 * ```
 */
export function isWindowsDriveLetter(input: string, start: number, end: number, normalized = false): boolean {
  if (end - start !== 2 || !isASCIIAlpha(input.charCodeAt(start))) return false;
  const second = input.charCodeAt(start + 1);
  return second === 0x3a || (!normalized && second === 0x7c);
}

/**
 * https://url.spec.whatwg.org/#start-with-a-windows-drive-letter — whether
 * `input` from `start` starts with a Windows drive letter followed by the end,
 * "/", "\", "?" or "#".
 *
 * @example
 * ```ts
 * startsWithWindowsDriveLetter("C:/x", 0); // true
 * startsWithWindowsDriveLetter("C:x", 0); // false
 * ```
 */
export function startsWithWindowsDriveLetter(input: string, start: number): boolean {
  if (input.length - start < 2 || !isWindowsDriveLetter(input, start, start + 2)) return false;
  if (input.length - start === 2) return true;
  const third = input.charCodeAt(start + 2);
  return third === 0x2f || third === 0x5c || third === 0x3f || third === 0x23;
}

/**
 * https://url.spec.whatwg.org/#single-dot-path-segment — "." or "%2e", ASCII case-insensitively.
 *
 * @example
 * ```ts
 * isSingleDotPathSegment("/%2E/", 1, 4); // true
 * ```
 */
export function isSingleDotPathSegment(input: string, start: number, end: number): boolean {
  const length = end - start;
  if (length === 1) return input.charCodeAt(start) === 0x2e;
  if (length === 3) return isPercent2e(input, start);
  return false;
}

/**
 * https://url.spec.whatwg.org/#double-dot-path-segment — "..", ".%2e", "%2e." or "%2e%2e", ASCII case-insensitively.
 *
 * @example
 * ```ts
 * isDoubleDotPathSegment(".%2E", 0, 4); // true
 * ```
 */
export function isDoubleDotPathSegment(input: string, start: number, end: number): boolean {
  switch (end - start) {
    case 2:
      return input.charCodeAt(start) === 0x2e && input.charCodeAt(start + 1) === 0x2e;
    case 4:
      return (
        (input.charCodeAt(start) === 0x2e && isPercent2e(input, start + 1)) ||
        (isPercent2e(input, start) && input.charCodeAt(start + 3) === 0x2e)
      );
    case 6:
      return isPercent2e(input, start) && isPercent2e(input, start + 3);
    default:
      return false;
  }
}

function isPercent2e(input: string, i: number): boolean {
  return input.charCodeAt(i) === 0x25 && input.charCodeAt(i + 1) === 0x32 && (input.charCodeAt(i + 2) | 0x20) === 0x65;
}

/**
 * https://url.spec.whatwg.org/#url-code-points — ASCII alphanumeric,
 * `!$&'()*+,-./:;=?@_~`, and U+00A0 to U+10FFFD excluding surrogates and
 * noncharacters. Takes a code point, not a code unit.
 *
 * @example
 * ```ts
 * isURLCodePoint(0x7e); // true ("~")
 * isURLCodePoint(0xfffe); // false (a noncharacter)
 * ```
 */
export function isURLCodePoint(cp: number): boolean {
  if (cp < 0x80) return urlCodePointASCII[cp] === 1;
  if (cp < 0xa0 || cp > 0x10fffd) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  // https://infra.spec.whatwg.org/#noncharacter
  if (cp >= 0xfdd0 && cp <= 0xfdef) return false;
  if ((cp & 0xfffe) === 0xfffe) return false;
  return true;
}

const urlCodePointASCII: Uint8Array = (() => {
  const table = new Uint8Array(128);
  const chars = "!$&'()*+,-./:;=?@_~";
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  for (let c = 0; c < 128; c++) if (isASCIIAlphanumeric(c)) table[c] = 1;
  return table;
})();

/**
 * https://url.spec.whatwg.org/#forbidden-host-code-point
 *
 * @example
 * ```ts
 * forbiddenHostCodePoints[0x40]; // 1 ("@")
 * ```
 */
export const forbiddenHostCodePoints: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (const c of [0x00, 0x09, 0x0a, 0x0d, 0x20, 0x23, 0x2f, 0x3a, 0x3c, 0x3e, 0x3f, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x7c]) {
    table[c] = 1;
  }
  return table;
})();

/**
 * https://url.spec.whatwg.org/#forbidden-domain-code-point — forbidden host code points, C0 controls, "%" and U+007F.
 *
 * @example
 * ```ts
 * forbiddenDomainCodePoints[0x25]; // 1 ("%")
 * ```
 */
export const forbiddenDomainCodePoints: Uint8Array = (() => {
  const table = forbiddenHostCodePoints.slice();
  for (let c = 0; c <= 0x1f; c++) table[c] = 1;
  table[0x25] = 1;
  table[0x7f] = 1;
  return table;
})();

/**
 * https://infra.spec.whatwg.org/#ascii-whitespace — TAB, LF, FF, CR or SPACE.
 *
 * @example
 * ```ts
 * isASCIIWhitespace(0x0c); // true (FF)
 * isASCIIWhitespace(0xa0); // false (NO-BREAK SPACE is not ASCII whitespace)
 * ```
 */
export function isASCIIWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * https://infra.spec.whatwg.org/#ascii-lowercase — only A–Z change, so that
 * e.g. U+212A KELVIN SIGN does not become a "k" as `toLowerCase` makes it.
 * Optimisation: a string without A–Z is returned as it is.
 *
 * @example
 * ```ts
 * asciiLowercase("Content-Type"); // "content-type"
 * asciiLowercase("\u212Aoi8-R"); // "\u212Aoi8-r"
 * ```
 */
export function asciiLowercase(input: string): string {
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return input.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
  }
  return input;
}

/**
 * Makes a JavaScript string a scalar value string: each lone surrogate
 * becomes U+FFFD, as Web IDL's USVString conversion does. The length is kept,
 * so offsets stay valid.
 *
 * @example
 * ```ts
 * toScalarValueString("a\uD800b"); // "a\uFFFDb"
 * ```
 */
export function toScalarValueString(input: string): string {
  return input.isWellFormed() ? input : input.toWellFormed();
}
