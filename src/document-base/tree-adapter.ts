/**
 * The tree adapter: the one small interface through which the base-URL
 * algorithms reach a tree, generic over a map of node types as parse5's
 * `TreeAdapter` is. Three implementations ship: parse5-tree-adapter.ts,
 * htmlparser2-tree-adapter.ts (domhandler, cheerio's) and dom-tree-adapter.ts
 * (jsdom or any DOM).
 *
 * @module
 */

/**
 * The node types of one kind of tree, as parse5's `TreeAdapterTypeMap` names
 * them (a subset).
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
 * question that does not apply answers `null`. The view is the DOM's: a
 * `template`'s contents are a parentless fragment reached only through
 * {@link getTemplateContent}. The one write, `setAttribute`, is for url-utils.
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
   * True when {@link getNextSibling} takes constant time; when false (parse5's
   * arrays), walks index {@link getChildNodes} instead, to stay linear.
   */
  readonly siblingLinks: boolean;

  // --- Structure -------------------------------------------------------------

  /** null for a root (a document, a detached node, template contents). */
  getParentNode(node: T["node"]): T["parentNode"] | null;
  /** null also for nodes that cannot have children. */
  getFirstChild(node: T["node"]): T["childNode"] | null;
  getNextSibling(node: T["node"]): T["childNode"] | null;
  /** In tree order; empty for nodes that cannot have children. */
  getChildNodes(node: T["node"]): ArrayLike<T["childNode"]>;
  /** https://html.spec.whatwg.org/multipage/scripting.html#template-contents — null for any node but an HTML `template`. */
  getTemplateContent(node: T["node"]): T["documentFragment"] | null;
  /**
   * https://dom.spec.whatwg.org/#concept-node-document — null when the tree
   * does not record one (parse5, domhandler): node-document.ts then walks to
   * the root.
   */
  getOwnerDocument(node: T["node"]): T["document"] | null;
  /** Whether `fragment` is some template's contents; undefined when the tree keeps no such link (parse5). */
  isTemplateContent?(fragment: T["documentFragment"]): boolean;
  /**
   * Whether the parser that made `document` kept its declarative shadow roots
   * (https://html.spec.whatwg.org/multipage/scripting.html#attr-template-shadowrootmode)
   * as `template` elements, as parse5 8.1 and jsdom 31 do: their contents then
   * belong to the document. False when the parser did not allow them or
   * attached them itself (a browser). When absent: true for a document node,
   * false for a root fragment.
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
  /** https://dom.spec.whatwg.org/#concept-element-attributes-get-by-namespace — null when absent. */
  getAttribute(element: T["element"], namespace: string | null, localName: string): string | null;
  /**
   * https://dom.spec.whatwg.org/#concept-element-attributes-set-value (with
   * `prefix` when it creates one), for url-utils' setters. It does not notify
   * a {@link DocumentContext}: report it with `attributeChanged`.
   */
  setAttribute(element: T["element"], namespace: string | null, localName: string, value: string, prefix?: string | null): void;
  /** https://dom.spec.whatwg.org/#concept-element-attributes-remove-by-namespace */
  removeAttribute(element: T["element"], namespace: string | null, localName: string): void;

  /**
   * Optional fast path: the DOM's `getElementsByTagNameNS` under `root`
   * (template contents excluded), or null when the tree has no such index.
   */
  getElementsByTagNameNS?(root: T["document"] | T["element"], namespace: string, localName: string): ArrayLike<T["element"]> | null;

  // --- Documents (optional: trees whose documents know their URL) --------------

  /** https://dom.spec.whatwg.org/#concept-document-url — serialized, when the tree records it. */
  getDocumentURL?(document: T["document"]): string | null;
  /** https://dom.spec.whatwg.org/#concept-document-encoding — its name, when the tree records it. */
  getDocumentEncoding?(document: T["document"]): string | null;

  // --- Observation (optional: trees that can report their own mutations) -------

  /**
   * Starts observing `document`, or returns null when the tree cannot be
   * observed. `callback` receives batches of records asynchronously;
   * `takeRecords()` returns the undelivered ones (the DOM adapter uses
   * `MutationObserver`).
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
  /** Report every attribute change (xml:base is namespaced, so not filtered by name). */
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
  /** The records not yet delivered, which then never are. */
  takeRecords(): readonly MutationRecordLike<T>[];
  disconnect(): void;
}

/**
 * One mutation, shaped like the DOM's `MutationRecord`
 * (https://dom.spec.whatwg.org/#interface-mutationrecord), so that DOM
 * records pass as they are; other `type`s are ignored.
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
