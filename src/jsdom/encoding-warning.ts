/**
 * The `late-encoding` warning: a document whose `<meta>` declares another
 * encoding than the one jsdom decoded it with.
 *
 * @module
 */

import { getEncoding } from "../core/index.ts";
import { changedEncoding, metaDeclaredEncoding } from "../html/index.ts";
import type { InstallationWarning } from "./installation.ts";
import type { DocumentLike } from "./window.ts";

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing —
 * the warning for a document whose first `<meta>` encoding declaration names
 * another encoding than the document's: a browser would change the encoding
 * (if the first was only sniffed) and reparse; jsdom keeps its text. Null
 * when there is none.
 *
 * @example
 * ```ts
 * // bytes decoded as windows-1252, with <meta charset="shift_jis"> after the first 1,024 bytes
 * lateEncodingWarning(document)?.declared; // "Shift_JIS"
 * ```
 */
export function lateEncodingWarning(document: DocumentLike): InstallationWarning | null {
  const metas = document.querySelectorAll("meta[charset], meta[http-equiv]");
  for (let i = 0; i < metas.length; i++) {
    const meta = metas[i]!;
    const declared = metaDeclaredEncoding(meta.getAttribute("charset"), meta.getAttribute("http-equiv"), meta.getAttribute("content"));
    if (declared === null) continue;
    // "The first such element": only the first declaration counts.
    const current = getEncoding(document.characterSet);
    const next = current === null ? declared : changedEncoding(current, declared);
    if (next === null) return null;
    const used = current ?? document.characterSet;
    return {
      type: "late-encoding",
      document,
      declared: next,
      used,
      message: `the document declares ${next} in a <meta>, but jsdom decoded it as ${used}: a browser would change the encoding and reparse (unless a BOM or the transport's charset fixed it); pass the encoding to JSDOM (contentType "text/html; charset=${next}")`,
    };
  }
  return null;
}
