/**
 * HTMLHyperlinkElementUtils over any tree: the URL decomposition attributes
 * of HTML `a` and `area` elements, each a getter and a setter of one table,
 * from which the three ways of calling them are built.
 *
 * https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils
 *
 * The element's url lives in a WeakMap, with the href value and the base URL
 * record it was computed from. Trees outside a browser do not announce their
 * changes: "set the url" runs when the href attribute read now differs from
 * that value (and on first use, rather than when the element is created),
 * and "reinitialize url" keeps the url while neither the value nor the base
 * URL record changed (document-base makes a new record for every change).
 * Only a blob: URL with an opaque path could tell the difference.
 *
 * @module
 */

import {
  basicURLParse,
  cannotHaveUsernamePasswordPort,
  cloneURLRecord,
  serializeOrigin,
  serializeURL,
  urlOrigin,
  type URLRecord,
  userinfoPercentEncodeSet,
  utf8PercentEncodeString,
} from "../core/index.ts";
import { toScalarValueString } from "../core/infra.ts";
import { type DocumentContext, elementBaseURL, encodingParseURL, type TreeAdapterTypeMap } from "../document-base/index.ts";
import { HTML_NAMESPACE } from "../html/index.ts";
import { describeElement, type LooseContext, setContentAttribute } from "./content-attribute.ts";
import { URLUtilsError } from "./errors.ts";

// --- Public types ---------------------------------------------------------------

/**
 * The attributes of HTMLHyperlinkElementUtils, in the standard's IDL order.
 *
 * @example
 * ```ts
 * const name: HyperlinkAttributeName = "pathname";
 * ```
 */
export type HyperlinkAttributeName =
  | "href"
  | "origin"
  | "protocol"
  | "username"
  | "password"
  | "host"
  | "hostname"
  | "port"
  | "pathname"
  | "search"
  | "hash";

/**
 * The attributes that have a setter (all but `origin`).
 *
 * @example
 * ```ts
 * const name: HyperlinkSettableAttributeName = "search";
 * ```
 */
export type HyperlinkSettableAttributeName = Exclude<HyperlinkAttributeName, "origin">;

/**
 * The HTMLHyperlinkElementUtils interface of one `a` or `area` element, as
 * a browser exposes it on `HTMLAnchorElement` and `HTMLAreaElement`: every
 * getter and setter behaves as the HTML Standard says. Made by
 * {@link hyperlink}; it holds no state of its own (the element's url is
 * kept per element), so making one per access is fine.
 *
 * @example
 * ```ts
 * const link = hyperlink(context, a); // <a href="../docs/?q=1#top"> in https://example.com/a/b
 * link.href; // "https://example.com/docs/?q=1#top"
 * link.pathname = "/search";
 * link.search = "q=é";
 * adapter.getAttribute(a, null, "href"); // "https://example.com/search?q=%C3%A9#top"
 * `${link}`; // the same
 * ```
 */
export interface HyperlinkElementUtils {
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href — the URL, or the raw attribute when it does not parse, or "" when absent. Setting sets the attribute. */
  href: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-origin — the URL's origin, serialized ("null" for opaque, "" on failure). */
  readonly origin: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-protocol — the scheme and ":" (":" on failure). */
  protocol: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-username */
  username: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-password */
  password: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-host — host and port. */
  host: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hostname */
  hostname: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-port */
  port: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-pathname */
  pathname: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-search — "?" and the query, or "". */
  search: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hash — "#" and the fragment, or "". */
  hash: string;
  /** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href — the stringifier: the same as `href`. */
  toString(): string;
}

// --- The element's url ------------------------------------------------------------------

/** The standard's per-element state, and what it was computed from. */
interface HyperlinkState {
  /** The context it was computed with (another context: computed again). */
  context: LooseContext | null;
  /** The href attribute's value the url was set from; null: the attribute was absent. */
  href: string | null;
  /** The base URL record the url was parsed against (null when href was absent). */
  base: Readonly<URLRecord> | null;
  /**
   * https://html.spec.whatwg.org/multipage/links.html#concept-hyperlink-url —
   * frozen: it is handed out by hyperlinkURL(), and the setters change a copy.
   */
  url: Readonly<URLRecord> | null;
  /** Optimisation: the url's serialization, made on first use. */
  serialized: string | null;
  /** Optimisation: the serialization of the url's origin, made on first use. */
  origin: string | null;
}

const states = new WeakMap<object, HyperlinkState>();

/**
 * Optimisation: whether any state's url was ever a blob: URL with an opaque
 * path, the only url "reinitialize url" keeps; until one is,
 * {@link keepsHyperlinkURL} answers without a lookup.
 */
let blobURLSet = false;

/**
 * https://html.spec.whatwg.org/multipage/links.html#reinitialise-url, step 1 —
 * whether "reinitialize url" keeps an element's url as it is: "If element's
 * url is non-null, its scheme is "blob", and it has an opaque path, then
 * terminate these steps." Every other url is set afresh from the href
 * attribute and the current base URL.
 *
 * Internal: for this module and the jsdom integration's fast path
 * (src/jsdom, through url-utils' internal.ts).
 *
 * @example
 * ```ts
 * isKeptHyperlinkURL(parseURL("blob:https://example.com/uuid")); // true
 * isKeptHyperlinkURL(parseURL("blob:/p?q")); // false (a path that is not opaque)
 * isKeptHyperlinkURL(null); // false
 * ```
 */
export function isKeptHyperlinkURL(url: Readonly<URLRecord> | null): boolean {
  return url !== null && url.scheme === "blob" && url.opaquePath;
}

/**
 * Whether `element` is an HTML `a` or `area` element: the elements that
 * have HTMLHyperlinkElementUtils (`HTMLAnchorElement`, `HTMLAreaElement`).
 * An SVG `a` is not one (see the SVG functions).
 *
 * @example
 * ```ts
 * isHyperlinkElement(context, a); // true
 * isHyperlinkElement(context, svgA); // false
 * ```
 */
export function isHyperlinkElement<T extends TreeAdapterTypeMap>(context: DocumentContext<T>, element: T["element"]): boolean {
  const adapter = (context as unknown as LooseContext).adapter;
  const name = adapter.getLocalName(element as object);
  return (name === "a" || name === "area") && adapter.getNamespaceURI(element as object) === HTML_NAMESPACE;
}

function checkHyperlinkElement(context: LooseContext, element: object): void {
  if (!isHyperlinkElement(context, element)) {
    throw new URLUtilsError(`${describeElement(context.adapter, element)} has no HTMLHyperlinkElementUtils (only HTML "a" and "area" elements do)`);
  }
}

/**
 * https://html.spec.whatwg.org/multipage/links.html#concept-hyperlink-url-set
 *
 * `href` is the attribute's current value (the caller has just read it).
 */
function setTheURLFrom(context: LooseContext, element: object, href: string | null): HyperlinkState {
  let state = states.get(element);
  if (state === undefined) {
    state = { context, href, base: null, url: null, serialized: null, origin: null };
    states.set(element, state);
  }
  state.context = context;
  state.href = href;
  state.serialized = null;
  state.origin = null;
  // 1. Set this element's url to null.
  state.url = null;
  state.base = null;
  // 2. If this element's href content attribute is absent, then return.
  if (href === null) return state;
  // 3. Let url be the result of encoding-parsing a URL given this element's href content
  //    attribute's value, relative to this element's node document.
  // Deviation (opt-in): with the context's xmlBase option, relative to the element's base URL,
  // which xml:base can change, as HTML 5 resolved it; without it (the default), the element's
  // base URL is its node document's document base URL, as the standard says.
  state.base = elementBaseURL(context, element);
  // 4. If url is not failure, then set this element's url to url.
  const url = encodingParseURL(context, href, element);
  state.url = url === null ? null : Object.freeze(url);
  if (isKeptHyperlinkURL(url)) blobURLSet = true;
  return state;
}

/**
 * https://html.spec.whatwg.org/multipage/links.html#reinitialise-url
 *
 * Returns the element's state, its url current. Throws a URLUtilsError for
 * an element other than an HTML a or area.
 */
function reinitializeURLState(context: LooseContext, element: object, known?: HyperlinkState): HyperlinkState {
  // Optimisation: a caller that already holds the element's state (a hyperlink() object) skips
  // the WeakMap lookup.
  const state = known ?? states.get(element);
  // Optimisation: only an a or area element ever gets a state, and an element's local name and
  // namespace never change, so the check is made once per element.
  if (state === undefined) checkHyperlinkElement(context, element);
  const href = context.adapter.getAttribute(element, null, "href");
  // Deviation (unobserved trees): "set the url" runs when the href attribute is set, changed or
  // removed. Here a change is seen by its value, so a state computed from another value (or with
  // another context) is set again now. Setting the attribute to the value it already had is not
  // seen (call setTheURL() to report it); that only matters for the blob: case below.
  if (state !== undefined && state.context === context && state.href === href) {
    const url = state.url;
    // 1. If element's url is non-null, its scheme is "blob", and it has an opaque path, then
    //    terminate these steps.
    if (isKeptHyperlinkURL(url)) return state;
    // Optimisation: "set the url" would parse the same value against the same base URL with
    // the same document encoding: it would give this url again. An absent href gives null.
    if (href === null || state.base === elementBaseURL(context, element)) return state;
  }
  // 2. Set the url.
  return setTheURLFrom(context, element, href);
}

/**
 * Whether "reinitialize url" keeps `element`'s url as it is, whatever the
 * base URL is now: the url it holds is a blob: URL with an opaque path, set
 * from this same href value with this same context
 * (https://html.spec.whatwg.org/multipage/links.html#reinitialise-url, step 1).
 * When it returns false, the href getter's value is the href attribute
 * parsed afresh against the current base URL (or the attribute itself, or
 * ""), so a caller that computes exactly that can skip this module.
 *
 * Internal: for the jsdom integration's fast path (src/jsdom, through
 * url-utils' internal.ts); not exported from the layer.
 *
 * @example
 * ```ts
 * keepsHyperlinkURL(context, a, a.getAttributeNS(null, "href")); // false unless a blob: url is kept
 * ```
 */
export function keepsHyperlinkURL(context: LooseContext, element: object, href: string | null): boolean {
  if (!blobURLSet) return false;
  const state = states.get(element);
  if (state === undefined || state.context !== context || state.href !== href) return false;
  return isKeptHyperlinkURL(state.url);
}

/**
 * What the HTMLHyperlinkElementUtils getter `name` returns for an element
 * whose url is `url` and whose href content attribute is `href` (null:
 * absent): the getter's steps after "reinitialize url", which only read
 * those two. With `url` the attribute encoding-parsed relative to the
 * element's node document (null when it is absent or does not parse), and
 * {@link keepsHyperlinkURL} false, it is `getHyperlinkAttribute(context,
 * element, name)`.
 *
 * Internal: for the jsdom integration's fast path (src/jsdom, through
 * url-utils' internal.ts); not exported from the layer.
 *
 * @example
 * ```ts
 * hyperlinkAttributeOfURL("pathname", parseURL("https://example.com/a?b"), "/a?b"); // "/a"
 * hyperlinkAttributeOfURL("href", null, "http://test:test/"); // "http://test:test/"
 * ```
 */
export function hyperlinkAttributeOfURL(name: HyperlinkAttributeName, url: Readonly<URLRecord> | null, href: string | null): string {
  return hyperlinkAttribute(name).get({ context: null, href, base: null, url, serialized: null, origin: null });
}

/**
 * https://html.spec.whatwg.org/multipage/links.html#update-href — sets the
 * href content attribute to the url, serialized; the attribute change steps
 * then run "set the url".
 */
function updateHref(context: LooseContext, element: object, url: URLRecord): void {
  const href = serializeURL(url);
  setContentAttribute(context, element, null, "href", href);
  setTheURLFrom(context, element, href);
}

/**
 * https://html.spec.whatwg.org/multipage/links.html#reinitialise-url — the
 * element's url after "reinitialize url": the URL its href attribute
 * resolves to (against the current base URL, with the document's encoding
 * for the query), or null when the attribute is absent or does not parse.
 * The record is the element's own, frozen (change it through the
 * setters). Reading it twice without a change in between gives
 * the same record.
 *
 * @example
 * ```ts
 * // <base href="https://example.com/docs/"> <a href="intro?x#y">
 * const url = hyperlinkURL(context, a)!;
 * url.path; // "/docs/intro"
 * hyperlinkURL(context, a) === url; // true (cached)
 * hyperlinkURL(context, aWithoutHref); // null
 * ```
 */
export function hyperlinkURL<T extends TreeAdapterTypeMap>(context: DocumentContext<T>, element: T["element"]): Readonly<URLRecord> | null {
  return reinitializeURLState(context as unknown as LooseContext, element as object).url;
}

/**
 * https://html.spec.whatwg.org/multipage/links.html#concept-hyperlink-url-set —
 * runs "set the url" now, as the HTML Standard does whenever the href
 * attribute is set, changed or removed, and returns the new url (null when
 * the attribute is absent or does not parse).
 *
 * Changes of the href attribute are noticed without it (by value); call it
 * when the attribute was set to the value it already had, which the
 * standard counts as a change: that matters only for an element whose url
 * is a blob: URL with an opaque path, which "reinitialize url" otherwise
 * keeps even when the base URL changes.
 *
 * @example
 * ```ts
 * // <base href="blob:https://example.com/uuid"> <a href="#frag">
 * hyperlink(context, a).href; // "blob:https://example.com/uuid#frag"
 * // … the base element's href changes to https://example.org/ (reported to the context) …
 * hyperlink(context, a).href; // still "blob:https://example.com/uuid#frag" (kept)
 * setTheURL(context, a); // as if href were set again to "#frag"
 * hyperlink(context, a).href; // "https://example.org/#frag"
 * ```
 */
export function setTheURL<T extends TreeAdapterTypeMap>(context: DocumentContext<T>, element: T["element"]): Readonly<URLRecord> | null {
  const loose = context as unknown as LooseContext;
  checkHyperlinkElement(loose, element as object);
  return setTheURLFrom(loose, element as object, loose.adapter.getAttribute(element as object, null, "href")).url;
}

// --- Getters -------------------------------------------------------------------------
//
// Each getter takes the element's state after step 1, "Reinitialize url", which its caller
// runs (reinitializeURLState), so that one lookup serves whoever reads several attributes.

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href */
function getHref(state: HyperlinkState): string {
  // 2. Let url be this's url.
  const url = state.url;
  // 3. If url is null and this has no href content attribute, return the empty string.
  // 4. Otherwise, if url is null, return this's href content attribute's value.
  //    (A USVString: converted to a scalar value string.)
  if (url === null) return state.href === null ? "" : toScalarValueString(state.href);
  // 5. Return url, serialized.
  return (state.serialized ??= serializeURL(url));
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-origin */
function getOrigin(state: HyperlinkState): string {
  const url = state.url;
  // 2. If this's url is null, return the empty string.
  if (url === null) return "";
  // 3. Return the serialization of this's url's origin.
  return (state.origin ??= serializeOrigin(urlOrigin(url)));
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-protocol */
function getProtocol(state: HyperlinkState): string {
  const url = state.url;
  // 2. If this's url is null, return ":".
  if (url === null) return ":";
  // 3. Return this's url's scheme, followed by ":".
  return url.scheme + ":";
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-username */
function getUsername(state: HyperlinkState): string {
  const url = state.url;
  // 2. If this's url is null, return the empty string.
  // 3. Return this's url's username.
  return url === null ? "" : url.username;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-password */
function getPassword(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url is null, then return the empty string.
  // 4. Return url's password.
  return url === null ? "" : url.password;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-host */
function getHost(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url or url's host is null, return the empty string.
  if (url === null || url.host === null) return "";
  // 4. If url's port is null, return url's host, serialized.
  if (url.port === null) return url.host;
  // 5. Return url's host, serialized, followed by ":" and url's port, serialized.
  return url.host + ":" + url.port;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hostname */
function getHostname(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url or url's host is null, return the empty string.
  // 4. Return url's host, serialized.
  return url === null || url.host === null ? "" : url.host;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-port */
function getPort(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url or url's port is null, return the empty string.
  // 4. Return url's port, serialized.
  return url === null || url.port === null ? "" : String(url.port);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-pathname */
function getPathname(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url is null, return the empty string.
  // 4. Return the result of URL path serializing url. (The record keeps the serialized path.)
  return url === null ? "" : url.path;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-search */
function getSearch(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url is null, or url's query is either null or the empty string, return the empty string.
  if (url === null || url.query === null || url.query === "") return "";
  // 4. Return "?", followed by url's query.
  return "?" + url.query;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hash */
function getHash(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url is null, or url's fragment is either null or the empty string, return the empty string.
  if (url === null || url.fragment === null || url.fragment === "") return "";
  // 4. Return "#", followed by url's fragment.
  return "#" + url.fragment;
}

// --- Setters -------------------------------------------------------------------------
//
// Each setter changes a copy of the element's url and hands it to "update href", which sets
// the href attribute and then sets the url from it: the copy is never kept, so the url handed
// out by hyperlinkURL() is never changed in place.

/** The element's url after "reinitialize url", as a copy to change, or null. */
function urlToChange(context: LooseContext, element: object): URLRecord | null {
  const url = reinitializeURLState(context, element).url;
  return url === null ? null : cloneURLRecord(url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href */
function setHref(context: LooseContext, element: object, value: string): void {
  // "Set this's href content attribute's value to the given value." Its change steps set the url.
  setContentAttribute(context, element, null, "href", value);
  setTheURLFrom(context, element, value);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-protocol */
function setProtocol(context: LooseContext, element: object, value: string): void {
  // 1. Reinitialize url.
  const url = urlToChange(context, element);
  // 2. If this's url is null, then return.
  if (url === null) return;
  // 3. Basic URL parse the given value, followed by ":", with this's url as url and scheme
  //    start state as state override.
  basicURLParse(value + ":", { url, stateOverride: "scheme start state" });
  // 4. Update href.
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-username */
function setUsername(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  // 3. If url is null or url cannot have a username/password/port, then return.
  if (url === null || cannotHaveUsernamePasswordPort(url)) return;
  // 4. Set the username, given url and the given value.
  //    (https://url.spec.whatwg.org/#set-the-username)
  url.username = utf8PercentEncodeString(value, userinfoPercentEncodeSet);
  // 5. Update href.
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-password */
function setPassword(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null || cannotHaveUsernamePasswordPort(url)) return;
  // 4. Set the password, given url and the given value.
  //    (https://url.spec.whatwg.org/#set-the-password)
  url.password = utf8PercentEncodeString(value, userinfoPercentEncodeSet);
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-host */
function setHost(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  // 3. If url is null or url has an opaque path, then return.
  if (url === null || url.opaquePath) return;
  // 4. Basic URL parse the given value, with url as url and host state as state override.
  basicURLParse(value, { url, stateOverride: "host state" });
  // 5. Update href.
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hostname */
function setHostname(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null || url.opaquePath) return;
  // 4. Basic URL parse the given value, with url as url and hostname state as state override.
  basicURLParse(value, { url, stateOverride: "hostname state" });
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-port */
function setPort(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  // 3. If url is null or url cannot have a username/password/port, then return.
  if (url === null || cannotHaveUsernamePasswordPort(url)) return;
  // 4. If the given value is the empty string, then set url's port to null.
  if (value === "") url.port = null;
  // 5. Otherwise, basic URL parse the given value, with url as url and port state as state override.
  else basicURLParse(value, { url, stateOverride: "port state" });
  // 6. Update href.
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-pathname */
function setPathname(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  // 3. If url is null or url has an opaque path, then return.
  if (url === null || url.opaquePath) return;
  // 4. Set url's path to the empty list. (The record keeps the serialized path: "".)
  url.path = "";
  // 5. Basic URL parse the given value, with url as url and path start state as state override.
  basicURLParse(value, { url, stateOverride: "path start state" });
  // 6. Update href.
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-search */
function setSearch(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  // 3. If url is null, terminate these steps.
  if (url === null) return;
  // 4. If the given value is the empty string, set url's query to null.
  if (value === "") {
    url.query = null;
  } else {
    // 5.1. Let input be the given value with a single leading "?" removed, if any.
    const input = value.charCodeAt(0) === 0x3f ? value.slice(1) : value;
    // 5.2. Set url's query to the empty string.
    url.query = "";
    // 5.3. Basic URL parse input, with url as url and query state as state override.
    // No encoding is passed, so the query is UTF-8 whatever the document's encoding
    // (https://github.com/whatwg/url/issues/783; WPT "HTML: search setter always uses UTF-8").
    // The href written below is then ASCII, and parsing it with the document's encoding in
    // "set the url" keeps it as it is.
    basicURLParse(input, { url, stateOverride: "query state" });
  }
  // 6. Update href.
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hash */
function setHash(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  // 3. If url is null, then return.
  if (url === null) return;
  // 4. If the given value is the empty string, set url's fragment to null.
  if (value === "") {
    url.fragment = null;
  } else {
    // 5.1. Let input be the given value with a single leading "#" removed, if any.
    const input = value.charCodeAt(0) === 0x23 ? value.slice(1) : value;
    // 5.2. Set url's fragment to the empty string.
    url.fragment = "";
    // 5.3. Basic URL parse input, with url as url and fragment state as state override.
    basicURLParse(input, { url, stateOverride: "fragment state" });
  }
  // 6. Update href.
  updateHref(context, element, url);
}

/** One attribute of HTMLHyperlinkElementUtils: its getter's steps after "reinitialize url", and its setter's steps (null: read-only). */
interface HyperlinkAttribute {
  readonly get: (state: HyperlinkState) => string;
  readonly set: ((context: LooseContext, element: object, value: string) => void) | null;
}

/**
 * Every attribute, in the standard's IDL order: what
 * {@link getHyperlinkAttribute}, {@link setHyperlinkAttribute},
 * {@link hyperlinkAttributeOfURL} and the {@link hyperlink} objects call.
 */
const hyperlinkAttributes: Readonly<Record<HyperlinkAttributeName, HyperlinkAttribute>> = Object.freeze({
  href: { get: getHref, set: setHref },
  origin: { get: getOrigin, set: null },
  protocol: { get: getProtocol, set: setProtocol },
  username: { get: getUsername, set: setUsername },
  password: { get: getPassword, set: setPassword },
  host: { get: getHost, set: setHost },
  hostname: { get: getHostname, set: setHostname },
  port: { get: getPort, set: setPort },
  pathname: { get: getPathname, set: setPathname },
  search: { get: getSearch, set: setSearch },
  hash: { get: getHash, set: setHash },
});

/** The attribute `name`; throws a URLUtilsError for a name that is not one. */
function hyperlinkAttribute(name: string): HyperlinkAttribute {
  if (!Object.hasOwn(hyperlinkAttributes, name)) throw new URLUtilsError(`Not an HTMLHyperlinkElementUtils attribute: ${JSON.stringify(name)}`);
  return hyperlinkAttributes[name as HyperlinkAttributeName];
}

/**
 * Every {@link HyperlinkAttributeName}, in the standard's IDL order.
 *
 * @example
 * ```ts
 * for (const name of hyperlinkAttributeNames) console.log(name, getHyperlinkAttribute(context, a, name));
 * ```
 */
export const hyperlinkAttributeNames: readonly HyperlinkAttributeName[] = Object.freeze(Object.keys(hyperlinkAttributes) as HyperlinkAttributeName[]);

// --- Public functions -------------------------------------------------------------------

/**
 * The value of one HTMLHyperlinkElementUtils attribute of an HTML `a` or
 * `area` element, as its getter returns it. Throws a
 * {@link URLUtilsError} for any other element, or an unknown name.
 *
 * @example
 * ```ts
 * // In a windows-1252 document at https://example.com/dir/page:
 * // <a href="../search?q=ÿ#top">
 * getHyperlinkAttribute(context, a, "href"); // "https://example.com/search?q=%FF#top"
 * getHyperlinkAttribute(context, a, "search"); // "?q=%FF"
 * getHyperlinkAttribute(context, a, "origin"); // "https://example.com"
 * // <a href="http://test:test/"> (the port does not parse)
 * getHyperlinkAttribute(context, bad, "href"); // "http://test:test/"
 * getHyperlinkAttribute(context, bad, "protocol"); // ":"
 * getHyperlinkAttribute(context, bad, "host"); // ""
 * ```
 */
export function getHyperlinkAttribute<T extends TreeAdapterTypeMap>(
  context: DocumentContext<T>,
  element: T["element"],
  name: HyperlinkAttributeName,
): string {
  return hyperlinkAttribute(name).get(reinitializeURLState(context as unknown as LooseContext, element as object));
}

/**
 * Sets one HTMLHyperlinkElementUtils attribute of an HTML `a` or `area`
 * element, as its setter does: the href content attribute is written
 * through the adapter (and reported to the context); a setter that does not
 * apply (any setter when the href does not parse, `host` on an opaque path,
 * `port` on a file: URL, …) changes nothing. The `search` setter encodes
 * with UTF-8 whatever the document's encoding. Throws a
 * {@link URLUtilsError} for another element, `origin` (read-only) or an
 * unknown name.
 *
 * @example
 * ```ts
 * // <a href="https://example.com:8080/a?b#c">
 * setHyperlinkAttribute(context, a, "hostname", "example.org");
 * setHyperlinkAttribute(context, a, "search", "?q=å");
 * adapter.getAttribute(a, null, "href"); // "https://example.org:8080/a?q=%C3%A5#c"
 * // <a href="non-special:opaque">
 * setHyperlinkAttribute(context, opaque, "pathname", "x"); // no change: an opaque path
 * ```
 */
export function setHyperlinkAttribute<T extends TreeAdapterTypeMap>(
  context: DocumentContext<T>,
  element: T["element"],
  name: HyperlinkSettableAttributeName,
  value: string,
): void {
  const loose = context as unknown as LooseContext;
  const setter = hyperlinkAttribute(name).set;
  if (setter === null) throw new URLUtilsError(`The HTMLHyperlinkElementUtils attribute ${JSON.stringify(name)} is read-only`);
  checkHyperlinkElement(loose, element as object);
  // The IDL type is USVString: lone surrogates become U+FFFD before the setter sees the value.
  setter(loose, element as object, toScalarValueString(String(value)));
}

/** The implementation of {@link HyperlinkElementUtils}: an accessor on its prototype for each attribute of the table. */
interface Hyperlink extends HyperlinkElementUtils {}
class Hyperlink {
  readonly #context: LooseContext;
  readonly #element: object;
  /** The element's state, once looked up (it is the same object for the element's lifetime). */
  #state: HyperlinkState | undefined = undefined;

  constructor(context: LooseContext, element: object) {
    this.#context = context;
    this.#element = element;
  }

  /** "Reinitialize url", with the state this object holds. */
  #url(): HyperlinkState {
    return (this.#state = reinitializeURLState(this.#context, this.#element, this.#state));
  }

  static {
    for (const name of hyperlinkAttributeNames) {
      const { get, set } = hyperlinkAttributes[name];
      const accessor: PropertyDescriptor = {
        get(this: Hyperlink): string {
          return get(this.#url());
        },
        enumerable: false,
        configurable: true,
      };
      if (set !== null) {
        accessor.set = function (this: Hyperlink, value: string): void {
          set(this.#context, this.#element, toScalarValueString(String(value)));
        };
      }
      Object.defineProperty(Hyperlink.prototype, name, accessor);
    }
  }

  toString(): string {
    return getHref(this.#url());
  }

  get [Symbol.toStringTag](): string {
    return "HTMLHyperlinkElementUtils";
  }
}

/**
 * The HTMLHyperlinkElementUtils interface of an HTML `a` or `area`
 * element of any adapter's tree: `hyperlink(context, a).pathname`, and so
 * on, exactly as `HTMLAnchorElement` has them in a browser. Throws a
 * {@link URLUtilsError} for any other element (see
 * {@link isHyperlinkElement}).
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import { createDocumentContext, parse5TreeAdapter } from "docbase/document-base";
 * import { hyperlink } from "docbase/url-utils";
 * const document = parse('<base href="/docs/"><a href="guide?lang=en#install">');
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/" });
 * const link = hyperlink(context, a); // a: the <a> element, found your way
 * link.href; // "https://example.com/docs/guide?lang=en#install"
 * link.pathname; // "/docs/guide"
 * link.hash = "usage";
 * link.href; // "https://example.com/docs/guide?lang=en#usage" (and so is the href attribute)
 * ```
 */
export function hyperlink<T extends TreeAdapterTypeMap>(context: DocumentContext<T>, element: T["element"]): HyperlinkElementUtils {
  const loose = context as unknown as LooseContext;
  checkHyperlinkElement(loose, element as object);
  return new Hyperlink(loose, element as object);
}
