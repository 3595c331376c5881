/**
 * Which element is a `base` element with an href, and which is the
 * document's head: the two facts the first `<base href>` of a document is
 * found by (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url),
 * for trees reached through an adapter and for parse5's element records.
 *
 * @module
 */

import { HTML_NAMESPACE } from "./namespaces.ts";

/**
 * The part of a tree adapter these rules read (document-base's
 * `DocumentBaseTreeAdapter` has it): children in order, an element's name
 * and namespace, and its attributes.
 *
 * @example
 * ```ts
 * const tree: ElementTree<object> = parse5TreeAdapter; // or domTreeAdapter, htmlparser2TreeAdapter
 * ```
 */
export interface ElementTree<N> {
  getFirstChild(node: N): N | null;
  getNextSibling(node: N): N | null;
  isElementNode(node: N): boolean;
  getLocalName(element: N): string;
  getNamespaceURI(element: N): string | null;
  getAttribute(element: N, namespace: string | null, localName: string): string | null;
}

/**
 * An element as parse5 records it (its default tree, and the links layer's
 * lean tree): local name, namespace and attributes, an attribute with no
 * namespace having none.
 *
 * @example
 * ```ts
 * const base: ParsedElement = { tagName: "base", namespaceURI: HTML_NAMESPACE, attrs: [{ name: "href", value: "/docs/" }] };
 * ```
 */
export interface ParsedElement {
  readonly tagName: string;
  readonly namespaceURI: string;
  readonly attrs: readonly { readonly name: string; readonly namespace?: string | undefined }[];
}

/**
 * https://html.spec.whatwg.org/multipage/semantics.html#the-base-element —
 * whether an element of this local name and namespace is a `base` element
 * (an SVG or MathML element named base is not one).
 *
 * @example
 * ```ts
 * isBaseElement("base", HTML_NAMESPACE); // true
 * isBaseElement("base", SVG_NAMESPACE); // false
 * ```
 */
export function isBaseElement(localName: string, namespace: string | null | undefined): boolean {
  return localName === "base" && namespace === HTML_NAMESPACE;
}

/**
 * Whether `node` is a `base` element with an href attribute: the kind of
 * element the first of which, in tree order, sets the document base URL.
 *
 * @example
 * ```ts
 * isBaseElementWithHref(parse5TreeAdapter, baseElement); // <base href="/docs/">: true
 * isBaseElementWithHref(parse5TreeAdapter, targetOnly); // <base target="_top">: false
 * ```
 */
export function isBaseElementWithHref<N>(tree: ElementTree<N>, node: N): boolean {
  return tree.isElementNode(node) && isBaseElement(tree.getLocalName(node), tree.getNamespaceURI(node)) && tree.getAttribute(node, null, "href") !== null;
}

/**
 * {@link isBaseElementWithHref} for an element as parse5 records it.
 *
 * @example
 * ```ts
 * isParsedBaseElementWithHref({ tagName: "base", namespaceURI: HTML_NAMESPACE, attrs: [{ name: "href", value: "/" }] }); // true
 * ```
 */
export function isParsedBaseElementWithHref(element: ParsedElement): boolean {
  if (!isBaseElement(element.tagName, element.namespaceURI)) return false;
  for (const attr of element.attrs) if (attr.name === "href" && attr.namespace === undefined) return true;
  return false;
}

/**
 * The first child of `node` that is an element, or null.
 *
 * @example
 * ```ts
 * firstElementChild(parse5TreeAdapter, document); // the html element
 * ```
 */
export function firstElementChild<N>(tree: ElementTree<N>, node: N): N | null {
  for (let child = tree.getFirstChild(node); child !== null; child = tree.getNextSibling(child)) {
    if (tree.isElementNode(child)) return child;
  }
  return null;
}

/**
 * The document's head when it is the first element child of an HTML `html`
 * document element, or null. The standard's head element
 * (https://html.spec.whatwg.org/multipage/dom.html#the-head-element-2) is the
 * first head child of the html element; here it must be the first element
 * child, so that nothing but it precedes its subtree in tree order: then the
 * first base element with an href in it is the document's first.
 *
 * @example
 * ```ts
 * headOf(parse5TreeAdapter, parse("<title>t</title><base href=/b/>")); // the head element
 * ```
 */
export function headOf<N>(tree: ElementTree<N>, document: N): N | null {
  const html = firstElementChild(tree, document);
  if (html === null || tree.getLocalName(html) !== "html" || tree.getNamespaceURI(html) !== HTML_NAMESPACE) return null;
  const head = firstElementChild(tree, html);
  if (head === null || tree.getLocalName(head) !== "head" || tree.getNamespaceURI(head) !== HTML_NAMESPACE) return null;
  return head;
}
