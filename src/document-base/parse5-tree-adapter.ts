/**
 * The tree adapter for parse5's default tree (what `parse5.parse()` returns
 * without a `treeAdapter` option).
 *
 * That tree keeps children in arrays (`childNodes`) and links each child to
 * its parent, but not to its siblings, and template contents have no link
 * back to their template. So {@link parse5TreeAdapter.getNextSibling} costs a
 * search of the parent's children (walks use the arrays instead:
 * `siblingLinks` is false), and whether a fragment is template contents is
 * found from the templates seen (node-document.ts).
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
 * The adapter for parse5's default tree.
 *
 * Attributes follow parse5's convention: `name` is the local name, with
 * `namespace` and `prefix` for namespaced ones (as the HTML parser's
 * "adjust foreign attributes" leaves `xlink:href`). Note that today's HTML
 * parser no longer puts `xml:base` in the XML namespace, so in a parsed HTML
 * document an `xml:base` attribute is an attribute named "xml:base" in no
 * namespace; with the xmlBase option it counts on SVG and MathML elements
 * (where the parser once adjusted it), and one set with
 * `setAttribute(el, XML_NAMESPACE, "base", v, "xml")` counts everywhere.
 *
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
