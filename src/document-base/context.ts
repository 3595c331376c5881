/**
 * The document context: what the HTML Standard knows about a `Document` that
 * its tree does not carry (URL, encoding, about base URL), the fallback,
 * frozen and document base URL over it, and the contexts of the other
 * documents its nodes lead to.
 *
 * The document base URL is kept current eagerly, since the standard sets the
 * frozen base URL "immediately" when a `base` element becomes first or its
 * href changes: every mutation that can change it recomputes it at once.
 *
 * @module
 */

import {
  basicURLParse,
  cloneURLRecord,
  type EncodingName,
  getEncoding,
  getOutputEncoding,
  type OutputEncodingName,
  serializeURL,
  UnknownEncodingError,
  type URLRecord,
} from "../core/index.ts";
import { HTML_NAMESPACE, headOf, isBaseElementWithHref } from "../html/index.ts";
import { matchesAboutBlank, matchesAboutSrcdoc } from "./about-url.ts";
import { ChangeListeners } from "./change-listeners.ts";
import type {
  AboutBaseURLSource,
  BaseURLChangeListener,
  BaseURLChangeReason,
  ChildrenChange,
  DocumentContext,
  DocumentContextOptions,
  URLChangeOptions,
} from "./document-context-types.ts";
import { DocumentContextError } from "./errors.ts";
import { adopted, attributeChanged, childrenChanged, notifyMutation, type TrackedContext } from "./mutations.ts";
import { INERT_DOCUMENT, type NodeDocument, NodeDocuments, structureChanged } from "./node-document.ts";
import { elementScope, Scope, ScopeCache } from "./scopes.ts";
import type { MutationObserverHandle, MutationRecordLike } from "./tree-adapter.ts";
import { findInclusiveDescendant, type LooseAdapter, type LooseMap, rootOf } from "./tree-walk.ts";

/**
 * Every live context, by document (at most one per document).
 *
 * @example
 * ```ts
 * registry.get(document)?.url; // the document's URL, once it has a context
 * ```
 */
export const registry = new WeakMap<object, Context>();

function parseAbsoluteURL(input: string | Readonly<URLRecord>, what: string): Readonly<URLRecord> {
  if (typeof input !== "string") return Object.freeze(cloneURLRecord(input as URLRecord));
  const url = basicURLParse(input);
  if (url === null) throw new DocumentContextError(`The ${what} is not an absolute URL: ${JSON.stringify(input)}`);
  return Object.freeze(url);
}

/**
 * The implementation of {@link DocumentContext}; its members without a `#`
 * are for document-base-url.ts, mutations.ts and the jsdom layer (through
 * internal.ts).
 *
 * @example
 * ```ts
 * const context = contextImpl(createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/" }));
 * context.root.href; // the document base URL, serialized
 * ```
 */
export class Context implements DocumentContext<LooseMap>, TrackedContext {
  readonly adapter: LooseAdapter;
  /** null for the inert document of template contents (parse5 and domhandler trees). */
  readonly documentNode: object | null;
  readonly xmlBase: boolean;
  readonly characterEncoding: EncodingName;
  /** https://encoding.spec.whatwg.org/#get-an-output-encoding of the encoding. */
  readonly outputEncoding: OutputEncodingName;
  /** Its URL is the document base URL. */
  readonly root: Scope;
  /** The element scopes of the document and of its template contents' inert document. */
  readonly scopes: ScopeCache;
  /** Shared with its inert document. */
  readonly nodeDocuments: NodeDocuments;
  /** Made by a lookup, not by createDocumentContext: it gives way to an explicit one. */
  readonly implicit: boolean;

  #url: Readonly<URLRecord>;
  #aboutBaseURL: Readonly<URLRecord> | null;
  /** The first `base` element with an href in tree order, or null. */
  #firstBase: object | null = null;
  #frozenBaseURL: Readonly<URLRecord> | null = null;
  /** The document's context (itself, but for an inert document's). */
  readonly #head: Context;
  /** The inert document context of the template contents (parse5 and domhandler trees). */
  #inert: Context | null = null;
  readonly #listeners = new ChangeListeners();
  #observer: MutationObserverHandle<LooseMap> | null = null;

  constructor(adapter: LooseAdapter, documentNode: object | null, options: DocumentContextOptions, implicit: boolean, head: Context | null) {
    this.adapter = adapter;
    this.documentNode = documentNode;
    this.implicit = implicit;
    this.#head = head ?? this;
    this.scopes = head === null ? new ScopeCache() : head.scopes;
    this.nodeDocuments = head === null ? new NodeDocuments(adapter, documentNode) : head.nodeDocuments;
    this.xmlBase = options.xmlBase ?? false;

    const label = options.encoding ?? (documentNode !== null ? adapter.getDocumentEncoding?.(documentNode) : null) ?? "UTF-8";
    const encoding = getEncoding(label);
    if (encoding === null) throw new UnknownEncodingError(label);
    this.characterEncoding = encoding;
    this.outputEncoding = getOutputEncoding(encoding);

    const url = options.url ?? (documentNode !== null ? adapter.getDocumentURL?.(documentNode) : null) ?? "about:blank";
    this.#url = parseAbsoluteURL(url, "document URL");
    this.#aboutBaseURL = aboutBaseURLSnapshot(options.aboutBaseURL ?? null);

    this.#firstBase = this.#findFirstBase();
    this.#frozenBaseURL = this.#firstBase === null ? null : this.#frozenBaseURLOf(this.#firstBase);
    this.root = new Scope(this, null, null, this.#frozenBaseURL ?? this.fallbackBaseURL());
  }

  get document(): object {
    return this.documentNode!;
  }

  get url(): string {
    return serializeURL(this.#url);
  }

  get encoding(): string {
    return this.characterEncoding;
  }

  get aboutBaseURL(): string | null {
    return this.#aboutBaseURL === null ? null : serializeURL(this.#aboutBaseURL);
  }

  get observing(): boolean {
    return this.#observer !== null;
  }

  // --- The HTML Standard's algorithms -------------------------------------------------

  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url */
  fallbackBaseURL(): Readonly<URLRecord> {
    // 1. If document is an iframe srcdoc document, return its about base URL. (One whose URL
    //    matches about:srcdoc, so that document.open() and replaceState keep it one: WPT
    //    nontraditional-about-srcdoc.)
    if (matchesAboutSrcdoc(this.#url) && this.#aboutBaseURL !== null) return this.#aboutBaseURL;
    // Deviation: without an about base URL (the standard asserts one), fall through to the URL.
    // 2. If document's URL matches about:blank and its about base URL is non-null, return it.
    if (this.#aboutBaseURL !== null && matchesAboutBlank(this.#url)) return this.#aboutBaseURL;
    // 3. Return document's URL.
    return this.#url;
  }

  /** https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url — the URL `element` would get now. */
  #frozenBaseURLOf(element: object): Readonly<URLRecord> {
    // 2. Parse element's href with document's fallback base URL and character encoding.
    //    "(Thus, the base element isn't affected by itself.)"
    const fallback = this.fallbackBaseURL();
    const href = this.adapter.getAttribute(element, null, "href") ?? "";
    const urlRecord = basicURLParse(href, { base: fallback, encoding: this.outputEncoding });
    // 3. If urlRecord is failure, its scheme is "data" or "javascript", or "Is base allowed for
    //    Document?" returns "Blocked", then the fallback base URL.
    //    Deviation: there is no Content Security Policy here, so no base is blocked.
    if (urlRecord === null || urlRecord.scheme === "data" || urlRecord.scheme === "javascript") return fallback;
    return Object.freeze(urlRecord);
  }

  /**
   * The first HTML `base` element with an href in tree order, outside template
   * contents (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url).
   */
  #findFirstBase(): object | null {
    const document = this.documentNode;
    if (document === null) return null;
    const adapter = this.adapter;
    const isBaseWithHref = (node: object): boolean => isBaseElementWithHref(adapter, node);
    if (adapter.getElementsByTagNameNS !== undefined && adapter.isDocumentNode(document)) {
      // Optimisation: a base with an href in the head is first (only the head precedes its subtree).
      const head = headOf(adapter, document);
      const inHead = head === null ? null : firstOf(adapter.getElementsByTagNameNS(head, HTML_NAMESPACE, "base"), isBaseWithHref);
      if (inHead !== null) return inHead;
      // Optimisation: the tree's own index of HTML base elements, in tree order.
      const bases = adapter.getElementsByTagNameNS(document, HTML_NAMESPACE, "base");
      if (bases !== null) return firstOf(bases, isBaseWithHref);
    }
    return findInclusiveDescendant(adapter, document, isBaseWithHref, false);
  }

  /** The first base element's frozen base URL, or null when it is not `element`. */
  frozenBaseURLOf(element: object): Readonly<URLRecord> | null {
    return element === this.#firstBase ? this.#frozenBaseURL : null;
  }

  /** Finds the first base element again; a new one gets its frozen base URL set. */
  #refindFirstBase(): void {
    const found = this.#findFirstBase();
    if (found === this.#firstBase) return;
    this.#firstBase = found;
    this.#frozenBaseURL = found === null ? null : this.#frozenBaseURLOf(found);
  }

  /**
   * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url —
   * recomputes the document base URL and reports its change; true when there was one.
   */
  #updateDocumentBaseURL(): boolean {
    // The first base element's frozen base URL, or the fallback base URL.
    const url = this.#frozenBaseURL ?? this.fallbackBaseURL();
    const root = this.root;
    if (url === root.url) return false;
    const href = serializeURL(url);
    const old = root.href;
    root.url = url;
    if (href === old) return false;
    root.href = href;
    root.version++;
    this.scopes.epoch++;
    // Every node of the document is affected.
    this.emit("document-base-url", [this.documentNode!], old, href);
    return true;
  }

  baseHrefChanged(element: object): void {
    if (this.documentNode === null || rootOf(this.adapter, element) !== this.documentNode) return;
    const hasHref = this.adapter.getAttribute(element, null, "href") !== null;
    if (element === this.#firstBase && hasHref) {
      // "The base element is the first base element in tree order with an href content
      // attribute in its Document, and its href content attribute is changed": set it again.
      this.#frozenBaseURL = this.#frozenBaseURLOf(element);
    } else if (element === this.#firstBase || hasHref) {
      this.#refindFirstBase();
    } else {
      return;
    }
    this.#updateDocumentBaseURL();
  }

  updateFirstBase(parent: object, added: readonly object[], removed: readonly object[]): boolean {
    const document = this.documentNode;
    const adapter = this.adapter;
    if (document !== null) {
      // A base with an href inserted (perhaps before the first), or the first one removed.
      const inserted =
        added.length > 0 &&
        rootOf(adapter, parent) === document &&
        added.some((node) => findInclusiveDescendant(adapter, node, (n) => isBaseElementWithHref(adapter, n), false) !== null);
      if (inserted || (removed.length > 0 && this.#firstBase !== null && rootOf(adapter, this.#firstBase) !== document)) this.#refindFirstBase();
    }
    return this.#updateDocumentBaseURL();
  }

  // --- Which document a node belongs to -----------------------------------------------

  /** The context of `document`: this one, a registered one, or one made now (implicitly). */
  contextOfDocument(document: object): Context {
    if (document === this.documentNode) return this;
    const known = registry.get(document);
    if (known !== undefined) {
      known.sync();
      return known;
    }
    const context = new Context(this.adapter, document, { xmlBase: this.xmlBase }, true, null);
    registry.set(document, context);
    if (this.#observer !== null) {
      try {
        context.startObserving();
      } catch {
        // Not observable (no MutationObserver in its realm): its context answers for it as it is now.
      }
    }
    return context;
  }

  /**
   * The inert document of the template contents
   * (https://html.spec.whatwg.org/multipage/scripting.html#appropriate-template-contents-owner-document):
   * URL about:blank, no about base URL, UTF-8.
   */
  #inertContext(): Context {
    if (this.documentNode === null) return this;
    const head = this.#head;
    head.#inert ??= new Context(this.adapter, null, { xmlBase: this.xmlBase }, false, head);
    return head.#inert;
  }

  /** The context of a node document as {@link NodeDocuments} tells it. */
  #contextOf(document: NodeDocument): Context {
    if (document === null) return this;
    if (document === INERT_DOCUMENT) return this.#inertContext();
    return this.contextOfDocument(document);
  }

  /** The context of `node`'s node document (https://dom.spec.whatwg.org/#concept-node-document). */
  contextOfNode(node: object): Context {
    return this.#contextOf(this.nodeDocuments.nodeDocument(node, this.documentNode));
  }

  contextOfRoot(root: object): Context {
    return this.#contextOf(this.nodeDocuments.rootNodeDocument(root, this.documentNode));
  }

  contextOfOwner(node: object, owner: object): Context {
    if (owner === this.documentNode) return this;
    return this.#contextOf(this.nodeDocuments.ownerNodeDocument(node, owner, this.documentNode));
  }

  /**
   * This document, when `node` is in a declarative shadow root kept as
   * template contents whose host is in it; else null. Makes no context for
   * another document (the jsdom layer makes its own, observed).
   */
  declarativeShadowRootDocument(node: object): object | null {
    return this.nodeDocuments.declarativeShadowRootDocument(node);
  }

  // --- Element base URLs ----------------------------------------------------------------

  elementScope(element: object): Scope {
    return elementScope(this, element);
  }

  /** The scope of any node: an element's own; a child node's parent element's; else its document's. */
  nodeScope(node: object): Scope {
    const adapter = this.adapter;
    // Optimisation: a tree that records node documents answers without xml:base in one step.
    const owner = adapter.getOwnerDocument(node);
    if (owner !== null) {
      const context = this.contextOfOwner(node, owner);
      if (!context.xmlBase) return context.root;
    }
    if (adapter.isElementNode(node)) return this.elementScope(node);
    if (adapter.isDocumentNode(node)) return this.contextOfDocument(node).root;
    const parent = adapter.getParentNode(node);
    if (parent !== null && adapter.isElementNode(parent)) return this.elementScope(parent);
    return this.contextOfNode(node).root;
  }

  /** The current URL of `scope`. */
  scopeURL(scope: Scope): Readonly<URLRecord> {
    return this.scopes.scopeURL(this.adapter, scope);
  }

  nodeBaseHref(node: object): string {
    return this.scopes.scopeHref(this.adapter, this.nodeScope(node));
  }

  // --- Changes and mutations ------------------------------------------------------------

  onBaseURLChange(listener: BaseURLChangeListener<LooseMap>): () => void {
    return this.#listeners.add(listener);
  }

  emit(reason: BaseURLChangeReason, roots: readonly object[], oldBaseURL: string, newBaseURL: string): void {
    // Listeners of template contents' changes are the document's.
    const target = this.documentNode === null ? this.#head : this;
    target.#listeners.emit(target, reason, roots, oldBaseURL, newBaseURL);
  }

  attributeChanged(element: object, namespace: string | null, localName: string, oldValue?: string | null): void {
    attributeChanged(this, element, namespace, localName, oldValue);
  }

  childrenChanged(parent: object, change: ChildrenChange<LooseMap>): void {
    childrenChanged(this, parent, change);
  }

  adopted(node: object, oldDocument: DocumentContext<LooseMap> | object | null): void {
    structureChanged();
    let from: Context | null = null;
    if (oldDocument instanceof Context) from = oldDocument;
    else if (oldDocument !== null) from = this.contextOfDocument(oldDocument);
    adopted(this, node, from);
  }

  urlChanged(url: string | Readonly<URLRecord>, options?: URLChangeOptions): void {
    const parsed = parseAbsoluteURL(url, "document URL");
    if (options?.aboutBaseURL !== undefined) this.#aboutBaseURL = aboutBaseURLSnapshot(options.aboutBaseURL);
    this.#url = parsed;
    // A frozen base URL stays frozen until its element becomes first or its href changes.
    this.#updateDocumentBaseURL();
  }

  notifyMutation(records: MutationRecordLike<LooseMap> | ArrayLike<MutationRecordLike<LooseMap>> | Iterable<MutationRecordLike<LooseMap>>): void {
    notifyMutation(this, records);
  }

  // --- Observation ------------------------------------------------------------------------

  /** Starts observing (after registration, so that records can find their contexts). */
  startObserving(): void {
    const observe = this.adapter.observe;
    const handle =
      observe === undefined || this.documentNode === null
        ? null
        : observe.call(this.adapter, this.documentNode, (records) => this.notifyMutation(records), { xmlBase: this.xmlBase });
    if (handle === null) {
      throw new DocumentContextError(`The ${this.adapter.name} tree adapter cannot observe this document (observe: true)`);
    }
    this.#observer = handle;
  }

  /** Applies the records an observer has queued, if any (every query starts with this). */
  sync(): void {
    const observer = this.#observer;
    if (observer === null) return;
    const records = observer.takeRecords();
    if (records.length > 0) this.notifyMutation(records);
  }

  dispose(): void {
    this.#observer?.disconnect();
    this.#observer = null;
    this.#listeners.clear();
    if (this.documentNode !== null && registry.get(this.documentNode) === this) registry.delete(this.documentNode);
  }
}

/** The first of `elements` that `test` accepts, or null. */
function firstOf(elements: ArrayLike<object> | null, test: (element: object) => boolean): object | null {
  if (elements === null) return null;
  for (let i = 0; i < elements.length; i++) if (test(elements[i]!)) return elements[i]!;
  return null;
}

/** The about base URL snapshot from its source (a context's document base URL now, or a URL). */
function aboutBaseURLSnapshot(source: AboutBaseURLSource): Readonly<URLRecord> | null {
  if (source === null) return null;
  if (source instanceof Context) {
    source.sync();
    return source.root.url;
  }
  return parseAbsoluteURL(source as string | Readonly<URLRecord>, "about base URL");
}
