/**
 * Encoding labels (src/core/encoding.ts) and percent-encode after encoding
 * with the Encoding Standard's legacy encoders (src/core/legacy-encoding.ts):
 *
 * - every non-"utf-8" entry of WPT url/resources/percent-encoding.json, as
 *   the query of a special URL (special-query percent-encode set);
 * - the encoder facts of wpt-catalogue.md §3 (query-encoding, lone
 *   surrogates, the legacy-mb-* encode-href rules);
 * - a case per encoding, with an unencodable code point and a lone surrogate;
 * - sweeps of the whole BMP (and planes 1–2 for Big5 and gb18030) against
 *   @exodus/bytes' own encoders, and round trips through Node's decoders;
 * - property tests against independent constructions.
 */

import "@exodus/bytes/encoding.js"; // registers @exodus/bytes' multi-byte encoders for whatwg.js
import vm from "node:vm";
import { createMultibyteDecoder } from "@exodus/bytes/multi-byte.js";
import { percentEncodeAfterEncoding as exodusPercentEncodeAfterEncoding } from "@exodus/bytes/whatwg.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type EncodingName,
  encodingNames,
  getEncoding,
  getEncodingLabels,
  getOutputEncoding,
  isUnknownEncodingError,
  type OutputEncodingName,
  resolveEncodingLabel,
  UnknownEncodingError,
} from "../../src/core/encoding.ts";
import { percentEncodeAfterEncoding } from "../../src/core/legacy-encoding.ts";
import { readWPTFile } from "../wpt-data.ts";
import {
  c0ControlPercentEncodeSet,
  componentPercentEncodeSet,
  formURLEncodedPercentEncodeSet,
  fragmentPercentEncodeSet,
  type PercentEncodeSet,
  pathPercentEncodeSet,
  percentDecodeString,
  queryPercentEncodeSet,
  specialQueryPercentEncodeSet,
  userinfoPercentEncodeSet,
} from "../../src/core/percent-encoding.ts";

type LegacyEncoding = Exclude<OutputEncodingName, "UTF-8">;

const singleByteEncodings = [
  "IBM866",
  "ISO-8859-2",
  "ISO-8859-3",
  "ISO-8859-4",
  "ISO-8859-5",
  "ISO-8859-6",
  "ISO-8859-7",
  "ISO-8859-8",
  "ISO-8859-8-I",
  "ISO-8859-10",
  "ISO-8859-13",
  "ISO-8859-14",
  "ISO-8859-15",
  "ISO-8859-16",
  "KOI8-R",
  "KOI8-U",
  "macintosh",
  "windows-874",
  "windows-1250",
  "windows-1251",
  "windows-1252",
  "windows-1253",
  "windows-1254",
  "windows-1255",
  "windows-1256",
  "windows-1257",
  "windows-1258",
  "x-mac-cyrillic",
] as const satisfies readonly LegacyEncoding[];

const multiByteEncodings = [
  "GBK",
  "gb18030",
  "Big5",
  "EUC-JP",
  "ISO-2022-JP",
  "Shift_JIS",
  "EUC-KR",
] as const satisfies readonly LegacyEncoding[];

const legacyEncodings: readonly LegacyEncoding[] = [...singleByteEncodings, "x-user-defined", ...multiByteEncodings];

/** The query of a special URL parsed with an encoding override. */
function query(encoding: EncodingName, input: string): string {
  return percentEncodeAfterEncoding(encoding, input, specialQueryPercentEncodeSet);
}

/** Bytes as the special-query percent-encode set writes them, computed independently. */
function bytesText(...bytes: number[]): string {
  let text = "";
  for (const byte of bytes) {
    text +=
      byte >= 0x80 || specialQueryPercentEncodeSet[byte] === 1
        ? "%" + byte.toString(16).toUpperCase().padStart(2, "0")
        : String.fromCharCode(byte);
  }
  return text;
}

/** The percent-encoded NCR for a code point that the encoder cannot encode. */
const ncr = (codePoint: number): string => `%26%23${codePoint}%3B`;

const hex = (codePoint: number): string => "U+" + codePoint.toString(16).toUpperCase().padStart(4, "0");

/** @exodus/bytes takes the set as a string of the ASCII code points in it (C0 controls always). */
function setAsString(set: PercentEncodeSet): string {
  let s = "";
  for (let c = 0x20; c < 0x7f; c++) if (set[c] === 1) s += String.fromCharCode(c);
  return s;
}

// --- WPT percent-encoding.json ---------------------------------------------

interface PercentEncodingCase {
  input: string;
  output: Record<string, string>;
}

const percentEncodingCases = (
  readWPTFile("percent-encoding.json") as (string | PercentEncodingCase)[]
).filter((entry): entry is PercentEncodingCase => typeof entry !== "string");

describe("WPT percent-encoding.json: the query in a legacy-encoded document", () => {
  const cases = percentEncodingCases.flatMap((c) =>
    Object.entries(c.output)
      .filter(([label]) => label !== "utf-8")
      .map(([label, expected]) => ({ label, input: c.input, expected })),
  );

  it("has non-utf-8 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
  });

  it.each(cases)("$label: $input → $expected", ({ label, input, expected }) => {
    expect(query(resolveEncodingLabel(label), input)).toBe(expected);
  });
});

// --- wpt-catalogue.md §3 ---------------------------------------------------

describe("wpt-catalogue §3a/§3b: single-byte documents", () => {
  it.each([
    ["windows-1252", "\u00e5", "%E5"],
    ["windows-1252", "\u00ff", "%FF"],
    ["windows-1252", "\u00df", "%DF"],
    ["windows-1252", "\u2020", "%86"],
    ["windows-1251", "\u00e5", "%26%23229%3B"],
    ["windows-1251", "\u00ff", "%26%23255%3B"],
    ["ISO-8859-2", "\u00a2", "%26%23162%3B"],
  ] as const)("%s: %s → %s", (encoding, input, expected) => {
    expect(query(encoding, input)).toBe(expected);
  });

  it("x-cp1251 is windows-1251 and utf8 is UTF-8 (attributes.sub.html variants)", () => {
    expect(query(resolveEncodingLabel("x-cp1251"), "\u00ff")).toBe("%26%23255%3B");
    expect(query(resolveEncodingLabel("utf8"), "\u00ff")).toBe("%C3%BF");
  });

  it("UTF-16BE, UTF-16LE and replacement documents use UTF-8", () => {
    for (const encoding of ["UTF-16BE", "UTF-16LE", "replacement"] as const) {
      expect(query(encoding, "\u00e5")).toBe("%C3%A5");
    }
  });

  it("a lone surrogate is U+FFFD first (lone-surrogates.sub.html)", () => {
    expect(query("UTF-8", "\ud800")).toBe("%EF%BF%BD");
    expect(query("windows-1252", "\ud800")).toBe(ncr(0xfffd));
    expect(query("windows-1252", "a\udc00\ud800b")).toBe(`a${ncr(0xfffd)}${ncr(0xfffd)}b`);
  });
});

describe("wpt-catalogue §3c: Shift_JIS", () => {
  it.each([
    ["\u0080", bytesText(0x80)],
    ["\u00a5", bytesText(0x5c)],
    ["\u203e", bytesText(0x7e)],
    ["\uff61", bytesText(0xa1)],
    ["\uff9f", bytesText(0xdf)],
    ["\u2212", bytesText(0x81, 0x7c)],
    ["\uff0d", bytesText(0x81, 0x7c)],
    ["\u6f22", bytesText(0x8a, 0xbf)],
    ["\u00e9", ncr(0xe9)],
    ["\u00a9", ncr(0xa9)],
    ["\ud83d", ncr(0xfffd)],
    ["\u{1f600}", ncr(0x1f600)],
  ])("%j → %s", (input, expected) => {
    expect(query("Shift_JIS", input)).toBe(expected);
  });

  it("half-width katakana U+FF61–U+FF9F are the single bytes A1–DF", () => {
    for (let cp = 0xff61; cp <= 0xff9f; cp++) {
      expect(query("Shift_JIS", String.fromCharCode(cp))).toBe(bytesText(cp - 0xff61 + 0xa1));
    }
  });

  it("never uses index jis0208 pointers 8272–8835, and its bytes follow the lead/trail rule", () => {
    const decode = createMultibyteDecoder("shift_jis", true);
    let twoByte = 0;
    for (let cp = 0x80; cp <= 0xffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const bytes = percentDecodeString(query("Shift_JIS", String.fromCharCode(cp)));
      if (bytes.length !== 2) continue;
      twoByte++;
      const [lead, trail] = [bytes[0]!, bytes[1]!];
      const pointer = (lead - (lead < 0xa0 ? 0x81 : 0xc1)) * 188 + trail - (trail < 0x7f ? 0x40 : 0x41);
      expect(pointer < 8272 || pointer > 8835, `${hex(cp)} → pointer ${pointer}`).toBe(true);
      expect(decode(bytes), hex(cp)).toBe(String.fromCharCode(cp === 0x2212 ? 0xff0d : cp));
    }
    expect(twoByte).toBeGreaterThan(7000);
  });

  it("the Shift_JIS labels of the form tests all resolve to Shift_JIS", () => {
    for (const label of ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "sjis", "windows-31j", "x-sjis"]) {
      expect(getEncoding(label)).toBe("Shift_JIS");
    }
  });
});

describe("wpt-catalogue §3c: EUC-JP", () => {
  it.each([
    ["\u00a5", bytesText(0x5c)],
    ["\u203e", bytesText(0x7e)],
    ["\uff61", bytesText(0x8e, 0xa1)],
    ["\uff9f", bytesText(0x8e, 0xdf)],
    ["\u2212", bytesText(0xa1, 0xdd)],
    ["\u6f22", bytesText(0xb4, 0xc1)],
    // U+00A1 is only in JIS X 0212, which the encoder never produces.
    ["\u00a1", ncr(0xa1)],
    ["\udfff", ncr(0xfffd)],
  ])("%j → %s", (input, expected) => {
    expect(query("EUC-JP", input)).toBe(expected);
  });

  it("never produces JIS X 0212 (lead 0x8F); jis0208 pointers give (ptr/94 + 0xA1, ptr%94 + 0xA1)", () => {
    const decoder = new TextDecoder("euc-jp");
    for (let cp = 0x80; cp <= 0xffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const bytes = percentDecodeString(query("EUC-JP", String.fromCharCode(cp)));
      if (bytes.length !== 2 || bytes[0] === 0x8e) continue;
      expect(bytes[0], hex(cp)).not.toBe(0x8f);
      expect(decoder.decode(bytes), hex(cp)).toBe(String.fromCharCode(cp === 0x2212 ? 0xff0d : cp));
    }
  });
});

describe("wpt-catalogue §3b/§3c: ISO-2022-JP", () => {
  const ESC_JIS0208 = "%1B$B";
  const ESC_ASCII = "%1B(B";
  const ESC_ROMAN = "%1B(J";

  it.each([
    // jis0208: ESC $ B, (ptr/94 + 0x21, ptr%94 + 0x21), back to ASCII at the end.
    ["\u6f22", `${ESC_JIS0208}4A${ESC_ASCII}`],
    ["a\u6f22\u5b57b", `a${ESC_JIS0208}4A;z${ESC_ASCII}b`],
    // U+00A5 and U+203E: Roman, ESC ( J, then 5C / 7E.
    ["\u00a5", `${ESC_ROMAN}\\${ESC_ASCII}`],
    ["\u203e\\", `${ESC_ROMAN}~${ESC_ASCII}\\`],
    // In Roman, ASCII other than \ and ~ stays in Roman.
    ["\u00a5a~", `${ESC_ROMAN}\\a${ESC_ASCII}~`],
    ["\u00a5\u6f22", `${ESC_ROMAN}\\${ESC_JIS0208}4A${ESC_ASCII}`],
    // U+2212 is encoded as U+FF0D.
    ["\u2212", `${ESC_JIS0208}!]${ESC_ASCII}`],
    // Half-width katakana become full-width (index ISO-2022-JP katakana).
    ["\uff71", `${ESC_JIS0208}%%22${ESC_ASCII}`],
    ["\uff9e\uff9f", `${ESC_JIS0208}!+!,${ESC_ASCII}`],
    // U+000E, U+000F, U+001B are errors reported as U+FFFD.
    ["\u000eA", `${ncr(0xfffd)}A`],
    ["\u000f\u001b", `${ncr(0xfffd)}${ncr(0xfffd)}`],
    // In jis0208 an unencodable code point returns to ASCII before the error.
    ["\u6f22\u001b", `${ESC_JIS0208}4A${ESC_ASCII}${ncr(0xfffd)}`],
    ["\u6f22\u00e9a", `${ESC_JIS0208}4A${ESC_ASCII}${ncr(0xe9)}a`],
    // In Roman an error leaves the state alone.
    ["\u00a5\u00e9\\", `${ESC_ROMAN}\\${ncr(0xe9)}${ESC_ASCII}\\`],
    ["\ud800", ncr(0xfffd)],
    ["\u6f22\ud800", `${ESC_JIS0208}4A${ESC_ASCII}${ncr(0xfffd)}`],
    ["e", "e"],
  ])("%j → %s", (input, expected) => {
    expect(query("ISO-2022-JP", input)).toBe(expected);
  });
});

describe("wpt-catalogue §3b/§3c: EUC-KR", () => {
  it.each([
    ["\u2020", "%A2%D3"],
    ["\ud55c", bytesText(0xc7, 0xd1)],
    ["\u0e01", ncr(0x0e01)],
    ["\udbff", ncr(0xfffd)],
  ])("%j → %s", (input, expected) => {
    expect(query("EUC-KR", input)).toBe(expected);
  });

  it("encodes every Hangul syllable, as (ptr/190 + 0x81, ptr%190 + 0x41)", () => {
    const decode = createMultibyteDecoder("euc-kr", true);
    for (let cp = 0xac00; cp <= 0xd7a3; cp++) {
      const bytes = percentDecodeString(query("EUC-KR", String.fromCharCode(cp)));
      expect(bytes.length, hex(cp)).toBe(2);
      expect(decode(bytes), hex(cp)).toBe(String.fromCharCode(cp));
    }
  });
});

describe("wpt-catalogue §3b/§3c: Big5", () => {
  const big5Bytes = (pointer: number): string => {
    const trail = pointer % 157;
    return bytesText(((pointer / 157) | 0) + 0x81, trail + (trail < 0x3f ? 0x40 : 0x62));
  };

  it.each([
    ["\u2020", "%26%238224%3B"],
    ["\u000eA", "%0EA"],
    ["\u4e2d", "%A4%A4"],
    // HKSCS pointers (below 5024) are never used: Ê̄ is pointer 1133, Ê only there.
    ["\u00ca\u0304", ncr(0xca) + ncr(0x304)],
    ["\ud800", ncr(0xfffd)],
    ["\u{1f600}", ncr(0x1f600)],
    // A supplementary code point of index Big5 (pointer 11205, bytes C8 7A).
    ["\u{200cc}", bytesText(0xc8, 0x7a)],
  ])("%j → %s", (input, expected) => {
    expect(query("Big5", input)).toBe(expected);
  });

  it.each([
    [0x2550, 18991],
    [0x255e, 18975],
    [0x2561, 18977],
    [0x256a, 18976],
    [0x5341, 5512],
    [0x5345, 5599],
  ])("U+%s takes its last pointer %i", (codePoint, pointer) => {
    expect(query("Big5", String.fromCharCode(codePoint))).toBe(big5Bytes(pointer));
  });

  it("only uses pointers ≥ 5024 (lead ≥ 0xA1), and decodes back", () => {
    const decode = createMultibyteDecoder("big5", true);
    for (let cp = 0x80; cp <= 0x2ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const text = String.fromCodePoint(cp);
      const bytes = percentDecodeString(query("Big5", text));
      if (bytes.length !== 2) continue;
      expect(bytes[0], hex(cp)).toBeGreaterThanOrEqual(0xa1);
      expect(decode(bytes), hex(cp)).toBe(text);
    }
  });

  it("x-x-big5, big5-hkscs and cn-big5 are Big5", () => {
    for (const label of ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"]) expect(getEncoding(label)).toBe("Big5");
  });
});

describe("wpt-catalogue §3c: GBK", () => {
  it.each([
    ["\u20ac", "%80"],
    ["\u4e2d", "%D6%D0"],
    // Anything that would need four bytes is unencodable in GBK.
    ["\u00a5", ncr(0xa5)],
    ["\ue7c7", ncr(0xe7c7)],
    ["\u{10000}", ncr(0x10000)],
    ["\ue5e5", ncr(0xe5e5)],
    // U+FFFD needs four bytes too.
    ["\ud800", ncr(0xfffd)],
    // GB18030-2022 (two-byte): U+9FB4 is FE 59, and so is U+E81E.
    ["\u9fb4", bytesText(0xfe, 0x59)],
    ["\ue81e", bytesText(0xfe, 0x59)],
  ])("%j → %s", (input, expected) => {
    expect(query("GBK", input)).toBe(expected);
  });

  it("two bytes are (ptr/190 + 0x81, ptr%190 + 0x40 or 0x41) and decode back (ICU)", () => {
    const decoder = new TextDecoder("gbk");
    for (let cp = 0x80; cp <= 0xffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const bytes = percentDecodeString(query("GBK", String.fromCharCode(cp)));
      if (bytes.length !== 2) continue;
      const pua2005 = (cp >= 0xe78d && cp <= 0xe796) || [0xe81e, 0xe826, 0xe82b, 0xe82c, 0xe832, 0xe843, 0xe854, 0xe864].includes(cp);
      if (!pua2005) expect(decoder.decode(bytes), hex(cp)).toBe(String.fromCharCode(cp));
    }
  });
});

describe("wpt-catalogue §3b/§3c: gb18030", () => {
  it.each([
    ["\ue5e5", "%26%2358853%3B"],
    // U+E7C7 → pointer 7457 → 81 35 F4 37.
    ["\ue7c7", bytesText(0x81, 0x35, 0xf4, 0x37)],
    // U+20AC is in index gb18030 (A2 E3); 0x80 is GBK only.
    ["\u20ac", bytesText(0xa2, 0xe3)],
    ["\u4e2d", "%D6%D0"],
    // Four bytes from the ranges: b1 = ptr/12600 + 0x81, b2 = (ptr%12600)/1260 + 0x30, ...
    ["\u00a5", bytesText(0x81, 0x30, 0x84, 0x36)],
    ["\u{10000}", bytesText(0x90, 0x30, 0x81, 0x30)],
    ["\u{10ffff}", bytesText(0xe3, 0x32, 0x9a, 0x35)],
    // A lone surrogate is U+FFFD, which gb18030 can encode.
    ["\ud800", bytesText(0x84, 0x31, 0xa4, 0x37)],
    // GB18030-2022: U+FE10 is now A6 D9 in index gb18030, and U+E78D (its
    // GB18030-2005 code point) still encodes to A6 D9 through the side table.
    ["\ufe10", bytesText(0xa6, 0xd9)],
    ["\ue78d", bytesText(0xa6, 0xd9)],
    ["\ue864", bytesText(0xfe, 0xa0)],
  ])("%j → %s", (input, expected) => {
    expect(query("gb18030", input)).toBe(expected);
  });

  it("every code point but U+E5E5 is encodable and decodes back (ICU), planes 0–2", () => {
    const decoder = new TextDecoder("gb18030");
    for (let cp = 0x80; cp <= 0x2ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const text = String.fromCodePoint(cp);
      const encoded = query("gb18030", text);
      if (cp === 0xe5e5) {
        expect(encoded).toBe(ncr(0xe5e5));
        continue;
      }
      const back = decoder.decode(percentDecodeString(encoded));
      const pua2005 = (cp >= 0xe78d && cp <= 0xe796) || [0xe81e, 0xe826, 0xe82b, 0xe82c, 0xe832, 0xe843, 0xe854, 0xe864].includes(cp);
      if (!pua2005) expect(back, hex(cp)).toBe(text);
    }
  });
});

// --- One case per encoding -------------------------------------------------

describe("every encoding: an encodable character, an unencodable one, a lone surrogate", () => {
  const encodable: Record<LegacyEncoding, [string, string]> = {
    IBM866: ["\u042f", "%9F"],
    "ISO-8859-2": ["\u0142", "%B3"],
    "ISO-8859-3": ["\u011d", "%F8"],
    "ISO-8859-4": ["\u0138", "%A2"],
    "ISO-8859-5": ["\u042f", "%CF"],
    "ISO-8859-6": ["\u0628", "%C8"],
    "ISO-8859-7": ["\u03a9", "%D9"],
    "ISO-8859-8": ["\u05d0", "%E0"],
    "ISO-8859-8-I": ["\u05d0", "%E0"],
    "ISO-8859-10": ["\u014b", "%BF"],
    "ISO-8859-13": ["\u0173", "%F8"],
    "ISO-8859-14": ["\u0175", "%F0"],
    "ISO-8859-15": ["\u20ac", "%A4"],
    "ISO-8859-16": ["\u0219", "%BA"],
    "KOI8-R": ["\u042f", "%F1"],
    "KOI8-U": ["\u0407", "%B7"],
    macintosh: ["\uf8ff", "%F0"],
    "windows-874": ["\u0e01", "%A1"],
    "windows-1250": ["\u0142", "%B3"],
    "windows-1251": ["\u042f", "%DF"],
    "windows-1252": ["\u20ac", "%80"],
    "windows-1253": ["\u03a9", "%D9"],
    "windows-1254": ["\u011f", "%F0"],
    "windows-1255": ["\u05d0", "%E0"],
    "windows-1256": ["\u0628", "%C8"],
    "windows-1257": ["\u0173", "%F8"],
    "windows-1258": ["\u0111", "%F0"],
    "x-mac-cyrillic": ["\u042f", "%9F"],
    "x-user-defined": ["\uf7e9", "%E9"],
    GBK: ["\u4e2d", "%D6%D0"],
    gb18030: ["\u4e2d", "%D6%D0"],
    Big5: ["\u4e2d", "%A4%A4"],
    "EUC-JP": ["\u6f22", "%B4%C1"],
    "ISO-2022-JP": ["\u6f22", "%1B$B4A%1B(B"],
    Shift_JIS: ["\u6f22", "%8A%BF"],
    "EUC-KR": ["\ud55c", "%C7%D1"],
  };

  it.each(legacyEncodings)("%s", (encoding) => {
    const [character, expected] = encodable[encoding];
    expect(query(encoding, `a=${character}&b`)).toBe(`a=${expected}&b`);
    // Every decoder agrees on the character (independent check of the table above).
    if (encoding !== "ISO-2022-JP") {
      expect(new TextDecoder(encoding).decode(percentDecodeString(expected))).toBe(character);
    }
    // An emoji: four bytes in gb18030 (pointer 189000 + 0x1F600 − 0x10000 =
    // 251976), unencodable everywhere else.
    expect(query(encoding, "\u{1f600}")).toBe(
      encoding === "gb18030" ? bytesText(0x94, 0x39, 0xfc, 0x36) : ncr(0x1f600),
    );
    // A lone surrogate is U+FFFD: four bytes in gb18030, unencodable elsewhere.
    expect(query(encoding, "x\ud800y")).toBe(
      encoding === "gb18030" ? `x${bytesText(0x84, 0x31, 0xa4, 0x37)}y` : `x${ncr(0xfffd)}y`,
    );
    // ASCII is the same in every encoding (the fast path).
    expect(query(encoding, "a b\"#<>'`{}|~")).toBe("a%20b%22%23%3C%3E%27`{}|~");
  });

  it("x-user-defined: U+F780–U+F7FF are bytes 0x80–0xFF, nothing else above ASCII", () => {
    expect(query("x-user-defined", "\uf780\uf7ff")).toBe("%80%FF");
    expect(query("x-user-defined", "\u0080\u00e9\uf77f\uf800")).toBe(ncr(0x80) + ncr(0xe9) + ncr(0xf77f) + ncr(0xf800));
  });

  it("windows-1252 maps 0x81, 0x8D, 0x8F, 0x90, 0x9D to U+0081 etc. (index windows-1252)", () => {
    expect(query("windows-1252", "\u0081\u008d\u008f\u0090\u009d")).toBe("%81%8D%8F%90%9D");
  });
});

describe("spaceAsPlus and other percent-encode sets", () => {
  it("0x20 becomes + and the set decides which ASCII bytes are escaped", () => {
    expect(percentEncodeAfterEncoding("Shift_JIS", "\u6f22 \u5b57", formURLEncodedPercentEncodeSet, true)).toBe("%8A%BF+%8E%9A");
    expect(percentEncodeAfterEncoding("Shift_JIS", "\u2212", formURLEncodedPercentEncodeSet, true)).toBe("%81%7C");
    expect(percentEncodeAfterEncoding("Shift_JIS", "\u2212", c0ControlPercentEncodeSet)).toBe("%81|");
    expect(percentEncodeAfterEncoding("windows-1252", "a b\u00e9", formURLEncodedPercentEncodeSet, true)).toBe("a+b%E9");
    expect(percentEncodeAfterEncoding("windows-1252", "a b", formURLEncodedPercentEncodeSet, false)).toBe("a%20b");
    // The NCR itself is never re-escaped or turned into "+".
    expect(percentEncodeAfterEncoding("windows-1251", "\u00e5 ", formURLEncodedPercentEncodeSet, true)).toBe("%26%23229%3B+");
  });

  it("ISO-2022-JP bytes go through the set too", () => {
    // ア is 25 22 in jis0208: "%" stays, '"' is in the query set.
    expect(percentEncodeAfterEncoding("ISO-2022-JP", "\u30a2", queryPercentEncodeSet)).toBe("%1B$B%%22%1B(B");
    expect(percentEncodeAfterEncoding("ISO-2022-JP", "\u30a2", componentPercentEncodeSet)).toBe("%1B%24B%25%22%1B(B");
  });
});

// --- Sweeps and properties against independent constructions ---------------

const percentEncodeSets: readonly PercentEncodeSet[] = [
  c0ControlPercentEncodeSet,
  fragmentPercentEncodeSet,
  queryPercentEncodeSet,
  specialQueryPercentEncodeSet,
  pathPercentEncodeSet,
  userinfoPercentEncodeSet,
  componentPercentEncodeSet,
  formURLEncodedPercentEncodeSet,
];

/** Interesting inputs: ASCII, the encoders' special cases, any BMP or astral code point, lone surrogates. */
const codeUnitsArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "\u00a5",
      "\u203e",
      "\u2212",
      "\u20ac",
      "\u00e9",
      "\u000e",
      "\u000f",
      "\u001b",
      "\\",
      "~",
      " ",
      "\u0080",
      "\uff61",
      "\uff9f",
      "\ue5e5",
      "\ue7c7",
      "\ue78d",
      "\ufe10",
      "\u2550",
      "\u5341",
      "\u6f22",
      "\ud55c",
      "\u{200cc}",
      "\uf7e9",
    ),
  },
  { weight: 4, arbitrary: fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
);
const inputArbitrary = fc.array(codeUnitsArbitrary, { maxLength: 24 }).map((parts) => parts.join(""));

describe("single-byte encoders = the inverse of TextDecoder over all 256 bytes (property)", () => {
  /** Independent construction: decode every byte, invert (first byte wins), encode and escape. */
  function referenceEncoder(encoding: LegacyEncoding): (input: string, set: PercentEncodeSet, spaceAsPlus: boolean) => string {
    const decoded = new TextDecoder(encoding).decode(Uint8Array.from({ length: 256 }, (_, i) => i));
    const inverse = new Map<number, number>();
    for (let byte = 0; byte < 256; byte++) {
      const cp = decoded.charCodeAt(byte);
      if (cp !== 0xfffd && !inverse.has(cp)) inverse.set(cp, byte);
    }
    return (input, set, spaceAsPlus) => {
      let out = "";
      for (const character of input) {
        let cp = character.codePointAt(0)!;
        if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
        const byte = inverse.get(cp);
        if (byte === undefined) out += ncr(cp);
        else if (spaceAsPlus && byte === 0x20) out += "+";
        else if (byte >= 0x80 || set[byte] === 1) out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
        else out += String.fromCharCode(byte);
      }
      return out;
    };
  }

  it.each([...singleByteEncodings, "x-user-defined" as const])("%s", (encoding) => {
    const reference = referenceEncoder(encoding);
    // The characters of this encoding, so that most inputs are encodable.
    const own = new TextDecoder(encoding).decode(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i)).replace(/\ufffd/g, "");
    const ownArbitrary = fc.constantFrom(...own);
    const input = fc
      .array(fc.oneof(codeUnitsArbitrary, ownArbitrary, ownArbitrary), { maxLength: 24 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(input, fc.constantFrom(...percentEncodeSets), fc.boolean(), (text, set, spaceAsPlus) => {
        expect(percentEncodeAfterEncoding(encoding, text, set, spaceAsPlus)).toBe(reference(text, set, spaceAsPlus));
      }),
      { numRuns: 300 },
    );
  });
});

describe("all encoders = @exodus/bytes' encoders (independent encoder code, same index data)", () => {
  it.each(legacyEncodings)("%s: property, any set, spaceAsPlus", (encoding) => {
    fc.assert(
      fc.property(inputArbitrary, fc.constantFrom(...percentEncodeSets), fc.boolean(), (text, set, spaceAsPlus) => {
        expect(percentEncodeAfterEncoding(encoding, text, set, spaceAsPlus)).toBe(
          exodusPercentEncodeAfterEncoding(encoding, text, setAsString(set), spaceAsPlus),
        );
      }),
      { numRuns: 300 },
    );
  });

  it.each(legacyEncodings)("%s: every BMP code point (and planes 1–2 for Big5 and gb18030)", (encoding) => {
    const top = encoding === "Big5" || encoding === "gb18030" ? 0x2ffff : 0xffff;
    const set = specialQueryPercentEncodeSet;
    const setString = setAsString(set);
    // In chunks of 2048 code points; ISO-2022-JP also crosses its states.
    for (let start = 0x80; start <= top; start += 2048) {
      let text = "";
      for (let cp = start; cp < start + 2048 && cp <= top; cp++) {
        if (cp < 0xd800 || cp > 0xdfff) text += String.fromCodePoint(cp);
      }
      const ours = percentEncodeAfterEncoding(encoding, text, set);
      const theirs = exodusPercentEncodeAfterEncoding(encoding, text, setString);
      if (ours !== theirs) expect(ours, `${encoding} from ${hex(start)}`).toBe(theirs);
    }
  });
});

// --- Labels ------------------------------------------------------------------

describe("getEncoding: the Encoding Standard's labels", () => {
  it.each([
    ["latin1", "windows-1252"],
    ["ascii", "windows-1252"],
    ["iso-8859-1", "windows-1252"],
    ["iso-8859-9", "windows-1254"],
    ["iso-8859-11", "windows-874"],
    ["sjis", "Shift_JIS"],
    ["x-sjis", "Shift_JIS"],
    ["csshiftjis", "Shift_JIS"],
    ["windows-31j", "Shift_JIS"],
    ["gb2312", "GBK"],
    ["chinese", "GBK"],
    ["gb18030", "gb18030"],
    ["ks_c_5601-1987", "EUC-KR"],
    ["windows-949", "EUC-KR"],
    ["unicode-1-1-utf-8", "UTF-8"],
    ["unicode11utf8", "UTF-8"],
    ["x-unicode20utf8", "UTF-8"],
    ["x-user-defined", "x-user-defined"],
    ["iso-2022-kr", "replacement"],
    ["hz-gb-2312", "replacement"],
    ["replacement", "replacement"],
    ["utf-16", "UTF-16LE"],
    ["unicode", "UTF-16LE"],
    ["ucs-2", "UTF-16LE"],
    ["unicodefffe", "UTF-16BE"],
    ["utf-16be", "UTF-16BE"],
    ["866", "IBM866"],
    ["koi8-ru", "KOI8-U"],
    ["koi", "KOI8-R"],
    ["x-mac-ukrainian", "x-mac-cyrillic"],
    ["mac", "macintosh"],
    ["logical", "ISO-8859-8-I"],
    ["visual", "ISO-8859-8"],
    ["iso_8859-2:1987", "ISO-8859-2"],
    ["l6", "ISO-8859-10"],
    ["l9", "ISO-8859-15"],
    ["iso-ir-58", "GBK"],
    ["x-x-big5", "Big5"],
    ["cseucpkdfmtjapanese", "EUC-JP"],
    ["csiso2022jp", "ISO-2022-JP"],
    ["x-cp1258", "windows-1258"],
  ])("%j → %s", (label, name) => {
    expect(getEncoding(label)).toBe(name);
  });

  it("has 228 labels, each naming its encoding; every encoding has its lowercased name as a label", () => {
    let count = 0;
    for (const name of encodingNames) {
      const labels = getEncodingLabels(name);
      count += labels.length;
      expect(labels).toContain(name.toLowerCase());
      for (const label of labels) expect(getEncoding(label)).toBe(name);
    }
    expect(count).toBe(228);
  });

  it("agrees with Node's TextDecoder on every label (which rejects replacement's)", () => {
    for (const name of encodingNames) {
      for (const label of getEncodingLabels(name)) {
        if (name === "replacement") expect(() => new TextDecoder(label), label).toThrow(RangeError);
        else expect(new TextDecoder(label).encoding, label).toBe(name.toLowerCase());
      }
    }
  });

  it("strips ASCII whitespace and ignores ASCII case, nothing more", () => {
    expect(getEncoding("  \t\n\f\rShift_JIS\r\n ")).toBe("Shift_JIS");
    expect(getEncoding("LATIN1")).toBe("windows-1252");
    expect(getEncoding("Utf-8")).toBe("UTF-8");
    // Not ASCII whitespace: U+000B, U+00A0; not ASCII case: U+212A KELVIN SIGN, U+0130.
    expect(getEncoding("\u000butf-8")).toBeNull();
    expect(getEncoding("utf-8\u00a0")).toBeNull();
    expect(getEncoding("\u212aoi8-r")).toBeNull();
    expect(getEncoding("\u0130so-8859-2")).toBeNull();
    // Inner whitespace is not stripped; near misses are not labels.
    expect(getEncoding("utf -8")).toBeNull();
    expect(getEncoding("utf-7")).toBeNull();
    expect(getEncoding("latin-1")).toBeNull();
    expect(getEncoding("")).toBeNull();
    expect(getEncoding("x-user-defined\u0000")).toBeNull();
  });

  it("getOutputEncoding: replacement, UTF-16BE and UTF-16LE become UTF-8", () => {
    for (const name of encodingNames) {
      const expected = name === "replacement" || name === "UTF-16BE" || name === "UTF-16LE" ? "UTF-8" : name;
      expect(getOutputEncoding(name)).toBe(expected);
    }
  });

  it("resolveEncodingLabel returns the output encoding", () => {
    expect(resolveEncodingLabel(" SJIS ")).toBe("Shift_JIS");
    expect(resolveEncodingLabel("utf-16le")).toBe("UTF-8");
    expect(resolveEncodingLabel("iso-2022-cn-ext")).toBe("UTF-8");
    expect(resolveEncodingLabel("x-user-defined")).toBe("x-user-defined");
  });
});

describe("UnknownEncodingError", () => {
  it("is thrown by resolveEncodingLabel, names the label, and is a TypeError", () => {
    let caught: unknown;
    try {
      resolveEncodingLabel("foo");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnknownEncodingError);
    expect(caught).toBeInstanceOf(TypeError);
    expect(isUnknownEncodingError(caught)).toBe(true);
    const error = caught as UnknownEncodingError;
    expect(error.message).toBe('Unknown encoding label: "foo"');
    expect(error.label).toBe("foo");
    expect(error.name).toBe("UnknownEncodingError");
    expect(() => resolveEncodingLabel(" utf-7\n")).toThrow('Unknown encoding label: " utf-7\\n"');
  });

  it("the guard rejects other values", () => {
    for (const value of [new TypeError("Unknown encoding label"), new RangeError("x"), null, undefined, "UnknownEncodingError", {}, { label: "foo" }]) {
      expect(isUnknownEncodingError(value)).toBe(false);
    }
  });

  it("the guard recognises an UnknownEncodingError from another realm (node:vm)", () => {
    const context = vm.createContext({});
    // The class as another copy of docbase would define it, in a realm with
    // its own TypeError and Error.prototype.
    const foreign = vm.runInContext(
      `
      const brand = Symbol.for("docbase.UnknownEncodingError");
      class UnknownEncodingError extends TypeError {
        constructor(label) {
          super("Unknown encoding label: " + JSON.stringify(label));
          this.name = "UnknownEncodingError";
          this.label = label;
          Object.defineProperty(this, brand, { value: true });
        }
      }
      new UnknownEncodingError("foo");
      `,
      context,
    ) as unknown;
    expect(foreign instanceof TypeError).toBe(false);
    expect(foreign instanceof UnknownEncodingError).toBe(false);
    expect(isUnknownEncodingError(foreign)).toBe(true);
    // A plain TypeError from that realm is not one.
    expect(isUnknownEncodingError(vm.runInContext(`new TypeError("foo")`, context))).toBe(false);
  });

  it("the guard recognises this module's own class evaluated in another realm", () => {
    const context = vm.createContext({});
    const source = `const unknownEncodingErrorBrand = Symbol.for("docbase.UnknownEncodingError");
      (${UnknownEncodingError.toString()})`;
    const ForeignClass = vm.runInContext(source, context) as new (label: string) => unknown;
    const foreign = new ForeignClass("bar");
    expect(foreign instanceof UnknownEncodingError).toBe(false);
    expect(isUnknownEncodingError(foreign)).toBe(true);
    expect((foreign as { label: string }).label).toBe("bar");
  });
});
