/**
 * The types of a document context: the {@link DocumentContext} interface,
 * its options, and the base-URL changes it reports (implemented in context.ts).
 *
 * @module
 */

import type { URLRecord } from "../core/index.ts";
import type { DocumentContextError } from "./errors.ts";
import type { DocumentBaseTreeAdapter, MutationRecordLike, TreeAdapterTypeMap } from "./tree-adapter.ts";

/**
 * Why a base URL changed:
 * - "document-base-url": a `base` element or the document URL changed;
 *   `roots` is `[document]`.
 * - "xml-base" (xmlBase on): an xml:base attribute changed.
 * - "adopted": nodes came from a document with another base URL.
 * - "inserted" / "removed": nodes moved under another chain of xml:base
 *   ancestors, or (in trees without node documents) between the document
 *   and template contents.
 *
 * @example
 * ```ts
 * context.onBaseURLChange(({ reason }) => {
 *   if (reason === "document-base-url") reresolveEverything();
 * });
 * ```
 */
export type BaseURLChangeReason = "document-base-url" | "xml-base" | "adopted" | "inserted" | "removed";

/**
 * One base-URL change, reported once, not once per element: every inclusive
 * descendant of every root is affected.
 *
 * @example
 * ```ts
 * // After base.setAttribute("href", "/v2/") and context.attributeChanged(base, null, "href", "/v1/"):
 * // { reason: "document-base-url", roots: [document],
 * //   oldBaseURL: "https://example.com/v1/", newBaseURL: "https://example.com/v2/", context }
 * ```
 */
export interface BaseURLChange<T extends TreeAdapterTypeMap = TreeAdapterTypeMap> {
  readonly reason: BaseURLChangeReason;
  /** The roots of the affected subtrees: the document, or the elements whose base URL changed. */
  readonly roots: readonly T["node"][];
  /** The roots' base URL before the change, serialized. */
  readonly oldBaseURL: string;
  /** The roots' base URL after the change, serialized. */
  readonly newBaseURL: string;
  readonly context: DocumentContext<T>;
}

/**
 * A listener given to {@link DocumentContext.onBaseURLChange}.
 *
 * @example
 * ```ts
 * const listener: BaseURLChangeListener = (change) => console.log(change.reason, change.newBaseURL);
 * ```
 */
export type BaseURLChangeListener<T extends TreeAdapterTypeMap = TreeAdapterTypeMap> = (change: BaseURLChange<T>) => void;

/**
 * Where a document's "about base URL"
 * (https://html.spec.whatwg.org/multipage/dom.html#concept-document-about-base-url)
 * comes from: a context (its document base URL now, as a snapshot), a URL,
 * or null.
 *
 * @example
 * ```ts
 * const source: AboutBaseURLSource = parentContext; // an iframe's creator or container
 * ```
 */
export type AboutBaseURLSource = DocumentContext | string | Readonly<URLRecord> | null;

/**
 * Options of {@link createDocumentContext}.
 *
 * @example
 * ```ts
 * const options: DocumentContextOptions = {
 *   url: "https://example.com/dir/page.html",
 *   encoding: "windows-1252",
 * };
 * ```
 */
export interface DocumentContextOptions {
  /**
   * https://dom.spec.whatwg.org/#concept-document-url — an absolute URL.
   * Default: what the tree records (a DOM document's `URL`), else "about:blank".
   */
  readonly url?: string | Readonly<URLRecord> | undefined;
  /**
   * https://dom.spec.whatwg.org/#concept-document-encoding — any Encoding
   * Standard label; it encodes the queries of special URLs (UTF-16 and
   * "replacement" use UTF-8). Default: what the tree records, else UTF-8.
   * An unknown label throws the core's `UnknownEncodingError`.
   */
  readonly encoding?: string | undefined;
  /**
   * https://html.spec.whatwg.org/multipage/dom.html#concept-document-about-base-url —
   * for an about:blank document its creator's context, for an iframe srcdoc
   * document its container's; taken now and never updated, as browsers do.
   * Default null: base URL about:blank, like `createHTMLDocument()`.
   */
  readonly aboutBaseURL?: AboutBaseURLSource | undefined;
  /**
   * Resolve xml:base attributes as HTML 5 and XML Base did, each against its
   * parent's base URL: one in the XML namespace or, on an SVG or MathML
   * element, one named "xml:base" in no namespace (as today's HTML parser
   * leaves it). Default false, as browsers ignore xml:base today.
   */
  readonly xmlBase?: boolean | undefined;
  /**
   * Observe the tree's mutations instead of being told (the DOM adapter does,
   * with MutationObserver); records are also applied at the start of every
   * query, so answers are always current. Default false.
   */
  readonly observe?: boolean | undefined;
}

/**
 * The nodes a {@link DocumentContext.childrenChanged} call reports.
 *
 * @example
 * ```ts
 * context.childrenChanged(head, { added: [base] });
 * context.childrenChanged(body, { removed: [oldSection], added: [newSection] });
 * ```
 */
export interface ChildrenChange<T extends TreeAdapterTypeMap = TreeAdapterTypeMap> {
  /** The nodes inserted as children of the parent (already in place). */
  readonly added?: ArrayLike<T["node"]> | Iterable<T["node"]> | undefined;
  /** The nodes removed from the parent (already detached). */
  readonly removed?: ArrayLike<T["node"]> | Iterable<T["node"]> | undefined;
}

/**
 * Options of {@link DocumentContext.urlChanged}.
 *
 * @example
 * ```ts
 * // document.open() called from another document makes this one about:srcdoc:
 * context.urlChanged("about:srcdoc", { aboutBaseURL: entryContext });
 * ```
 */
export interface URLChangeOptions {
  /** A new about base URL snapshot (see {@link DocumentContextOptions.aboutBaseURL}); default: keep the current one. */
  readonly aboutBaseURL?: AboutBaseURLSource | undefined;
}

/**
 * What docbase knows about one document: its URL, encoding and about base
 * URL, its caches and its listeners. Create one with
 * {@link createDocumentContext} and pass it to the algorithms.
 *
 * A tree docbase does not observe must report its mutations, after making
 * them, through `attributeChanged`, `childrenChanged`, `adopted` and
 * `urlChanged` (or `notifyMutation`); until told, the context answers for
 * the tree as it last knew it.
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import { createDocumentContext, documentBaseURL, parse5TreeAdapter } from "docbase/document-base";
 * const document = parse('<base href="/v1/">');
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/" });
 * context.onBaseURLChange((change) => console.log(change.oldBaseURL, "→", change.newBaseURL));
 * const base = findBase(document); // your own lookup
 * parse5TreeAdapter.setAttribute(base, null, "href", "/v2/");
 * context.attributeChanged(base, null, "href", "/v1/");
 * // logs "https://example.com/v1/ → https://example.com/v2/"
 * ```
 */
export interface DocumentContext<T extends TreeAdapterTypeMap = TreeAdapterTypeMap> {
  readonly adapter: DocumentBaseTreeAdapter<T>;
  readonly document: T["document"];
  /** https://dom.spec.whatwg.org/#concept-document-url — serialized. */
  readonly url: string;
  /** https://dom.spec.whatwg.org/#concept-document-encoding — the encoding's name ("windows-1252", "UTF-16LE"). */
  readonly encoding: string;
  /** The about base URL snapshot, serialized, or null. */
  readonly aboutBaseURL: string | null;
  readonly xmlBase: boolean;
  /** The `observe` option. */
  readonly observing: boolean;

  /**
   * Calls `listener` after each base-URL change the context learns of (when
   * told, or when it applies mutation records), once the caches are updated;
   * returns a function that removes it. Changes between two deliveries of
   * records are coalesced into one call, or none. If a listener throws, the
   * others still run, then the error is rethrown.
   */
  onBaseURLChange(listener: BaseURLChangeListener<T>): () => void;
  /**
  /**
   * Reports that an attribute of `element` was set, changed or removed
   * (https://dom.spec.whatwg.org/#concept-element-attributes-change-ext);
   * `oldValue` (null: absent), when known, makes the old base URL exact.
   */
  attributeChanged(element: T["element"], namespace: string | null, localName: string, oldValue?: string | null): void;
  /**
   * Reports that children of `parent` were inserted and/or removed
   * (https://dom.spec.whatwg.org/#concept-node-children-changed-ext).
   */
  childrenChanged(parent: T["node"], change: ChildrenChange<T>): void;
  /**
   * Reports that `node` moved to this document from `oldDocument` (null when
   * unknown) (https://dom.spec.whatwg.org/#concept-node-adopt-ext), once it is
   * detached; report the insertion with `childrenChanged`.
   */
  adopted(node: T["node"], oldDocument: DocumentContext<T> | T["document"] | null): void;
  /**
   * Reports that the document's URL changed (pushState(), replaceState(),
   * document.open()); a base's frozen base URL stays frozen. Throws a
   * {@link DocumentContextError} for a string that is not an absolute URL.
   */
  urlChanged(url: string | Readonly<URLRecord>, options?: URLChangeOptions): void;
  /** Reports mutations as MutationRecord-shaped objects; other record types are ignored. */
  notifyMutation(records: MutationRecordLike<T> | ArrayLike<MutationRecordLike<T>> | Iterable<MutationRecordLike<T>>): void;
  /** Stops observing, drops the listeners, and frees the document for a new context. */
  dispose(): void;
}
