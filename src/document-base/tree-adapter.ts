/**
 * The tree adapter: the one small interface through which the base-URL
 * algorithms reach a tree, modelled on parse5's `TreeAdapter`
 * (https://github.com/inikulin/parse5, packages/parse5/lib/tree-adapters/)
 * and generic over a map of node types in the same way.
 *
 * Three implementations ship, one file each, named after the tree:
 * {@link ./parse5-tree-adapter.ts} (parse5's default tree),
 * {@link ./htmlparser2-tree-adapter.ts} (domhandler trees, what cheerio uses)
 * and {@link ./dom-tree-adapter.ts} (the W3C DOM: jsdom, or any DOM).
 *
 * The interface is read-mostly: the algorithms only walk and read. The one
 * write, {@link DocumentBaseTreeAdapter.setAttribute}, is for the url-utils
 * layer above (its `href` setters write the content attribute).
 *
 * @module
 */

/**
 * The node types of one kind of tree, as parse5's `TreeAdapterTypeMap`
 * names them (a subset: the base-URL algorithms never look at comments,
 * text or doctypes other than as opaque nodes).
 *
 * @example
 * ```ts
 * import type { DefaultTreeAdapterTypes as P } from "parse5";
 * type Parse5Map = TreeAdapterTypeMap<P.Node, P.ParentNode, P.ChildNode, P.Document, P.DocumentFragment, P.Element>;
 * ```
 */
export interface TreeAdapterTypeMap<
  Node = unknown,
  ParentNode = unknown,
  ChildNode = unknown,
  Document = unknown,
  DocumentFragment = unknown,
  Element = unknown,
> {
  node: Node;
  parentNode: ParentNode;
  childNode: ChildNode;
  document: Document;
  documentFragment: DocumentFragment;
  element: Element;
}

/**
 * What the base-URL algorithms need from a tree. Every method is total: a
 * question that does not apply (the template contents of a `div`, the owner
 * document in a tree that does not record one) answers `null`.
 *
 * The view it gives is the DOM's: a `template` element's contents are a
 * separate document fragment reached only through
 * {@link getTemplateContent}, never one of its children, and that fragment
 * has no parent (trees that store the contents as a child, like domhandler's,
 * hide it).
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import { parse5TreeAdapter as adapter } from "docbase/document-base";
 * const document = parse('<base href="/x/"><a href="y">');
 * const html = adapter.getFirstChild(document)!;
 * adapter.isElementNode(html); // true
 * adapter.getLocalName(html as never); // "html"
 * ```
 */
export interface DocumentBaseTreeAdapter<T extends TreeAdapterTypeMap = TreeAdapterTypeMap> {
  /** A short name for messages and test titles: "parse5", "htmlparser2", "dom". */
  readonly name: string;
  /**
   * True when {@link getNextSibling} takes constant time (the tree links
   * siblings, as the DOM and domhandler do). When false (parse5's default
   * tree keeps children only in arrays), walks index {@link getChildNodes}
   * instead, so that they stay linear.
   */
  readonly siblingLinks: boolean;

  // --- Structure -------------------------------------------------------------

  /** The node's parent, or null for a root (a document, a detached node, template contents). */
  getParentNode(node: T["node"]): T["parentNode"] | null;
  /** The node's first child, or null (also for nodes that cannot have children). */
  getFirstChild(node: T["node"]): T["childNode"] | null;
  /** The node's next sibling, or null. */
  getNextSibling(node: T["node"]): T["childNode"] | null;
  /** The node's children in tree order (empty for nodes that cannot have children). */
  getChildNodes(node: T["node"]): ArrayLike<T["childNode"]>;
  /**
   * https://html.spec.whatwg.org/multipage/scripting.html#template-contents —
   * the template contents of an HTML `template` element, or null for any other node.
   */
  getTemplateContent(node: T["node"]): T["documentFragment"] | null;
  /**
   * https://dom.spec.whatwg.org/#concept-node-document — the node's node
   * document (a document is its own), or null when the tree does not record
   * one (parse5 and domhandler trees). Without it, a node's document is found
   * by walking to its root (see node-document.ts).
   */
  getOwnerDocument(node: T["node"]): T["document"] | null;
  /**
   * Whether `fragment` is the template contents of some `template` element,
   * when the tree can tell (domhandler keeps the link); undefined when it
   * cannot (parse5's default tree keeps no link from contents to template).
   */
  isTemplateContent?(fragment: T["documentFragment"]): boolean;
  /**
   * Whether the parser that made `document` kept its declarative shadow
   * roots (https://html.spec.whatwg.org/multipage/scripting.html#attr-template-shadowrootmode)
   * as `template` elements, as parse5 8.1 and jsdom 31 do: then the
   * templates that the HTML Standard's parser would have turned into shadow
   * roots are found in the tree, and their contents belong to the document.
   * False for a document whose parser did not allow declarative shadow
   * roots (fragment parsing, DOMParser, a document no parser made) or
   * attached them itself (a browser's DOM). When absent: true for a document
   * node, false for a root fragment.
   */
  keepsDeclarativeShadowRoots?(document: T["document"]): boolean;

  // --- Node types --------------------------------------------------------------

  /** https://dom.spec.whatwg.org/#interface-element */
  isElementNode(node: T["node"]): node is T["element"];
  /** https://dom.spec.whatwg.org/#interface-document */
  isDocumentNode(node: T["node"]): node is T["document"];
  /** https://dom.spec.whatwg.org/#interface-documentfragment */
  isDocumentFragmentNode(node: T["node"]): node is T["documentFragment"];

  // --- Elements ----------------------------------------------------------------

  /** https://dom.spec.whatwg.org/#concept-element-local-name */
  getLocalName(element: T["element"]): string;
  /** https://dom.spec.whatwg.org/#concept-element-namespace — null for no namespace. */
  getNamespaceURI(element: T["element"]): string | null;
  /**
   * https://dom.spec.whatwg.org/#concept-element-attributes-get-by-namespace —
   * the value of the attribute with this namespace (null: none) and local
   * name, or null when there is none.
   */
  getAttribute(element: T["element"], namespace: string | null, localName: string): string | null;
  /**
   * https://dom.spec.whatwg.org/#concept-element-attributes-set-value — sets
   * (or creates, with `prefix`) the attribute with this namespace and local
   * name. The library never calls it on its own: it exists for the url-utils
   * layer's setters. Setting an attribute does not notify a
   * {@link DocumentContext}; report it with `attributeChanged`.
   */
  setAttribute(element: T["element"], namespace: string | null, localName: string, value: string, prefix?: string | null): void;
  /**
   * https://dom.spec.whatwg.org/#concept-element-attributes-remove-by-namespace —
   * removes the attribute with this namespace and local name, if any.
   */
  removeAttribute(element: T["element"], namespace: string | null, localName: string): void;

  /**
   * Optional fast path: the elements with this namespace and local name
   * among the descendants of `root` (a document, or an element: its
   * subtree), in tree order, template contents excluded (the DOM's
   * `getElementsByTagNameNS`), or null when the tree has no such index. When
   * present, the first-base search uses it instead of walking the tree.
   */
  getElementsByTagNameNS?(root: T["document"] | T["element"], namespace: string, localName: string): ArrayLike<T["element"]> | null;

  // --- Documents (optional: trees whose documents know their URL) --------------

  /** https://dom.spec.whatwg.org/#concept-document-url — the document's URL, serialized, when the tree records it. */
  getDocumentURL?(document: T["document"]): string | null;
  /** https://dom.spec.whatwg.org/#concept-document-encoding — the document's encoding name, when the tree records it. */
  getDocumentEncoding?(document: T["document"]): string | null;

  // --- Observation (optional: trees that can report their own mutations) -------

  /**
   * Starts observing `document` (its tree, attributes and children) and
   * returns a handle, or null when this tree cannot be observed. `callback`
   * receives batches of records, asynchronously; `takeRecords()` returns the
   * records not yet delivered, synchronously. The DOM adapter implements it
   * with `MutationObserver`.
   */
  observe?(document: T["document"], callback: (records: readonly MutationRecordLike<T>[]) => void, options: ObserveOptions): MutationObserverHandle<T> | null;
}

/**
 * What {@link DocumentBaseTreeAdapter.observe} is asked to report.
 *
 * @example
 * ```ts
 * const options: ObserveOptions = { xmlBase: false }; // href changes and child lists only
 * ```
 */
export interface ObserveOptions {
  /** Report every attribute change (xml:base is namespaced, so it cannot be filtered by name). */
  readonly xmlBase: boolean;
}

/**
 * A handle on an observation started by {@link DocumentBaseTreeAdapter.observe}.
 *
 * @example
 * ```ts
 * const handle = domTreeAdapter.observe!(document, (records) => {}, { xmlBase: false })!;
 * handle.takeRecords(); // [] — nothing changed yet
 * handle.disconnect();
 * ```
 */
export interface MutationObserverHandle<T extends TreeAdapterTypeMap = TreeAdapterTypeMap> {
  /** The records queued and not yet delivered, which are then no longer delivered. */
  takeRecords(): readonly MutationRecordLike<T>[];
  /** Stops observing. */
  disconnect(): void;
}

/**
 * One mutation, shaped like the DOM's `MutationRecord`
 * (https://dom.spec.whatwg.org/#interface-mutationrecord), so that DOM
 * records can be passed as they are to `DocumentContext.notifyMutation`.
 * Other `type`s (such as "characterData") are ignored.
 *
 * @example
 * ```ts
 * const record: MutationRecordLike = {
 *   type: "attributes", target: base, attributeName: "href", attributeNamespace: null, oldValue: "/old/",
 * };
 * ```
 */
export type MutationRecordLike<T extends TreeAdapterTypeMap = TreeAdapterTypeMap> =
  | {
      readonly type: "attributes";
      readonly target: T["node"];
      readonly attributeName: string | null;
      readonly attributeNamespace?: string | null | undefined;
      /** The previous value (null: the attribute was absent); undefined when not recorded. */
      readonly oldValue?: string | null | undefined;
    }
  | {
      readonly type: "childList";
      readonly target: T["node"];
      readonly addedNodes: ArrayLike<T["node"]>;
      readonly removedNodes: ArrayLike<T["node"]>;
    }
  | { readonly type: "characterData"; readonly target: T["node"] };
