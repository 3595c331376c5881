/**
 * The document contexts of one installation: its window document's, and the
 * context of any node read through its getters (a frame's or container's
 * document, a declarative shadow root's, a document without a window).
 *
 * @module
 */

import {
  type BaseURLChange,
  createDocumentContext,
  type DocumentBaseTreeAdapter,
  documentContextOf,
  type DOMTreeAdapterMap,
  type MutationRecordLike,
} from "../document-base/index.ts";
import { contextImpl } from "../document-base/document-context.ts";
import { installations, type RegisteredInstallation } from "./installations.ts";
import type { DocumentLike, DOMContext, MutationObserverLike, NodeLike, WindowLike } from "./window.ts";

/**
 * Every context an installation made, and the one of its window's
 * document.
 *
 * @example
 * ```ts
 * const contexts = new DocumentContexts(installation, window, adapter, false, (change) => listeners.emit(change));
 * contexts.documentContext = contexts.create(window.document, null, undefined);
 * contexts.contextOf(node); // that context, for a node of the window's document
 * ```
 */
export class DocumentContexts {
  readonly #owner: RegisteredInstallation;
  readonly #window: WindowLike;
  readonly #adapter: DocumentBaseTreeAdapter<DOMTreeAdapterMap>;
  readonly #xmlBase: boolean;
  readonly #onBaseURLChange: (change: BaseURLChange<DOMTreeAdapterMap>) => void;
  /** Every context made here (the window document's, and synthetic documents'). */
  readonly #made = new Set<DOMContext>();
  /** Documents without a window that this window's nodes belong to, each with its observer. */
  readonly #otherDocuments = new Map<object, { context: DOMContext; observer: MutationObserverLike }>();
  /** The window document's context, once the document is activated. */
  documentContext: DOMContext | null = null;

  constructor(
    owner: RegisteredInstallation,
    window: WindowLike,
    adapter: DocumentBaseTreeAdapter<DOMTreeAdapterMap>,
    xmlBase: boolean,
    onBaseURLChange: (change: BaseURLChange<DOMTreeAdapterMap>) => void,
  ) {
    this.#owner = owner;
    this.#window = window;
    this.#adapter = adapter;
    this.#xmlBase = xmlBase;
    this.#onBaseURLChange = onBaseURLChange;
  }

  /** A new context of `document`, whose base-URL changes are reported. */
  create(document: DocumentLike, aboutBaseURL: string | null, url: string | undefined): DOMContext {
    const context = createDocumentContext(this.#adapter, document, {
      url: url ?? document.URL,
      // An about:blank or about:srcdoc frame's document is UTF-8 (jsdom gives it its parent's).
      encoding: aboutBaseURL !== null && document === this.#window.document ? "UTF-8" : document.characterSet,
      aboutBaseURL,
      xmlBase: this.#xmlBase,
      observe: false,
    });
    this.#made.add(context);
    context.onBaseURLChange(this.#onBaseURLChange);
    return context;
  }

  /** Whether `context` was made here (not by someone before the installation). */
  made(context: DOMContext): boolean {
    return this.#made.has(context);
  }

  /** Disposes of `context`, made here. */
  dispose(context: DOMContext): void {
    context.dispose();
    this.#made.delete(context);
  }

  /**
   * The context of a node's node document, the records taken. A document
   * without a window gets one on first use: URL about:blank, no about base
   * URL, as the standard gives synthetic documents.
   */
  contextOf(node: NodeLike): DOMContext {
    const document = (node.ownerDocument ?? node) as DocumentLike;
    const own = this.documentContext;
    if (document === this.#window.document && own !== null) return own;
    // jsdom 31 keeps a declarative shadow root as a template, whose contents' ownerDocument is the
    // inert document; its node document is this one (see document-base's declarative-shadow-root.ts).
    if (own !== null && document !== node && contextImpl(own).declarativeShadowRootDocument(node) === this.#window.document) {
      return own;
    }
    const other = this.#otherDocuments.get(document);
    if (other !== undefined) {
      // Bring that document's context up to date too.
      const records = other.observer.takeRecords();
      if (records.length > 0) other.context.notifyMutation(records as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
      return other.context;
    }
    // A document of another installed window (a frame's, or its container's): that installation's
    // context, brought up to date as its own reads do.
    const view = (document as { readonly defaultView?: unknown }).defaultView;
    const owner = view === null || typeof view !== "object" ? undefined : installations.get(view);
    if (owner !== undefined && owner !== this.#owner) {
      const context = owner.syncedDocumentContext();
      if (context !== null) return context;
    }
    const existing = documentContextOf<DOMTreeAdapterMap>(document);
    if (existing !== undefined) return existing;
    // A document without a window (createHTMLDocument, DOMParser, template contents' owner)
    // cannot be observed by its own context: this window's MutationObserver watches it.
    const context = this.create(document, null, undefined);
    const observer = new this.#window.MutationObserver((records) => {
      context.notifyMutation(records as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
    });
    // The context acts on the tree, base elements' href and, with xml:base, every attribute (an
    // attributeFilter never matches a namespaced one).
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeOldValue: true,
      ...(this.#xmlBase ? {} : { attributeFilter: ["href"] }),
    });
    this.#otherDocuments.set(document, { context, observer });
    return context;
  }

  /** Stops observing the documents without a window (first, at uninstall). */
  disconnect(): void {
    for (const { observer } of this.#otherDocuments.values()) observer.disconnect();
    this.#otherDocuments.clear();
  }

  /** Disposes of every context made here (at uninstall). */
  disposeAll(): void {
    for (const context of this.#made) context.dispose();
    this.#made.clear();
  }
}
