/**
 * Fragments of external pages: whether each names an element of the
 * fetched page, read as the links layer reads a page.
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
 * Whether checking `fragment` (serialized) needs the page: not for the top
 * of any page (`#`, `#top`) or a bare text directive (`#:~:text=…`).
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
 * A fetched page, as its fragments see it: HTML with its IDs and `a` names
 * (`truncated`: only its first bytes read), not HTML, or unread.
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
 * Reads the document of a page fetched from `url` (after redirects) as the
 * links layer reads bytes, `contentType`'s `charset` being the encoding the
 * sniffing algorithm's "transport layer specifies".
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
 * What checking one fragment found: `found`, `missing-fragment`,
 * `fragment-unchecked` (the page, or the part read, could not tell), or
 * `not-html` (a PDF's `#page=2` is its viewer's business).
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
 * whether `fragment` names something in `page`; `effective` is the one a
 * redirect's `Location` put in its place (RFC 9110 §10.2.2).
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
