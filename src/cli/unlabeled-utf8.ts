/**
 * Pages that declare no encoding and hold UTF-8: read as windows-1252, as
 * a browser reads a page served without a charset, and warned about once
 * per run, naming `--encoding utf-8` (most hosts send `charset=utf-8`).
 *
 * @module
 */

import { isAscii, isUtf8 } from "node:buffer";
import type { EncodingSource } from "../links/internal.ts";
import { plural } from "./format.ts";

/**
 * The key under which a file's result counts it (see `FileResult.counts`).
 *
 * @example
 * ```ts
 * counts[UNLABELED_UTF8] = 1;
 * ```
 */
export const UNLABELED_UTF8 = "unlabeled-utf8";

/**
 * Whether a page decoded in the default encoding (no BOM, no `encoding`
 * given, no `<meta charset>`: `encodingSource` is "default") has bytes
 * that are not ASCII and are valid UTF-8 — a page its author wrote in
 * UTF-8, which a browser reads as windows-1252 when the server sends no
 * charset (https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding,
 * the last step: windows-1252 for most locales).
 *
 * @example
 * ```ts
 * isUnlabeledUTF8(new TextEncoder().encode("<p>café"), "default"); // true
 * isUnlabeledUTF8(new TextEncoder().encode("<p>cafe"), "default"); // false (ASCII)
 * isUnlabeledUTF8(new TextEncoder().encode("<p>café"), "declaration"); // false
 * ```
 */
export function isUnlabeledUTF8(bytes: Uint8Array, encodingSource: EncodingSource): boolean {
  return encodingSource === "default" && !isAscii(bytes) && isUtf8(bytes);
}

/**
 * The run's one warning about `count` such pages, or null for none.
 *
 * @example
 * ```ts
 * unlabeledUTF8Warning(2);
 * // "2 pages declare no encoding and hold UTF-8: read as windows-1252, as a browser reads a page served without a charset; ..."
 * unlabeledUTF8Warning(0); // null
 * ```
 */
export function unlabeledUTF8Warning(count: number): string | null {
  if (count === 0) return null;
  return `${plural(count, "page")} ${count === 1 ? "declares" : "declare"} no encoding (no BOM, no <meta charset>) and ${count === 1 ? "holds" : "hold"} UTF-8: read as windows-1252, as a browser reads a page served without a charset; if the host sends charset=utf-8 (GitHub Pages and Netlify do), run with --encoding utf-8`;
}
