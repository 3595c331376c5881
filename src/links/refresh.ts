/**
 * The URL in a `<meta http-equiv=refresh content>` value.
 *
 * https://html.spec.whatwg.org/multipage/document-lifecycle.html#shared-declarative-refresh-steps
 *
 * @module
 */

import { isASCIIWhitespace } from "../core/infra.ts";

/**
 * What {@link parseRefresh} finds: the delay and, when the value names one,
 * the URL text with where it is in the value.
 *
 * @example
 * ```ts
 * const r: RefreshValue = { time: 5, url: { text: "/next", start: 7, end: 12 } };
 * ```
 */
export interface RefreshValue {
  readonly time: number;
  /** The URL string (null: the refresh reloads the document itself). */
  readonly url: { readonly text: string; readonly start: number; readonly end: number } | null;
}

/**
 * https://html.spec.whatwg.org/multipage/document-lifecycle.html#shared-declarative-refresh-steps —
 * reads `input` up to the point where the steps parse the URL; returns
 * null where they return without refreshing. The URL text keeps what the
 * steps keep, less trailing ASCII whitespace (which the URL parser strips).
 *
 * @example
 * ```ts
 * parseRefresh("5; URL='/next?a=1'")!.url!.text; // "/next?a=1"
 * parseRefresh("0;http://example.com/")!.url!.text; // "http://example.com/"
 * parseRefresh("3")!.url; // null
 * parseRefresh("soon"); // null (no time)
 * ```
 */
export function parseRefresh(input: string): RefreshValue | null {
  const n = input.length;
  // 2. Let position point at the start of input.
  let position = 0;
  // 3. Skip ASCII whitespace within input given position.
  while (position < n && isASCIIWhitespace(input.charCodeAt(position))) position++;
  // 4. Let time be 0.
  let time = 0;
  // 5. Collect a sequence of code points that are ASCII digits from input given position, and let the result be timeString.
  const timeStart = position;
  while (position < n && input.charCodeAt(position) >= 0x30 && input.charCodeAt(position) <= 0x39) position++;
  const timeString = input.slice(timeStart, position);
  // 6. If timeString is the empty string, then: if the code point in input pointed to by position is not U+002E (.), then return.
  if (timeString === "") {
    if (input.charCodeAt(position) !== 0x2e) return null;
  } else {
    // 7. Otherwise, set time to the result of parsing timeString using the rules for parsing non-negative integers.
    time = Number(timeString);
  }
  // 8. Collect a sequence of code points that are ASCII digits and U+002E FULL STOP characters (.) from input given position. Ignore any collected characters.
  while (position < n) {
    const c = input.charCodeAt(position);
    if (!((c >= 0x30 && c <= 0x39) || c === 0x2e)) break;
    position++;
  }
  // 9. Let urlRecord be document's URL.
  // 10. If position is not past the end of input, then:
  if (position < n) {
    const c = input.charCodeAt(position);
    // 1. If the code point in input pointed to by position is not U+003B (;), U+002C (,), or ASCII whitespace, then return.
    if (c !== 0x3b && c !== 0x2c && !isASCIIWhitespace(c)) return null;
    // 2. Skip ASCII whitespace within input given position.
    while (position < n && isASCIIWhitespace(input.charCodeAt(position))) position++;
    // 3. If the code point in input pointed to by position is U+003B (;) or U+002C (,), then advance position to the next code point.
    if (position < n && (input.charCodeAt(position) === 0x3b || input.charCodeAt(position) === 0x2c)) position++;
    // 4. Skip ASCII whitespace within input given position.
    while (position < n && isASCIIWhitespace(input.charCodeAt(position))) position++;
  }
  // 11. If position is not past the end of input, then:
  if (position >= n) return { time, url: null };
  // 1. Let urlString be the code point substring from position to the end of input.
  let urlStart = position;
  let urlEnd = n;
  parse: {
    // 2. If the code point in input pointed to by position is U+0055 (U) or U+0075 (u), then advance position; otherwise, jump to the step labeled skip quotes.
    if ((input.charCodeAt(position) | 0x20) === 0x75) {
      position++;
      // 3. If ... U+0052 (R) or U+0072 (r), then advance position; otherwise, jump to the step labeled parse.
      if ((input.charCodeAt(position) | 0x20) !== 0x72) break parse;
      position++;
      // 4. If ... U+004C (L) or U+006C (l), then advance position; otherwise, jump to the step labeled parse.
      if ((input.charCodeAt(position) | 0x20) !== 0x6c) break parse;
      position++;
      // 5. Skip ASCII whitespace within input given position.
      while (position < n && isASCIIWhitespace(input.charCodeAt(position))) position++;
      // 6. If ... U+003D (=), then advance position; otherwise, jump to the step labeled parse.
      if (input.charCodeAt(position) !== 0x3d) break parse;
      position++;
      // 7. Skip ASCII whitespace within input given position.
      while (position < n && isASCIIWhitespace(input.charCodeAt(position))) position++;
    }
    // 8. Skip quotes: If the code point in input pointed to by position is U+0027 (') or U+0022 ("), then let quote be that code point, and advance position; otherwise, let quote be the empty string.
    let quote = "";
    if (input.charCodeAt(position) === 0x27 || input.charCodeAt(position) === 0x22) {
      quote = input[position]!;
      position++;
    }
    // 9. Set urlString to the substring of input from the code point at position to the end of the string.
    urlStart = position;
    urlEnd = n;
    // 10. If quote is not the empty string, and there is a code point in urlString equal to quote, then truncate urlString at that code point.
    if (quote !== "") {
      const close = input.indexOf(quote, urlStart);
      if (close !== -1) urlEnd = close;
    }
  }
  // 12. Parse: ... encoding-parsing a URL given urlString (the caller's part).
  while (urlEnd > urlStart && isASCIIWhitespace(input.charCodeAt(urlEnd - 1))) urlEnd--;
  return { time, url: { text: input.slice(urlStart, urlEnd), start: urlStart, end: urlEnd } };
}
