/**
 * Measures how far two candidate encoders for "percent-encode after encoding"
 * are from the Encoding Standard, code point by code point, against docbase's
 * own encoders (src/core/legacy-encoding.ts, the standard's algorithms over
 * indexes inverted from @exodus/bytes' decoders):
 *
 * - @exodus/bytes/whatwg.js `percentEncodeAfterEncoding` (what whatwg-url 17
 *   and jsdom use);
 * - iconv-lite `encode` (a dev dependency only), reading a lone "?" for a
 *   code point other than "?" as its "cannot encode".
 *
 * It also times the three on a query-shaped workload, and checks the reference
 * encoders' bytes against independent decoders: Node's TextDecoder (ICU) for
 * every encoding where ICU follows the standard, and the UTF-8 round trip.
 *
 *   node scripts/evaluate-legacy-encoders.ts
 *
 * The results are written up in docs/legacy-encoding-evaluation.md.
 */

import "@exodus/bytes/encoding.js"; // registers the multi-byte encoders with whatwg.js
import { percentEncodeAfterEncoding as exodusPercentEncode } from "@exodus/bytes/whatwg.js";
import iconv from "iconv-lite";
import { type OutputEncodingName } from "../src/core/encoding.ts";
import { percentEncodeAfterEncoding } from "../src/core/legacy-encoding.ts";
import { percentDecodeString, specialQueryPercentEncodeSet } from "../src/core/percent-encoding.ts";

const set = specialQueryPercentEncodeSet;
const setString = (() => {
  let s = "";
  for (let c = 0x20; c < 0x7f; c++) if (set[c] === 1) s += String.fromCharCode(c);
  return s;
})();

/** Encoding → iconv-lite codec name (null: iconv-lite has none). */
const encodings: Record<Exclude<OutputEncodingName, "UTF-8">, string | null> = {
  IBM866: "cp866",
  "ISO-8859-2": "iso88592",
  "ISO-8859-3": "iso88593",
  "ISO-8859-4": "iso88594",
  "ISO-8859-5": "iso88595",
  "ISO-8859-6": "iso88596",
  "ISO-8859-7": "iso88597",
  "ISO-8859-8": "iso88598",
  "ISO-8859-8-I": "iso88598",
  "ISO-8859-10": "iso885910",
  "ISO-8859-13": "iso885913",
  "ISO-8859-14": "iso885914",
  "ISO-8859-15": "iso885915",
  "ISO-8859-16": "iso885916",
  "KOI8-R": "koi8r",
  "KOI8-U": "koi8u",
  macintosh: "macintosh",
  "windows-874": "windows874",
  "windows-1250": "windows1250",
  "windows-1251": "windows1251",
  "windows-1252": "windows1252",
  "windows-1253": "windows1253",
  "windows-1254": "windows1254",
  "windows-1255": "windows1255",
  "windows-1256": "windows1256",
  "windows-1257": "windows1257",
  "windows-1258": "windows1258",
  "x-mac-cyrillic": "maccyrillic",
  "x-user-defined": null,
  GBK: "gbk",
  gb18030: "gb18030",
  Big5: "big5hkscs",
  "EUC-JP": "eucjp",
  "ISO-2022-JP": null,
  Shift_JIS: "shiftjis",
  "EUC-KR": "cp949",
};

/** ICU decoders that follow the Encoding Standard (checked: Big5 and EUC-KR do not). */
const icuConformant = new Set<string>(["GBK", "gb18030", "EUC-JP", "Shift_JIS", "ISO-2022-JP"]);

function codePointsFor(encoding: string): number[] {
  const list: number[] = [];
  for (let cp = 0x80; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) list.push(cp);
  // Supplementary code points: all of planes 1–2 for the two encoders with
  // astral mappings, a sample elsewhere.
  const top = encoding === "Big5" || encoding === "gb18030" ? 0x2ffff : 0x1ffff;
  for (let cp = 0x10000; cp <= top; cp += encoding === "Big5" || encoding === "gb18030" ? 1 : 97) list.push(cp);
  list.push(0x10ffff);
  return list;
}

/**
 * What a conformant decoder gives back for the bytes of `cp`: `cp` itself,
 * except where the encoder maps one-way by design (U+2212 → U+FF0D, ¥ and ‾
 * to ASCII in EUC-JP and Shift_JIS, half-width katakana to full-width in
 * ISO-2022-JP, and the GB18030-2005 compatibility rows of gb18030).
 */
function expectedRoundTrip(encoding: string, cp: number, text: string, back: string): string {
  const japanese = encoding === "EUC-JP" || encoding === "Shift_JIS" || encoding === "ISO-2022-JP";
  if (japanese && cp === 0x2212) return "\uff0d";
  // ICU's Shift_JIS decoder reads 0x80 as an error; the standard's as U+0080.
  if (encoding === "Shift_JIS" && cp === 0x80) return back;
  if ((encoding === "EUC-JP" || encoding === "Shift_JIS") && cp === 0xa5) return "\\";
  if ((encoding === "EUC-JP" || encoding === "Shift_JIS") && cp === 0x203e) return "~";
  if (encoding === "ISO-2022-JP" && cp >= 0xff61 && cp <= 0xff9f) return back;
  const compatibilityRow = (cp >= 0xe78d && cp <= 0xe796) || [0xe81e, 0xe826, 0xe82b, 0xe82c, 0xe832, 0xe843, 0xe854, 0xe864].includes(cp);
  if ((encoding === "GBK" || encoding === "gb18030") && compatibilityRow) return back;
  return text;
}

const hex = (cp: number): string => "U+" + cp.toString(16).toUpperCase().padStart(4, "0");

function iconvAsPercent(codec: string, text: string, cp: number): string {
  const bytes = iconv.encode(text, codec);
  if (bytes.length === 1 && bytes[0] === 0x3f && cp !== 0x3f) return "%26%23" + cp + "%3B";
  let s = "";
  for (const b of bytes) {
    s += b >= 0x80 || set[b] === 1 ? "%" + b.toString(16).toUpperCase().padStart(2, "0") : String.fromCharCode(b);
  }
  return s;
}

interface Tally {
  checked: number;
  wrong: number;
  samples: string[];
}

const tally = (): Tally => ({ checked: 0, wrong: 0, samples: [] });
const note = (t: Tally, cp: number, ours: string, theirs: string): void => {
  t.checked++;
  if (ours !== theirs) {
    t.wrong++;
    if (t.samples.length < 6) t.samples.push(`${hex(cp)}: spec ${ours}, got ${theirs}`);
  }
};

const rows: string[] = [];
for (const [encoding, codec] of Object.entries(encodings) as [Exclude<OutputEncodingName, "UTF-8">, string | null][]) {
  const exodus = tally();
  const iconvTally = tally();
  const iconvAstral = tally();
  const icu = tally();
  const decoder = icuConformant.has(encoding) || !encoding.match(/^(Big5|EUC-KR|GBK|gb18030|EUC-JP|Shift_JIS|ISO-2022-JP)$/)
    ? new TextDecoder(encoding)
    : null;
  for (const cp of codePointsFor(encoding)) {
    const text = String.fromCodePoint(cp);
    const ours = percentEncodeAfterEncoding(encoding, text, set);
    let theirs: string;
    try {
      theirs = exodusPercentEncode(encoding, text, setString);
    } catch (error) {
      theirs = `throws ${(error as Error).message}`;
    }
    note(exodus, cp, ours, theirs);
    if (codec !== null) note(cp > 0xffff ? iconvAstral : iconvTally, cp, ours, iconvAsPercent(codec, text, cp));
    // Independent check of the reference: what it encodes, a conformant
    // decoder decodes back to the same code point (U+2212 → U+FF0D and the
    // Big5/Shift_JIS/EUC-JP/ISO-2022-JP compatibility mappings aside).
    if (decoder !== null && !ours.startsWith("%26%23")) {
      const back = decoder.decode(percentDecodeString(ours));
      const expected = expectedRoundTrip(encoding, cp, text, back);
      icu.checked++;
      if (back !== expected) {
        icu.wrong++;
        if (icu.samples.length < 6) icu.samples.push(`${hex(cp)} → ${ours} → ${[...back].map((c) => hex(c.codePointAt(0)!)).join(" ")}`);
      }
    }
  }
  const cell = (t: Tally): string => (t.checked === 0 ? "n/a" : `${t.wrong}/${t.checked}`);
  rows.push(
    `| ${encoding} | ${cell(exodus)} | ${codec === null ? "no codec" : cell(iconvTally)} | ${codec === null ? "no codec" : cell(iconvAstral)} | ${decoder === null ? "n/a" : cell(icu)} |`,
  );
  for (const [name, t] of [["@exodus/bytes", exodus], ["iconv-lite", iconvTally], ["decode round trip", icu]] as const) {
    if (t.wrong > 0) console.error(`${encoding} ${name}: ${t.wrong} wrong, e.g. ${t.samples.join("; ")}`);
  }
}

console.log(
  "| encoding | @exodus/bytes wrong/checked | iconv-lite wrong/checked (BMP) | iconv-lite wrong/checked (astral) | reference round trip (TextDecoder) |",
);
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(row);

// Strings whose handling is more than a per-code-point table.
const strings: [OutputEncodingName, string][] = [
  ["windows-1252", "\ud800"],
  ["windows-1252", "a\udc00b"],
  ["gb18030", "\ud800"],
  ["Shift_JIS", "\udbff"],
  ["ISO-2022-JP", "\u000eA"],
  ["ISO-2022-JP", "\u203e\\"],
  ["ISO-2022-JP", "\u00a5\u00e9\\"],
  ["ISO-2022-JP", "\u6f22\u00e9a"],
  ["ISO-2022-JP", "\u6f22\u001b"],
  ["ISO-2022-JP", "\uff71\ud800"],
  ["Big5", "\u000eA"],
  ["EUC-KR", "a b", ],
];
console.log("\n| encoding | input | spec (docbase) | @exodus/bytes |");
console.log("|---|---|---|---|");
for (const [encoding, input] of strings) {
  let theirs: string;
  try {
    theirs = exodusPercentEncode(encoding, input, setString);
  } catch (error) {
    theirs = `throws ${(error as Error).message}`;
  }
  const ours = percentEncodeAfterEncoding(encoding, input, set);
  console.log(`| ${encoding} | ${JSON.stringify(input)} | \`${ours}\` | \`${theirs}\`${ours === theirs ? "" : " ✗"} |`);
}

// Speed on query-shaped input, after warm-up (tables built).
const workloads: [OutputEncodingName, string][] = [
  ["windows-1252", "q=caf\u00e9+cr\u00e8me&lang=fr&page=2"],
  ["Shift_JIS", "q=\u6771\u4eac\u30bf\u30ef\u30fc&x=1"],
  ["gb18030", "q=\u4e2d\u6587\u641c\u7d22&from=\ue7c7"],
  ["windows-1252", "q=plain-ascii-query&x=1&y=2"],
];
console.log("\n| workload | docbase ns/op | @exodus/bytes ns/op | iconv-lite (encode only) ns/op |");
console.log("|---|---|---|---|");
for (const [encoding, input] of workloads) {
  const codec = encodings[encoding as Exclude<OutputEncodingName, "UTF-8">]!;
  const time = (fn: () => unknown): number => {
    for (let i = 0; i < 20000; i++) fn();
    const n = 200000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    return Number(process.hrtime.bigint() - start) / n;
  };
  const a = time(() => percentEncodeAfterEncoding(encoding, input, set));
  const b = time(() => exodusPercentEncode(encoding, input, setString));
  const c = time(() => iconv.encode(input, codec));
  console.log(`| ${encoding} ${JSON.stringify(input)} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${c.toFixed(0)} |`);
}
