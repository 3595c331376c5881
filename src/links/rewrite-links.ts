/**
 * Byte-preserving link rewriting, the driver: a document is prepared,
 * read and settled as for `extractLinks`, then written (write-links.ts)
 * with the URLs a rewrite changes replaced, and nothing else.
 *
 * @module
 */

import type { EncodingName } from "../core/index.ts";
import { extractSites } from "./extract-links.ts";
import { checkRewriteOption, type RewriteLinksOptions } from "./options.ts";
import { prepareDocument } from "./prepare-document.ts";
import { rewriteDocument } from "./write-links.ts";

/**
 * Returns the document with the text of each URL that `rewrite` changes
 * replaced, and every other byte as it was: quotes, character references,
 * whitespace, attribute order and case, comments. A new value is escaped
 * minimally for where it goes: in an attribute, its quote, an `&` that
 * would start a character reference, and CR; in an unquoted value that
 * would end early, quotes are added around the whole value (once); in CSS,
 * what would end the string or `url()`. srcset, ping and other lists are
 * rewritten one URL at a time; links in a srcdoc document are escaped for
 * each attribute they are inside. A form without an action gets
 * ` action="…"` when `rewrite` returns a string for it.
 *
 * A string gives a string. A `Uint8Array` gives a new `Uint8Array`: the
 * bytes between rewritten URLs are copied, and only the new text is encoded,
 * in the document's encoding (the `encoding` option, else sniffed). A code
 * point that encoding cannot represent is written as a decimal character
 * reference (`&#349;`) in an attribute and as a CSS escape (`\15d `) in a
 * `style` element, so the document still says exactly what `rewrite`
 * returned (the URL parser then encodes the query as the document's
 * encoding dictates; return an absolute, serialized URL, which is ASCII, to
 * choose the bytes yourself).
 *
 * @example
 * ```ts
 * rewriteLinks("<A HREF='a.html' title=x>&amp;</A>", {
 *   url: "https://example.com/",
 *   rewrite: (link) => link.value.replace(".html", "/"),
 * });
 * // "<A HREF='a/' title=x>&amp;</A>"
 * rewriteLinks('<img srcset="a.png 1x, b.png 2x">', {
 *   url: "https://example.com/",
 *   rewrite: (link) => (link.value === "b.png" ? "/hi-res/b.png" : undefined),
 * });
 * // '<img srcset="a.png 1x, /hi-res/b.png 2x">'
 * ```
 */
export function rewriteLinks(html: string, options: RewriteLinksOptions): string;
export function rewriteLinks(html: Uint8Array, options: RewriteLinksOptions): Uint8Array;
export function rewriteLinks(html: string | Uint8Array, options: RewriteLinksOptions): string | Uint8Array;
export function rewriteLinks(html: string | Uint8Array, options: RewriteLinksOptions): string | Uint8Array {
  return rewriteLinksAndEncoding(html, options).output;
}

/**
 * {@link rewriteLinks}, and the encoding the document was read in — the
 * one its parse settled, a `<meta>` past the prescan's 1024 bytes
 * included — for work that must tell a document of the replacement
 * encoding (nothing to rewrite: it decodes to one U+FFFD) from one left
 * as it was.
 *
 * @example
 * ```ts
 * const late = new TextEncoder().encode(`${" ".repeat(2000)}<meta charset=iso-2022-kr><a href=x>`);
 * rewriteLinksAndEncoding(late, { url: "https://example.com/", rewrite: () => "y" }).encoding; // "replacement"
 * ```
 */
export function rewriteLinksAndEncoding(html: string | Uint8Array, options: RewriteLinksOptions): { readonly output: string | Uint8Array; readonly encoding: EncodingName } {
  checkRewriteOption(options);
  const document = prepareDocument(html, options);
  return { output: rewriteDocument(document, extractSites(document, true).sites, options.rewrite), encoding: document.encoding };
}
