/**
 * The tree adapter for the W3C DOM: jsdom, or any implementation of the DOM
 * Standard (linkedom, happy-dom, a browser). It imports no DOM: the members
 * it uses are structural types. A document with a `MutationObserver` can be
 * observed (`createDocumentContext(…, { observe: true })`).
 *
 * @module
 */

import { HTML_NAMESPACE } from "../html/index.ts";
import type { DocumentBaseTreeAdapter, MutationObserverHandle, MutationRecordLike, TreeAdapterTypeMap } from "./tree-adapter.ts";

/**
 * The members of a DOM `Node` the algorithms use
 * (https://dom.spec.whatwg.org/#interface-node).
 *
 * @example
 * ```ts
 * const node: DOMNode = new JSDOM("").window.document.body;
 * ```
 */
export interface DOMNode {
  readonly nodeType: number;
  readonly parentNode: DOMNode | null;
  readonly firstChild: DOMNode | null;
  readonly nextSibling: DOMNode | null;
  readonly childNodes: ArrayLike<DOMNode>;
  readonly ownerDocument: DOMDocument | null;
}

/**
 * The members of a DOM `Element` the algorithms use
 * (https://dom.spec.whatwg.org/#interface-element).
 *
 * @example
 * ```ts
 * const element: DOMElement = document.createElement("base");
 * ```
 */
export interface DOMElement extends DOMNode {
  readonly namespaceURI: string | null;
  readonly localName: string;
  getAttributeNS(namespace: string | null, localName: string): string | null;
  setAttributeNS(namespace: string | null, qualifiedName: string, value: string): void;
  removeAttributeNS(namespace: string | null, localName: string): void;
}

/**
 * The members of a DOM `Document` the algorithms use
 * (https://dom.spec.whatwg.org/#interface-document).
 *
 * @example
 * ```ts
 * const document: DOMDocument = new JSDOM("", { url: "https://example.com/" }).window.document;
 * ```
 */
export interface DOMDocument extends DOMNode {
  /** https://dom.spec.whatwg.org/#dom-document-url */
  readonly URL: string;
  /** https://dom.spec.whatwg.org/#dom-document-characterset */
  readonly characterSet: string;
  /** https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-document-defaultview */
  readonly defaultView?: unknown;
  /** https://dom.spec.whatwg.org/#dom-document-getelementsbytagnamens (used when present) */
  getElementsByTagNameNS?(namespace: string | null, localName: string): ArrayLike<DOMElement>;
}

/**
 * The node types of a DOM tree. Fragments are plain {@link DOMNode}s whose
 * `nodeType` is 11.
 *
 * @example
 * ```ts
 * import type { DocumentContext } from "docbase/document-base";
 * let context: DocumentContext<DOMTreeAdapterMap>;
 * ```
 */
export type DOMTreeAdapterMap = TreeAdapterTypeMap<DOMNode, DOMNode, DOMNode, DOMDocument, DOMNode, DOMElement>;

/** https://dom.spec.whatwg.org/#dom-node-nodetype */
const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;

/** The subset of the DOM's MutationObserver this module drives. */
interface MutationObserverLike {
  observe(target: DOMNode, options: Record<string, unknown>): void;
  takeRecords(): ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>;
  disconnect(): void;
}

type MutationObserverConstructor = new (
  callback: (records: ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>) => void,
) => MutationObserverLike;

function mutationObserverFor(document: DOMDocument): MutationObserverConstructor | null {
  const view = document.defaultView as { MutationObserver?: unknown } | null | undefined;
  const candidate = view?.MutationObserver ?? (globalThis as { MutationObserver?: unknown }).MutationObserver;
  return typeof candidate === "function" ? (candidate as MutationObserverConstructor) : null;
}

/**
 * The adapter for W3C DOM trees (jsdom, linkedom, happy-dom, browsers).
 *
 * @example
 * ```ts
 * import { JSDOM } from "jsdom";
 * import { baseURI, createDocumentContext, domTreeAdapter } from "docbase/document-base";
 * const { document } = new JSDOM('<base href="/docs/"><a href="x">', { url: "https://example.com/" }).window;
 * const context = createDocumentContext(domTreeAdapter, document); // URL and encoding from the document
 * baseURI(context, document.querySelector("a")!); // "https://example.com/docs/"
 * ```
 */
export const domTreeAdapter: DocumentBaseTreeAdapter<DOMTreeAdapterMap> = {
  name: "dom",
  siblingLinks: true,

  getParentNode(node) {
    return node.parentNode;
  },
  getFirstChild(node) {
    return node.firstChild;
  },
  getNextSibling(node) {
    return node.nextSibling;
  },
  getChildNodes(node) {
    return node.childNodes;
  },
  getTemplateContent(node) {
    if (node.nodeType !== ELEMENT_NODE) return null;
    const element = node as DOMElement;
    if (element.localName !== "template" || element.namespaceURI !== HTML_NAMESPACE) return null;
    const content = (element as DOMElement & { readonly content?: DOMNode }).content;
    return content ?? null;
  },
  getOwnerDocument(node) {
    // A document's ownerDocument is null (and only a document's): one property read.
    return node.ownerDocument ?? (node as DOMDocument);
  },
  keepsDeclarativeShadowRoots(document) {
    // Only a document with a window was parsed for a navigation ("allow declarative shadow roots"
    // is true). A DOM whose parser attaches them has HTMLTemplateElement's `shadowRootMode`
    // (https://html.spec.whatwg.org/multipage/scripting.html#dom-template-shadowrootmode, WPT's
    // feature test); jsdom 31 has neither, and keeps them as templates.
    const view = document.defaultView as { readonly HTMLTemplateElement?: unknown } | null | undefined;
    const template = view?.HTMLTemplateElement;
    if (typeof template !== "function") return false;
    return !("shadowRootMode" in (template as { readonly prototype: object }).prototype);
  },

  isElementNode(node): node is DOMElement {
    return node.nodeType === ELEMENT_NODE;
  },
  isDocumentNode(node): node is DOMDocument {
    return node.nodeType === DOCUMENT_NODE;
  },
  isDocumentFragmentNode(node): node is DOMNode {
    return node.nodeType === DOCUMENT_FRAGMENT_NODE;
  },

  getLocalName(element) {
    return element.localName;
  },
  getNamespaceURI(element) {
    return element.namespaceURI;
  },
  getAttribute(element, namespace, localName) {
    return element.getAttributeNS(namespace, localName);
  },
  setAttribute(element, namespace, localName, value, prefix) {
    element.setAttributeNS(namespace, prefix !== undefined && prefix !== null && namespace !== null ? `${prefix}:${localName}` : localName, value);
  },
  removeAttribute(element, namespace, localName) {
    element.removeAttributeNS(namespace, localName);
  },

  getElementsByTagNameNS(root, namespace, localName) {
    // Optimisation: the DOM's own index (jsdom walks its internal tree without wrapping nodes).
    const scope = root as DOMNode & Pick<DOMDocument, "getElementsByTagNameNS">;
    return typeof scope.getElementsByTagNameNS === "function" ? scope.getElementsByTagNameNS(namespace, localName) : null;
  },

  getDocumentURL(document) {
    return document.URL;
  },
  getDocumentEncoding(document) {
    return document.characterSet;
  },

  observe(document, callback, options): MutationObserverHandle<DOMTreeAdapterMap> | null {
    const Observer = mutationObserverFor(document);
    if (Observer === null) return null;
    const observer = new Observer((records) => callback(Array.from(records)));
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeOldValue: true,
      // An attributeFilter never matches a namespaced attribute (DOM "queue a mutation record"),
      // so with xml:base every attribute change has to be reported.
      ...(options.xmlBase ? {} : { attributeFilter: ["href"] }),
    });
    return {
      takeRecords: () => Array.from(observer.takeRecords()),
      disconnect: () => observer.disconnect(),
    };
  },
};
