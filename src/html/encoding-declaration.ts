/**
 * The encoding a document declares in a `<meta>` element (`charset`, or
 * `http-equiv="Content-Type"` with a `content`), and the encoding such a
 * declaration changes a document whose encoding was only sniffed to.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
 *
 * @module
 */

import { type EncodingName, getEncoding } from "../core/index.ts";
import { asciiLowercase, isASCIIWhitespace } from "../core/infra.ts";

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element —
 * the encoding a `content` value such as `"text/html; charset=Shift_JIS"`
 * names, or null.
 *
 * @example
 * ```ts
 * extractCharacterEncodingFromMeta("text/html; charset='latin1'"); // "windows-1252"
 * extractCharacterEncodingFromMeta("text/html; charset='latin1"); // null (an unmatched quote)
 * extractCharacterEncodingFromMeta("text/html"); // null
 * ```
 */
export function extractCharacterEncodingFromMeta(s: string): EncodingName | null {
  // Only A–Z change, so offsets in `lower` are offsets in `s`.
  const lower = asciiLowercase(s);
  const n = s.length;
  // 1. Let position be a pointer into s, initially pointing at the start of the string.
  let position = 0;
  for (;;) {
    // 2. Loop: Find the first seven characters in s after position that are an ASCII
    //    case-insensitive match for the word "charset". If no such match is found, return nothing.
    const found = lower.indexOf("charset", position);
    if (found === -1) return null;
    position = found + 7;
    // 3. Skip any ASCII whitespace that immediately follow the word "charset".
    while (position < n && isASCIIWhitespace(s.charCodeAt(position))) position++;
    // 4. If the next character is not a U+003D EQUALS SIGN (=), then move position to point just
    //    before that next character, and jump back to the step labeled loop.
    if (s.charCodeAt(position) !== 0x3d) continue;
    position++;
    // 5. Skip any ASCII whitespace that immediately follow the equals sign.
    while (position < n && isASCIIWhitespace(s.charCodeAt(position))) position++;
    break;
  }
  // 6. Process the next character as follows:
  if (position === n) return null;
  const c = s.charCodeAt(position);
  if (c === 0x22 || c === 0x27) {
    // "If it is a U+0022 (") and there is a later U+0022 (") in s [or the same for U+0027 (')]":
    // the substring between this character and the next earliest occurrence of it.
    // "If it is an unmatched U+0022 (") [or U+0027 (')]": return nothing.
    const close = s.indexOf(s[position]!, position + 1);
    return close === -1 ? null : getEncoding(s.slice(position + 1, close));
  }
  // "Otherwise": up to the first ASCII whitespace or ";", or the end of s.
  let end = position;
  while (end < n && s.charCodeAt(end) !== 0x3b && !isASCIIWhitespace(s.charCodeAt(end))) end++;
  return getEncoding(s.slice(position, end));
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
 * ("A start tag whose tag name is "meta"") — the encoding a `meta` element
 * declares, from the values of its `charset`, `http-equiv` and `content`
 * attributes (null: absent), or null when it declares none.
 *
 * @example
 * ```ts
 * metaDeclaredEncoding("sjis", null, null); // "Shift_JIS"
 * metaDeclaredEncoding(null, "Content-Type", "text/html; charset=koi8-r"); // "KOI8-R"
 * metaDeclaredEncoding(null, "refresh", "text/html; charset=koi8-r"); // null
 * ```
 */
export function metaDeclaredEncoding(charset: string | null, httpEquiv: string | null, content: string | null): EncodingName | null {
  // Deviation: the standard reads http-equiv when a charset attribute's value is not a label
  // ("Otherwise, if the element has an http-equiv attribute ..."); the prescan
  // (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding)
  // and Gecko's tree builder take a charset attribute alone, and so does this.
  if (charset !== null) return getEncoding(charset);
  if (httpEquiv !== null && content !== null && asciiLowercase(httpEquiv) === "content-type") return extractCharacterEncodingFromMeta(content);
  return null;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing —
 * the encoding a `meta` that declares `declared` changes a document whose
 * encoding `current` is tentative to, or null when nothing changes (UTF-16
 * declares UTF-8; x-user-defined declares windows-1252).
 *
 * @example
 * ```ts
 * changedEncoding("windows-1252", "UTF-16LE"); // "UTF-8"
 * changedEncoding("UTF-8", "UTF-8"); // null
 * ```
 */
export function changedEncoding(current: EncodingName, declared: EncodingName): EncodingName | null {
  // 1. If the encoding that is already being used to interpret the input stream is UTF-16BE/LE,
  //    then set the confidence to certain and return.
  if (current === "UTF-16BE" || current === "UTF-16LE") return null;
  // 2. If the new encoding is UTF-16BE/LE, then change it to UTF-8.
  let next = declared === "UTF-16BE" || declared === "UTF-16LE" ? "UTF-8" : declared;
  // 3. If the new encoding is x-user-defined, then change it to windows-1252.
  if (next === "x-user-defined") next = "windows-1252";
  // 4. If the new encoding is identical or equivalent to the encoding that is already being
  //    used, then set the confidence to certain and return.
  return next === current ? null : next;
}
