/**
 * The tree adapter for parse5's default tree. It keeps children in arrays
 * with parent links but no sibling links (so walks use the arrays:
 * `siblingLinks` is false), and template contents do not link back to their
 * template (node-document.ts finds them from the templates seen).
 *
 * @module
 */

import type { DefaultTreeAdapterTypes as P } from "parse5";
import { HTML_NAMESPACE } from "../html/index.ts";
import type { DocumentBaseTreeAdapter, TreeAdapterTypeMap } from "./tree-adapter.ts";

/**
 * The node types of parse5's default tree.
 *
 * @example
 * ```ts
 * import type { DocumentContext } from "docbase/document-base";
 * let context: DocumentContext<Parse5TreeAdapterMap>;
 * ```
 */
export type Parse5TreeAdapterMap = TreeAdapterTypeMap<P.Node, P.ParentNode, P.ChildNode, P.Document, P.DocumentFragment, P.Element>;

const noChildren: readonly P.ChildNode[] = Object.freeze([]);

function isElement(node: P.Node): node is P.Element {
  return (node as Partial<P.Element>).tagName !== undefined;
}

function childNodesOf(node: P.Node): readonly P.ChildNode[] {
  return (node as Partial<P.Element>).childNodes ?? noChildren;
}

/** The index of the attribute with this namespace and local name in `attrs`, or -1. */
function findAttribute(attrs: readonly P.Element["attrs"][number][], namespace: string | null, localName: string): number {
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    // parse5 leaves `namespace` out (or, in some trees, empty) for attributes in no namespace.
    if (attr.name === localName && (attr.namespace === undefined || attr.namespace === "" ? null : attr.namespace) === namespace) {
      return i;
    }
  }
  return -1;
}

/**
 * The adapter for parse5's default tree. Attributes follow parse5's
 * convention: `name` is the local name, with `namespace` and `prefix` for
 * namespaced ones. Today's parser leaves `xml:base` in no namespace (see
 * `xmlBaseOf` for when it counts).
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import { createDocumentContext, documentBaseURL, parse5TreeAdapter } from "docbase/document-base";
 * const document = parse('<base href="/docs/">');
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/a/b" });
 * serializeURL(documentBaseURL(context)); // "https://example.com/docs/"
 * ```
 */
export const parse5TreeAdapter: DocumentBaseTreeAdapter<Parse5TreeAdapterMap> = {
  name: "parse5",
  siblingLinks: false,

  getParentNode(node) {
    return (node as Partial<P.Element>).parentNode ?? null;
  },
  getFirstChild(node) {
    return childNodesOf(node)[0] ?? null;
  },
  getNextSibling(node) {
    const parent = (node as Partial<P.Element>).parentNode;
    if (parent === undefined || parent === null) return null;
    const siblings = parent.childNodes;
    // Optimisation: the parser and most edits append, so look at the end first.
    const i = siblings[siblings.length - 1] === node ? siblings.length - 1 : siblings.indexOf(node as P.ChildNode);
    return i === -1 ? null : (siblings[i + 1] ?? null);
  },
  getChildNodes(node) {
    return childNodesOf(node);
  },
  getTemplateContent(node) {
    if (!isElement(node) || node.tagName !== "template" || node.namespaceURI !== HTML_NAMESPACE) return null;
    return (node as Partial<P.Template>).content ?? null;
  },
  getOwnerDocument(node) {
    return node.nodeName === "#document" ? (node as P.Document) : null;
  },

  isElementNode: isElement,
  isDocumentNode(node): node is P.Document {
    return node.nodeName === "#document";
  },
  isDocumentFragmentNode(node): node is P.DocumentFragment {
    return node.nodeName === "#document-fragment";
  },

  getLocalName(element) {
    return element.tagName;
  },
  getNamespaceURI(element) {
    return element.namespaceURI === undefined || (element.namespaceURI as string) === "" ? null : element.namespaceURI;
  },
  getAttribute(element, namespace, localName) {
    const i = findAttribute(element.attrs, namespace, localName);
    return i === -1 ? null : element.attrs[i]!.value;
  },
  setAttribute(element, namespace, localName, value, prefix) {
    const i = findAttribute(element.attrs, namespace, localName);
    if (i !== -1) {
      element.attrs[i]!.value = value;
      return;
    }
    const attr: P.Element["attrs"][number] = { name: localName, value };
    if (namespace !== null) attr.namespace = namespace;
    if (prefix !== undefined && prefix !== null) attr.prefix = prefix;
    element.attrs.push(attr);
  },
  removeAttribute(element, namespace, localName) {
    const i = findAttribute(element.attrs, namespace, localName);
    if (i !== -1) element.attrs.splice(i, 1);
  },
};
