/**
 * What this layer's algorithms share: the loose type map, describing an
 * element in messages, and "set the content attribute" with its report to
 * the document context. Internal.
 *
 * @module
 */

import type { DocumentBaseTreeAdapter, DocumentContext, TreeAdapterTypeMap } from "../document-base/index.ts";
import { HTML_NAMESPACE, MATHML_NAMESPACE, SVG_NAMESPACE } from "../html/index.ts";

/**
 * The type map of the implementation: every node an opaque object the
 * adapter knows (the public functions use the caller's map).
 *
 * @example
 * ```ts
 * const loose = context as unknown as LooseContext; // LooseContext: DocumentContext<LooseMap>
 * ```
 */
export type LooseMap = TreeAdapterTypeMap<object, object, object, object, object, object>;
/**
 * A context seen through {@link LooseMap}.
 *
 * @example
 * ```ts
 * const loose = context as unknown as LooseContext;
 * ```
 */
export type LooseContext = DocumentContext<LooseMap>;
/**
 * An adapter seen through {@link LooseMap}.
 *
 * @example
 * ```ts
 * const adapter: LooseAdapter = loose.adapter;
 * ```
 */
export type LooseAdapter = DocumentBaseTreeAdapter<LooseMap>;

/**
 * Whether `element` is an HTML element (in the HTML namespace) whose local name is `localName`.
 *
 * @example
 * ```ts
 * isHTMLElement(adapter, form, "form"); // true for an HTML <form>
 * ```
 */
export function isHTMLElement(adapter: LooseAdapter, element: object, localName: string): boolean {
  return adapter.getLocalName(element) === localName && adapter.getNamespaceURI(element) === HTML_NAMESPACE;
}

/**
 * A short description of an element for messages.
 *
 * @example
 * ```ts
 * describeElement(adapter, div); // 'The HTML "div" element'
 * ```
 */
export function describeElement(adapter: LooseAdapter, element: object): string {
  let kind: string;
  switch (adapter.getNamespaceURI(element)) {
    case HTML_NAMESPACE:
      kind = "HTML";
      break;
    case SVG_NAMESPACE:
      kind = "SVG";
      break;
    case MATHML_NAMESPACE:
      kind = "MathML";
      break;
    case null:
      kind = "no-namespace";
      break;
    default:
      kind = `{${String(adapter.getNamespaceURI(element))}}`;
  }
  return `The ${kind} ${JSON.stringify(adapter.getLocalName(element))} element`;
}

/**
 * https://dom.spec.whatwg.org/#concept-element-attributes-set-value through
 * the adapter, then reported to the context
 * (https://dom.spec.whatwg.org/#concept-element-attributes-change-ext)
 * unless it observes the tree itself: so a `base`'s new href takes effect at once.
 *
 * @example
 * ```ts
 * setContentAttribute(context, a, null, "href", "/next"); // <a href="/next">, and the context knows
 * ```
 */
export function setContentAttribute(
  context: LooseContext,
  element: object,
  namespace: string | null,
  localName: string,
  value: string,
  prefix?: string,
): void {
  const adapter = context.adapter;
  const oldValue = adapter.getAttribute(element, namespace, localName);
  adapter.setAttribute(element, namespace, localName, value, prefix);
  if (!context.observing) context.attributeChanged(element, namespace, localName, oldValue);
}
