/**
 * HTMLHyperlinkElementUtils over any tree: the URL decomposition attributes
 * of HTML `a` and `area` elements, one table of getters and setters from
 * which the three ways of calling them are built.
 *
 * https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils
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
 * `HTMLAnchorElement` and `HTMLAreaElement` have it. Made by
 * {@link hyperlink}; it holds no state of its own, so making one per access
 * is fine.
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

/** The standard's per-element url, and the href value and base URL record it was set from. */
interface HyperlinkState {
  /** The context it was computed with (another context: computed again). */
  context: LooseContext | null;
  /** null: the attribute was absent. */
  href: string | null;
  base: Readonly<URLRecord> | null;
  /** https://html.spec.whatwg.org/multipage/links.html#concept-hyperlink-url — frozen; the setters change a copy. */
  url: Readonly<URLRecord> | null;
  /** Optimisation: the url's serialization, made on first use. */
  serialized: string | null;
  /** Optimisation: the serialization of the url's origin, made on first use. */
  origin: string | null;
}

const states = new WeakMap<object, HyperlinkState>();

/** Optimisation: until a url is a blob: URL with an opaque path, {@link keepsHyperlinkURL} answers without a lookup. */
let blobURLSet = false;

/**
 * https://html.spec.whatwg.org/multipage/links.html#reinitialise-url, step 1:
 * "If element's url is non-null, its scheme is "blob", and it has an opaque
 * path, then terminate these steps."
 *
 * Internal: for this module and src/jsdom's fast path (through internal.ts).
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
 * Whether `element` is an HTML `a` or `area` element, the elements that have
 * HTMLHyperlinkElementUtils (an SVG `a` is not one).
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

/** https://html.spec.whatwg.org/multipage/links.html#concept-hyperlink-url-set, with `href` the attribute's current value. */
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
  state.url = null;
  state.base = null;
  if (href === null) return state;
  // 3. Let url be the result of encoding-parsing a URL given this element's href content
  //    attribute's value, relative to this element's node document.
  // Deviation (opt-in): with the xmlBase option, relative to the element's base URL, which
  // xml:base can change, as HTML 5 resolved it.
  state.base = elementBaseURL(context, element);
  const url = encodingParseURL(context, href, element);
  state.url = url === null ? null : Object.freeze(url);
  if (isKeptHyperlinkURL(url)) blobURLSet = true;
  return state;
}

/** https://html.spec.whatwg.org/multipage/links.html#reinitialise-url — the element's state with its url current. */
function reinitializeURLState(context: LooseContext, element: object, known?: HyperlinkState): HyperlinkState {
  // Optimisation: a hyperlink() object passes the state it holds, saving the WeakMap lookup.
  const state = known ?? states.get(element);
  // Optimisation: a local name and namespace never change, so the element is checked once.
  if (state === undefined) checkHyperlinkElement(context, element);
  const href = context.adapter.getAttribute(element, null, "href");
  // Deviation (unobserved trees): "set the url" runs when the href attribute changes. Here a
  // change is seen by its value, so setting the attribute to the value it already had is not
  // seen (call setTheURL()); only the blob: case below can tell.
  if (state !== undefined && state.context === context && state.href === href) {
    const url = state.url;
    // 1. Keep a blob: url with an opaque path.
    if (isKeptHyperlinkURL(url)) return state;
    // Optimisation: "set the url" would parse the same value against the same base URL record
    // (document-base makes a new record for every change): it would give this url again.
    if (href === null || state.base === elementBaseURL(context, element)) return state;
  }
  // 2. Set the url.
  return setTheURLFrom(context, element, href);
}

/**
 * Whether "reinitialize url" keeps `element`'s url whatever the base URL is
 * now ({@link isKeptHyperlinkURL}, for this href value and context). When
 * false, the href getter is the attribute parsed afresh, so a caller that
 * computes exactly that can skip this module.
 *
 * Internal: for src/jsdom's fast path (through internal.ts).
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
 * What the getter `name` returns for an element whose url is `url` and whose
 * href attribute is `href` (null: absent): the steps after "reinitialize
 * url". When {@link keepsHyperlinkURL} is false and `url` is the attribute
 * encoding-parsed, it equals `getHyperlinkAttribute(context, element, name)`.
 *
 * Internal: for src/jsdom's fast path (through internal.ts).
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

/** https://html.spec.whatwg.org/multipage/links.html#update-href; the attribute change steps then "set the url". */
function updateHref(context: LooseContext, element: object, url: URLRecord): void {
  const href = serializeURL(url);
  setContentAttribute(context, element, null, "href", href);
  setTheURLFrom(context, element, href);
}

/**
 * https://html.spec.whatwg.org/multipage/links.html#reinitialise-url — the
 * element's url after "reinitialize url" (null when href is absent or does
 * not parse): its own frozen record, the same one until something changes.
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
 * runs "set the url" now and returns the new url. Changes of href are seen by
 * value; call it when the attribute was set to the value it already had,
 * which matters only for a kept blob: url ({@link isKeptHyperlinkURL}).
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

// --- Getters: each takes the state after step 1, "reinitialize url", which its caller runs. ---

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href */
function getHref(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url is null and this has no href content attribute, return the empty string.
  // 4. Otherwise, if url is null, return this's href content attribute's value.
  if (url === null) return state.href === null ? "" : toScalarValueString(state.href);
  return (state.serialized ??= serializeURL(url));
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-origin */
function getOrigin(state: HyperlinkState): string {
  const url = state.url;
  if (url === null) return "";
  return (state.origin ??= serializeOrigin(urlOrigin(url)));
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-protocol */
function getProtocol(state: HyperlinkState): string {
  const url = state.url;
  // 2. If this's url is null, return ":".
  if (url === null) return ":";
  return url.scheme + ":";
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-username */
function getUsername(state: HyperlinkState): string {
  const url = state.url;
  return url === null ? "" : url.username;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-password */
function getPassword(state: HyperlinkState): string {
  const url = state.url;
  return url === null ? "" : url.password;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-host */
function getHost(state: HyperlinkState): string {
  const url = state.url;
  if (url === null || url.host === null) return "";
  if (url.port === null) return url.host;
  return url.host + ":" + url.port;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hostname */
function getHostname(state: HyperlinkState): string {
  const url = state.url;
  return url === null || url.host === null ? "" : url.host;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-port */
function getPort(state: HyperlinkState): string {
  const url = state.url;
  return url === null || url.port === null ? "" : String(url.port);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-pathname */
function getPathname(state: HyperlinkState): string {
  const url = state.url;
  // 4. "Return the result of URL path serializing url": the record keeps the serialized path.
  return url === null ? "" : url.path;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-search */
function getSearch(state: HyperlinkState): string {
  const url = state.url;
  // 3. If url is null, or url's query is either null or the empty string, return the empty string.
  if (url === null || url.query === null || url.query === "") return "";
  return "?" + url.query;
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hash */
function getHash(state: HyperlinkState): string {
  const url = state.url;
  if (url === null || url.fragment === null || url.fragment === "") return "";
  return "#" + url.fragment;
}

// --- Setters: each changes a copy of the url and hands it to "update href". ---

/** The element's url after "reinitialize url", as a copy to change, or null. */
function urlToChange(context: LooseContext, element: object): URLRecord | null {
  const url = reinitializeURLState(context, element).url;
  return url === null ? null : cloneURLRecord(url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href */
function setHref(context: LooseContext, element: object, value: string): void {
  // "Set this's href content attribute's value to the given value"; its change steps set the url.
  setContentAttribute(context, element, null, "href", value);
  setTheURLFrom(context, element, value);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-protocol */
function setProtocol(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null) return;
  basicURLParse(value + ":", { url, stateOverride: "scheme start state" });
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-username */
function setUsername(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null || cannotHaveUsernamePasswordPort(url)) return;
  // https://url.spec.whatwg.org/#set-the-username
  url.username = utf8PercentEncodeString(value, userinfoPercentEncodeSet);
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-password */
function setPassword(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null || cannotHaveUsernamePasswordPort(url)) return;
  // https://url.spec.whatwg.org/#set-the-password
  url.password = utf8PercentEncodeString(value, userinfoPercentEncodeSet);
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-host */
function setHost(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null || url.opaquePath) return;
  basicURLParse(value, { url, stateOverride: "host state" });
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hostname */
function setHostname(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null || url.opaquePath) return;
  basicURLParse(value, { url, stateOverride: "hostname state" });
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-port */
function setPort(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null || cannotHaveUsernamePasswordPort(url)) return;
  if (value === "") url.port = null;
  else basicURLParse(value, { url, stateOverride: "port state" });
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-pathname */
function setPathname(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null || url.opaquePath) return;
  // 4. "Set url's path to the empty list": the record keeps the serialized path.
  url.path = "";
  basicURLParse(value, { url, stateOverride: "path start state" });
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-search */
function setSearch(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null) return;
  if (value === "") {
    url.query = null;
  } else {
    const input = value.charCodeAt(0) === 0x3f ? value.slice(1) : value;
    url.query = "";
    // No encoding: the query is UTF-8 whatever the document's encoding
    // (https://github.com/whatwg/url/issues/783; WPT "HTML: search setter always uses UTF-8").
    basicURLParse(input, { url, stateOverride: "query state" });
  }
  updateHref(context, element, url);
}

/** https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-hash */
function setHash(context: LooseContext, element: object, value: string): void {
  const url = urlToChange(context, element);
  if (url === null) return;
  if (value === "") {
    url.fragment = null;
  } else {
    const input = value.charCodeAt(0) === 0x23 ? value.slice(1) : value;
    url.fragment = "";
    basicURLParse(input, { url, stateOverride: "fragment state" });
  }
  updateHref(context, element, url);
}

/** One attribute: its getter's steps after "reinitialize url", and its setter (null: read-only). */
interface HyperlinkAttribute {
  readonly get: (state: HyperlinkState) => string;
  readonly set: ((context: LooseContext, element: object, value: string) => void) | null;
}

/** Every attribute, in the standard's IDL order. */
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
 * `area` element. Throws a {@link URLUtilsError} for any other element or an
 * unknown name.
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
 * element, as its setter does: the href attribute is written through the
 * adapter; a setter that does not apply changes nothing. Throws a
 * {@link URLUtilsError} for another element, `origin` or an unknown name.
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
  // USVString: lone surrogates become U+FFFD.
  setter(loose, element as object, toScalarValueString(String(value)));
}

/** The implementation of {@link HyperlinkElementUtils}: an accessor on the prototype per attribute. */
interface Hyperlink extends HyperlinkElementUtils {}
class Hyperlink {
  readonly #context: LooseContext;
  readonly #element: object;
  #state: HyperlinkState | undefined = undefined;

  constructor(context: LooseContext, element: object) {
    this.#context = context;
    this.#element = element;
  }

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
 * The HTMLHyperlinkElementUtils interface of an HTML `a` or `area` element
 * of any adapter's tree. Throws a {@link URLUtilsError} for any other element.
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
