/**
 * Percent-encoding after encoding in a legacy encoding: what the URL parser
 * does to the query of a special (non-ws) URL parsed with an encoding
 * override, such as a windows-1252 or Shift_JIS document's.
 *
 * https://url.spec.whatwg.org/#string-percent-encode-after-encoding
 *
 * The encoders are the Encoding Standard's (https://encoding.spec.whatwg.org/),
 * step by step; their indexes (encoding-indexes.ts) are built on first use.
 *
 * @module
 */

import { type EncodingName, getOutputEncoding, type OutputEncodingName } from "./encoding.ts";
import {
  big5Pointers,
  eucKRPointers,
  gb18030Pointers,
  gb18030RangesPointer,
  indexPointer,
  iso2022JPKatakana,
  jis0208Pointers,
  shiftJISPointers,
  singleByteEncoderTable,
} from "./encoding-indexes.ts";
import {
  type PercentEncodeSet,
  percentEncodedBytes,
  utf8PercentEncodeRange,
  utf8PercentEncodeString,
} from "./percent-encoding.ts";

/**
 * A stateless encoder's handler for one non-ASCII scalar value: its bytes
 * packed big-endian into one number, or -1 for "error with codePoint".
 *
 * Optimisation: step 2 of every stateless encoder (ASCII is that byte) is the
 * caller's, which copies runs of ASCII with `slice`.
 */
type EncoderHandler = (codePoint: number) => number;

const ERROR = -1;

// --- Single-byte encoders --------------------------------------------------

/** https://encoding.spec.whatwg.org/#single-byte-encoder */
function singleByteEncoder(encoding: OutputEncodingName): EncoderHandler {
  const table = singleByteEncoderTable(encoding);
  return (codePoint) => {
    const byte = codePoint < table.length ? table[codePoint]! : 0;
    return byte === 0 ? ERROR : byte;
  };
}

/** https://encoding.spec.whatwg.org/#x-user-defined-encoder */
const xUserDefinedEncoder: EncoderHandler = (codePoint) => {
  // 3. If codePoint is in the range U+F780 to U+F7FF, inclusive, then return
  // a byte whose value is codePoint − 0xF780 + 0x80.
  if (codePoint >= 0xf780 && codePoint <= 0xf7ff) return codePoint - 0xf780 + 0x80;
  return ERROR;
};

// --- GBK and gb18030 -------------------------------------------------------

/**
 * The GB18030-2005 compatibility table of the gb18030 encoder (step 5):
 * Private Use code points whose index gb18030 pointers now map to other code
 * points (GB18030-2022) still encode to their old two bytes.
 */
const gb18030PrivateUseBytes: ReadonlyMap<number, number> = new Map([
  [0xe78d, 0xa6d9],
  [0xe78e, 0xa6da],
  [0xe78f, 0xa6db],
  [0xe790, 0xa6dc],
  [0xe791, 0xa6dd],
  [0xe792, 0xa6de],
  [0xe793, 0xa6df],
  [0xe794, 0xa6ec],
  [0xe795, 0xa6ed],
  [0xe796, 0xa6f3],
  [0xe81e, 0xfe59],
  [0xe826, 0xfe61],
  [0xe82b, 0xfe66],
  [0xe82c, 0xfe67],
  [0xe832, 0xfe6d],
  [0xe843, 0xfe7e],
  [0xe854, 0xfe90],
  [0xe864, 0xfea0],
]);

/**
 * https://encoding.spec.whatwg.org/#gb18030-encoder, and with `isGBK`
 * https://encoding.spec.whatwg.org/#gbk-encoder.
 */
function gb18030Encoder(isGBK: boolean): EncoderHandler {
  const index = gb18030Pointers();
  return (codePoint) => {
    // 3. If codePoint is U+E5E5, then return error with codePoint.
    // (Index gb18030 maps 0xA3 0xA0 to U+3000, so U+E5E5 cannot roundtrip.)
    if (codePoint === 0xe5e5) return ERROR;
    // 4. If is GBK is true and codePoint is U+20AC (€), then return byte 0x80.
    if (isGBK && codePoint === 0x20ac) return 0x80;
    // 5. The GB18030-2005 compatibility rows.
    const compatible = gb18030PrivateUseBytes.get(codePoint);
    if (compatible !== undefined) return compatible;
    let pointer = indexPointer(index, codePoint);
    // 7. If pointer is non-null: two bytes.
    if (pointer >= 0) {
      const trailing = pointer % 190;
      return ((((pointer / 190) | 0) + 0x81) << 8) | (trailing + (trailing < 0x3f ? 0x40 : 0x41));
    }
    // 8. If is GBK is true, then return error with codePoint.
    if (isGBK) return ERROR;
    // 9. Set pointer to the index gb18030 ranges pointer for codePoint.
    pointer = gb18030RangesPointer(codePoint);
    // 10–17. Four bytes.
    const byte1 = ((pointer / 12600) | 0) + 0x81;
    pointer %= 12600;
    const byte2 = ((pointer / 1260) | 0) + 0x30;
    pointer %= 1260;
    const byte3 = ((pointer / 10) | 0) + 0x81;
    const byte4 = (pointer % 10) + 0x30;
    // Packed without `<<` so that byte1 ≥ 0x80 keeps the number positive.
    return byte1 * 0x1000000 + ((byte2 << 16) | (byte3 << 8) | byte4);
  };
}

// --- Big5 ------------------------------------------------------------------

/** https://encoding.spec.whatwg.org/#big5-encoder */
function big5Encoder(): EncoderHandler {
  const index = big5Pointers();
  return (codePoint) => {
    const pointer = indexPointer(index, codePoint);
    if (pointer < 0) return ERROR;
    // 5–8.
    const trailing = pointer % 157;
    return ((((pointer / 157) | 0) + 0x81) << 8) | (trailing + (trailing < 0x3f ? 0x40 : 0x62));
  };
}

// --- EUC-JP and Shift_JIS --------------------------------------------------

/** https://encoding.spec.whatwg.org/#euc-jp-encoder */
function eucJPEncoder(): EncoderHandler {
  const index = jis0208Pointers();
  return (codePoint) => {
    // 3. If codePoint is U+00A5 (¥), then return byte 0x5C.
    if (codePoint === 0xa5) return 0x5c;
    // 4. If codePoint is U+203E (‾), then return byte 0x7E.
    if (codePoint === 0x203e) return 0x7e;
    // 5. Half-width katakana: 0x8E and codePoint − 0xFF61 + 0xA1.
    if (codePoint >= 0xff61 && codePoint <= 0xff9f) return 0x8e00 | (codePoint - 0xff61 + 0xa1);
    // 6. If codePoint is U+2212 (−), then set it to U+FF0D (－).
    // 7. Let pointer be the index pointer for codePoint in index jis0208.
    const pointer = indexPointer(index, codePoint === 0x2212 ? 0xff0d : codePoint);
    if (pointer < 0) return ERROR;
    // 9–11.
    return ((((pointer / 94) | 0) + 0xa1) << 8) | ((pointer % 94) + 0xa1);
  };
}

/** https://encoding.spec.whatwg.org/#shift_jis-encoder */
function shiftJISEncoder(): EncoderHandler {
  const index = shiftJISPointers();
  return (codePoint) => {
    // 2. ASCII (the caller's) or U+0080: a byte whose value is codePoint.
    if (codePoint === 0x80) return 0x80;
    // 3. If codePoint is U+00A5 (¥), then return byte 0x5C.
    if (codePoint === 0xa5) return 0x5c;
    // 4. If codePoint is U+203E (‾), then return byte 0x7E.
    if (codePoint === 0x203e) return 0x7e;
    // 5. Half-width katakana: one byte, codePoint − 0xFF61 + 0xA1.
    if (codePoint >= 0xff61 && codePoint <= 0xff9f) return codePoint - 0xff61 + 0xa1;
    // 6. If codePoint is U+2212 (−), then set it to U+FF0D (－).
    // 7. Let pointer be the index Shift_JIS pointer for codePoint.
    const pointer = indexPointer(index, codePoint === 0x2212 ? 0xff0d : codePoint);
    if (pointer < 0) return ERROR;
    // 9–13.
    const leading = (pointer / 188) | 0;
    const trailing = pointer % 188;
    return ((leading + (leading < 0x1f ? 0x81 : 0xc1)) << 8) | (trailing + (trailing < 0x3f ? 0x40 : 0x41));
  };
}

// --- EUC-KR ----------------------------------------------------------------

/** https://encoding.spec.whatwg.org/#euc-kr-encoder */
function eucKREncoder(): EncoderHandler {
  const index = eucKRPointers();
  return (codePoint) => {
    const pointer = indexPointer(index, codePoint);
    if (pointer < 0) return ERROR;
    // 5–7.
    return ((((pointer / 190) | 0) + 0x81) << 8) | ((pointer % 190) + 0x41);
  };
}

// --- Choosing an encoder ---------------------------------------------------

const handlers = new Map<OutputEncodingName, EncoderHandler>();

/**
 * https://encoding.spec.whatwg.org/#get-an-encoder for the stateless
 * encoders (all but UTF-8 and ISO-2022-JP): one per encoding, made on first use.
 */
function getStatelessEncoder(encoding: Exclude<OutputEncodingName, "UTF-8" | "ISO-2022-JP">): EncoderHandler {
  let handler = handlers.get(encoding);
  if (handler !== undefined) return handler;
  switch (encoding) {
    case "GBK":
      handler = gb18030Encoder(true);
      break;
    case "gb18030":
      handler = gb18030Encoder(false);
      break;
    case "Big5":
      handler = big5Encoder();
      break;
    case "EUC-JP":
      handler = eucJPEncoder();
      break;
    case "Shift_JIS":
      handler = shiftJISEncoder();
      break;
    case "EUC-KR":
      handler = eucKREncoder();
      break;
    case "x-user-defined":
      handler = xUserDefinedEncoder;
      break;
    default:
      handler = singleByteEncoder(encoding);
  }
  handlers.set(encoding, handler);
  return handler;
}

// --- Writing bytes ---------------------------------------------------------

const byteTextCache = new WeakMap<PercentEncodeSet, [string[] | undefined, string[] | undefined]>();

/**
 * Per byte, what "percent-encode after encoding" appends (step 5.3): "+" for
 * 0x20 with spaceAsPlus, the isomorph when not in the set, else the
 * percent-encoded byte (always for bytes ≥ 0x80).
 *
 * Optimisation: one 256-entry table per (set, spaceAsPlus), cached.
 */
function byteTexts(percentEncodeSet: PercentEncodeSet, spaceAsPlus: boolean): string[] {
  let entry = byteTextCache.get(percentEncodeSet);
  if (entry === undefined) {
    entry = [undefined, undefined];
    byteTextCache.set(percentEncodeSet, entry);
  }
  const slot = spaceAsPlus ? 1 : 0;
  let texts = entry[slot];
  if (texts === undefined) {
    texts = percentEncodedBytes.slice();
    for (let byte = 0; byte < 0x80; byte++) {
      if (percentEncodeSet[byte] !== 1) texts[byte] = String.fromCharCode(byte);
    }
    if (spaceAsPlus) texts[0x20] = "+";
    entry[slot] = texts;
  }
  return texts;
}

/** Step 5.4: "%26%23", the code point in decimal, "%3B" (an NCR, `&#N;`). */
function percentEncodedNCR(codePoint: number): string {
  return "%26%23" + codePoint + "%3B";
}

/** The text for the bytes a stateless handler returned (see {@link EncoderHandler}). */
function packedBytesText(packed: number, texts: readonly string[]): string {
  if (packed <= 0xff) return texts[packed]!;
  if (packed <= 0xffff) return texts[packed >> 8]! + texts[packed & 0xff]!;
  return (
    texts[(packed / 0x1000000) | 0]! + texts[(packed >> 16) & 0xff]! + texts[(packed >> 8) & 0xff]! + texts[packed & 0xff]!
  );
}

// --- ISO-2022-JP -----------------------------------------------------------

const stateASCII = 0;
const stateRoman = 1;
const stateJIS0208 = 2;

/**
 * "percent-encode after encoding" with ISO-2022-JP, the one stateful
 * encoder (https://encoding.spec.whatwg.org/#iso-2022-jp-encoder): one
 * instance runs over the whole input, so its state carries across errors.
 */
function iso2022JPPercentEncode(input: string, texts: readonly string[]): string {
  const index = jis0208Pointers();
  const out: string[] = [];
  let state = stateASCII;
  // The escape sequences: ESC ( B (to ASCII), ESC ( J (to Roman), ESC $ B (to jis0208).
  const toASCII = texts[0x1b]! + texts[0x28]! + texts[0x42]!;
  const toRoman = texts[0x1b]! + texts[0x28]! + texts[0x4a]!;
  const toJIS0208 = texts[0x1b]! + texts[0x24]! + texts[0x42]!;
  for (let i = 0; i < input.length; i++) {
    let codePoint = input.codePointAt(i)!;
    if (codePoint > 0xffff) i++;
    // Lone surrogates become U+FFFD (see percentEncodeAfterEncoding).
    else if (codePoint >= 0xd800 && codePoint <= 0xdfff) codePoint = 0xfffd;

    // The handler; `continue handler` is "restore codePoint to ioQueue" after
    // returning the bytes of an escape sequence.
    handler: for (;;) {
      // 3. In ASCII or Roman, U+000E, U+000F and U+001B are an error with
      // U+FFFD ("rather than codePoint to prevent attacks").
      if (state !== stateJIS0208 && (codePoint === 0x0e || codePoint === 0x0f || codePoint === 0x1b)) {
        out.push(percentEncodedNCR(0xfffd));
        break;
      }
      // 4. ASCII state and an ASCII code point: that byte.
      if (state === stateASCII && codePoint < 0x80) {
        out.push(texts[codePoint]!);
        break;
      }
      // 5. Roman state and an ASCII code point other than \ and ~, or ¥ or ‾.
      if (
        state === stateRoman &&
        ((codePoint < 0x80 && codePoint !== 0x5c && codePoint !== 0x7e) || codePoint === 0xa5 || codePoint === 0x203e)
      ) {
        out.push(texts[codePoint < 0x80 ? codePoint : codePoint === 0xa5 ? 0x5c : 0x7e]!);
        break;
      }
      // 6. An ASCII code point in another state: ESC ( B, then again.
      if (codePoint < 0x80) {
        state = stateASCII;
        out.push(toASCII);
        continue handler;
      }
      // 7. ¥ or ‾ outside Roman: ESC ( J, then again.
      if (codePoint === 0xa5 || codePoint === 0x203e) {
        state = stateRoman;
        out.push(toRoman);
        continue handler;
      }
      // 8. If codePoint is U+2212 (−), then set it to U+FF0D (－).
      if (codePoint === 0x2212) codePoint = 0xff0d;
      // 9. Half-width katakana become full-width (index ISO-2022-JP katakana).
      if (codePoint >= 0xff61 && codePoint <= 0xff9f) codePoint = iso2022JPKatakana.charCodeAt(codePoint - 0xff61);
      // 10. Let pointer be the index pointer for codePoint in index jis0208.
      const pointer = indexPointer(index, codePoint);
      // 11. If pointer is null: back to ASCII first if in jis0208, then
      // error with codePoint.
      if (pointer < 0) {
        if (state === stateJIS0208) {
          state = stateASCII;
          out.push(toASCII);
          continue handler;
        }
        out.push(percentEncodedNCR(codePoint));
        break;
      }
      // 12. Not in jis0208: ESC $ B, then again.
      if (state !== stateJIS0208) {
        state = stateJIS0208;
        out.push(toJIS0208);
        continue handler;
      }
      // 13–15. Two bytes.
      out.push(texts[((pointer / 94) | 0) + 0x21]! + texts[(pointer % 94) + 0x21]!);
      break;
    }
  }
  // 1. End-of-queue outside ASCII: ESC ( B.
  if (state !== stateASCII) out.push(toASCII);
  return out.join("");
}

// --- percent-encode after encoding -----------------------------------------

/**
 * https://url.spec.whatwg.org/#string-percent-encode-after-encoding — encodes
 * `input` with `encoding`'s encoder (any of the Encoding Standard's) and
 * percent-encodes each byte whose isomorph is in `percentEncodeSet`; with
 * `spaceAsPlus`, 0x20 becomes "+". A code point the encoder cannot encode
 * becomes `%26%23N%3B` (`&#N;`); lone surrogates count as U+FFFD.
 * @example
 * ```ts
 * import { specialQueryPercentEncodeSet as set } from "./percent-encoding.ts";
 * percentEncodeAfterEncoding("windows-1252", "å", set); // "%E5"
 * percentEncodeAfterEncoding("windows-1251", "å", set); // "%26%23229%3B"
 * percentEncodeAfterEncoding("Shift_JIS", "\u2212", set); // "%81|"
 * percentEncodeAfterEncoding("ISO-2022-JP", "\u203E\\", set); // "%1B(J~%1B(B\\"
 * percentEncodeAfterEncoding("gb18030", "\uE7C7", set); // "%815%F47"
 * percentEncodeAfterEncoding("windows-1252", "a b", set, true); // "a+b"
 * ```
 */
export function percentEncodeAfterEncoding(
  encoding: EncodingName,
  input: string,
  percentEncodeSet: PercentEncodeSet,
  spaceAsPlus = false,
): string {
  // 1. Let encoder be the result of getting an encoder from encoding.
  // Deviation: the standard asserts an encoder; replacement and UTF-16 get their output
  // encoding (UTF-8), as every caller in the URL and HTML standards does first.
  const outputEncoding = getOutputEncoding(encoding);
  // UTF-8 never fails: https://url.spec.whatwg.org/#string-utf-8-percent-encode
  if (outputEncoding === "UTF-8") return utf8PercentEncodeString(input, percentEncodeSet, spaceAsPlus);

  // Optimisation: every legacy encoder maps ASCII to the same bytes as UTF-8 (ISO-2022-JP
  // but for U+000E, U+000F and U+001B), so an ASCII input builds no index.
  const isISO2022JP = outputEncoding === "ISO-2022-JP";
  let i = 0;
  for (; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x80 || (isISO2022JP && (c === 0x0e || c === 0x0f || c === 0x1b))) break;
  }
  if (i === input.length) return utf8PercentEncodeString(input, percentEncodeSet, spaceAsPlus);

  const texts = byteTexts(percentEncodeSet, spaceAsPlus);
  if (isISO2022JP) return iso2022JPPercentEncode(input, texts);

  // 2–6. A stateless encoder makes "encode, restart after each error" one pass that appends
  // each error's NCR in place.
  const handler = getStatelessEncoder(outputEncoding);
  const out: string[] = [];
  let runStart = 0;
  while (i < input.length) {
    const c = input.charCodeAt(i);
    if (c < 0x80) {
      i++;
      continue;
    }
    // Optimisation: a run of ASCII is percent-encoded as it stands.
    if (runStart < i) out.push(utf8PercentEncodeRange(input, runStart, i, percentEncodeSet, spaceAsPlus));
    let codePoint = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < input.length ? input.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        codePoint = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        width = 2;
      } else {
        // Deviation: the standard's input is a scalar value string: a lone surrogate is U+FFFD.
        codePoint = 0xfffd;
      }
    }
    const bytes = handler(codePoint);
    // 5.4. An error appends "%26%23" + decimal + "%3B".
    out.push(bytes === ERROR ? percentEncodedNCR(codePoint) : packedBytesText(bytes, texts));
    i += width;
    runStart = i;
  }
  if (runStart < input.length) {
    out.push(utf8PercentEncodeRange(input, runStart, input.length, percentEncodeSet, spaceAsPlus));
  }
  return out.join("");
}
