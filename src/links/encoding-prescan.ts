/**
 * The HTML Standard's prescan: the encoding a document's first bytes
 * declare, in a `<meta>` or, failing that, an XML declaration, read from
 * the bytes before they are decoded.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
 *
 * @module
 */

import { type EncodingName, getEncoding } from "../core/index.ts";
import { asciiLowercase, isASCIIWhitespace } from "../core/infra.ts";
import { extractCharacterEncodingFromMeta } from "../html/index.ts";

/** One attribute that "get an attribute" sniffed: its lowercased name and value, and the position after it. */
interface SniffedAttribute {
  readonly name: string;
  readonly value: string;
  readonly position: number;
}

/** What "get an attribute" gives when the bytes run out: the prescan is aborted. */
const OUT_OF_BYTES = -1;

/** https://infra.spec.whatwg.org/#isomorphic-decode of `bytes[start, end)`, ASCII-lowercased (the prescan lowercases A–Z as it reads). */
function lowercaseText(bytes: Uint8Array, start: number, end: number): string {
  return asciiLowercase(String.fromCharCode(...bytes.subarray(start, end)));
}

/** Whether the byte is 0x09, 0x0A, 0x0C, 0x0D, 0x20 or 0x2F, the bytes "get an attribute" skips first. */
function isSpaceOrSlash(c: number): boolean {
  return c === 0x2f || isASCIIWhitespace(c);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing —
 * the attribute at `position` in `bytes`; at a `>` ("There isn't one"),
 * null and the position of that `>`; {@link OUT_OF_BYTES} when the bytes
 * end first.
 */
function getAnAttribute(bytes: Uint8Array, position: number): SniffedAttribute | { readonly name: null; readonly position: number } | typeof OUT_OF_BYTES {
  const n = bytes.length;
  // 1. Skip 0x09, 0x0A, 0x0C, 0x0D, 0x20 and 0x2F. 2. "If the byte at position is 0x3E (>), then abort ... There isn't one."
  while (position < n && isSpaceOrSlash(bytes[position]!)) position++;
  if (position >= n) return OUT_OF_BYTES;
  if (bytes[position] === 0x3e) return { name: null, position };
  // 3–5. The name: up to "=" (a first "=" is part of it), whitespace, "/" or ">".
  const nameStart = position;
  let c = bytes[position]!;
  while (!(c === 0x3d && position > nameStart) && !isASCIIWhitespace(c) && c !== 0x2f && c !== 0x3e) {
    if (++position >= n) return OUT_OF_BYTES;
    c = bytes[position]!;
  }
  const name = lowercaseText(bytes, nameStart, position);
  if (c === 0x2f || c === 0x3e) return { name, value: "", position };
  // 6. Spaces. 7. "If the byte at position is not 0x3D (=), abort": a name without a value.
  while (position < n && isASCIIWhitespace(bytes[position]!)) position++;
  if (position >= n) return OUT_OF_BYTES;
  if (bytes[position] !== 0x3d) return { name, value: "", position };
  // 8. Past the "=". 9. Value: skip whitespace.
  position++;
  while (position < n && isASCIIWhitespace(bytes[position]!)) position++;
  if (position >= n) return OUT_OF_BYTES;
  // 10. A quoted value ends at its quote; ">" means an empty value; else the value starts here.
  const first = bytes[position]!;
  if (first === 0x22 || first === 0x27) {
    const close = bytes.indexOf(first, position + 1);
    if (close === -1) return OUT_OF_BYTES;
    return { name, value: lowercaseText(bytes, position + 1, close), position: close + 1 };
  }
  if (first === 0x3e) return { name, value: "", position };
  // 11–12. An unquoted value: up to whitespace or ">".
  const valueStart = position;
  position++;
  while (position < n && bytes[position] !== 0x3e && !isASCIIWhitespace(bytes[position]!)) position++;
  if (position >= n) return OUT_OF_BYTES;
  return { name, value: lowercaseText(bytes, valueStart, position), position };
}

/**
 * The `<meta>` whose attributes start at `position`: the encoding it
 * declares (null: none, or one that is not a label) and the position of
 * its `>`, or {@link OUT_OF_BYTES}. Steps 2–16 of the `<meta>` branch of
 * the prescan.
 */
function metaDeclaration(bytes: Uint8Array, position: number): { readonly encoding: EncodingName | null; readonly position: number } | typeof OUT_OF_BYTES {
  const attributeList = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | null = null;
  // "the null value (which, for the purposes of this algorithm, is distinct from an unrecognized encoding ...)"
  let charset: EncodingName | "failure" | null = null;
  for (;;) {
    const attribute = getAnAttribute(bytes, position);
    if (attribute === OUT_OF_BYTES) return OUT_OF_BYTES;
    position = attribute.position;
    if (attribute.name === null) break;
    if (attributeList.has(attribute.name)) continue;
    attributeList.add(attribute.name);
    if (attribute.name === "http-equiv") {
      if (attribute.value === "content-type") gotPragma = true;
    } else if (attribute.name === "content") {
      const encoding = extractCharacterEncodingFromMeta(attribute.value);
      if (encoding !== null && charset === null) {
        charset = encoding;
        needPragma = true;
      }
    } else if (attribute.name === "charset") {
      charset = getEncoding(attribute.value) ?? "failure";
      needPragma = false;
    }
  }
  // 11–13. Processing.
  if (needPragma === null || (needPragma && !gotPragma) || charset === null || charset === "failure") return { encoding: null, position };
  // 14–15. "If charset is UTF-16BE/LE, then set charset to UTF-8"; x-user-defined to windows-1252.
  if (charset === "UTF-16BE" || charset === "UTF-16LE") return { encoding: "UTF-8", position };
  return { encoding: charset === "x-user-defined" ? "windows-1252" : charset, position };
}

/** Whether `bytes` at `position` start with the bytes of the lowercase ASCII `text`; with `anyCase`, A–Z match a–z. */
function startsWithASCII(bytes: Uint8Array, position: number, text: string, anyCase: boolean): boolean {
  if (position + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) {
    const c = bytes[position + i]!;
    if ((anyCase && c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== text.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing —
 * the encoding an XML declaration (`<?xml version="1.0"
 * encoding="...">`) at the very start of `bytes` names, or null.
 *
 * Deviation: the standard finds the declaration's end (xmlDeclarationEnd)
 * but then looks for `encoding` and its quotes anywhere after; as
 * html-encoding-sniffer and browsers do, this reads them before that end.
 */
function getAnXMLEncoding(bytes: Uint8Array): EncodingName | null {
  // 2. "If encodingPosition does not point to the start of a byte sequence ... (`<?xml`), then return failure."
  if (!startsWithASCII(bytes, 0, "<?xml", false)) return null;
  // 3. xmlDeclarationEnd: the next ">".
  const end = bytes.indexOf(0x3e, 5);
  if (end === -1) return null;
  // 4–5. The first `encoding` (case-sensitive), and past it.
  let position = -1;
  for (let i = 5; i + 8 <= end; i++) {
    if (bytes[i] === 0x65 && startsWithASCII(bytes, i, "encoding", false)) {
      position = i + 8;
      break;
    }
  }
  if (position === -1) return null;
  // 6–9. Bytes up to 0x20 around the "=".
  while (position < end && bytes[position]! <= 0x20) position++;
  if (position >= end || bytes[position] !== 0x3d) return null;
  position++;
  while (position < end && bytes[position]! <= 0x20) position++;
  // 10–13. The quoted value.
  const quoteMark = bytes[position];
  if (position >= end || (quoteMark !== 0x22 && quoteMark !== 0x27)) return null;
  position++;
  const encodingEnd = bytes.indexOf(quoteMark, position);
  if (encodingEnd === -1 || encodingEnd > end) return null;
  // 15. "If potentialEncoding contains one or more bytes whose byte value is 0x20 or below, then return failure."
  for (let i = position; i < encodingEnd; i++) if (bytes[i]! <= 0x20) return null;
  // 16–17. Get an encoding; UTF-16BE/LE becomes UTF-8.
  const encoding = getEncoding(String.fromCharCode(...bytes.subarray(position, encodingEnd)));
  return encoding === "UTF-16BE" || encoding === "UTF-16LE" ? "UTF-8" : encoding;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding —
 * the encoding that `bytes` (the caller passes the first 1024, as the
 * standard advises) declare: a UTF-16 `<?x` signature, the first `<meta>`
 * that declares an encoding by a label, or else the XML declaration
 * ("abort the prescan ... and return the result [of] get an XML encoding
 * applied to the same bytes"); null when none does.
 *
 * @example
 * ```ts
 * prescanEncoding(new TextEncoder().encode('<!-- <meta charset=koi8-r> --><meta charset="shift_jis">')); // "Shift_JIS"
 * prescanEncoding(new TextEncoder().encode('<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">')); // "EUC-KR"
 * prescanEncoding(new TextEncoder().encode('<meta content="text/html; charset=euc-kr">')); // null (no http-equiv)
 * prescanEncoding(new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-2"?><p>')); // "ISO-8859-2"
 * ```
 */
export function prescanEncoding(bytes: Uint8Array): EncodingName | null {
  const n = bytes.length;
  // 2. Prescan for UTF-16 XML declarations: "<?x" in UTF-16LE or UTF-16BE.
  if (n >= 6 && bytes[0] === 0x3c && bytes[1] === 0 && bytes[2] === 0x3f && bytes[3] === 0 && bytes[4] === 0x78 && bytes[5] === 0) return "UTF-16LE";
  if (n >= 6 && bytes[0] === 0 && bytes[1] === 0x3c && bytes[2] === 0 && bytes[3] === 0x3f && bytes[4] === 0 && bytes[5] === 0x78) return "UTF-16BE";
  // 3. Loop; 4. Next byte.
  for (let position = 0; position < n; position++) {
    if (bytes[position] !== 0x3c) continue; // "Any other byte: Do nothing with that byte."
    const next = bytes[position + 1];
    if (startsWithASCII(bytes, position, "<!--", false)) {
      // The first ">" preceded by "--" after the "<" (the "--" may be the comment opener's own).
      let end = position + 4;
      while (end < n && !(bytes[end] === 0x3e && bytes[end - 1] === 0x2d && bytes[end - 2] === 0x2d)) end++;
      if (end >= n) break;
      position = end;
    } else if (startsWithASCII(bytes, position, "<meta", true) && position + 5 < n && isSpaceOrSlash(bytes[position + 5]!)) {
      const meta = metaDeclaration(bytes, position + 5);
      if (meta === OUT_OF_BYTES) break;
      if (meta.encoding !== null) return meta.encoding;
      position = meta.position;
    } else if (next !== undefined && (isASCIILetterByte(next) || (next === 0x2f && isASCIILetterByte(bytes[position + 2] ?? 0)))) {
      // A start or end tag: up to whitespace or ">", then its attributes (a ">" in a quoted value does not end it).
      let at = position + 2;
      while (at < n && bytes[at] !== 0x3e && !isASCIIWhitespace(bytes[at]!)) at++;
      let attribute = getAnAttribute(bytes, at);
      while (attribute !== OUT_OF_BYTES && attribute.name !== null) attribute = getAnAttribute(bytes, attribute.position);
      if (attribute === OUT_OF_BYTES) break;
      position = attribute.position;
    } else if (next === 0x21 || next === 0x2f || next === 0x3f) {
      // "<!", "</", "<?": to the first ">" after the "<".
      const end = bytes.indexOf(0x3e, position + 2);
      if (end === -1) break;
      position = end;
    }
  }
  // Out of bytes: the prescan is aborted, and the XML declaration decides.
  return getAnXMLEncoding(bytes);
}

/** Whether the byte is an ASCII letter (0x41–0x5A, 0x61–0x7A). */
function isASCIILetterByte(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
