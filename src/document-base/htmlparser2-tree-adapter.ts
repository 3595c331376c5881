/**
 * The tree adapter for htmlparser2's tree (domhandler nodes, cheerio's), built
 * by parse5 through parse5-htmlparser2-tree-adapter or by htmlparser2. It
 * hides the two differences from the DOM: a `template`'s contents stored as
 * its first child (here a parentless fragment, as in the DOM), and attribute
 * names (parse5 keys namespaced ones by local name beside
 * `x-attribsNamespace`; htmlparser2 records no namespaces, so `xml:base` is
 * in the XML namespace by definition, Namespaces in XML 1.0 §3). Nodes are
 * recognised by their `type`, so any copy of domhandler works.
 *
 * @module
 */

import type { AnyNode, ChildNode, Document, Element, ParentNode } from "domhandler";
import { HTML_NAMESPACE, XML_NAMESPACE } from "../html/index.ts";
import type { DocumentBaseTreeAdapter, TreeAdapterTypeMap } from "./tree-adapter.ts";

/**
 * The node types of a domhandler tree. Document fragments (template
 * contents, `parseFragment` results) are domhandler `Document`s too.
 *
 * @example
 * ```ts
 * import type { DocumentContext } from "docbase/document-base";
 * let context: DocumentContext<Htmlparser2TreeAdapterMap>;
 * ```
 */
export type Htmlparser2TreeAdapterMap = TreeAdapterTypeMap<AnyNode, ParentNode, ChildNode, Document, Document, Element>;

const noChildren: readonly ChildNode[] = Object.freeze([]);

function isElement(node: AnyNode): node is Element {
  const type = node.type;
  return type === "tag" || type === "script" || type === "style";
}

function isTemplate(node: AnyNode | null): node is Element {
  return node !== null && isElement(node) && node.name === "template" && (node.namespace ?? HTML_NAMESPACE) === HTML_NAMESPACE;
}

/** Whether `node` is the contents of a template, stored as the template's child. */
function isStoredTemplateContent(node: AnyNode): boolean {
  return node.type === "root" && isTemplate(node.parent);
}

/** Whether a "root" node is a document (parse5 gives documents an `x-mode`) rather than a fragment. */
function isDocumentRoot(node: AnyNode): node is Document {
  return node.type === "root" && (node as Document)["x-mode"] !== undefined && !isStoredTemplateContent(node);
}

function childrenOf(node: AnyNode): readonly ChildNode[] {
  return (node as Partial<ParentNode>).children ?? noChildren;
}

/** The key of the attribute with this namespace and local name in `element.attribs`, or undefined. */
function findAttribute(element: Element, namespace: string | null, localName: string): string | undefined {
  const attribs = element.attribs;
  const namespaces = element["x-attribsNamespace"];
  if (namespaces === undefined) {
    // htmlparser2's own parser: no namespace information. Only the xml prefix has a fixed namespace.
    if (namespace === null) return attribs[localName] !== undefined && !localName.startsWith("xml:") ? localName : undefined;
    if (namespace === XML_NAMESPACE) {
      const key = "xml:" + localName;
      return attribs[key] !== undefined ? key : undefined;
    }
    return undefined;
  }
  // parse5-built: keyed by parse5's attribute name (the local name when namespaced).
  if (attribs[localName] !== undefined && (namespaces[localName] || null) === namespace) return localName;
  if (namespace === null) return undefined;
  // A namespaced attribute keyed by its qualified name (as other tools write them).
  for (const key in attribs) {
    if ((namespaces[key] || null) !== namespace || key === localName) continue;
    const colon = key.indexOf(":");
    if (colon !== -1 && key.slice(colon + 1) === localName) return key;
  }
  return undefined;
}

/**
 * The adapter for domhandler trees (cheerio, htmlparser2,
 * parse5-htmlparser2-tree-adapter).
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import { adapter as htmlparser2Adapter } from "parse5-htmlparser2-tree-adapter";
 * import { baseURI, createDocumentContext, htmlparser2TreeAdapter } from "docbase/document-base";
 * const document = parse('<base href="/docs/"><p>', { treeAdapter: htmlparser2Adapter });
 * const context = createDocumentContext(htmlparser2TreeAdapter, document, { url: "https://example.com/" });
 * baseURI(context, document); // "https://example.com/docs/"
 * ```
 */
export const htmlparser2TreeAdapter: DocumentBaseTreeAdapter<Htmlparser2TreeAdapterMap> = {
  name: "htmlparser2",
  siblingLinks: true,

  getParentNode(node) {
    return isStoredTemplateContent(node) ? null : node.parent;
  },
  getFirstChild(node) {
    const first = childrenOf(node)[0] ?? null;
    return first !== null && isStoredTemplateContent(first) ? first.next : first;
  },
  getNextSibling(node) {
    return isStoredTemplateContent(node) ? null : node.next;
  },
  getChildNodes(node) {
    const children = childrenOf(node);
    const first = children[0];
    return first !== undefined && isStoredTemplateContent(first) ? children.slice(1) : children;
  },
  getTemplateContent(node) {
    if (!isTemplate(node)) return null;
    const first = node.children[0];
    return first !== undefined && first.type === "root" ? first : null;
  },
  getOwnerDocument(node) {
    return isDocumentRoot(node) ? node : null;
  },
  isTemplateContent(fragment) {
    return isStoredTemplateContent(fragment);
  },

  isElementNode: isElement,
  // Deviation (representation): domhandler has one Document type for documents and fragments; a
  // "root" without a document mode is a fragment (template contents, parseFragment(), and the root
  // of a tree htmlparser2 itself built).
  isDocumentNode(node): node is Document {
    return isDocumentRoot(node);
  },
  isDocumentFragmentNode(node): node is Document {
    return node.type === "root" && !isDocumentRoot(node);
  },

  getLocalName(element) {
    return element.name;
  },
  getNamespaceURI(element) {
    return element.namespace ?? HTML_NAMESPACE;
  },
  getAttribute(element, namespace, localName) {
    const key = findAttribute(element, namespace, localName);
    return key === undefined ? null : element.attribs[key]!;
  },
  setAttribute(element, namespace, localName, value, prefix) {
    const key = findAttribute(element, namespace, localName);
    if (key !== undefined) {
      element.attribs[key] = value;
      return;
    }
    const namespaces = element["x-attribsNamespace"];
    if (namespaces === undefined) {
      // htmlparser2's own convention: the qualified name is the key.
      element.attribs[namespace === XML_NAMESPACE ? "xml:" + localName : prefix ? `${prefix}:${localName}` : localName] = value;
      return;
    }
    // parse5-htmlparser2-tree-adapter's convention: keyed by the local name, namespace and prefix beside.
    element.attribs[localName] = value;
    if (namespace !== null) namespaces[localName] = namespace;
    if (prefix !== undefined && prefix !== null) (element["x-attribsPrefix"] ??= {})[localName] = prefix;
  },
  removeAttribute(element, namespace, localName) {
    const key = findAttribute(element, namespace, localName);
    if (key === undefined) return;
    delete element.attribs[key];
    const namespaces = element["x-attribsNamespace"];
    if (namespaces !== undefined) delete namespaces[key];
    const prefixes = element["x-attribsPrefix"];
    if (prefixes !== undefined) delete prefixes[key];
  },
};
