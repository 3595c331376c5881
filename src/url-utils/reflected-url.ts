/**
 * Reflected URL attributes over any tree: the IDL attributes of HTML
 * elements that reflect a content attribute containing a URL (`img.src`,
 * `form.action`, …), derived from src/html's catalogue.
 *
 * https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes
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
  readonly name: ReflectedURLAttributeName;
  /** No namespace. */
  readonly contentAttribute: string;
  readonly kind: ReflectedURLAttributeKind;
  /** Listed among obsolete features (the HTML Standard still defines it). */
  readonly obsolete: boolean;
  readonly spec: string;
}

/**
 * Every IDL attribute of an HTML element that reflects a content attribute
 * "defined as containing a URL": the {@link catalogue}'s rows with a
 * `reflection`, one entry per element, in element order. Not here: URLs
 * reflected as plain strings (`a.ping`, `img.srcset`) and SVG's `href` (see
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
 * The reflected URL attributes `element` has (none for an element that is not
 * an HTML element).
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

/** One cached getter result; an element's entries form a list, one per content attribute. */
interface CachedURL {
  readonly namespace: string | null;
  readonly localName: string;
  context: LooseContext;
  value: string;
  base: Readonly<URLRecord>;
  /** null: failure. */
  result: string | null;
  next: CachedURL | null;
}

const cache = new WeakMap<object, CachedURL>();

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-and-serializing-a-url —
 * `value` relative to `element`'s node document, or null on failure.
 * Internal: shared with svg-uri-reference.ts.
 *
 * Optimisation: cached per element and attribute, keyed on the value and the
 * base URL record, which document-base replaces whenever the base URL changes
 * (WPT dynamic-urls).
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
  // Deviation (opt-in): with the xmlBase option, relative to the element's base URL.
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

/** https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes — the getter of a URL attribute. */
function reflectURLGet(context: LooseContext, element: object, contentAttribute: string): string {
  const value = context.adapter.getAttribute(element, null, contentAttribute);
  if (value === null) return "";
  // 3. Encoding-parse-and-serialize it, relative to the element's node document.
  const urlString = cachedEncodingParseAndSerialize(context, element, null, contentAttribute, value);
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
 * The value of a reflected URL attribute (`img.src`, `form.action`,
 * `base.href`, `a.href`, …) as its getter returns it: resolved against the
 * current base URL with the document's encoding; the raw value when it does
 * not parse; "" when absent (the document URL for an absent or empty
 * `action`/`formaction`). Throws a {@link URLUtilsError} when the element has
 * no such attribute.
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
      // https://html.spec.whatwg.org/multipage/semantics.html#dom-base-href
      return toScalarValueString(baseElementHref(context, element));
    case "hyperlink":
      return getHyperlinkAttribute(context, element, "href");
  }
}

/**
 * Sets a reflected URL attribute's content attribute (as a USVString),
 * reported to the context, so that a `base` element's href changes the
 * document base URL at once. Throws a {@link URLUtilsError} when the element
 * has no such attribute.
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
  // The setter steps: "Run this's set the content attribute with the given value."
  setContentAttribute(loose, element as object, null, e.contentAttribute, toScalarValueString(String(value)));
}
