/**
 * Encodings and their labels, as the Encoding Standard names them: getting an
 * encoding from a label, and getting an output encoding.
 *
 * https://encoding.spec.whatwg.org/#names-and-labels
 *
 * @module
 */

import { brandGuard } from "./branded-error.ts";
import { asciiLowercase, isASCIIWhitespace } from "./infra.ts";

/**
 * The names of all encodings of the Encoding Standard, in the standard's own
 * spelling (https://encoding.spec.whatwg.org/#names-and-labels).
 *
 * @example
 * ```ts
 * encodingNames.includes("Shift_JIS"); // true
 * ```
 */
export const encodingNames = [
  "UTF-8",
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
  "GBK",
  "gb18030",
  "Big5",
  "EUC-JP",
  "ISO-2022-JP",
  "Shift_JIS",
  "EUC-KR",
  "replacement",
  "UTF-16BE",
  "UTF-16LE",
  "x-user-defined",
] as const;

/**
 * The name of an encoding of the Encoding Standard.
 *
 * @example
 * ```ts
 * const name: EncodingName = "windows-1252";
 * ```
 */
export type EncodingName = (typeof encodingNames)[number];

/**
 * An encoding that has an encoder: every {@link EncodingName} except
 * replacement, UTF-16BE and UTF-16LE (https://encoding.spec.whatwg.org/#get-an-output-encoding).
 *
 * @example
 * ```ts
 * const name: OutputEncodingName = getOutputEncoding("UTF-16LE"); // "UTF-8"
 * ```
 */
export type OutputEncodingName = Exclude<EncodingName, "replacement" | "UTF-16BE" | "UTF-16LE">;

/** The label table of https://encoding.spec.whatwg.org/#names-and-labels, one space-separated string per encoding. */
const labelTable: Readonly<Record<EncodingName, string>> = {
  "UTF-8": "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8",
  IBM866: "866 cp866 csibm866 ibm866",
  "ISO-8859-2": "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2",
  "ISO-8859-3": "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3",
  "ISO-8859-4": "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4",
  "ISO-8859-5": "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988",
  "ISO-8859-6":
    "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e iso-8859-6-i " +
    "iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987",
  "ISO-8859-7":
    "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 iso_8859-7 " +
    "iso_8859-7:1987 sun_eu_greek",
  "ISO-8859-8":
    "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 iso_8859-8 " +
    "iso_8859-8:1988 visual",
  "ISO-8859-8-I": "csiso88598i iso-8859-8-i logical",
  "ISO-8859-10": "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
  "ISO-8859-13": "iso-8859-13 iso8859-13 iso885913",
  "ISO-8859-14": "iso-8859-14 iso8859-14 iso885914",
  "ISO-8859-15": "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
  "ISO-8859-16": "iso-8859-16",
  "KOI8-R": "cskoi8r koi koi8 koi8-r koi8_r",
  "KOI8-U": "koi8-ru koi8-u",
  macintosh: "csmacintosh mac macintosh x-mac-roman",
  "windows-874": "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874",
  "windows-1250": "cp1250 windows-1250 x-cp1250",
  "windows-1251": "cp1251 windows-1251 x-cp1251",
  "windows-1252":
    "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 iso_8859-1 " +
    "iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252",
  "windows-1253": "cp1253 windows-1253 x-cp1253",
  "windows-1254":
    "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 " +
    "windows-1254 x-cp1254",
  "windows-1255": "cp1255 windows-1255 x-cp1255",
  "windows-1256": "cp1256 windows-1256 x-cp1256",
  "windows-1257": "cp1257 windows-1257 x-cp1257",
  "windows-1258": "cp1258 windows-1258 x-cp1258",
  "x-mac-cyrillic": "x-mac-cyrillic x-mac-ukrainian",
  GBK: "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk",
  gb18030: "gb18030",
  Big5: "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
  "EUC-JP": "cseucpkdfmtjapanese euc-jp x-euc-jp",
  "ISO-2022-JP": "csiso2022jp iso-2022-jp",
  Shift_JIS: "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis",
  "EUC-KR":
    "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 windows-949",
  replacement: "csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr replacement",
  "UTF-16BE": "unicodefffe utf-16be",
  "UTF-16LE": "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le",
  "x-user-defined": "x-user-defined",
};

let labelMap: Map<string, EncodingName> | null = null;

/** The label → encoding map, built on first use. */
function getLabelMap(): Map<string, EncodingName> {
  if (labelMap !== null) return labelMap;
  const map = new Map<string, EncodingName>();
  for (const name of encodingNames) {
    for (const label of labelTable[name].split(" ")) map.set(label, name);
  }
  labelMap = map;
  return map;
}

/**
 * The labels of an encoding, in the standard's table order: exactly those
 * for which {@link getEncoding} returns `encoding`.
 *
 * @example
 * ```ts
 * getEncodingLabels("UTF-16BE"); // ["unicodefffe", "utf-16be"]
 * ```
 */
export function getEncodingLabels(encoding: EncodingName): readonly string[] {
  return labelTable[encoding].split(" ");
}

/**
 * https://encoding.spec.whatwg.org/#concept-encoding-get — the encoding's
 * name, or `null` for failure.
 *
 * @example
 * ```ts
 * getEncoding(" Latin1\n"); // "windows-1252"
 * getEncoding("x-sjis"); // "Shift_JIS"
 * getEncoding("iso-2022-kr"); // "replacement"
 * getEncoding("utf-7"); // null
 * ```
 */
export function getEncoding(label: string): EncodingName | null {
  let start = 0;
  let end = label.length;
  while (start < end && isASCIIWhitespace(label.charCodeAt(start))) start++;
  while (end > start && isASCIIWhitespace(label.charCodeAt(end - 1))) end--;
  return getLabelMap().get(asciiLowercase(label.slice(start, end))) ?? null;
}

/**
 * https://encoding.spec.whatwg.org/#get-an-output-encoding — replacement,
 * UTF-16BE and UTF-16LE have no encoder, so URLs and forms use UTF-8 for them.
 *
 * @example
 * ```ts
 * getOutputEncoding("UTF-16LE"); // "UTF-8"
 * getOutputEncoding("Shift_JIS"); // "Shift_JIS"
 * ```
 */
export function getOutputEncoding(encoding: EncodingName): OutputEncodingName {
  if (encoding === "replacement" || encoding === "UTF-16BE" || encoding === "UTF-16LE") return "UTF-8";
  return encoding;
}

/** The brand of branded-error.ts, written out so that this class's source stands alone in another realm. */
const unknownEncodingErrorBrand = Symbol.for("docbase.UnknownEncodingError");

/**
 * Thrown for a label that is not in the Encoding Standard's table: a
 * `TypeError` whose message and `label` name it. Recognise it with
 * {@link isUnknownEncodingError}, which works across realms.
 * @example
 * ```ts
 * try {
 *   resolveEncodingLabel("utf-7");
 * } catch (error) {
 *   if (isUnknownEncodingError(error)) error.label; // "utf-7"
 *   // error.message: 'Unknown encoding label: "utf-7"'
 * }
 * ```
 */
export class UnknownEncodingError extends TypeError {
  /** Exactly as it was given. */
  readonly label: string;

  constructor(label: string) {
    super(`Unknown encoding label: ${JSON.stringify(label)}`);
    this.name = "UnknownEncodingError";
    this.label = label;
    Object.defineProperty(this, unknownEncodingErrorBrand, { value: true });
  }
}

/**
 * Whether `value` is an {@link UnknownEncodingError} from any realm (by its
 * `Symbol.for("docbase.UnknownEncodingError")` brand).
 *
 * @example
 * ```ts
 * isUnknownEncodingError(new UnknownEncodingError("foo")); // true
 * isUnknownEncodingError(new TypeError("foo")); // false
 * ```
 */
export const isUnknownEncodingError = brandGuard<UnknownEncodingError>("UnknownEncodingError");

/**
 * The encoding a URL's query (or a form) is encoded with for a label:
 * {@link getEncoding}, then {@link getOutputEncoding}. Throws an
 * {@link UnknownEncodingError} for an unknown label.
 *
 * @example
 * ```ts
 * resolveEncodingLabel("SJIS"); // "Shift_JIS"
 * resolveEncodingLabel("utf-16"); // "UTF-8"
 * resolveEncodingLabel("iso-2022-kr"); // "UTF-8" (replacement)
 * resolveEncodingLabel("foo"); // throws UnknownEncodingError: Unknown encoding label: "foo"
 * ```
 */
export function resolveEncodingLabel(label: string): OutputEncodingName {
  const encoding = getEncoding(label);
  if (encoding === null) throw new UnknownEncodingError(label);
  return getOutputEncoding(encoding);
}
