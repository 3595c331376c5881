/**
 * The three trees every document-base test runs against, behind one small
 * "kit" interface: parse a document, make and move nodes, find them. The
 * suite (document-base.test.ts) is written once against {@link TreeKit} and
 * run for each kit in {@link kits}.
 *
 * - parse5: parse5's default tree (`parse5.parse`).
 * - htmlparser2: domhandler nodes built by parse5 with
 *   parse5-htmlparser2-tree-adapter (what cheerio does).
 * - jsdom: a live jsdom document (`new JSDOM(html, { url })`), read through
 *   the W3C DOM adapter. Documents in a legacy encoding are given to jsdom
 *   as bytes, so that jsdom itself decides their encoding.
 *
 * @module
 */

import iconv from "iconv-lite";
import { JSDOM } from "jsdom";
import {
  type DefaultTreeAdapterMap,
  defaultTreeAdapter,
  html as parse5Html,
  parse,
  parseFragment,
  type TreeAdapter,
  type TreeAdapterTypeMap as Parse5TypeMap,
} from "parse5";
import { adapter as htmlparser2Builder, type Htmlparser2TreeAdapterMap as BuilderMap } from "parse5-htmlparser2-tree-adapter";
import { getById } from "../tree-search.ts";
import { miniHTMLDocument } from "./mini-dom.ts";
import {
  type DocumentBaseTreeAdapter,
  type DocumentContextOptions,
  domTreeAdapter,
  HTML_NAMESPACE,
  htmlparser2TreeAdapter,
  parse5TreeAdapter,
  type TreeAdapterTypeMap,
} from "../../src/document-base/index.ts";

/** How a document is loaded. */
export interface LoadOptions {
  /** The document URL; default about:blank. */
  readonly url?: string;
  /** An encoding label; default UTF-8. The HTML should say the same in a `<meta charset>`. */
  readonly encoding?: string;
  /** Load as XHTML (application/xhtml+xml), where only a DOM parser applies. */
  readonly xhtml?: boolean;
}

/** Everything the suite does to a tree, for one kind of tree. */
export interface TreeKit<T extends TreeAdapterTypeMap = TreeAdapterTypeMap> {
  readonly name: string;
  readonly adapter: DocumentBaseTreeAdapter<T>;
  /** Whether the tree can be observed (`observe: true`). */
  readonly observable: boolean;
  /** Whether XHTML can be parsed (the parser then puts xml:base in the XML namespace). */
  readonly parsesXHTML: boolean;
  /**
   * An empty `<html><head id="head"></head><body id="body"></body></html>`
   * document in which the hostile tests build 100,000-node trees with
   * {@link append}, "deep" (a chain) or "wide" (siblings). For the DOM, a
   * jsdom document for "wide", and a {@link MiniDocument} for "deep": see
   * mini-dom.ts for why not jsdom.
   */
  loadForHostileTree(url: string, shape: "deep" | "wide"): { readonly document: T["document"]; readonly options: DocumentContextOptions };
  /**
   * Parses `html` into a document, and returns the options a context needs
   * for it: for the DOM, none (the document knows its URL and encoding).
   */
  load(html: string, options?: LoadOptions): { readonly document: T["document"]; readonly options: DocumentContextOptions };
  /** A synthetic document (createHTMLDocument or a bare parse): URL about:blank. */
  createSyntheticDocument(html: string): T["document"];
  createElement(document: T["document"], localName: string, namespace?: string): T["element"];
  createText(document: T["document"], data: string): T["node"];
  createFragment(document: T["document"]): T["node"];
  /** Inserts `node` as the last child of `parent` (detaching it from its parent first, as the DOM does). */
  append(parent: T["node"], node: T["node"]): void;
  /** Inserts `node` before `reference` (a child of `parent`). */
  insertBefore(parent: T["node"], node: T["node"], reference: T["node"]): void;
  /** Detaches `node` and returns its former parent. */
  remove(node: T["node"]): T["node"];
  /** Moves `node` to `document` (adoptNode); a no-op for trees without node documents. */
  adopt(document: T["document"], node: T["node"]): void;
  /** The parent, or null. */
  parent(node: T["node"]): T["node"] | null;
  /** The element with this id, looking into template contents too; throws when there is none. */
  byId(document: T["document"], id: string): T["element"];
  /** The children of a fragment or element, as an array. */
  children(node: T["node"]): T["node"][];
  /**
   * Replaces `element`'s children with `html` parsed by the fragment
   * parsing algorithm (the DOM's `innerHTML` setter; parse5's
   * `parseFragment` with `element` as context), and returns the new
   * children (to report them to a context).
   */
  setInnerHTML(element: T["element"], html: string): T["node"][];
  /**
   * Parses `html` with the fragment parsing algorithm into a root fragment
   * that plays the document (parse5's `parseFragment()`), or null for a
   * tree without one (the DOM).
   */
  loadFragment(html: string): T["documentFragment"] | null;
}

/** The kit's view of a parse5 builder's node types. */
type KitMap<B extends Parse5TypeMap> = TreeAdapterTypeMap<B["node"], B["parentNode"], B["childNode"], B["document"], B["documentFragment"], B["element"]>;

/** Kits for the two parse5-built trees, which share their building code. */
function parse5Kit<B extends Parse5TypeMap>(name: string, adapter: DocumentBaseTreeAdapter<KitMap<B>>, builder: TreeAdapter<B>): TreeKit<KitMap<B>> {
  type M = KitMap<B>;
  const self: TreeKit<M> = {
    name,
    adapter,
    observable: false,
    parsesXHTML: false,
    load(html, options = {}) {
      const document = parse<B>(html, { treeAdapter: builder });
      const contextOptions: { url?: string; encoding?: string } = {};
      if (options.url !== undefined) contextOptions.url = options.url;
      if (options.encoding !== undefined) contextOptions.encoding = options.encoding;
      return { document, options: contextOptions };
    },
    createSyntheticDocument(html) {
      return parse<B>(html, { treeAdapter: builder });
    },
    loadForHostileTree(url) {
      return self.load('<!doctype html><html><head id="head"></head><body id="body"></body></html>', { url });
    },
    createElement(_document, localName, namespace = HTML_NAMESPACE) {
      const element = builder.createElement(localName, namespace as parse5Html.NS, []);
      if (localName === "template" && namespace === HTML_NAMESPACE) builder.setTemplateContent(element, builder.createDocumentFragment());
      return element;
    },
    createText(_document, data) {
      return builder.createTextNode(data);
    },
    createFragment() {
      return builder.createDocumentFragment();
    },
    append(parent, node) {
      if (builder.getParentNode(node) !== null) builder.detachNode(node);
      builder.appendChild(parent, node);
    },
    insertBefore(parent, node, reference) {
      if (builder.getParentNode(node) !== null) builder.detachNode(node);
      builder.insertBefore(parent, node, reference);
    },
    remove(node) {
      const parent = builder.getParentNode(node);
      if (parent === null) throw new Error("remove: the node has no parent");
      builder.detachNode(node);
      return parent;
    },
    adopt() {},
    parent(node) {
      return adapter.getParentNode(node);
    },
    byId(document, id) {
      return getById(adapter as never, document as object, id) as M["element"];
    },
    children(node) {
      return Array.from(adapter.getChildNodes(node));
    },
    setInnerHTML(element, html) {
      for (const child of Array.from(adapter.getChildNodes(element))) builder.detachNode(child as B["childNode"]);
      const fragment = parseFragment<B>(element as B["element"], html, { treeAdapter: builder });
      const added = Array.from(builder.getChildNodes(fragment));
      for (const child of added) {
        builder.detachNode(child);
        builder.appendChild(element as B["element"], child);
      }
      return added;
    },
    loadFragment(html) {
      return parseFragment<B>(html, { treeAdapter: builder });
    },
  };
  return self;
}

type DOMMap = TreeAdapterTypeMap<Node, Node, Node, Document, Node, Element>;

const domKit: TreeKit<DOMMap> = {
  name: "jsdom",
  adapter: domTreeAdapter as unknown as DocumentBaseTreeAdapter<DOMMap>,
  observable: true,
  parsesXHTML: true,
  load(html, options = {}) {
    const url = options.url ?? "about:blank";
    const contentType = options.xhtml === true ? "application/xhtml+xml" : "text/html";
    const input = options.encoding === undefined ? html : iconv.encode(html, options.encoding, { addBOM: /^utf-?16/i.test(options.encoding) });
    const { document } = new JSDOM(input, { url, contentType }).window;
    return { document, options: {} };
  },
  loadForHostileTree(url, shape) {
    if (shape === "wide") return domKit.load('<!doctype html><html><head id="head"></head><body id="body"></body></html>', { url });
    return { document: miniHTMLDocument(url).document as unknown as Document, options: {} };
  },
  createSyntheticDocument(html) {
    const document = new JSDOM("").window.document.implementation.createHTMLDocument("");
    document.documentElement.innerHTML = html;
    return document;
  },
  createElement(document, localName, namespace = HTML_NAMESPACE) {
    return document.createElementNS(namespace, localName);
  },
  createText(document, data) {
    return document.createTextNode(data);
  },
  createFragment(document) {
    return document.createDocumentFragment();
  },
  append(parent, node) {
    parent.appendChild(node);
  },
  insertBefore(parent, node, reference) {
    parent.insertBefore(node, reference);
  },
  remove(node) {
    const parent = node.parentNode;
    if (parent === null) throw new Error("remove: the node has no parent");
    parent.removeChild(node);
    return parent;
  },
  adopt(document, node) {
    document.adoptNode(node);
  },
  parent(node) {
    return node.parentNode;
  },
  byId(document, id) {
    return getById(domTreeAdapter as never, document, id) as unknown as Element;
  },
  children(node) {
    return Array.from(node.childNodes);
  },
  setInnerHTML(element, html) {
    element.innerHTML = html;
    return Array.from(element.childNodes);
  },
  loadFragment() {
    return null;
  },
};

/** The three trees. */
export const kits: readonly TreeKit[] = [
  parse5Kit<DefaultTreeAdapterMap>("parse5", parse5TreeAdapter, defaultTreeAdapter) as unknown as TreeKit,
  parse5Kit<BuilderMap>("htmlparser2", htmlparser2TreeAdapter, htmlparser2Builder) as unknown as TreeKit,
  domKit as unknown as TreeKit,
];

