/**
 * The types of a document context: the {@link DocumentContext} interface
 * (what docbase knows about one document, and how a caller reports the
 * tree's mutations to it), its options, and the base-URL changes it
 * reports. The implementation is context.ts.
 *
 * @module
 */

import type { URLRecord } from "../core/index.ts";
import type { DocumentContextError } from "./errors.ts";
import type { DocumentBaseTreeAdapter, MutationRecordLike, TreeAdapterTypeMap } from "./tree-adapter.ts";

/**
 * Why a base URL changed:
 * - "document-base-url": the document base URL changed (a `base` element was
 *   inserted, removed or had its href changed, or the document URL changed);
 *   every node of the document is affected, and `roots` is `[document]`.
 * - "xml-base" (xmlBase on): an xml:base attribute was set, changed or
 *   removed; the element and its descendants are affected.
 * - "adopted": nodes moved to this document from another one with a
 *   different base URL.
 * - "inserted" / "removed" (mostly with xmlBase on): nodes were inserted or
 *   removed, and so have a new base URL, under a different chain of
 *   xml:base ancestors. In trees that do not record node documents (parse5,
 *   domhandler), an insertion that moves nodes the context knew between the
 *   document and template contents is reported so too; moves between
 *   documents are reported by `adopted()`.
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
 * One base-URL change, as a listener receives it: once per change, not once
 * per affected element. Every inclusive descendant of every root is
 * affected (its base URL was computed from the root's).
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
  /** The context that reported it. */
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
 * Where a document's "about base URL" comes from
 * (https://html.spec.whatwg.org/multipage/dom.html#concept-document-about-base-url):
 * a context (its document base URL is taken now, as a snapshot), a URL, or
 * null for none.
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
   * https://dom.spec.whatwg.org/#concept-document-url — the document's URL,
   * an absolute URL. Default: what the tree records (a DOM document's
   * `URL`), else "about:blank" (as for `new Document()`).
   */
  readonly url?: string | Readonly<URLRecord> | undefined;
  /**
   * https://dom.spec.whatwg.org/#concept-document-encoding — any Encoding
   * Standard label ("latin1", "sjis", "utf-16le"…). URL queries of http(s),
   * ftp and file URLs are encoded with it; UTF-16 and "replacement" use
   * UTF-8. Default: what the tree records (a DOM document's `characterSet`),
   * else UTF-8. An unknown label throws the core's `UnknownEncodingError`.
   */
  readonly encoding?: string | undefined;
  /**
   * https://html.spec.whatwg.org/multipage/dom.html#concept-document-about-base-url —
   * for an about:blank document, its creator's (initiator's) context; for an
   * iframe srcdoc document (URL about:srcdoc), its container document's.
   * The document base URL of that context is taken now and never updated,
   * as browsers do. Default null: an about:blank document then has base URL
   * about:blank, like `createHTMLDocument()`.
   */
  readonly aboutBaseURL?: AboutBaseURLSource | undefined;
  /**
   * Resolve xml:base attributes as HTML 5 and XML Base did: each against
   * its parent's base URL, up to the document base URL. An xml:base
   * attribute is one in the XML namespace (as an XML parser, or
   * `setAttributeNS`, makes it) or, on an SVG or MathML element, one named
   * "xml:base" in no namespace (as today's HTML parser leaves it in inline
   * SVG; HTML 5's parser put it in the XML namespace). Default false, as
   * browsers ignore xml:base today; Atom, XHTML and SVG processors want it on.
   */
  readonly xmlBase?: boolean | undefined;
  /**
   * Observe the tree's mutations instead of being told about them (the
   * adapter must support it: the DOM adapter does, with MutationObserver).
   * Records are applied when the observer delivers them and, synchronously,
   * at the start of every query, so answers are always current. Default false.
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
 * URL, its caches, and its listeners. Create one with
 * {@link createDocumentContext}; pass it to the algorithms
 * (`documentBaseURL(context)`, `elementBaseURL(context, element)`, …).
 *
 * A tree docbase cannot observe (a parse5 or domhandler tree, or a DOM
 * without the `observe` option) must report its mutations, after making
 * them, through `attributeChanged`, `childrenChanged`, `adopted` and
 * `urlChanged` (or `notifyMutation` with MutationRecord-shaped objects).
 * Until told, the context answers for the tree as it last knew it.
 *
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
  /** The adapter through which the tree is read. */
  readonly adapter: DocumentBaseTreeAdapter<T>;
  /** The document. */
  readonly document: T["document"];
  /** https://dom.spec.whatwg.org/#concept-document-url — serialized. */
  readonly url: string;
  /** https://dom.spec.whatwg.org/#concept-document-encoding — the encoding's name ("windows-1252", "UTF-16LE"). */
  readonly encoding: string;
  /** The about base URL snapshot, serialized, or null. */
  readonly aboutBaseURL: string | null;
  /** Whether xml:base is resolved. */
  readonly xmlBase: boolean;
  /** Whether the context observes the tree itself (the `observe` option). */
  readonly observing: boolean;

  /**
   * Calls `listener` after each base-URL change the context learns of, once
   * per change; returns a function that removes it. Listeners run
   * synchronously, after the caches are updated, so they can query the new
   * values. If a listener throws, the others still run, then the error is
   * rethrown.
   *
   * A context learns of a change when told (`attributeChanged`,
   * `childrenChanged`, `adopted`, `urlChanged`: a caller that reports each
   * mutation as it makes it hears of each change), or when it applies
   * mutation records (`notifyMutation`, or the `observe` option: when the
   * observer delivers them, or at the next query). Records are applied to
   * the tree as it is then, so the changes between two deliveries are
   * coalesced: one call from the base URL last reported to the current one,
   * none when it is back where it was.
   */
  onBaseURLChange(listener: BaseURLChangeListener<T>): () => void;
  /**
   * Reports that an attribute of `element` was set, changed or removed
   * (https://dom.spec.whatwg.org/#concept-element-attributes-change-ext).
   * `oldValue` is its value before (null: it was absent); pass it when
   * known, so that the old base URL can be reported exactly.
   */
  attributeChanged(element: T["element"], namespace: string | null, localName: string, oldValue?: string | null): void;
  /**
   * Reports that children of `parent` were inserted and/or removed
   * (https://dom.spec.whatwg.org/#concept-node-children-changed-ext).
   */
  childrenChanged(parent: T["node"], change: ChildrenChange<T>): void;
  /**
   * Reports that `node` (and its subtree) moved to this document from
   * `oldDocument` (a context or a document; null when unknown)
   * (https://dom.spec.whatwg.org/#concept-node-adopt-ext). Call it once the
   * node is detached from its old parent; report the insertion with
   * `childrenChanged` as usual.
   */
  adopted(node: T["node"], oldDocument: DocumentContext<T> | T["document"] | null): void;
  /**
   * Reports that the document's URL changed (history.pushState(),
   * replaceState(), document.open()). The document base URL follows only
   * when there is no `base` element: a base's frozen base URL stays frozen.
   * Throws a {@link DocumentContextError} for a string that is not an absolute URL.
   */
  urlChanged(url: string | Readonly<URLRecord>, options?: URLChangeOptions): void;
  /**
   * Reports mutations as DOM MutationRecord-shaped objects (DOM records can
   * be passed as they are). Records of other types are ignored.
   */
  notifyMutation(records: MutationRecordLike<T> | ArrayLike<MutationRecordLike<T>> | Iterable<MutationRecordLike<T>>): void;
  /** Stops observing, drops the listeners, and frees the document for a new context. */
  dispose(): void;
}
