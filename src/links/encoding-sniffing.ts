/**
 * The HTML Standard's encoding sniffing algorithm: the encoding a document
 * given as bytes is read in, with what confidence, and what decided it.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm
 *
 * @module
 */

import type { EncodingName } from "../core/index.ts";
import { prescanEncoding } from "./encoding-prescan.ts";

/**
 * What decided a document's encoding: its byte order mark, the encoding
 * given by the caller (as a transport layer's charset would be), a
 * declaration in the document (a `<meta>` found by the prescan, or by the
 * parser while the encoding was tentative, or an XML declaration), or the
 * default (windows-1252; UTF-8 for a string given without an encoding).
 *
 * @example
 * ```ts
 * const source: EncodingSource = "declaration"; // <meta charset="shift_jis">
 * ```
 */
export type EncodingSource = "bom" | "given" | "declaration" | "default";

/**
 * The result of {@link sniffEncoding}.
 *
 * @example
 * ```ts
 * const sniffed: SniffedEncoding = { encoding: "windows-1252", confidence: "tentative", source: "default", bomLength: 0 };
 * ```
 */
export interface SniffedEncoding {
  readonly encoding: EncodingName;
  /** "certain" for a BOM or a given encoding; "tentative" for the prescan or the default, which a `<meta>` the parser meets can still change. */
  readonly confidence: "certain" | "tentative";
  readonly source: EncodingSource;
  /** The length of the byte order mark (0, 2 or 3). */
  readonly bomLength: number;
}

/** How many bytes the prescan reads: "User agents are encouraged to only prescan the first 1024 bytes." */
const PRESCAN_BYTES = 1024;

/**
 * https://encoding.spec.whatwg.org/#bom-sniff — the encoding a byte order
 * mark at the start of `bytes` selects, or null.
 *
 * @example
 * ```ts
 * bomSniff(Uint8Array.of(0xff, 0xfe, 0x3c, 0)); // "UTF-16LE"
 * bomSniff(Uint8Array.of(0x3c)); // null
 * ```
 */
export function bomSniff(bytes: Uint8Array): "UTF-8" | "UTF-16LE" | "UTF-16BE" | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "UTF-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "UTF-16LE";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "UTF-16BE";
  return null;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm —
 * the encoding of a document that starts with `bytes` (the prescan reads
 * its first 1024): the BOM, else `given` (an encoding the caller names, as
 * a transport layer's charset), else the encoding the prescan finds
 * declared (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding),
 * else windows-1252, the default of the "all other locales" row.
 *
 * @example
 * ```ts
 * sniffEncoding(new TextEncoder().encode('<meta charset="sjis">'), undefined);
 * // { encoding: "Shift_JIS", confidence: "tentative", source: "declaration", bomLength: 0 }
 * sniffEncoding(new TextEncoder().encode("<p>"), "UTF-8"); // { encoding: "UTF-8", confidence: "certain", source: "given", bomLength: 0 }
 * ```
 */
export function sniffEncoding(bytes: Uint8Array, given: EncodingName | undefined): SniffedEncoding {
  const bom = bomSniff(bytes);
  if (bom !== null) return { encoding: bom, confidence: "certain", source: "bom", bomLength: bom === "UTF-8" ? 3 : 2 };
  if (given !== undefined) return { encoding: given, confidence: "certain", source: "given", bomLength: 0 };
  const declared = prescanEncoding(bytes.subarray(0, PRESCAN_BYTES));
  if (declared !== null) return { encoding: declared, confidence: "tentative", source: "declaration", bomLength: 0 };
  return { encoding: "windows-1252", confidence: "tentative", source: "default", bomLength: 0 };
}
