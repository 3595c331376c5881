/**
 * Fragments of external pages: which fragments need the page at all, what
 * a fetched page offers them (read as the links layer reads a page, with
 * the response's charset), and whether each one names an element there.
 *
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#scrolling-to-a-fragment
 *
 * @module
 */

import { getEncoding } from "../../core/index.ts";
import { isHTMLPage, parseMIMEType } from "../../html/index.ts";
import { type FragmentTargets, readLinks, removeFragmentDirective, selectIndicatedPart } from "../../links/internal.ts";

const NO_TARGETS: FragmentTargets = { ids: new Set(), names: new Set() };

/**
 * Whether checking `fragment` (as serialized in a URL) needs the page:
 * not for one that indicates the top of any page (`#`, `#top` in any case,
 * percent-encoded too) or a text fragment with nothing before its
 * directive (`#:~:text=…`).
 *
 * @example
 * ```ts
 * fragmentNeedsPage("install"); // true
 * fragmentNeedsPage("Top"); // false
 * fragmentNeedsPage(":~:text=hello"); // false
 * ```
 */
export function fragmentNeedsPage(fragment: string): boolean {
  return selectIndicatedPart(NO_TARGETS, removeFragmentDirective(fragment)) === null;
}

/**
 * A fetched page, as its fragments see it: an HTML page with the IDs and
 * `a` names of its document (`truncated` when only its first bytes were
 * read); not an HTML page (its `Content-Type` as sent, null when none);
 * or a page that could not be read (`reason` says why).
 *
 * @example
 * ```ts
 * const page: PageRead = { type: "not-html", contentType: "application/pdf" };
 * ```
 */
export type PageRead =
  | { readonly type: "html"; readonly targets: FragmentTargets; readonly truncated: boolean; readonly bytes: number }
  | { readonly type: "not-html"; readonly contentType: string | null }
  | { readonly type: "unread"; readonly reason: string };

/**
 * Reads the document of a page fetched from `url` (the URL that answered,
 * after redirects): the HTML encoding sniffing algorithm decides its
 * encoding, with the `charset` of `contentType` as the transport layer's
 * ("If the transport layer specifies a character encoding, and it is
 * supported, return that encoding with the confidence certain"; a BOM
 * still comes first), exactly as the links layer decodes bytes.
 *
 * Deviation: a response without a `Content-Type` is "not-html" (a
 * browser would sniff its bytes); saying so beats a guess.
 *
 * @example
 * ```ts
 * const page = readPage(new TextEncoder().encode('<h2 id="install">'), "text/html", "https://example.com/docs", false);
 * page.type === "html" && page.targets.ids.has("install"); // true
 * readPage(new Uint8Array(), "image/png", "https://example.com/a.png", false); // { type: "not-html", contentType: "image/png" }
 * ```
 */
export function readPage(body: Uint8Array, contentType: string | undefined, url: string, truncated: boolean): PageRead {
  const type = contentType === undefined ? null : parseMIMEType(contentType);
  if (!isHTMLPage(type)) return { type: "not-html", contentType: contentType ?? null };
  const charset = type!.parameters.get("charset");
  const encoding = charset !== undefined && getEncoding(charset) !== null ? charset : undefined;
  const { documents } = readLinks(body, { url, encoding }, { targets: true });
  // The top document comes first; a fragment of the page's URL never names an element of its srcdoc documents.
  const targets = documents?.[0]?.targets ?? NO_TARGETS;
  return { type: "html", targets, truncated, bytes: body.length };
}

/**
 * What checking one fragment in a page found: `found` (an element, or the
 * top of the page), `missing-fragment` (nothing: the browser does not
 * scroll), `fragment-unchecked` (the page could not be read, or only its
 * first bytes were and the fragment is not there), or `not-html` (the page
 * is not HTML: a PDF's `#page=2` is its viewer's business, as the check of
 * a site leaves fragments into other files alone).
 *
 * @example
 * ```ts
 * const kind: FragmentKind = "missing-fragment";
 * ```
 */
export type FragmentKind = "found" | "missing-fragment" | "fragment-unchecked" | "not-html";

/**
 * One fragment's result, with the words that explain it.
 *
 * @example
 * ```ts
 * const result: FragmentResult = { fragment: "setup", kind: "missing-fragment", detail: "no element with this ID or a name" };
 * ```
 */
export interface FragmentResult {
  /** The fragment as the link asked for it (serialized: percent-encoded). */
  readonly fragment: string;
  readonly kind: FragmentKind;
  readonly detail: string;
}

/**
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#select-the-indicated-part —
 * whether `fragment` names something in `page`. `effective` is the
 * fragment the browser really looks for, when a redirect's `Location`
 * brought its own (RFC 9110 §10.2.2: a Location without a fragment
 * inherits the request's; one with a fragment replaces it).
 *
 * @example
 * ```ts
 * const page: PageRead = { type: "html", targets: { ids: new Set(["a"]), names: new Set() }, truncated: false, bytes: 20 };
 * checkFragment(page, "a").kind; // "found"
 * checkFragment(page, "b").kind; // "missing-fragment"
 * checkFragment(page, "b", "a").kind; // "found" (a redirect sent the browser to #a)
 * ```
 */
export function checkFragment(page: PageRead | null, fragment: string, effective: string = fragment): FragmentResult {
  const sought = removeFragmentDirective(effective);
  // Said when what is looked for is not the link's fragment: a redirect's, or the link's without its directive.
  const via = sought === fragment ? "" : ` (looked for as "${sought}")`;
  if (!fragmentNeedsPage(sought)) return { fragment, kind: "found", detail: `the top of the page${via}` };
  if (page === null) return { fragment, kind: "fragment-unchecked", detail: "the page was not read" };
  if (page.type === "not-html") return { fragment, kind: "not-html", detail: `not an HTML page (Content-Type: ${page.contentType ?? "none"})` };
  if (page.type === "unread") return { fragment, kind: "fragment-unchecked", detail: page.reason };
  const found = selectIndicatedPart(page.targets, sought);
  if (found !== null) return { fragment, kind: "found", detail: `${found === "id" ? "an element with this ID" : found === "top" ? "the top of the page" : "an a element with this name"}${via}` };
  if (page.truncated) return { fragment, kind: "fragment-unchecked", detail: `not in the first ${page.bytes} bytes, and the page is longer${via}` };
  return { fragment, kind: "missing-fragment", detail: `no element with this ID or name${via}` };
}
