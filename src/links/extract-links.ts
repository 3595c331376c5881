/**
 * Link extraction, the driver of the whole-document path: a document is
 * prepared (prepare-document.ts), read (read-document.ts) and its links
 * settled (settle-links.ts); `rewriteLinks` and the command's reading go
 * the same way, and the write stage (write-links.ts) follows for a rewrite.
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#resolving-urls
 *
 * @module
 */

import type { DocumentURLs } from "./base-url.ts";
import type { DocumentReader, LinkBatch } from "./document-reader.ts";
import type { LinkSite } from "./link-site.ts";
import type { Link } from "./link-types.ts";
import type { ExtractLinksOptions } from "./options.ts";
import { prepareDocument, type PreparedDocument } from "./prepare-document.ts";
import { newBatch, NO_HOOKS, readDocument, type ReadHooks } from "./read-document.ts";
import { settleLinks, settleTooDeep } from "./settle-links.ts";

/**
 * What {@link extractSites} gives: the settled batch, and the top document's URLs.
 *
 * @example
 * ```ts
 * const { links, sites, urls }: ExtractedSites = extractSites(document, true);
 * ```
 */
export type ExtractedSites<Sites extends LinkSite[] | null = LinkSite[] | null> = LinkBatch & { readonly sites: Sites; readonly urls: DocumentURLs };

/**
 * Every link of a prepared document, srcdoc documents included, read and
 * settled (source order, lines and columns); with `rewriting`, also where
 * each one's text is, for the write stage. The srcdocs too deep to read are
 * in `tooDeep` (see {@link reportTooDeep}).
 *
 * @example
 * ```ts
 * extractSites(prepareDocument("<a href=x>", { url: "https://example.com/" }), false).links[0].url;
 * // "https://example.com/x"
 * ```
 */
export function extractSites(document: PreparedDocument, rewriting: true, hooks?: ReadHooks): ExtractedSites<LinkSite[]>;
export function extractSites(document: PreparedDocument, rewriting: false, hooks?: ReadHooks): ExtractedSites<null>;
export function extractSites(document: PreparedDocument, rewriting: boolean, hooks?: ReadHooks): ExtractedSites;
export function extractSites(document: PreparedDocument, rewriting: boolean, hooks: ReadHooks = NO_HOOKS): ExtractedSites {
  const batch = newBatch(rewriting);
  const urls = readDocument(document, batch, hooks);
  settleLinks(document.text, batch.links, batch.sites, document.options.validate);
  return { ...batch, urls };
}

/**
 * Tells the `onSrcdocTooDeep` option of a prepared document about each
 * srcdoc that {@link extractSites} found too deep to read.
 *
 * @example
 * ```ts
 * const document = prepareDocument(html, { url, maxSrcdocDepth: 0, onSrcdocTooDeep: (place) => console.log(place) });
 * reportTooDeep(document, extractSites(document, false));
 * ```
 */
export function reportTooDeep(document: PreparedDocument, read: LinkBatch): void {
  settleTooDeep(document.text, read.tooDeep, document.options.onSrcdocTooDeep);
}

/**
 * Every URL in an HTML document, in source order: each URL-bearing
 * attribute of the catalogue (one entry per URL of a list, a srcset or a
 * refresh), each `url()` and `@import` in `style` attributes and `style`
 * elements, and the links of iframe srcdoc documents, which resolve against
 * their container's base URL. Each is resolved as a browser resolves it:
 * against the document base URL of the whole document (a `<base>` after a
 * link still governs it), with the document's encoding for the query.
 *
 * Bad HTML and bad URLs are never errors (a URL that does not parse gives
 * `url: null`). A bad `url` option throws a {@link LinksError} naming it;
 * an unknown encoding label throws the core's `UnknownEncodingError`.
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url
 *
 * @example
 * ```ts
 * const links = extractLinks(
 *   '<img srcset="a.png 1x, b.png 2x"><base href="/static/">',
 *   { url: "https://example.com/page" },
 * );
 * links.map((l) => [l.value, l.url, l.column]);
 * // [["a.png", "https://example.com/static/a.png", 14],
 * //  ["b.png", "https://example.com/static/b.png", 24],
 * //  ["/static/", "https://example.com/static/", 46]]
 * ```
 */
export function extractLinks(html: string | Uint8Array, options: ExtractLinksOptions): Link[] {
  const document = prepareDocument(html, options);
  const read = extractSites(document, false);
  reportTooDeep(document, read);
  return read.links;
}

/**
 * Results kept alive for the life of the module, for the shapes of their
 * objects (see `retainedShapes` in html-source.ts): the readers, links and
 * URL records of a small document that has every kind of link, extracted
 * as `extractLinks` does (no validation, no rewriting). Exported so that
 * it lives as long as the module.
 *
 * Optimisation: without them, the first full garbage collection after an
 * extraction frees the shapes of its objects and throws away the code
 * optimised for them, and the next extraction runs slower until it is
 * optimised again. (Extracting the sample with validation and for
 * rewriting too would keep those shapes, but the mixed feedback it leaves
 * makes the common case slower.)
 *
 * @example
 * ```ts
 * retainedSamples.length; // 2: the sample's links and its readers
 * ```
 */
export const retainedSamples: readonly object[] = (() => {
  const sample =
    '<!doctype html><html><head><meta charset=utf-8><meta http-equiv=refresh content="5; url=/r"><base href="/b/">' +
    '<link rel=stylesheet href="s.css"><style>a{background:url(x.png)}</style></head>\n<body background="bg.png">' +
    '<a href="a.html" title="t">a</a><a href="https://example.com/x?y#z">b</a><a href="x&amp;y z">c</a>' +
    '<img src="i.png" srcset="i1.png 1x, i2.png 2x"><form><button formaction="f">x</button></form><area ping="p1 p2">' +
    "<p style=\"background:url('p.png')\">x</p><iframe srcdoc=\"<a href=s>s</a>\"></iframe><svg><a href=\"#v\"/></svg></body></html>";
  const readers: DocumentReader[] = [];
  return [extractSites(prepareDocument(sample, { url: "https://example.com/d/e" }), false, { readers }), readers];
})();
