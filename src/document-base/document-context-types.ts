/**
 * The document context: what the HTML Standard knows about a `Document`
 * that a tree does not carry (its URL, its character encoding, its "about
 * base URL"), the caches that make resolving every element's base URL
 * linear, and base-URL change propagation.
 *
 * The algorithms themselves are the HTML Standard's, each under its link:
 * - fallback base URL, document base URL:
 *   https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-urls
 * - the frozen base URL of the first `base` element:
 *   https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url
 * - the element base URL with xml:base (opt-in), as HTML 5 defined it
 *   (https://www.w3.org/TR/2014/REC-html5-20141028/infrastructure.html#base-urls,
 *   with XML Base, https://www.w3.org/TR/xmlbase/).
 *
 * How the caches stay right:
 *
 * - The document base URL is computed when the context is created and kept
 *   up to date eagerly: the HTML Standard sets the frozen base URL
 *   "immediately" when a `base` element becomes the first one with an href,
 *   or when that one's href changes. So every mutation that can change it
 *   (reported through `attributeChanged`, `childrenChanged`, `urlChanged`,
 *   or observed) recomputes it at once, and a base URL change is reported
 *   with its old and new value.
 * - An element's base URL is a "scope": the document's (one shared object,
 *   updated in place), or, with xml:base, the scope of the nearest
 *   inclusive ancestor carrying xml:base, which resolves its attribute
 *   against its parent scope. Elements map to their scope in a WeakMap,
 *   filled along the ancestor path of each element asked about, so that
 *   asking about every element of a document costs one step per element.
 *   (A tree that records node documents, the DOM, needs no map without
 *   xml:base: `ownerDocument` names the scope.) A scope recomputes its URL only when its parent scope's URL changed
 *   (versions), and checks that at most once per change (epochs).
 * - Invalidation is precise: a mutation drops the cached scopes of the
 *   subtrees it moved (inserted, removed, adopted) or restructured (an
 *   xml:base attribute added or removed), and nothing else; a changed
 *   xml:base value or document base URL only marks scopes stale.
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
import { HTML_NAMESPACE, headOf, isBaseElement, isBaseElementWithHref, MATHML_NAMESPACE, SVG_NAMESPACE, XML_NAMESPACE } from "../html/index.ts";
import { matchesAboutBlank, matchesAboutSrcdoc } from "./about-url.ts";
import { DocumentContextError } from "./errors.ts";
import type { DocumentBaseTreeAdapter, MutationObserverHandle, MutationRecordLike, TreeAdapterTypeMap } from "./tree-adapter.ts";
import { declarativeShadowRootTemplateOf, shadowRootModeState } from "./declarative-shadow-root.ts";
import { findInclusiveDescendant, forEachInclusiveDescendant, type LooseAdapter, type LooseMap, rootOf } from "./tree-walk.ts";

// --- Public types --------------------------------------------------------------

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

// --- Implementation -------------------------------------------------------------

/** A base-URL scope: the document's, or one xml:base element's. */
class Scope {
  /** The context of the document this scope belongs to. */
  readonly owner: Context;
  /** The element carrying xml:base, or null for the document scope. */
  readonly element: object | null;
  /** The parent scope, or null for the document scope. */
  readonly parent: Scope | null;
  /** The scope's base URL (frozen; shared, never mutated). */
  url: Readonly<URLRecord>;
  /** Its serialization. */
  href: string;
  /** Bumped whenever `href` changes. */
  version = 0;
  /** The parent's version `url` was computed from (-1: compute again). */
  parentVersion = -1;
  /** The family epoch at which the scope was last found current. */
  checked = -1;

  constructor(owner: Context, element: object | null, parent: Scope | null, url: Readonly<URLRecord>) {
    this.owner = owner;
    this.element = element;
    this.parent = parent;
    this.url = url;
    this.href = serializeURL(url);
  }
}

/**
 * A document and the inert document of its template contents share one
 * cache (template contents move between them with their templates).
 */
interface Family {
  /** Element → scope; see the module comment. */
  readonly scopes: WeakMap<object, Scope>;
  /** Bumped on every change that can make a scope stale. */
  epoch: number;
}

/** A pending old value, for the events of one mutation. */
interface PendingChange {
  readonly node: object;
  readonly reason: BaseURLChangeReason;
  readonly old: string;
}

/** Every live context, by document (at most one per document). */
const registry = new WeakMap<object, Context>();

/**
 * Counts the reported changes of any tree's structure (`childrenChanged`,
 * `adopted`): what is remembered about where a declarative shadow root
 * hangs holds for one value.
 */
let structureVersion = 0;

function freezeURL(url: URLRecord): Readonly<URLRecord> {
  return Object.freeze(url);
}

function parseAbsoluteURL(input: string | Readonly<URLRecord>, what: string): Readonly<URLRecord> {
  if (typeof input !== "string") return freezeURL(cloneURLRecord(input as URLRecord));
  const url = basicURLParse(input);
  if (url === null) throw new DocumentContextError(`The ${what} is not an absolute URL: ${JSON.stringify(input)}`);
  return freezeURL(url);
}

function toArray<N>(nodes: ArrayLike<N> | Iterable<N> | undefined): readonly N[] {
  if (nodes === undefined) return [];
  return Array.isArray(nodes) ? nodes : Array.from(nodes as ArrayLike<N>);
}

/**
 * An element's xml:base value (https://www.w3.org/TR/xmlbase/#syntax), or
 * null: its attribute `base` in the XML namespace, or, on an SVG or MathML
 * element, an attribute named "xml:base" in no namespace, as today's HTML
 * parser makes it.
 *
 * The HTML Standard's parser put a parsed `xml:base` in the XML namespace
 * ("adjust foreign attributes", https://www.w3.org/TR/2014/REC-html5-20141028/syntax.html#adjust-foreign-attributes:
 * "xml:base | xml | base | XML namespace") until xml:base was dropped from
 * it; today's table no longer lists it, so the attribute keeps its name and
 * no namespace. On HTML elements the parser never adjusted it: there it is
 * an ordinary attribute. Deviation: an attribute named "xml:base" in no
 * namespace set by a script (`setAttribute("xml:base", …)` on an SVG
 * element) cannot be told from the parser's and counts too; when an element
 * has both, the one in the XML namespace is its xml:base.
 */
function xmlBaseOf(adapter: LooseAdapter, element: object): string | null {
  const value = adapter.getAttribute(element, XML_NAMESPACE, "base");
  if (value !== null || !isForeignElement(adapter, element)) return value;
  return adapter.getAttribute(element, null, "xml:base");
}

/** Whether `element` is in the SVG or the MathML namespace (foreign content, where the HTML parser adjusts attributes). */
function isForeignElement(adapter: LooseAdapter, element: object): boolean {
  const namespace = adapter.getNamespaceURI(element);
  return namespace === SVG_NAMESPACE || namespace === MATHML_NAMESPACE;
}

/** Turns the public `DocumentContext` back into the implementation, or throws. */
export function contextImpl(context: unknown): Context {
  if (context instanceof Context) return context;
  throw new DocumentContextError(`Not a DocumentContext (made by createDocumentContext): ${String(context)}`);
}

/**
 * The implementation of {@link DocumentContext}. Its members without a
 * `#` are used by the algorithm functions (document-base-url.ts); the class
 * itself is not exported from the layer.
 */
export class Context implements DocumentContext<LooseMap> {
  readonly adapter: LooseAdapter;
  /** The document, or null for the inert document of template contents (parse5 and domhandler trees). */
  readonly documentNode: object | null;
  readonly xmlBase: boolean;
  /** The document's character encoding. */
  readonly characterEncoding: EncodingName;
  /** The encoding URL queries are encoded with (https://encoding.spec.whatwg.org/#get-an-output-encoding). */
  readonly outputEncoding: OutputEncodingName;
  /** The document scope: its URL is the document base URL. */
  readonly root: Scope;
  readonly family: Family;
  /** Created by a lookup, not by createDocumentContext: it gives way to an explicit one. */
  readonly implicit: boolean;

  #url: Readonly<URLRecord>;
  #aboutBaseURL: Readonly<URLRecord> | null;
  /** The first `base` element with an href in tree order, or null. */
  #firstBase: object | null = null;
  /** That element's frozen base URL. */
  #frozenBaseURL: Readonly<URLRecord> | null = null;
  /** The family head's inert document context (parse5 and domhandler trees). */
  #inert: Context | null = null;
  readonly #head: Context;
  /** Template contents met so far (trees whose contents do not link to their template). */
  #templateContents: WeakSet<object> | null = null;
  #templatesIndexed = false;
  /**
   * The contents of the templates that stand for declarative shadow roots,
   * each to its template (see {@link #declarativeShadowTemplate}); null until
   * looked for, then empty when there are none.
   */
  #declarativeShadowRoots: WeakMap<object, object> | null = null;
  /** Whether {@link #declarativeShadowRoots} has any entry. */
  #hasDeclarativeShadowRoots = false;
  /** For declarative shadow roots, the outermost template of their chain (see {@link #outermostShadowTemplate}). */
  #outermostShadowTemplates: WeakMap<object, { readonly version: number; readonly template: object }> | null = null;
  readonly #listeners = new Set<BaseURLChangeListener<LooseMap>>();
  #observer: MutationObserverHandle<LooseMap> | null = null;

  constructor(
    adapter: LooseAdapter,
    documentNode: object | null,
    options: DocumentContextOptions,
    implicit: boolean,
    head: Context | null,
  ) {
    this.adapter = adapter;
    this.documentNode = documentNode;
    this.implicit = implicit;
    this.#head = head ?? this;
    this.family = head === null ? { scopes: new WeakMap(), epoch: 0 } : head.family;
    this.xmlBase = options.xmlBase ?? false;

    const label = options.encoding ?? (documentNode !== null ? adapter.getDocumentEncoding?.(documentNode) : null) ?? "UTF-8";
    const encoding = getEncoding(label);
    if (encoding === null) throw new UnknownEncodingError(label);
    this.characterEncoding = encoding;
    this.outputEncoding = getOutputEncoding(encoding);

    const url = options.url ?? (documentNode !== null ? adapter.getDocumentURL?.(documentNode) : null) ?? "about:blank";
    this.#url = parseAbsoluteURL(url, "document URL");
    this.#aboutBaseURL = aboutBaseURLSnapshot(options.aboutBaseURL ?? null);

    // The document base URL, computed now and kept current (see the module comment).
    this.#firstBase = this.#findFirstBase();
    this.#frozenBaseURL = this.#firstBase === null ? null : this.#frozenBaseURLOf(this.#firstBase);
    this.root = new Scope(this, null, null, this.#frozenBaseURL ?? this.fallbackBaseURL());
  }

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

  // --- Public properties ------------------------------------------------------------

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

  /**
   * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url
   */
  fallbackBaseURL(): Readonly<URLRecord> {
    // 1. If document is an iframe srcdoc document: assert that its about base URL is non-null,
    //    and return it. ("An iframe srcdoc document" is one whose URL matches about:srcdoc, so
    //    that document.open() and replaceState("about:srcdoc#foo") keep it one, as the WPT
    //    nontraditional-about-srcdoc test expects.)
    if (matchesAboutSrcdoc(this.#url) && this.#aboutBaseURL !== null) return this.#aboutBaseURL;
    // Deviation: a srcdoc document created without an about base URL fails the standard's
    // assertion; it falls through to its URL (about:srcdoc) instead of throwing.
    // 2. If document's URL matches about:blank and document's about base URL is non-null,
    //    then return document's about base URL.
    if (this.#aboutBaseURL !== null && matchesAboutBlank(this.#url)) return this.#aboutBaseURL;
    // 3. Return document's URL.
    return this.#url;
  }

  /**
   * https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url —
   * the frozen base URL `element` gets when it is set now.
   */
  #frozenBaseURLOf(element: object): Readonly<URLRecord> {
    // 1. Let document be element's node document.
    // 2. Let urlRecord be the result of parsing the value of element's href content attribute
    //    with document's fallback base URL, and document's character encoding. (Thus, the base
    //    element isn't affected by itself.)
    const fallback = this.fallbackBaseURL();
    const href = this.adapter.getAttribute(element, null, "href") ?? "";
    const urlRecord = basicURLParse(href, { base: fallback, encoding: this.outputEncoding });
    // 3. If urlRecord is failure, its scheme is "data" or "javascript", or "Is base allowed for
    //    Document?" returns "Blocked", then set the frozen base URL to the fallback base URL.
    //    Deviation: there is no Content Security Policy here, so no base is ever blocked.
    if (urlRecord === null || urlRecord.scheme === "data" || urlRecord.scheme === "javascript") return fallback;
    // 4. Set element's frozen base URL to urlRecord.
    return freezeURL(urlRecord);
  }

  /**
   * The first `base` element with an href attribute in the document, in tree
   * order (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url):
   * only HTML `base` elements (an SVG or MathML element named base is not
   * one), and never inside template contents, which are not in the document.
   */
  #findFirstBase(): object | null {
    const document = this.documentNode;
    if (document === null) return null;
    const adapter = this.adapter;
    if (adapter.getElementsByTagNameNS !== undefined && adapter.isDocumentNode(document)) {
      // Optimisation: a base element with an href in the head is the first one in the document,
      // found without looking at the rest of the tree (the whole body, on a large page). Tree order
      // is preorder: when the document element is an html element whose first element child is
      // the head, the only nodes before the head's descendants are the document, the html element
      // and nodes that are not elements (a document has one element child; text, comments,
      // doctypes and processing instructions have no children). So no base element comes before
      // the head's first one.
      const head = headOf(adapter, document);
      if (head !== null) {
        const inHead = adapter.getElementsByTagNameNS(head, HTML_NAMESPACE, "base");
        if (inHead !== null) {
          for (let i = 0; i < inHead.length; i++) {
            const base = inHead[i]!;
            if (adapter.getAttribute(base, null, "href") !== null) return base;
          }
        }
      }
      // Optimisation: the tree's own index of HTML base elements, in tree order.
      const bases = adapter.getElementsByTagNameNS(document, HTML_NAMESPACE, "base");
      if (bases !== null) {
        for (let i = 0; i < bases.length; i++) {
          const base = bases[i]!;
          if (adapter.getAttribute(base, null, "href") !== null) return base;
        }
        return null;
      }
    }
    return findInclusiveDescendant(adapter, document, (node) => isBaseElementWithHref(adapter, node), false);
  }

  /** The first base element's frozen base URL, or null when it is not `element`. */
  frozenBaseURLOf(element: object): Readonly<URLRecord> | null {
    return element === this.#firstBase ? this.#frozenBaseURL : null;
  }

  /**
   * Finds the first base element again; when a different element (or none)
   * is now first, "the base element becomes the first base element" and its
   * frozen base URL is set.
   */
  #refindFirstBase(): void {
    const found = this.#findFirstBase();
    if (found === this.#firstBase) return;
    this.#firstBase = found;
    this.#frozenBaseURL = found === null ? null : this.#frozenBaseURLOf(found);
  }

  /**
   * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url —
   * recomputes the document base URL from the first base element's frozen
   * base URL or the fallback base URL, and returns the change, if any.
   */
  #commitDocumentBaseURL(): { readonly old: string; readonly new: string } | null {
    // 1. If there is no base element that has an href attribute in the Document, then return
    //    the Document's fallback base URL.
    // 2. Otherwise, return the frozen base URL of the first base element in the Document that
    //    has an href attribute, in tree order.
    const url = this.#frozenBaseURL ?? this.fallbackBaseURL();
    const root = this.root;
    if (url === root.url) return null;
    const href = serializeURL(url);
    const old = root.href;
    root.url = url;
    if (href === old) return null;
    root.href = href;
    root.version++;
    this.family.epoch++;
    return { old, new: href };
  }

  // --- Which document a node belongs to -----------------------------------------------

  /** The context of `document` (another document than this one): registered, or made implicitly. */
  #contextOfDocument(document: object): Context {
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
        // That document cannot be observed (no MutationObserver in its realm): its context
        // answers for it as it is now.
      }
    }
    return context;
  }

  /**
   * The inert document of this document's template contents
   * (https://html.spec.whatwg.org/multipage/scripting.html#appropriate-template-contents-owner-document):
   * a new Document, so URL about:blank, no about base URL, UTF-8.
   */
  #inertContext(): Context {
    if (this.documentNode === null) return this;
    const head = this.#head;
    head.#inert ??= new Context(this.adapter, null, { xmlBase: this.xmlBase }, false, head);
    return head.#inert;
  }

  /**
   * Whether `fragment` is template contents (asking the tree, else the
   * templates seen). Deviation: in a tree that keeps no link from contents
   * to their template (parse5's default tree), the contents of a template
   * that was never in the document (nor reported inserted) cannot be told
   * from a detached fragment, and are taken as one (of this document).
   */
  #isTemplateContent(fragment: object): boolean {
    const known = this.adapter.isTemplateContent?.(fragment);
    if (known !== undefined) return known;
    const head = this.#head;
    if (head.#templateContents?.has(fragment) === true) return true;
    if (head.#templatesIndexed) return false;
    // First time: index every template reachable from the document (nested ones included).
    head.#templatesIndexed = true;
    head.#templateContents ??= new WeakSet();
    if (head.documentNode !== null) head.#indexTemplates(head.documentNode);
    return head.#templateContents.has(fragment);
  }

  #indexTemplates(root: object): void {
    const adapter = this.adapter;
    const contents = this.#templateContents!;
    forEachInclusiveDescendant(adapter, root, (node) => {
      const content = adapter.getTemplateContent(node);
      if (content !== null) contents.add(content);
    });
  }

  /**
   * Finds the templates of the document (the family head's) that stand for
   * declarative shadow roots, once: those that
   * `attachesDeclarativeShadowRoot` (declarative-shadow-root.ts) says the parser turned into shadow
   * roots, in the document's tree, in their contents and in template
   * contents (as browsers do: "template containing declarative shadow root"
   * in WPT's shadow-dom/declarative/declarative-shadow-dom-basic.html;
   * Deviation: the HTML Standard's inert document of template contents,
   * "a new Document", has its allow declarative shadow roots false, which
   * would leave those as templates; the shadow roots' node document is the
   * inert document either way, so no base URL differs).
   *
   * Only a document made by a parser that honours declarative shadow roots
   * and keeps them as templates has any: a root fragment (parse5's
   * `parseFragment()`, whose document's "allow declarative shadow roots" is
   * false) has none, and a DOM whose parser attaches them itself (see
   * {@link DocumentBaseTreeAdapter.keepsDeclarativeShadowRoots}) has none
   * left. Deviation: the tree is read the first time a declarative shadow
   * root matters (a node whose tree is template contents is asked about),
   * not as the parser built it: the templates inserted before that and
   * reported (`childrenChanged`) are left out, but those inserted without a
   * report are taken as the parser's.
   */
  #findDeclarativeShadowRoots(excluding?: readonly object[]): WeakMap<object, object> {
    const head = this.#head;
    if (head.#declarativeShadowRoots !== null) return head.#declarativeShadowRoots;
    const found = new WeakMap<object, object>();
    head.#declarativeShadowRoots = found;
    const document = head.documentNode;
    const adapter = this.adapter;
    if (document === null || !(adapter.keepsDeclarativeShadowRoots?.(document) ?? adapter.isDocumentNode(document))) return found;
    // Optimisation: each host's children are looked at once (a host with 100,000 children
    // before its templates would cost as many steps per template otherwise).
    const byHost = new Map<object, unknown>();
    const visitInner = (node: object): void => {
      const content = adapter.getTemplateContent(node);
      if (content === null || shadowRootModeState(adapter.getAttribute(node, null, "shadowrootmode")) === "none") return;
      const host = adapter.getParentNode(node);
      if (host === null) return;
      let template = byHost.get(host);
      if (template === undefined) byHost.set(host, (template = declarativeShadowRootTemplateOf(adapter as DocumentBaseTreeAdapter, host)));
      if (template !== node) return;
      found.set(content, node);
      head.#hasDeclarativeShadowRoots = true;
    };
    const visit = (node: object): void => {
      visitInner(node);
      const content = adapter.getTemplateContent(node);
      if (content === null) return;
      // Templates in the contents (nested ones included: the walk enters contents).
      forEachInclusiveDescendant(adapter, content, (inner) => {
        if (inner !== content) visitInner(inner);
      });
    };
    // Optimisation: the tree's own index of templates (jsdom's), where it has one; their
    // contents are walked.
    const templates = adapter.isDocumentNode(document) ? (adapter.getElementsByTagNameNS?.(document, HTML_NAMESPACE, "template") ?? null) : null;
    if (templates !== null) {
      for (let i = 0; i < templates.length; i++) visit(templates[i]!);
    } else {
      forEachInclusiveDescendant(adapter, document, visitInner);
    }
    // Nodes just inserted, and reported, are not the parser's.
    for (const node of excluding ?? []) {
      forEachInclusiveDescendant(adapter, node, (inner) => {
        const content = adapter.getTemplateContent(inner);
        if (content !== null) found.delete(content);
      });
    }
    return found;
  }

  /**
   * The template whose contents `root` (the root of a tree) are, when that
   * template stands for a declarative shadow root of this family's document,
   * or null.
   */
  #declarativeShadowTemplate(root: object): object | null {
    const found = this.#findDeclarativeShadowRoots();
    if (!this.#head.#hasDeclarativeShadowRoots) return null;
    return found.get(root) ?? null;
  }

  /**
   * `template`, whose contents `root` are a declarative shadow root, or,
   * when that template is itself in a declarative shadow root (nested), the
   * template of the outermost one: the first up the chain whose own tree is
   * no declarative shadow root (the document, template contents, a detached
   * tree). A shadow root's node document is its host's, so all of the chain
   * have that template's node document.
   *
   * Optimisation: the chain is walked once per reported change of
   * structure, in a loop, and every root on it remembers the answer, so
   * that the nodes of shadow roots nested n deep cost O(n) in all, not
   * O(n) each. Only in a tree that records no node documents (parse5,
   * domhandler), which must report its mutations: a DOM's observer does not
   * see those inside template contents, where such chains live, so there
   * the chain is walked each time.
   */
  #outermostShadowTemplate(root: object, template: object): object {
    const adapter = this.adapter;
    const memo = adapter.getOwnerDocument(template) === null ? (this.#head.#outermostShadowTemplates ??= new WeakMap()) : null;
    const known = memo?.get(root);
    if (known !== undefined && known.version === structureVersion) return known.template;
    const chain: object[] = [root];
    let outermost = template;
    for (;;) {
      const next = rootOf(adapter, outermost);
      const hit = memo?.get(next);
      if (hit !== undefined && hit.version === structureVersion) {
        outermost = hit.template;
        break;
      }
      const inner = adapter.isDocumentFragmentNode(next) ? this.#declarativeShadowTemplate(next) : null;
      if (inner === null) break;
      chain.push(next);
      outermost = inner;
    }
    if (memo !== null) {
      const entry = { version: structureVersion, template: outermost };
      for (const node of chain) memo.set(node, entry);
    }
    return outermost;
  }

  /**
   * The context of the document a tree belongs to, from its root: this
   * document; another document; a declarative shadow root (its host's node
   * document, https://dom.spec.whatwg.org/#concept-attach-a-shadow-root:
   * "Let shadow be a new shadow root whose node document is element's node
   * document"); template contents (the inert document); or, for a detached
   * node or fragment in a tree that does not record node documents, this
   * document (the caller asked this context about it).
   */
  #contextOfRoot(root: object): Context {
    const adapter = this.adapter;
    if (root === this.documentNode) return this;
    if (adapter.isDocumentNode(root)) return this.#contextOfDocument(root);
    if (adapter.isDocumentFragmentNode(root)) {
      const template = this.#declarativeShadowTemplate(root);
      if (template !== null) return this.contextOfNode(this.#outermostShadowTemplate(root, template));
      if (this.#isTemplateContent(root)) return this.#inertContext();
    }
    return this;
  }

  /**
   * The context of a node whose tree records `owner` as its node document:
   * that document's, but for a node in a declarative shadow root that the
   * tree keeps as template contents (a DOM whose parser keeps them as
   * templates, like jsdom's), whose node document is the host's.
   */
  #contextOfOwner(node: object, owner: object): Context {
    if (owner === this.documentNode) return this;
    if (this.documentNode !== null) {
      this.#findDeclarativeShadowRoots();
      if (this.#head.#hasDeclarativeShadowRoots) {
        const root = rootOf(this.adapter, node);
        const template = this.#declarativeShadowTemplate(root);
        if (template !== null) return this.contextOfNode(this.#outermostShadowTemplate(root, template));
      }
    }
    return this.#contextOfDocument(owner);
  }

  /** The context of `node`'s node document (https://dom.spec.whatwg.org/#concept-node-document). */
  contextOfNode(node: object): Context {
    const owner = this.adapter.getOwnerDocument(node);
    if (owner !== null) return this.#contextOfOwner(node, owner);
    return this.#contextOfRoot(rootOf(this.adapter, node));
  }

  /**
   * When `node` is in a declarative shadow root that the tree keeps as a
   * template's contents (see {@link #findDeclarativeShadowRoots}), nested
   * ones included, and its host is in this family's document: that
   * document. Otherwise null. Unlike {@link contextOfNode}, it makes no
   * context for another document (the jsdom layer makes its own, observed).
   */
  declarativeShadowRootDocument(node: object): object | null {
    const adapter = this.adapter;
    const document = this.#head.documentNode;
    if (document === null) return null;
    this.#findDeclarativeShadowRoots();
    if (!this.#head.#hasDeclarativeShadowRoots) return null;
    const root = rootOf(adapter, node);
    const template = this.#declarativeShadowTemplate(root);
    if (template === null) return null;
    return rootOf(adapter, this.#outermostShadowTemplate(root, template)) === document ? document : null;
  }

  // --- Element base URLs ----------------------------------------------------------------

  /**
   * The scope of `element`: the document scope of its node document, or,
   * with xml:base, its nearest xml:base ancestor's. Cached along the path
   * from the element up to the first cached ancestor (or the root).
   */
  elementScope(element: object): Scope {
    const adapter = this.adapter;
    const owner = adapter.getOwnerDocument(element);
    if (owner !== null && owner !== this.documentNode) {
      const context = this.#contextOfOwner(element, owner);
      if (context !== this) return context.elementScope(element);
    }
    // Optimisation: a tree that records node documents needs no walk without xml:base.
    if (owner !== null && !this.xmlBase) return this.root;

    const scopes = this.family.scopes;
    const cached = scopes.get(element);
    if (cached !== undefined) return cached;
    // Optimisation: in a walk in tree order the parent is cached already; no path to keep.
    const parentNode = adapter.getParentNode(element);
    if (parentNode !== null) {
      const parentScope = scopes.get(parentNode);
      if (parentScope !== undefined) {
        const scope =
          parentScope.owner.xmlBase && xmlBaseOf(adapter, element) !== null
            ? new Scope(parentScope.owner, element, parentScope, parentScope.url)
            : parentScope;
        scopes.set(element, scope);
        return scope;
      }
    }
    const path: object[] = [element];
    let node = element;
    let top: Scope;
    let cache = true;
    for (;;) {
      const parent = adapter.getParentNode(node);
      if (parent === null || !adapter.isElementNode(parent)) {
        const root = parent === null ? node : rootOf(adapter, parent);
        const context = owner !== null ? this : this.#contextOfRoot(root);
        // Another document's elements are that document's business (and cache).
        if (context.family !== this.family) return context.elementScope(element);
        top = context.root;
        // An observed tree reports the mutations of the document only: a detached subtree's
        // would go unreported, so its scopes are not kept.
        cache = this.#observer === null || root === this.documentNode;
        break;
      }
      const parentScope = scopes.get(parent);
      if (parentScope !== undefined) {
        top = parentScope;
        break;
      }
      path.push(parent);
      node = parent;
    }
    let scope = top;
    const xmlBase = top.owner.xmlBase;
    for (let i = path.length - 1; i >= 0; i--) {
      const el = path[i]!;
      if (xmlBase && xmlBaseOf(adapter, el) !== null) scope = new Scope(scope.owner, el, scope, scope.url);
      if (cache) scopes.set(el, scope);
    }
    return scope;
  }

  /** The scope of any node: an element's own; a child node's parent element's; else its document's. */
  nodeScope(node: object): Scope {
    const adapter = this.adapter;
    // Optimisation: a tree that records node documents answers without xml:base in one step.
    const owner = adapter.getOwnerDocument(node);
    if (owner !== null) {
      const context = this.#contextOfOwner(node, owner);
      if (!context.xmlBase) return context.root;
    }
    if (adapter.isElementNode(node)) return this.elementScope(node);
    if (adapter.isDocumentNode(node)) return this.#contextOfDocument(node).root;
    const parent = adapter.getParentNode(node);
    if (parent !== null && adapter.isElementNode(parent)) return this.elementScope(parent);
    return this.contextOfNode(node).root;
  }

  /**
   * The current URL of `scope`. An xml:base scope is recomputed when its
   * parent's URL changed since it was computed, and checked at most once
   * per family epoch; the chain is walked with a loop, not recursion.
   *
   * The element base URL with xml:base (HTML 5, "base URLs"; XML Base §4.2):
   * the xml:base value resolved against the parent's base URL, with the
   * document's encoding. Deviation: XML Base does not say what a value that
   * cannot be resolved does; here it is ignored (the parent's base URL is
   * kept), as Gecko did when it supported xml:base.
   */
  scopeURL(scope: Scope): Readonly<URLRecord> {
    if (scope.parent === null) return scope.url;
    const epoch = this.family.epoch;
    if (scope.checked === epoch) return scope.url;
    const chain: Scope[] = [];
    for (let s: Scope = scope; s.parent !== null && s.checked !== epoch; s = s.parent) chain.push(s);
    for (let i = chain.length - 1; i >= 0; i--) {
      const s = chain[i]!;
      const parent = s.parent!;
      if (s.parentVersion !== parent.version) {
        s.parentVersion = parent.version;
        const value = xmlBaseOf(this.adapter, s.element!);
        const parsed = value === null ? null : basicURLParse(value, { base: parent.url, encoding: s.owner.outputEncoding });
        const url = parsed === null ? parent.url : freezeURL(parsed);
        const href = parsed === null ? parent.href : serializeURL(url);
        if (href !== s.href) {
          s.url = url;
          s.href = href;
          s.version++;
        }
      }
      s.checked = epoch;
    }
    return scope.url;
  }

  /** The serialized base URL of `node` now. */
  nodeBaseHref(node: object): string {
    const scope = this.nodeScope(node);
    this.scopeURL(scope);
    return scope.href;
  }

  /** Drops the cached scopes of `root`'s inclusive descendants (template contents included). */
  #forgetSubtree(root: object): void {
    const scopes = this.family.scopes;
    const adapter = this.adapter;
    forEachInclusiveDescendant(adapter, root, (node) => {
      if (adapter.isElementNode(node)) scopes.delete(node);
    });
  }

  /** `node`'s base URL as the root of a detached subtree of this document, serialized. */
  #detachedBaseHref(node: object): string {
    const base = this.root;
    if (!this.xmlBase || !this.adapter.isElementNode(node)) return base.href;
    const value = xmlBaseOf(this.adapter, node);
    const parsed = value === null ? null : basicURLParse(value, { base: base.url, encoding: this.outputEncoding });
    return parsed === null ? base.href : serializeURL(parsed);
  }

  // --- Observation --------------------------------------------------------------------

  /** Applies the records an observer has queued, if any (every query starts with this). */
  sync(): void {
    const observer = this.#observer;
    if (observer === null) return;
    const records = observer.takeRecords();
    if (records.length > 0) this.notifyMutation(records);
  }

  // --- Notifications ---------------------------------------------------------------------

  onBaseURLChange(listener: BaseURLChangeListener<LooseMap>): () => void {
    // A listener added twice is called twice, as with addEventListener of distinct functions:
    // wrap it so that each registration is its own entry.
    const entry: BaseURLChangeListener<LooseMap> = (change) => listener(change);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  #emit(reason: BaseURLChangeReason, roots: readonly object[], oldBaseURL: string, newBaseURL: string): void {
    // Listeners of template contents' changes are the document's.
    const target = this.documentNode === null ? this.#head : this;
    if (target.#listeners.size === 0) return;
    const change: BaseURLChange<LooseMap> = Object.freeze({ reason, roots: Object.freeze([...roots]), oldBaseURL, newBaseURL, context: target });
    const errors: unknown[] = [];
    for (const listener of [...target.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "Several base URL change listeners threw");
  }

  /** Emits the document change if there was one, else the grouped per-root changes. */
  #emitChanges(documentChange: { readonly old: string; readonly new: string } | null, pending: readonly PendingChange[]): void {
    if (documentChange !== null) {
      // Every node of the document is affected: the per-subtree changes are part of this one.
      this.#emit("document-base-url", [this.documentNode!], documentChange.old, documentChange.new);
      return;
    }
    if (pending.length === 0) return;
    const groups = new Map<string, { reason: BaseURLChangeReason; old: string; new: string; roots: object[] }>();
    for (const { node, reason, old } of pending) {
      const now = this.nodeBaseHref(node);
      if (now === old) continue;
      const key = `${reason}\n${old}\n${now}`;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, { reason, old, new: now, roots: [node] });
      else group.roots.push(node);
    }
    for (const group of groups.values()) this.#emit(group.reason, group.roots, group.old, group.new);
  }

  attributeChanged(element: object, namespace: string | null, localName: string, oldValue?: string | null): void {
    const ns = namespace === "" ? null : namespace;
    if (ns === null && localName === "href") {
      const adapter = this.adapter;
      if (adapter.isElementNode(element) && isBaseElement(adapter.getLocalName(element), adapter.getNamespaceURI(element))) this.contextOfNode(element).#baseHrefChanged(element);
    } else if ((ns === XML_NAMESPACE && localName === "base") || (ns === null && localName === "xml:base" && isForeignElement(this.adapter, element))) {
      this.contextOfNode(element).#xmlBaseChanged(element, oldValue, ns === XML_NAMESPACE);
    }
  }

  /** The href attribute of a base element changed (this is its node document's context). */
  #baseHrefChanged(element: object): void {
    if (this.documentNode === null || rootOf(this.adapter, element) !== this.documentNode) return;
    const hasHref = this.adapter.getAttribute(element, null, "href") !== null;
    if (element === this.#firstBase && hasHref) {
      // "The base element is the first base element in tree order with an href content
      // attribute in its Document, and its href content attribute is changed": set it again.
      this.#frozenBaseURL = this.#frozenBaseURLOf(element);
    } else if (element === this.#firstBase || hasHref) {
      // It lost its href, or it gained one and may now be first.
      this.#refindFirstBase();
    } else {
      return;
    }
    this.#emitChanges(this.#commitDocumentBaseURL(), []);
  }

  /** An xml:base attribute changed (this is its node document's context). */
  #xmlBaseChanged(element: object, changedValue: string | null | undefined, namespaced: boolean): void {
    if (!this.xmlBase) return;
    const adapter = this.adapter;
    const scopes = this.family.scopes;
    const cached = scopes.get(element);
    // The element's xml:base value before (see xmlBaseOf): the changed attribute's old value, but
    // the one in the XML namespace wins over the foreign element's "xml:base" in no namespace.
    let oldValue = changedValue;
    if (changedValue !== undefined) {
      if (namespaced) oldValue = changedValue ?? (isForeignElement(adapter, element) ? adapter.getAttribute(element, null, "xml:base") : null);
      else oldValue = adapter.getAttribute(element, XML_NAMESPACE, "base") ?? changedValue;
    }
    // The element's base URL before: from the old value and the parent's base URL (which this
    // change does not touch); when the old value is unknown, from the cache, if any.
    let old: string | null;
    if (oldValue !== undefined) {
      const parent = adapter.getParentNode(element);
      const parentScope = parent !== null && adapter.isElementNode(parent) ? this.elementScope(parent) : this.root;
      const parentURL = this.scopeURL(parentScope);
      const parsed = oldValue === null ? null : basicURLParse(oldValue, { base: parentURL, encoding: this.outputEncoding });
      old = parsed === null ? parentScope.href : serializeURL(parsed);
    } else {
      old = cached === undefined ? null : (this.scopeURL(cached), cached.href);
    }
    if (cached !== undefined) {
      const hasOwnScope = cached.element === element;
      const hasAttribute = xmlBaseOf(adapter, element) !== null;
      if (hasOwnScope && hasAttribute) {
        // Only the value changed: the same scopes, one of them stale, and its descendants'
        // to be checked again (a new epoch).
        cached.parentVersion = -1;
        this.family.epoch++;
      } else {
        // The attribute appeared or went away: the subtree's scopes change. (Nothing below an
        // element without a cached scope is cached, since scopes are cached along whole paths.)
        this.#forgetSubtree(element);
      }
    }
    if (old === null) return;
    const now = this.nodeBaseHref(element);
    if (now !== old) this.#emit("xml-base", [element], old, now);
  }

  childrenChanged(parent: object, change: ChildrenChange<LooseMap>): void {
    const added = toArray(change.added);
    const removed = toArray(change.removed);
    structureVersion++;
    // The document's declarative shadow roots are its parser's: found now, if not yet, without
    // the nodes inserted.
    if (added.length > 0 && this.#head.#declarativeShadowRoots === null) this.#findDeclarativeShadowRoots(added);
    const context = this.contextOfNode(parent);
    if (context !== this) {
      context.childrenChanged(parent, { added, removed });
      return;
    }
    const adapter = this.adapter;
    const scopes = this.family.scopes;
    const pending: PendingChange[] = [];

    // 1. The old base URLs, before anything is recomputed.
    if (this.xmlBase) {
      for (const node of removed) {
        if (!adapter.isElementNode(node)) continue;
        const cached = scopes.get(node);
        let old: string;
        if (cached !== undefined) {
          this.scopeURL(cached);
          old = cached.href;
        } else {
          const parentScope = adapter.isElementNode(parent) ? this.elementScope(parent) : this.nodeScope(parent);
          const parentURL = this.scopeURL(parentScope);
          const value = xmlBaseOf(adapter, node);
          const parsed = value === null ? null : basicURLParse(value, { base: parentURL, encoding: this.outputEncoding });
          old = parsed === null ? parentScope.href : serializeURL(parsed);
        }
        pending.push({ node, reason: "removed", old });
      }
    }
    for (const node of added) {
      if (!adapter.isElementNode(node)) continue;
      const cached = scopes.get(node);
      if (cached !== undefined) {
        this.scopeURL(cached);
        pending.push({ node, reason: "inserted", old: cached.href });
      } else if (this.xmlBase) {
        // Not cached: it was the root of a detached subtree before (of this document, as far as
        // this context knows; report adoptions with adopted()).
        pending.push({ node, reason: "inserted", old: this.#detachedBaseHref(node) });
      }
    }

    // 2. Drop the moved subtrees' scopes. (Without xml:base, a removal keeps the node
    //    document, so removed subtrees keep theirs.)
    if (this.xmlBase) for (const node of removed) this.#forgetSubtree(node);
    for (const node of added) this.#forgetSubtree(node);
    if (this.#templatesIndexed) for (const node of added) this.#indexTemplates(node);

    // 3. The first base element: inserted before the current one, or the current one removed.
    let refind = false;
    if (this.documentNode !== null) {
      const connected = added.length > 0 && rootOf(adapter, parent) === this.documentNode;
      if (connected) {
        for (const node of added) {
          if (findInclusiveDescendant(adapter, node, (n) => isBaseElementWithHref(adapter, n), false) !== null) {
            refind = true;
            break;
          }
        }
      }
      if (!refind && removed.length > 0 && this.#firstBase !== null && rootOf(adapter, this.#firstBase) !== this.documentNode) {
        refind = true;
      }
    }
    if (refind) this.#refindFirstBase();

    // 4. The changes.
    this.#emitChanges(this.#commitDocumentBaseURL(), pending);
  }

  adopted(node: object, oldDocument: DocumentContext<LooseMap> | object | null): void {
    structureVersion++;
    let from: Context | null = null;
    if (oldDocument instanceof Context) from = oldDocument;
    else if (oldDocument !== null) from = this.#contextOfDocument(oldDocument);
    const cached = this.family.scopes.get(node);
    let old: string | null = null;
    if (from !== null && from !== this) old = from.#detachedBaseHref(node);
    else if (cached !== undefined) old = (this.scopeURL(cached), cached.href);
    if (from !== null && from.family !== this.family) from.#forgetSubtree(node);
    this.#forgetSubtree(node);
    if (old === null) return;
    const now = this.nodeBaseHref(node);
    if (now !== old) this.#emit("adopted", [node], old, now);
  }

  urlChanged(url: string | Readonly<URLRecord>, options?: URLChangeOptions): void {
    const parsed = parseAbsoluteURL(url, "document URL");
    if (options?.aboutBaseURL !== undefined) this.#aboutBaseURL = aboutBaseURLSnapshot(options.aboutBaseURL);
    this.#url = parsed;
    // The frozen base URL of a base element stays frozen: the standard sets it again only when
    // the element becomes the first base element or its href changes.
    this.#emitChanges(this.#commitDocumentBaseURL(), []);
  }

  notifyMutation(records: MutationRecordLike<LooseMap> | ArrayLike<MutationRecordLike<LooseMap>> | Iterable<MutationRecordLike<LooseMap>>): void {
    const list = "type" in records && typeof records.type === "string" ? [records as MutationRecordLike<LooseMap>] : toArray(records as Iterable<MutationRecordLike<LooseMap>>);
    for (const record of list) {
      if (record.type === "attributes") {
        if (record.attributeName !== null && this.adapter.isElementNode(record.target)) {
          this.attributeChanged(record.target, record.attributeNamespace ?? null, record.attributeName, record.oldValue);
        }
      } else if (record.type === "childList") {
        this.childrenChanged(record.target, { added: record.addedNodes, removed: record.removedNodes });
      }
    }
  }

  dispose(): void {
    this.#observer?.disconnect();
    this.#observer = null;
    this.#listeners.clear();
    if (this.documentNode !== null && registry.get(this.documentNode) === this) registry.delete(this.documentNode);
  }
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

/**
 * Creates the context of `document`, a tree read through `adapter`.
 * https://dom.spec.whatwg.org/#concept-document — the URL, the encoding and
 * the about base URL are the Document's own; see
 * {@link DocumentContextOptions}. A document has at most one context:
 * another, before the first is disposed, is a {@link DocumentContextError}.
 *
 * `document` is a document node, or the root fragment of a tree that has
 * none (a parse5 `parseFragment()` result, a tree from htmlparser2's own
 * parser), which then plays the document: its `base` elements count.
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import { baseURI, createDocumentContext, parse5TreeAdapter } from "docbase/document-base";
 * const parent = createDocumentContext(parse5TreeAdapter, parse('<base href="/docs/">'), {
 *   url: "https://example.com/",
 * });
 * // An iframe srcdoc document: its base URL is its container's, taken now.
 * const srcdoc = parse("<base href='sub/'>");
 * const child = createDocumentContext(parse5TreeAdapter, srcdoc, { url: "about:srcdoc", aboutBaseURL: parent });
 * baseURI(child, srcdoc); // "https://example.com/docs/sub/"
 * ```
 */
export function createDocumentContext<T extends TreeAdapterTypeMap>(
  adapter: DocumentBaseTreeAdapter<T>,
  document: T["document"],
  options: DocumentContextOptions = {},
): DocumentContext<T> {
  const loose = adapter as unknown as LooseAdapter;
  const node = document as object;
  if (!loose.isDocumentNode(node) && !(loose.isDocumentFragmentNode(node) && loose.getParentNode(node) === null)) {
    throw new DocumentContextError(`Not a document (or root fragment) for the ${adapter.name} tree adapter: ${String(document)}`);
  }
  const existing = registry.get(node);
  if (existing !== undefined && !existing.implicit) {
    throw new DocumentContextError("This document already has a DocumentContext; dispose() it before creating another");
  }
  // A context made implicitly (by a lookup from another document) gives way to this one.
  existing?.dispose();
  const context = new Context(loose, node, options, false, null);
  registry.set(node, context);
  if (options.observe === true) {
    try {
      context.startObserving();
    } catch (error) {
      registry.delete(node);
      throw error;
    }
  }
  return context as unknown as DocumentContext<T>;
}

/**
 * The context of `document`, if it has one: made by
 * {@link createDocumentContext}, or implicitly when a node of that document
 * was asked about through another document's context.
 *
 * @example
 * ```ts
 * const context = createDocumentContext(domTreeAdapter, document);
 * documentContextOf(document) === context; // true
 * ```
 */
export function documentContextOf<T extends TreeAdapterTypeMap>(document: T["document"]): DocumentContext<T> | undefined {
  return registry.get(document as object) as unknown as DocumentContext<T> | undefined;
}
