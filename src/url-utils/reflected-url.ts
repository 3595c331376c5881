/**
 * Reflected URL attributes: the IDL attributes of HTML elements that
 * reflect a content attribute containing a URL (`img.src`, `link.href`,
 * `form.action`, …), over any tree, derived from the catalogue of
 * URL-bearing attributes (src/html/url-attribute-catalogue.ts).
 *
 * https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes
 *
 * A getter resolves again against the base URL of the moment (WPT
 * dynamic-urls), so its cache is checked against the base URL record.
 * Three getters have their own rules: `form.action` and `formAction` give
 * the node document's URL for a missing or empty attribute; `base.href`
 * parses against the fallback base URL; `a.href` and `area.href` are
 * HTMLHyperlinkElementUtils' href.
 *
 * @module
 */

import type { URLRecord } from "../core/index.ts";
import { toScalarValueString } from "../core/infra.ts";
import { baseElementHref, type DocumentContext, elementBaseURL, encodingParseAndSerializeURL, type TreeAdapterTypeMap } from "../document-base/index.ts";
import { catalogue, HTML_NAMESPACE, type ReflectedURLAttributeKind, type ReflectedURLAttributeName } from "../html/index.ts";
import { describeElement, type LooseContext, setContentAttribute } from "./content-attribute.ts";
import { URLUtilsError } from "./errors.ts";
import { getHyperlinkAttribute, setHyperlinkAttribute } from "./hyperlink-element-utils.ts";
import { nodeDocumentURL } from "./node-document.ts";

// --- The table -------------------------------------------------------------------------

export type { ReflectedURLAttributeKind, ReflectedURLAttributeName } from "../html/index.ts";

/**
 * One reflected URL attribute of one HTML element.
 *
 * @example
 * ```ts
 * const entry: ReflectedURLAttribute = {
 *   element: "button", name: "formAction", contentAttribute: "formaction", kind: "action", obsolete: false,
 *   spec: "https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fs-formaction",
 * };
 * ```
 */
export interface ReflectedURLAttribute {
  /** The HTML element's local name. */
  readonly element: string;
  /** The IDL attribute. */
  readonly name: ReflectedURLAttributeName;
  /** The content attribute it reflects (no namespace). */
  readonly contentAttribute: string;
  readonly kind: ReflectedURLAttributeKind;
  /** Whether the HTML Standard lists it among obsolete features (it still defines it). */
  readonly obsolete: boolean;
  /** Where the HTML Standard defines it. */
  readonly spec: string;
}

/**
 * Every IDL attribute of an HTML element that reflects a content attribute
 * "defined as containing a URL", with where the HTML Standard says so, in
 * element order (then in the catalogue's order): the rows of the
 * {@link catalogue} that have a `reflection`, one entry per element. Not
 * here: attributes that hold URLs but reflect them as plain strings
 * (`a.ping`, `img.srcset`, `body.background`), and SVG's `href` (see
 * {@link getSVGHref}).
 *
 * @example
 * ```ts
 * reflectedURLAttributes.filter((a) => a.element === "img").map((a) => a.name); // ["src", "longDesc", "lowsrc"]
 * ```
 */
export const reflectedURLAttributes: readonly ReflectedURLAttribute[] = (() => {
  const entries: ReflectedURLAttribute[] = [];
  for (const row of catalogue) {
    const reflection = row.reflection;
    if (reflection === null || row.namespace !== "html" || row.elements === "*") continue;
    for (const element of row.elements) {
      entries.push(
        Object.freeze({ element, name: reflection.name, contentAttribute: row.attribute, kind: reflection.getter, obsolete: row.obsolete, spec: reflection.spec }),
      );
    }
  }
  // A stable sort: each element's attributes stay in the catalogue's order.
  entries.sort((x, y) => (x.element < y.element ? -1 : x.element > y.element ? 1 : 0));
  return Object.freeze(entries);
})();

/** Local name → its entries. */
const byElement: ReadonlyMap<string, readonly ReflectedURLAttribute[]> = (() => {
  const map = new Map<string, ReflectedURLAttribute[]>();
  for (const e of reflectedURLAttributes) {
    const list = map.get(e.element);
    if (list === undefined) map.set(e.element, [e]);
    else list.push(e);
  }
  return map;
})();

const none: readonly ReflectedURLAttribute[] = Object.freeze([]);

function entriesOf(context: LooseContext, element: object): readonly ReflectedURLAttribute[] {
  const adapter = context.adapter;
  if (adapter.getNamespaceURI(element) !== HTML_NAMESPACE) return none;
  return byElement.get(adapter.getLocalName(element)) ?? none;
}

function entryOf(context: LooseContext, element: object, name: string): ReflectedURLAttribute {
  const entries = entriesOf(context, element);
  for (const e of entries) if (e.name === name) return e;
  throw new URLUtilsError(`${describeElement(context.adapter, element)} has no reflected URL attribute ${JSON.stringify(name)}`);
}

/**
 * The reflected URL attributes `element` has (an empty list for an element
 * that has none, or that is not an HTML element).
 *
 * @example
 * ```ts
 * reflectedURLAttributesOf(context, input).map((a) => a.name); // ["formAction", "src"]
 * reflectedURLAttributesOf(context, div); // []
 * ```
 */
export function reflectedURLAttributesOf<T extends TreeAdapterTypeMap>(
  context: DocumentContext<T>,
  element: T["element"],
): readonly ReflectedURLAttribute[] {
  return entriesOf(context as unknown as LooseContext, element as object);
}

// --- The cache ---------------------------------------------------------------------------

/** One cached getter result; an element's entries form a short list (one per content attribute read). */
interface CachedURL {
  readonly namespace: string | null;
  readonly localName: string;
  context: LooseContext;
  /** The content attribute's value it was computed from. */
  value: string;
  /** The base URL record it was parsed against. */
  base: Readonly<URLRecord>;
  /** The serialized URL, or null on failure. */
  result: string | null;
  next: CachedURL | null;
}

const cache = new WeakMap<object, CachedURL>();

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-and-serializing-a-url —
 * `value` encoding-parsed and serialized relative to `element`'s node
 * document, or null on failure. Cached per element and attribute. Internal:
 * shared with svg-uri-reference.ts, not part of the public face.
 *
 * Optimisation: the result is a pure function of the value, the base URL
 * and the document's encoding; the document-base layer replaces the base
 * URL record whenever the base URL changes, so an unchanged value with the
 * same record gives the cached result.
 *
 * @example
 * ```ts
 * // <img src="logo.png"> in https://example.com/dir/page
 * cachedEncodingParseAndSerialize(context, img, null, "src", "logo.png"); // "https://example.com/dir/logo.png"
 * ```
 */
export function cachedEncodingParseAndSerialize(
  context: LooseContext,
  element: object,
  namespace: string | null,
  localName: string,
  value: string,
): string | null {
  const base = elementBaseURL(context, element);
  const first = cache.get(element);
  let found: CachedURL | null = null;
  for (let c = first ?? null; c !== null; c = c.next) {
    if (c.localName === localName && c.namespace === namespace) {
      found = c;
      break;
    }
  }
  if (found !== null && found.context === context && found.value === value && found.base === base) return found.result;
  // Deviation (opt-in): with the context's xmlBase option, relative to the element's base URL.
  const result = encodingParseAndSerializeURL(context, value, element);
  if (found === null) cache.set(element, { namespace, localName, context, value, base, result, next: first ?? null });
  else {
    found.context = context;
    found.value = value;
    found.base = base;
    found.result = result;
  }
  return result;
}

// --- The algorithms ----------------------------------------------------------------------

/**
 * https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes —
 * the getter steps of a USVString attribute whose content attribute is
 * defined as containing a URL.
 */
function reflectURLGet(context: LooseContext, element: object, contentAttribute: string): string {
  // 1. Let contentAttributeValue be the result of running this's get the content attribute.
  const value = context.adapter.getAttribute(element, null, contentAttribute);
  // 2. If contentAttributeValue is null, then return the empty string.
  if (value === null) return "";
  // 3. Let urlString be the result of encoding-parsing-and-serializing a URL given
  //    contentAttributeValue, relative to the element's node document.
  const urlString = cachedEncodingParseAndSerialize(context, element, null, contentAttribute, value);
  // 4. If urlString is not failure, then return urlString.
  if (urlString !== null) return urlString;
  // 5. Return contentAttributeValue, converted to a scalar value string.
  return toScalarValueString(value);
}

/**
 * https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-fs-action —
 * "The action IDL attribute must reflect the action content attribute,
 * except that on getting, when the content attribute is missing or its
 * value is the empty string, the element's node document's URL must be
 * returned instead." (formAction: the same with formaction.)
 */
function actionGet(context: LooseContext, element: object, contentAttribute: string): string {
  const value = context.adapter.getAttribute(element, null, contentAttribute);
  if (value === null || value === "") return nodeDocumentURL(context, element);
  return reflectURLGet(context, element, contentAttribute);
}

/**
 * The value of a reflected URL attribute (`img.src`, `link.href`,
 * `form.action`, `base.href`, `a.href`, …), as its getter returns it: the
 * content attribute resolved against the current base URL of the element's
 * node document, with that document's encoding for the query; the raw
 * value when it does not parse; "" when it is absent (the document URL for
 * an absent or empty `action`/`formaction`). Throws a
 * {@link URLUtilsError} when the element has no such attribute (see
 * {@link reflectedURLAttributesOf}).
 *
 * @example
 * ```ts
 * // A windows-1252 document at https://example.com/dir/page.html, with <base href="/static/">:
 * getReflectedURL(context, img, "src"); // <img src="logo.png?v=ÿ"> → "https://example.com/static/logo.png?v=%FF"
 * getReflectedURL(context, form, "action"); // <form> → "https://example.com/dir/page.html"
 * getReflectedURL(context, button, "formAction"); // <button formaction="/go"> → "https://example.com/go"
 * getReflectedURL(context, base, "href"); // <base href="/static/"> → "https://example.com/static/"
 * getReflectedURL(context, script, "src"); // <script src="http://[::1"> → "http://[::1"
 * getReflectedURL(context, q, "cite"); // <q> without cite → ""
 * ```
 */
export function getReflectedURL<T extends TreeAdapterTypeMap>(
  context: DocumentContext<T>,
  element: T["element"],
  name: ReflectedURLAttributeName,
): string {
  const loose = context as unknown as LooseContext;
  const e = entryOf(loose, element as object, name);
  switch (e.kind) {
    case "url":
      return reflectURLGet(loose, element as object, e.contentAttribute);
    case "action":
      return actionGet(loose, element as object, e.contentAttribute);
    case "base":
      // https://html.spec.whatwg.org/multipage/semantics.html#dom-base-href (a USVString).
      return toScalarValueString(baseElementHref(context, element));
    case "hyperlink":
      return getHyperlinkAttribute(context, element, "href");
  }
}

/**
 * Sets a reflected URL attribute: the content attribute is set to the value
 * (converted to a scalar value string, as its IDL type USVString does),
 * through the adapter, and the change is reported to the context, so that
 * setting a `base` element's href changes the document base URL at once.
 * Throws a {@link URLUtilsError} when the element has no such attribute.
 *
 * @example
 * ```ts
 * setReflectedURL(context, img, "src", "/images/new.png");
 * adapter.getAttribute(img, null, "src"); // "/images/new.png"
 * setReflectedURL(context, base, "href", "https://cdn.example/"); // every relative URL now resolves there
 * ```
 */
export function setReflectedURL<T extends TreeAdapterTypeMap>(
  context: DocumentContext<T>,
  element: T["element"],
  name: ReflectedURLAttributeName,
  value: string,
): void {
  const loose = context as unknown as LooseContext;
  const e = entryOf(loose, element as object, name);
  if (e.kind === "hyperlink") {
    setHyperlinkAttribute(context, element, "href", value);
    return;
  }
  // https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes —
  // the setter steps: "Run this's set the content attribute with the given value."
  setContentAttribute(loose, element as object, null, e.contentAttribute, toScalarValueString(String(value)));
}
