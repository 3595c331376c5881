/**
 * The standard's answer for every case, from the reference implementation
 * of the URL Standard (whatwg-url, with its encoding override for legacy
 * query encoding) and the HTML Standard's getter and setter algorithms,
 * written out here step by step over whatwg-url's URL records.
 *
 * Document-level inputs (the document base URL, fallback base URL, URL and
 * encoding at the time of each read) come from the generator's model of the
 * document (./generate.ts), which follows the rules in
 * ../shared/wpt-catalogue.md §0.
 *
 * Nothing here imports docbase: the reference must stay independent of the
 * code under test.
 *
 * @module
 */

import * as whatwgURL from "whatwg-url";
import type { URLRecord } from "whatwg-url";
import type { DocumentFact, GeneratedDocument, GetterKind, HyperlinkGetter, HyperlinkSetter, ModelContext, ReadAction } from "./cases.ts";

// @types/whatwg-url predates the encoding option (whatwg-url ≥ 14 has it).
const parseWithOptions = whatwgURL.parseURL as (input: string, options: { baseURL?: URLRecord | null; encoding?: string }) => URLRecord | null;
type StateOverride = NonNullable<NonNullable<Parameters<typeof whatwgURL.basicURLParse>[1]>["stateOverride"]>;

/**
 * https://encoding.spec.whatwg.org/#get-an-output-encoding — UTF-16BE/LE and
 * replacement use UTF-8 for URLs.
 */
export function outputEncoding(encoding: string): string {
  const lower = encoding.toLowerCase();
  return lower === "utf-16be" || lower === "utf-16le" || lower === "replacement" ? "UTF-8" : encoding;
}

/** https://infra.spec.whatwg.org/#javascript-string-convert — lone surrogates become U+FFFD. */
export function toScalarValueString(value: string): string {
  return value.toWellFormed();
}

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url —
 * parse `input` against `base` (a serialized absolute URL) with the
 * document's encoding.
 */
export function referenceParse(input: string, base: string | null, encoding: string): URLRecord | null {
  let baseURL: URLRecord | null = null;
  if (base !== null) {
    baseURL = whatwgURL.basicURLParse(base);
    if (baseURL === null) return null;
  }
  return parseWithOptions(input, { baseURL, encoding: outputEncoding(encoding) });
}

/** Serialize, or null for failure. */
export function referenceResolve(input: string, base: string | null, encoding: string): string | null {
  const record = referenceParse(input, base, encoding);
  return record === null ? null : whatwgURL.serializeURL(record);
}

/**
 * https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes
 * (USVString reflecting a URL): absent → ""; failure → the attribute value.
 */
export function referenceReflect(attr: string | null, context: ModelContext): string {
  if (attr === null) return "";
  const serialized = referenceResolve(attr, context.base, context.encoding);
  return serialized ?? toScalarValueString(attr);
}

/**
 * The document base URL's frozen URL for a `<base href>`
 * (https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url):
 * parse against the fallback base URL; failure, data: and javascript: give
 * the fallback base URL.
 */
export function referenceFrozenBaseURL(href: string, fallback: string, encoding: string): string {
  const record = referenceParse(href, fallback, encoding);
  if (record === null || record.scheme === "data" || record.scheme === "javascript") return fallback;
  return whatwgURL.serializeURL(record);
}

/** https://html.spec.whatwg.org/multipage/semantics.html#dom-base-href */
export function referenceBaseHref(attr: string | null, context: ModelContext): string {
  const url = attr ?? "";
  const serialized = referenceResolve(url, context.fallback, context.encoding);
  return serialized ?? url;
}

/**
 * https://html.spec.whatwg.org/multipage/links.html#reinitialise-url — the
 * element's url: null when there is no href attribute or it does not parse.
 */
function hyperlinkURL(href: string | null, context: ModelContext): URLRecord | null {
  if (href === null) return null;
  return referenceParse(href, context.base, context.encoding);
}

/** The HTMLHyperlinkElementUtils getters (https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils). */
export function referenceHyperlinkGetter(prop: HyperlinkGetter, href: string | null, context: ModelContext): string {
  const url = hyperlinkURL(href, context);
  if (prop === "href") return url === null ? (href === null ? "" : toScalarValueString(href)) : whatwgURL.serializeURL(url);
  if (prop === "protocol") return url === null ? ":" : `${url.scheme}:`;
  if (url === null) return "";
  switch (prop) {
    case "origin":
      return whatwgURL.serializeURLOrigin(url);
    case "username":
      return url.username;
    case "password":
      return url.password;
    case "host":
      if (url.host === null) return "";
      return url.port === null ? whatwgURL.serializeHost(url.host) : `${whatwgURL.serializeHost(url.host)}:${url.port}`;
    case "hostname":
      return url.host === null ? "" : whatwgURL.serializeHost(url.host);
    case "port":
      return url.port === null ? "" : String(url.port);
    case "pathname":
      return whatwgURL.serializePath(url);
    case "search":
      return url.query === null || url.query === "" ? "" : `?${url.query}`;
    case "hash":
      return url.fragment === null || url.fragment === "" ? "" : `#${url.fragment}`;
  }
}

/**
 * One HTMLHyperlinkElementUtils setter on an element whose href attribute is
 * `href`, then the href getter: the steps of
 * https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-protocol
 * and its siblings, each ending in "update href" (the href attribute becomes
 * the serialized URL, which the getter parses again).
 */
export function referenceHyperlinkSetter(prop: HyperlinkSetter, value: string, href: string, context: ModelContext): string {
  if (prop === "href") return referenceHyperlinkGetter("href", value, context);
  const url = hyperlinkURL(href, context);
  // "If this element's url is null, … return": the attribute is unchanged.
  if (url === null) return referenceHyperlinkGetter("href", href, context);
  const run = (input: string, stateOverride: StateOverride): void => {
    whatwgURL.basicURLParse(input, { url, stateOverride });
  };
  let changed = true;
  switch (prop) {
    case "protocol":
      run(`${value}:`, "scheme start");
      break;
    case "username":
      if (whatwgURL.cannotHaveAUsernamePasswordPort(url)) changed = false;
      else whatwgURL.setTheUsername(url, value);
      break;
    case "password":
      if (whatwgURL.cannotHaveAUsernamePasswordPort(url)) changed = false;
      else whatwgURL.setThePassword(url, value);
      break;
    case "host":
      if (whatwgURL.hasAnOpaquePath(url)) changed = false;
      else run(value, "host");
      break;
    case "hostname":
      if (whatwgURL.hasAnOpaquePath(url)) changed = false;
      else run(value, "hostname");
      break;
    case "port":
      if (whatwgURL.cannotHaveAUsernamePasswordPort(url)) changed = false;
      else if (value === "") url.port = null;
      else run(value, "port");
      break;
    case "pathname":
      if (whatwgURL.hasAnOpaquePath(url)) changed = false;
      else {
        url.path = [];
        run(value, "path start");
      }
      break;
    case "search":
      if (value === "") url.query = null;
      else {
        url.query = "";
        run(value.startsWith("?") ? value.slice(1) : value, "query");
      }
      break;
    case "hash":
      if (value === "") url.fragment = null;
      else {
        url.fragment = "";
        run(value.startsWith("#") ? value.slice(1) : value, "fragment");
      }
      break;
  }
  const attribute = changed ? whatwgURL.serializeURL(url) : href;
  return referenceHyperlinkGetter("href", attribute, context);
}

/** The standard's value of one getter. */
export function referenceGetter(kind: GetterKind, prop: string, context: ModelContext): string {
  switch (kind) {
    case "reflect":
      return referenceReflect(context.attr, context);
    case "document-url-if-empty":
      // https://html.spec.whatwg.org/multipage/forms.html#dom-fs-action
      if (context.attr === null || context.attr === "") return context.url;
      return referenceReflect(context.attr, context);
    case "hyperlink":
      return referenceHyperlinkGetter(prop as HyperlinkGetter, context.attr, context);
    case "base-href":
      return referenceBaseHref(context.attr, context);
  }
}

/** The standard's value of one read of a generated document. */
export function referenceValue(action: ReadAction, model: ModelContext | DocumentFact): string {
  if ("expected" in model) return model.expected;
  switch (action.t) {
    case "get":
      return referenceGetter(action.kind, action.prop, model);
    case "set":
      return referenceHyperlinkSetter(action.prop, action.value, action.href, model);
    case "doc":
      throw new Error(`reference: no model value for ${action.id}`);
  }
}

/** The standard's values of every read of a document. */
export function referenceValues(document: GeneratedDocument): Map<string, string> {
  const out = new Map<string, string>();
  for (const action of document.actions) {
    if (action.t !== "get" && action.t !== "set" && action.t !== "doc") continue;
    const model = document.model[action.id];
    if (model === undefined) throw new Error(`reference: no model for ${action.id}`);
    out.set(action.id, referenceValue(action, model));
  }
  return out;
}
