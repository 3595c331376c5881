/**
 * HTML documents given as bytes, and their text: decoding (the Encoding
 * Standard's decoders), the map from offsets in the decoded text back to
 * byte offsets, and encoding new text in the document's encoding.
 *
 * https://encoding.spec.whatwg.org/#decode
 *
 * @module
 */

import { TextDecoder } from "@exodus/bytes/encoding.js";
import { createMultibyteEncoder } from "@exodus/bytes/multi-byte.js";
import { createSinglebyteEncoder, latin1toString } from "@exodus/bytes/single-byte.js";
import type { EncodingName } from "../core/index.ts";

/**
 * A decoded document.
 *
 * @example
 * ```ts
 * decodeWith(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61), "UTF-8"); // { text: "a", encoding: "UTF-8", bomLength: 3 }
 * ```
 */
export interface DecodedDocument {
  readonly text: string;
  readonly encoding: EncodingName;
  /** The length of the byte order mark the decoder skipped (0, 2 or 3). */
  readonly bomLength: number;
}

function bomLength(bytes: Uint8Array, encoding: EncodingName): number {
  if (encoding === "UTF-8" && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 3;
  if (encoding === "UTF-16LE" && bytes[0] === 0xff && bytes[1] === 0xfe) return 2;
  if (encoding === "UTF-16BE" && bytes[0] === 0xfe && bytes[1] === 0xff) return 2;
  return 0;
}

/**
 * https://encoding.spec.whatwg.org/#decode — the text of `bytes` in
 * `encoding` (a BOM of UTF-8 or UTF-16 is skipped), errors replaced by U+FFFD.
 *
 * @example
 * ```ts
 * decodeWith(Uint8Array.of(0xe9), "windows-1252").text; // "é"
 * decodeWith(new TextEncoder().encode("<a href=x>"), "replacement").text; // "\uFFFD"
 * ```
 */
export function decodeWith(bytes: Uint8Array, encoding: EncodingName): DecodedDocument {
  // https://encoding.spec.whatwg.org/#replacement — the labels of ISO-2022-KR, HZ-GB-2312 and the like name
  // an encoding whose decoder, for a non-empty stream, emits one U+FFFD and stops (TextDecoder refuses to be one).
  if (encoding === "replacement") return { text: bytes.length === 0 ? "" : "\uFFFD", encoding, bomLength: 0 };
  const text = encoding === "windows-1252" ? decodeWindows1252(bytes) : new TextDecoder(encoding).decode(bytes);
  return { text, encoding, bomLength: bomLength(bytes, encoding) };
}

/** The characters of windows-1252's bytes 0x80–0x9F (index single-byte), from the standard's decoder: one string each. */
let windows1252High: readonly string[] | null = null;

/**
 * The positions of the bytes 0x80–0x9F in `bytes`, in order, or null when
 * there are more than `limit`.
 *
 * Optimisation: four bytes a step, in 32-bit words (sixteen ASCII bytes
 * passed at once; in other words, "has a zero byte" on each byte's top
 * three bits against 100): about 3 instructions a byte, where a regular
 * expression over the decoded text takes 12 and a byte loop 24.
 */
function c1Bytes(bytes: Uint8Array, limit: number): number[] | null {
  const found: number[] = [];
  const end = bytes.length;
  let i = 0;
  // Bytes up to a word boundary of the buffer, then whole words, then the rest.
  for (; i < end && ((bytes.byteOffset + i) & 3) !== 0; i++) if ((bytes[i]! & 0xe0) === 0x80 && found.push(i) > limit) return null;
  const words = (end - i) >> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    const last = words - 3;
    for (let w = 0; w < words; ) {
      if (w < last && ((view[w]! | view[w + 1]! | view[w + 2]! | view[w + 3]!) & 0x80808080) === 0) {
        w += 4;
        continue;
      }
      const v = view[w]!;
      if ((v & 0x80808080) !== 0) {
        const x = (v & 0xe0e0e0e0) ^ 0x80808080;
        if (((x - 0x01010101) & ~x & 0x80808080) !== 0) {
          for (let k = i + 4 * w; k < i + 4 * w + 4; k++) if ((bytes[k]! & 0xe0) === 0x80 && found.push(k) > limit) return null;
        }
      }
      w++;
    }
    i += words * 4;
  }
  for (; i < end; i++) if ((bytes[i]! & 0xe0) === 0x80 && found.push(i) > limit) return null;
  return found;
}

/**
 * https://encoding.spec.whatwg.org/#single-byte-decoder — `bytes` in
 * windows-1252: "If byte is an ASCII byte, return a code point whose value
 * is byte. Let code point be the index code point for byte − 0x80 in index
 * single-byte." Index windows-1252 gives bytes 0xA0–0xFF the code points
 * of the same value, as ISO-8859-1 does: only 0x80–0x9F differ.
 *
 * Optimisation: windows-1252 is the encoding of every page that declares
 * none. The general decoder copies a page with any byte 0x80–0x9F into a
 * Uint16Array, maps every unit in JavaScript and joins an ASCII prefix to
 * the rest (a rope, copied again at the parse's first read): 21 ms of CPU
 * for the 2015 spec excerpt (2,692 such bytes in 907,953). ISO-8859-1's
 * native decoding, with those bytes' characters put in between its pieces,
 * takes about 12 ms. A page with more than one such byte in 32 goes to the
 * general decoder (pieces would cost more than its copy).
 */
function decodeWindows1252(bytes: Uint8Array): string {
  const found = c1Bytes(bytes, bytes.length >> 5);
  if (found === null) return new TextDecoder("windows-1252").decode(bytes);
  const latin1 = latin1toString(bytes);
  if (found.length === 0) return latin1;
  const high = (windows1252High ??= [...new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i))]);
  const parts = new Array<string>(2 * found.length + 1);
  let from = 0;
  let p = 0;
  for (const at of found) {
    parts[p++] = latin1.slice(from, at);
    parts[p++] = high[bytes[at]! - 0x80]!;
    from = at + 1;
  }
  parts[p] = latin1.slice(from);
  return parts.join("");
}

// --- Offsets: decoded text → bytes ----------------------------------------------

function isSingleByte(encoding: EncodingName): boolean {
  return !["UTF-8", "UTF-16BE", "UTF-16LE", "GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR", "replacement"].includes(
    encoding,
  );
}

/**
 * Maps offsets in a decoded document back to byte offsets. The boundary
 * before decoded code unit `t` is the byte after the one whose decoding
 * produced code unit `t - 1` (or the end of the BOM, for `t` = 0): exact
 * for every well-formed byte sequence; inside an ill-formed one that a
 * decoder replaced with U+FFFD, the boundary falls after the bytes that
 * made the U+FFFD, and before an ASCII byte the decoder read again after
 * the error (see reread).
 *
 * Optimisation: single-byte encodings and UTF-16 map arithmetically, and
 * well-formed UTF-8 by counting code points; the others feed a streaming
 * decoder in chunks that cannot overshoot the next offset.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode("é<a>");
 * byteOffsets(bytes, decodeWith(bytes, "UTF-8"), [0, 1, 2]); // [0, 2, 3]
 * ```
 */
export function byteOffsets(bytes: Uint8Array, document: DecodedDocument, sortedOffsets: readonly number[]): number[] {
  const { text, encoding, bomLength: bom } = document;
  const result = new Array<number>(sortedOffsets.length);
  if (isSingleByte(encoding)) {
    for (let i = 0; i < sortedOffsets.length; i++) result[i] = bom + sortedOffsets[i]!;
    return result;
  }
  if (encoding === "UTF-16LE" || encoding === "UTF-16BE") {
    for (let i = 0; i < sortedOffsets.length; i++) result[i] = Math.min(bytes.length, bom + 2 * sortedOffsets[i]!);
    return result;
  }
  // (Fewer: bytes after the text, a character a stream's decoder has not finished, map nowhere.)
  if (encoding === "UTF-8" && !text.includes("\uFFFD") && utf8Length(text) <= bytes.length - bom) {
    // Well-formed: each code point's UTF-8 length.
    let t = 0;
    let b = bom;
    for (let i = 0; i < sortedOffsets.length; i++) {
      const target = sortedOffsets[i]!;
      if (target > t) {
        b += utf8Length(text.slice(t, target));
        t = target;
      }
      result[i] = b;
    }
    return result;
  }
  // Streaming: feed bytes until the output reaches each offset.
  const decoder = new TextDecoder(encoding);
  let fed = 0;
  let produced = 0;
  const feed = (count: number): void => {
    const chunk = bytes.subarray(fed, Math.min(bytes.length, fed + count));
    fed += chunk.length;
    produced += decoder.decode(chunk, { stream: true }).length;
  };
  let flushed = false;
  for (let i = 0; i < sortedOffsets.length; i++) {
    const target = sortedOffsets[i]!;
    if (target === 0) {
      result[i] = bom;
      continue;
    }
    // Boundary before unit `target` = after the byte that produced unit target - 1.
    while (produced < target && fed < bytes.length) {
      const gap = target - produced;
      // One byte can release at most a few code units (gb18030 re-reads up to three bytes after an error).
      feed(gap >= 32 ? gap >> 3 : 1);
    }
    if (produced < target && !flushed) {
      produced += decoder.decode().length;
      flushed = true;
    }
    result[i] = fed - reread(text, target, produced, bytes, fed);
  }
  return result;
}

/** Node.js's native UTF-8 length, where there is one (not in a browser or a worker). */
const nativeByteLength = (globalThis as { Buffer?: { byteLength(s: string, encoding: "utf8"): number } }).Buffer?.byteLength;

/** The length of `text` (a string without lone surrogates) in UTF-8. */
function utf8Length(text: string): number {
  if (nativeByteLength !== undefined) return nativeByteLength(text, "utf8");
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A code unit of U+0080..U+07FF is 2 bytes, of U+0800..U+FFFF 3; a surrogate pair (2 units) is 4.
    if (c >= 0x80) length += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return length;
}

/**
 * How many of the last bytes fed were read again after an error, when the
 * byte that reached unit `target` released more units than that: the
 * Encoding Standard's multi-byte decoders, on a byte that cannot continue a
 * sequence, return an error (U+FFFD) and "prepend byte to stream" when it
 * is an ASCII byte, which then decodes to itself — so one byte releases
 * U+FFFD and that ASCII character, and the boundary between them is before
 * that byte, not after it. The units past `target` count as read again
 * when they are ASCII and the same as the last bytes fed.
 */
function reread(text: string, target: number, produced: number, bytes: Uint8Array, fed: number): number {
  const extra = produced - target;
  if (extra <= 0 || extra > 3 || extra > fed) return 0;
  for (let j = 0; j < extra; j++) {
    const unit = text.charCodeAt(target + j);
    if (unit >= 0x80 || unit !== bytes[fed - extra + j]) return 0;
  }
  return extra;
}

// --- Encoding new text ---------------------------------------------------------

type Encoder = (text: string) => Uint8Array;

const encoders = new Map<EncodingName, Encoder>();

const utf8 = new TextEncoder();

function utf16Encoder(bigEndian: boolean): Encoder {
  return (text) => {
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      // A lone surrogate has no encoding: the decoder would read U+FFFD.
      if (c >= 0xd800 && c <= 0xdfff) {
        const pair = c <= 0xdbff ? text.charCodeAt(i + 1) : text.charCodeAt(i - 1);
        const ok = c <= 0xdbff ? pair >= 0xdc00 && pair <= 0xdfff : pair >= 0xd800 && pair <= 0xdbff;
        if (!ok) c = 0xfffd;
      }
      out[2 * i] = bigEndian ? c >> 8 : c & 0xff;
      out[2 * i + 1] = bigEndian ? c & 0xff : c >> 8;
    }
    return out;
  };
}

function encoderFor(encoding: EncodingName): Encoder {
  let encoder = encoders.get(encoding);
  if (encoder !== undefined) return encoder;
  if (encoding === "UTF-8") encoder = (text) => utf8.encode(text);
  else if (encoding === "UTF-16LE") encoder = utf16Encoder(false);
  else if (encoding === "UTF-16BE") encoder = utf16Encoder(true);
  else if (encoding === "replacement") {
    encoder = () => {
      throw new RangeError("the replacement encoding has no encoder");
    };
  } else if (isSingleByte(encoding)) encoder = createSinglebyteEncoder(encoding.toLowerCase());
  else encoder = createMultibyteEncoder(encoding.toLowerCase());
  encoders.set(encoding, encoder);
  return encoder;
}

/**
 * Encodes `text` in `encoding`. A code point the encoding cannot represent
 * is written as `unencodable(codePoint)` instead (a character reference or
 * a CSS escape, chosen by the caller for where the text goes), which is
 * ASCII and so encodable in every ASCII-compatible encoding.
 *
 * @example
 * ```ts
 * encodeText("aŝé", "windows-1252", (cp) => `&#${cp};`); // bytes of "a&#349;" then 0xE9
 * ```
 */
export function encodeText(text: string, encoding: EncodingName, unencodable: (codePoint: number) => string): Uint8Array {
  const encoder = encoderFor(encoding);
  try {
    return encoder(text);
  } catch {
    // Some code point is not encodable: encode each code point apart.
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  let run = "";
  const flush = (): void => {
    if (run === "") return;
    const bytes = encoder(run);
    parts.push(bytes);
    total += bytes.length;
    run = "";
  };
  for (const char of text) {
    let ok = true;
    try {
      encoder(char);
    } catch {
      ok = false;
    }
    if (ok) {
      run += char;
    } else {
      flush();
      const replacement = encoder(unencodable(char.codePointAt(0)!));
      parts.push(replacement);
      total += replacement.length;
    }
  }
  flush();
  return concatBytes(parts, total);
}

/**
 * The bytes of `parts` one after another (`length`: their total), in a new
 * array — or the one part itself, when there is one.
 *
 * @example
 * ```ts
 * concatBytes([Uint8Array.of(1), Uint8Array.of(2, 3)], 3); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const all = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/**
 * Whether `value` is a Uint8Array of any realm (a jsdom window's, a
 * worker's, a vm context's too): not `instanceof`, which is per realm.
 *
 * @example
 * ```ts
 * isUint8Array(new TextEncoder().encode("x")); // true
 * isUint8Array([1, 2]); // false
 * ```
 */
export function isUint8Array(value: unknown): value is Uint8Array {
  return Object.prototype.toString.call(value) === "[object Uint8Array]";
}
