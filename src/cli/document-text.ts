/**
 * The text of an HTML file, for the command's own reading of it (which
 * `<base>` elements the document has, and where), decoded exactly as the
 * links layer decoded it, so that a link's `start` and `end` are offsets
 * into this text.
 *
 * The encoding is the one the links layer used: it reports each link's
 * query encoding, which for a link of the document itself (not CSS, not a
 * srcdoc document) is the document's encoding, except for UTF-16, which
 * only a BOM or `--encoding` can select. Without such a link the HTML
 * Standard's sniffing (BOM, label, meta prescan, windows-1252) decides.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding
 *
 * @module
 */

import { TextDecoder } from "@exodus/bytes/encoding.js";
import htmlEncodingSniffer from "html-encoding-sniffer";
import { type EncodingName, getEncoding } from "../core/index.ts";
import type { Link } from "../links/index.ts";

/** The encoding a BOM selects, or null. */
function bomEncoding(bytes: Uint8Array): EncodingName | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "UTF-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "UTF-16LE";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "UTF-16BE";
  return null;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm —
 * the BOM, else `label` (as a transport layer's charset), else the meta
 * prescan of the first 1024 bytes, else windows-1252. Cheap: it reads at
 * most 1024 bytes, and does not parse.
 *
 * @example
 * ```ts
 * sniffEncoding(new TextEncoder().encode('<meta charset="shift_jis">'), undefined); // "Shift_JIS"
 * sniffEncoding(new TextEncoder().encode("<p>"), undefined); // "windows-1252"
 * sniffEncoding(new TextEncoder().encode("<p>"), "utf8"); // "UTF-8"
 * ```
 */
export function sniffEncoding(bytes: Uint8Array, label: string | undefined): EncodingName {
  const name = htmlEncodingSniffer(bytes, label === undefined ? {} : { transportLayerEncodingLabel: label });
  return getEncoding(name) ?? "windows-1252";
}

/**
 * The encoding the links layer decoded a file with, from the links it
 * reported (see the module's comment).
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode("<a href=x>");
 * documentEncoding(bytes, undefined, extractLinks(bytes, { url: "https://example.com/" })); // "windows-1252"
 * ```
 */
export function documentEncoding(bytes: Uint8Array, label: string | undefined, links: readonly Link[]): EncodingName {
  const bom = bomEncoding(bytes);
  if (bom !== null) return bom;
  if (label !== undefined) {
    const named = getEncoding(label);
    if (named !== null) return named;
  }
  for (const link of links) {
    if (link.srcdoc === 0 && link.kind !== "css-url" && link.kind !== "css-import") return link.encoding;
  }
  return sniffEncoding(bytes, label);
}

/**
 * https://encoding.spec.whatwg.org/#decode — the text of `bytes` in
 * `encoding` (its BOM skipped), errors replaced by U+FFFD.
 *
 * @example
 * ```ts
 * decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), "windows-1252"); // "café"
 * ```
 */
export function decodeText(bytes: Uint8Array, encoding: EncodingName): string {
  return new TextDecoder(encoding).decode(bytes);
}
