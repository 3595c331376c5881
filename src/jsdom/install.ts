/**
 * install(window): makes a jsdom window resolve URLs as a browser does, from
 * docbase's layers, through jsdom's public surface (interface prototypes,
 * MutationObserver, document.open/write/close) and one internal object, the
 * document's (`window._document`): its URL record is read, and its
 * `_clearBaseURLCache()` wrapped, to follow pushState, replaceState and
 * fragment navigations (see WindowInstallation's #followDocumentURL and
 * #hookDocumentURL).
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url
 *
 * @module
 */

import {
  type BaseURLChange,
  baseURI,
  createDocumentContext,
  type DocumentBaseTreeAdapter,
  type DocumentContext,
  documentBaseURL,
  documentContextOf,
  type DOMTreeAdapterMap,
  domTreeAdapter,
  encodingParseAndSerializeURL,
  encodingParseURL,
  fallbackBaseURL,
  matchesAboutBlank,
  type MutationRecordLike,
} from "../document-base/index.ts";
import { contextImpl } from "../document-base/document-context.ts";
import { getEncoding, parseURL, serializeURL, type URLRecord } from "../core/index.ts";
import { changedEncoding, headOf, HTML_NAMESPACE, metaDeclaredEncoding } from "../html/index.ts";
import {
  getHyperlinkAttribute,
  getReflectedURL,
  type HyperlinkAttributeName,
  hyperlinkAttributeNames,
  type HyperlinkSettableAttributeName,
  reflectedURLAttributes,
  setHyperlinkAttribute,
  setReflectedURL,
} from "../url-utils/index.ts";
import { hyperlinkAttributeOfURL, keepsHyperlinkURL } from "../url-utils/hyperlink-element-utils.ts";
import { PropertyPatches } from "./property-patches.ts";
import type { DocumentLike, ElementLike, MutationObserverLike, MutationRecordShape, NodeLike, WindowLike } from "./window.ts";

/**
 * Options of {@link install}.
 *
 * @example
 * ```ts
 * const options: InstallOptions = { xmlBase: true };
 * ```
 */
export interface InstallOptions {
  /**
   * Resolve `xml:base` attributes (XML Base), as older HTML drafts required:
   * those in the XML namespace, and on SVG and MathML elements the
   * `xml:base` the HTML parser leaves without a namespace (HTML 5's parser
   * put it in the XML namespace). Off by default: browsers ignore xml:base
   * today.
   */
  readonly xmlBase?: boolean | undefined;
  /**
   * Give `<iframe srcdoc>` elements an about:srcdoc document parsed from the
   * attribute (default true). Scripts in it run when the window runs scripts.
   */
  readonly srcdoc?: boolean | undefined;
}

/**
 * A base-URL change in one of the installation's documents: the affected
 * root nodes (the whole document, an element whose xml:base changed, a moved
 * subtree), the old and the new base URL. Reported when docbase observes it
 * (see {@link Installation.onBaseURLChange}).
 *
 * @example
 * ```ts
 * handle.onBaseURLChange(({ document, oldBaseURL, newBaseURL }) => console.log(document.URL, oldBaseURL, "→", newBaseURL));
 * ```
 */
export interface JSDOMBaseURLChange {
  readonly reason: BaseURLChange["reason"];
  readonly document: DocumentLike;
  readonly roots: readonly NodeLike[];
  readonly oldBaseURL: string;
  readonly newBaseURL: string;
}

/**
 * What {@link install} returns.
 *
 * @example
 * ```ts
 * const handle = install(window);
 * const stop = handle.onBaseURLChange((change) => console.log(change.newBaseURL));
 * stop();
 * handle.uninstall(); // plain jsdom again
 * ```
 */
export interface Installation {
  /** The window it was installed in. */
  readonly window: WindowLike;
  /**
   * Calls `listener` when a base URL in the window's documents (its frames'
   * documents included) is observed to have changed: at the next read
   * through docbase (a URL getter, `baseURI`, a frame's `contentDocument`),
   * or in a microtask after the change (when the MutationObserver delivers
   * its records, or after jsdom changes the document's URL), whichever comes
   * first. Changes between two observations are coalesced: one call, from
   * the base URL last reported to the current one, and none when the base
   * URL is back where it was (1,000 `<base>` toggles with no read in between
   * give no call; a read after each gives 1,000). Returns a function that
   * removes the listener.
   *
   * Why not one call per intermediate state: nothing can have read the base
   * URL in between, a browser has no such event at all, and replaying every
   * intermediate tree would need a synchronous hook into every jsdom
   * mutation, which costs every page what only a listener would use.
   */
  onBaseURLChange(listener: (change: JSDOMBaseURLChange) => void): () => void;
  /**
   * What docbase noticed and cannot mend in jsdom, for the window's
   * documents and its frames', in the order noticed (checked once per
   * document, when it is activated). Today one kind: `late-encoding` — a
   * document whose `<meta charset>` (or `http-equiv=content-type`) names
   * another encoding than the one jsdom decoded it with, as a page whose
   * declaration comes after its first 1,024 bytes (where the sniffing
   * prescan stops) is: a browser would "change the encoding" and reparse
   * (unless a BOM or the transport's charset fixed it), jsdom does not. Its
   * text and its query encoding are then jsdom's, not a browser's; pass the
   * encoding to JSDOM (`contentType: "text/html; charset=shift_jis"` with a
   * buffer, or a charset in the served Content-Type).
   */
  readonly warnings: readonly InstallationWarning[];
  /** Restores plain jsdom behaviour in the window and in the frames it installed into. */
  uninstall(): void;
}

/**
 * A warning of {@link Installation.warnings}.
 *
 * @example
 * ```ts
 * const warning: InstallationWarning = {
 *   type: "late-encoding", document, declared: "Shift_JIS", used: "windows-1252",
 *   message: "the document declares Shift_JIS in a <meta>, but jsdom decoded it as windows-1252 …",
 * };
 * ```
 */
export interface InstallationWarning {
  readonly type: "late-encoding";
  readonly document: DocumentLike;
  /** The encoding the document's `<meta>` declares (after the HTML Standard's UTF-16 → UTF-8 and x-user-defined → windows-1252). */
  readonly declared: string;
  /** The encoding jsdom decoded it with (`document.characterSet`). */
  readonly used: string;
  readonly message: string;
}

/** Where an about:blank or about:srcdoc document's about base URL comes from. */
interface FrameOrigin {
  readonly parent: WindowInstallation;
  /** The creator's or container's base URL snapshot; null for a frame navigated to a real URL. */
  readonly aboutBaseURL: string | null;
  /** The document's URL when it is not the window's own (about:srcdoc). */
  readonly documentURL: string | undefined;
}

const installations = new WeakMap<object, WindowInstallation>();

/**
 * The part of jsdom's internal Document object (`window._document`, the
 * implementation behind `window.document`) that the installation reads to
 * follow the document's URL (see WindowInstallation's #takenURL).
 */
interface DocumentImplLike {
  /** jsdom's URL record of the document: a new object whenever the document's URL changes. */
  readonly _URL: unknown;
  /** Called by jsdom right after every change of `_URL` (and of a base element's href). */
  _clearBaseURLCache?: unknown;
}

/**
 * The notification docbase added to a jsdom document's `_clearBaseURLCache`
 * (see WindowInstallation's #hookDocumentURL), by document implementation
 * object; `notify` is the installation's, or null once it is uninstalled.
 */
const documentURLHooks = new WeakMap<object, { notify: (() => void) | null }>();

type Context = DocumentContext<DOMTreeAdapterMap>;

/**
 * Whether an element is an HTML `a` or `area` element (the elements with
 * HTMLHyperlinkElementUtils), learned once per cache entry from its local
 * name and namespace, which never change.
 */
const UNKNOWN = 0;
const HYPERLINK = 1;
const OTHER = 2;

/**
 * A value a patched getter computed, the content attribute (null: absent)
 * it was computed from, and the attribute epoch at which that attribute was
 * last seen to be the element's.
 */
interface CachedValue {
  readonly attribute: string | null;
  readonly value: string;
  epoch: number;
}

/**
 * What the patched getters cached for one element of the window's
 * document, in the window document's context. Every value is a function of
 * the element's kind, its node document (its base URL, encoding and URL)
 * and one content attribute of the element, which it is kept with (see
 * #entryOf).
 */
interface CacheEntry {
  /**
   * The generation at which the element was last found in the document's
   * tree. While it is the current one, no node was inserted or removed and
   * the base URL did not change since: the element is still in the tree, so
   * its node document is still the window's document, with the same base
   * URL.
   */
  readonly generation: number;
  /** UNKNOWN, HYPERLINK or OTHER; it never changes. */
  kind: number;
  /**
   * For an `a` or `area`, on the fast path (see #hyperlinkAttribute): the
   * href attribute (null: absent) that `url` (null: absent or failure) and
   * `href` were computed from, undefined when nothing was, and the attribute
   * epoch at which it was last seen to be the element's.
   */
  hrefAttribute: string | null | undefined;
  epoch: number;
  /** {@link NOT_PARSED} while only `href` has been asked for (see #hyperlinkAttribute). */
  url: Readonly<URLRecord> | null | typeof NOT_PARSED;
  /** Optimisation: `url` serialized (the href getter's value), once asked for. */
  href: string | undefined;
  /** The values computed by url-utils, by IDL attribute name; null until one is. */
  values: Map<string, CachedValue> | null;
}

/** Bits of WindowInstallation's #pending. */
const URL_CHANGED = 1;
const URL_UNWATCHED = 2;
const ENCODING_PENDING = 4;

/** A cache entry's `url` while only its serialization has been made (see #hyperlinkAttribute). */
const NOT_PARSED: unique symbol = Symbol("not parsed");

/** The DOM functions a read calls on every element (see WindowInstallation's #native). */
interface NativeFunctions {
  readonly getAttributeNS: (this: object, namespace: string | null, localName: string) => string | null;
  readonly getRootNode: (this: object) => unknown;
  readonly localName: (this: object) => string;
  readonly namespaceURI: (this: object) => string | null;
  readonly takeRecords: (this: object) => ArrayLike<MutationRecordShape>;
}

/** https://dom.spec.whatwg.org/#dom-node-document_position_following */
const DOCUMENT_POSITION_FOLLOWING = 4;

/**
 * One window's installation: the patched prototypes, the document contexts
 * of the window's documents, and the frames it installed into.
 */
class WindowInstallation implements Installation {
  readonly window: WindowLike;
  /** The window's document (a window keeps its Document object). */
  readonly #document: DocumentLike;
  readonly #options: InstallOptions;
  readonly #patches = new PropertyPatches();
  readonly #listeners = new Set<(change: JSDOMBaseURLChange) => void>();
  /** Every context this installation made (its document's, and synthetic documents'). */
  readonly #contexts = new Set<Context>();
  readonly #frames = new Map<object, { window: object; child: WindowInstallation; srcdoc: string | null }>();
  readonly #parent: WindowInstallation | null;
  /**
   * The observer of the window's document: its tree (childList, subtree); the attributes of the
   * few elements whose attributes do more than change their own values: the iframes (srcdoc,
   * src) and the base elements that decide the document base URL (href); the URL content
   * attributes of every element while that pays (see #adapt), whose records are counted; with
   * xml:base, every attribute. It feeds the document's context, the read cache and the frames.
   */
  #observer: MutationObserverLike | null = null;
  /**
   * The base elements that can decide the document base URL, with their href as #observeBases
   * last saw it, in tree order (see #observeBases); the last one has an href, unless none has.
   */
  #bases = new Map<ElementLike, string | null>();
  /** The first base element with an href as #observeBases last found it, or null. */
  #firstBase: ElementLike | null = null;
  /** Whether the observer reports the URL content attributes of every element (see #adapt). */
  #trusting = false;
  /** The balance #adapt keeps. */
  #credit = 0;
  /** The window document's context, once active. */
  #context: Context | null = null;
  #installed = true;
  readonly #origin: FrameOrigin | null;
  #active = false;
  /**
   * Optimisation: the values read through the patched getters, per element (see CacheEntry).
   * Each of jsdom's own DOM calls costs a few hundred nanoseconds (wrapper conversions, brand
   * checks), and a getter of plain jsdom parses again and looks for the base element again: a
   * repeated read that makes no such call (but for the observer's records), or one while the
   * attributes are not observed (see #adapt), is what makes docbase's getters an order of
   * magnitude faster. Only elements in the window document's tree are cached: theirs are the
   * insertions and removals observed.
   */
  readonly #cache = new WeakMap<object, CacheEntry>();
  /**
   * The DOM tree adapter of this installation's contexts: docbase's, except that it knows the
   * node document of the one element a patched getter is computing (see #computeInTree), and
   * that it reads elements with the window's own functions (see #native).
   */
  readonly #adapter: DocumentBaseTreeAdapter<DOMTreeAdapterMap>;
  /** The element whose node document #adapter knows, and that document; null: none. */
  readonly #known: { node: object | null; document: DocumentLike | null } = { node: null, document: null };
  /**
   * The window's own DOM functions that the reads call on every element (and on the observer),
   * taken from its interface prototypes when installed, and called with `.call`.
   *
   * Optimisation: `element.getAttributeNS(…)` looks the method up along the element's prototype
   * chain (HTMLAnchorElement, HTMLElement, Element), whose objects are new in every jsdom window:
   * once a process has seen a few windows, each such lookup is megamorphic, and reading every
   * link of a page spends a third of its time on them. The functions are the ones those lookups
   * find: an element that reaches these getters has this window's prototypes (jsdom makes a
   * node's wrapper in the window that makes the node; adopting it elsewhere keeps it). A page
   * script that replaces one of them is not called, as a browser's own getters call none.
   */
  readonly #native: NativeFunctions;
  /** The window's own `length` getter (the property is replaceable by scripts), if it has one. */
  readonly #windowLength: (() => unknown) | undefined;
  /** The window's own `queueMicrotask`, as installed (scripts may replace it), if it has one. */
  readonly #windowQueueMicrotask: ((this: unknown, task: () => void) => void) | undefined;
  /** Documents without a window that this window's nodes belong to, each with its observer. */
  readonly #otherDocuments = new Map<object, { context: Context; observer: MutationObserverLike }>();
  /** Bumped when nodes are inserted or removed, or the base URL changes: every entry is then stale. */
  #generation = 0;
  /**
   * Bumped when a URL content attribute changed anywhere in the document, and at every read
   * while the attributes are not observed (see #entryOf, #adapt).
   */
  #epoch = 0;
  /**
   * jsdom's internal Document object behind the window's document, when the window has one
   * with a URL record (`window._document._URL`, jsdom 31), else null (see #takenURL).
   */
  readonly #documentImpl: DocumentImplLike | null;
  /**
   * The document's URL as the context last took it: jsdom's URL record (compared by identity:
   * jsdom makes a new record whenever the URL changes), or, in a window without one, the
   * serialized URL. See #followDocumentURL.
   */
  #takenURL: unknown = undefined;
  /** Whether a microtask that takes a changed document URL is queued (see #hookDocumentURL). */
  #urlTaskQueued = false;
  /**
   * What sync() has to look at besides the mutation records (see #takePending), as bits:
   * URL_CHANGED, the document's URL may have changed (see #hookDocumentURL); URL_UNWATCHED,
   * the window tells no change of it, so every read compares it; ENCODING_PENDING, the
   * document may still get its own encoding (see #checkEncoding).
   *
   * Optimisation: one field, so that a read with nothing of the kind pending (all but a few)
   * tests one number.
   */
  #pending = 0;

  constructor(window: WindowLike, options: InstallOptions, origin: FrameOrigin | null) {
    this.window = window;
    this.#document = window.document;
    this.#options = options;
    this.#origin = origin;
    this.#parent = origin?.parent ?? null;
    const known = this.#known;
    const native = (this.#native = nativeFunctions(window));
    this.#adapter = {
      ...domTreeAdapter,
      getOwnerDocument(node) {
        // Optimisation: see #computeInTree.
        return node === known.node ? known.document : domTreeAdapter.getOwnerDocument(node);
      },
      // Optimisation: the window's own functions, as the reads call them (see #native).
      getLocalName: (element) => native.localName.call(element),
      getNamespaceURI: (element) => native.namespaceURI.call(element),
      getAttribute: (element, namespace, localName) => native.getAttributeNS.call(element, namespace, localName),
    };
    const length = Object.getOwnPropertyDescriptor(window, "length")?.get;
    this.#windowLength = length === undefined ? undefined : () => length.call(window);
    this.#documentImpl = documentImplOf(window);
    if (!this.#hookDocumentURL()) this.#pending |= URL_UNWATCHED;
    const queue = window["queueMicrotask"];
    this.#windowQueueMicrotask = typeof queue === "function" ? (queue as (this: unknown, task: () => void) => void) : undefined;
    this.#patchPrototypes();
    const document = window.document;
    if (document.readyState === "loading") {
      // Optimisation: while the parser builds the document, nothing reads it through docbase, and
      // observing every node the parser inserts would cost more than the whole parse. The
      // document's context is made, and its frames taken, at the first read, when a listener is
      // added, or when parsing ends, whichever comes first. Parsing ends with "the end"
      // (https://html.spec.whatwg.org/multipage/parsing.html#the-end), whose first step sets the
      // document's readiness to "interactive" and fires readystatechange synchronously, before
      // any deferred script, DOMContentLoaded, or the caller's code after `new JSDOM()` runs:
      // frames are then installed before anyone can reach them, and the first read does not
      // pay for the context (the walk for the first <base href> when the head has none, the
      // frames). DOMContentLoaded stays as a fallback for a listener that stops the event.
      const onReadyStateChange = (): void => {
        if (document.readyState === "loading") return;
        document.removeEventListener("readystatechange", onReadyStateChange);
        this.activate();
      };
      document.addEventListener("readystatechange", onReadyStateChange);
      document.addEventListener("DOMContentLoaded", () => this.activate(), { once: true });
    } else {
      this.activate();
    }
  }

  /** Makes the window document's context and starts watching its frames (once). */
  activate(): void {
    if (this.#active || !this.#installed) return;
    this.#active = true;
    const document = this.window.document;
    if (this.#origin?.aboutBaseURL !== null && this.#origin !== null) {
      // https://html.spec.whatwg.org/multipage/document-sequences.html#creating-a-new-browsing-context
      // and the srcdoc navigation make UTF-8 documents; jsdom copies the parent's encoding.
      for (const key of ["characterSet", "charset", "inputEncoding"]) this.#patches.accessor(document, key, () => "UTF-8");
    }
    this.#takenURL = this.#documentURLToken();
    this.#pending &= ~URL_CHANGED;
    this.#context = documentContextOf<DOMTreeAdapterMap>(document) ?? this.#createContext(document, this.#origin?.aboutBaseURL ?? null, this.#origin?.documentURL, false);
    // A frame navigated to a URL: jsdom makes its window and document when the iframe gets the
    // URL, with the container document's encoding, and sets the document's own (from the
    // response's Content-Type, its BOM or its <meta charset>) only when the response has
    // arrived, right before its parser starts. Until the document has a node, its encoding may
    // still change (see #checkEncoding).
    if (this.#origin !== null && this.#origin.aboutBaseURL === null && document.readyState === "loading" && document.firstChild === null) {
      this.#pending |= ENCODING_PENDING;
    }
    this.#observe(document);
    this.#checkDeclaredEncoding(document);
    // Optimisation: a frame is only processed when it has a content window, and a document
    // whose window has no child navigables has none: `window.length`
    // (https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-length, "the number of
    // document-tree child navigables") is 0. jsdom keeps it as a count, updated whenever one of
    // the document's iframes gets or loses its window, so the walk below, which costs as much as
    // a walk of the whole tree, is skipped for the pages that have no iframe.
    if (this.#childNavigables() === 0) return;
    // getElementsByTagName: jsdom answers it much faster than querySelectorAll.
    const existing = document.getElementsByTagName("iframe");
    for (let i = 0; i < existing.length; i++) {
      const iframe = existing[i]!;
      if (iframe.namespaceURI === HTML_NAMESPACE) this.processFrame(iframe);
    }
  }

  /** The warnings of this window and its frames (a frame's go to the top installation's list). */
  readonly #warnings: InstallationWarning[] = [];

  get warnings(): readonly InstallationWarning[] {
    return this.#warnings;
  }

  /** Adds a warning to the top installation's list. */
  warn(warning: InstallationWarning): void {
    if (this.#origin !== null) this.#origin.parent.warn(warning);
    else this.#warnings.push(warning);
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing —
   * a `<meta>` declaring another encoding than the document's: a browser would change the
   * encoding (if the first was only sniffed) and reparse; jsdom keeps its text. Reported, once
   * per document (see Installation.warnings). about:blank and srcdoc documents are UTF-8 whatever
   * they declare.
   */
  #checkDeclaredEncoding(document: DocumentLike): void {
    if (this.#origin !== null && this.#origin.aboutBaseURL !== null) return;
    const metas = (document as unknown as { querySelectorAll(selector: string): ArrayLike<ElementLike> }).querySelectorAll("meta[charset], meta[http-equiv]");
    for (let i = 0; i < metas.length; i++) {
      const meta = metas[i]!;
      const declared = metaDeclaredEncoding(meta.getAttribute("charset"), meta.getAttribute("http-equiv"), meta.getAttribute("content"));
      if (declared === null) continue;
      const current = getEncoding(document.characterSet);
      const next = current === null ? declared : changedEncoding(current, declared);
      if (next !== null) {
        const used = current ?? document.characterSet;
        this.warn({
          type: "late-encoding",
          document,
          declared: next,
          used,
          message: `the document declares ${next} in a <meta>, but jsdom decoded it as ${used}: a browser would change the encoding and reparse (unless a BOM or the transport's charset fixed it); pass the encoding to JSDOM (contentType "text/html; charset=${next}")`,
        });
      }
      // "The first such element": only the first declaration counts.
      return;
    }
  }

  /** `window.length` from the window's own getter; -1 when unknown. */
  #childNavigables(): number {
    const length = this.#windowLength?.();
    return typeof length === "number" ? length : -1;
  }

  // --- Contexts -------------------------------------------------------------------------------

  #createContext(document: DocumentLike, aboutBaseURL: string | null, url: string | undefined, observe: boolean): Context {
    const context = createDocumentContext(this.#adapter, document, {
      url: url ?? document.URL,
      // An about:blank or about:srcdoc frame's document is UTF-8 (jsdom gives it its parent's).
      encoding: aboutBaseURL !== null && document === this.window.document ? "UTF-8" : document.characterSet,
      aboutBaseURL,
      xmlBase: this.#options.xmlBase === true,
      observe,
    });
    this.#contexts.add(context);
    context.onBaseURLChange((change) => {
      this.#generation++;
      this.#emit(change);
    });
    return context;
  }

  /**
   * The context of a node's node document. Documents other than the window's
   * (createHTMLDocument, DOMParser, …) get one on first use: URL about:blank
   * and no about base URL, as the HTML Standard gives synthetic documents.
   */
  contextOf(node: NodeLike): Context {
    if (!this.#active) this.activate();
    this.sync();
    return this.#contextOfUnsynced(node);
  }

  #contextOfUnsynced(node: NodeLike): Context {
    const document = (node.ownerDocument ?? node) as DocumentLike;
    if (document === this.window.document && this.#context !== null) return this.#context;
    // jsdom 31 keeps a declarative shadow root (<template shadowrootmode>) as a template, whose
    // contents' ownerDocument is the inert document: the standard's parser attaches a shadow root
    // whose node document is this document instead (see document-base's declarative-shadow-root.ts).
    if (this.#context !== null && document !== node && contextImpl(this.#context).declarativeShadowRootDocument(node) === this.window.document) {
      return this.#context;
    }
    const other = this.#otherDocuments.get(document);
    if (other !== undefined) {
      // Bring that document's context up to date too.
      const records = other.observer.takeRecords();
      if (records.length > 0) other.context.notifyMutation(records as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
      return other.context;
    }
    // A document of another installed window (a frame's, or its container's: a node of this
    // window adopted there keeps this window's getters): that installation's context, brought up
    // to date as its own reads bring it (records, encoding, URL).
    const view = (document as { readonly defaultView?: unknown }).defaultView;
    const owner = view === null || typeof view !== "object" ? undefined : installations.get(view);
    if (owner !== undefined && owner !== this && owner.#installed) {
      owner.sync();
      if (owner.#context !== null) return owner.#context;
    }
    const existing = documentContextOf<DOMTreeAdapterMap>(document);
    if (existing !== undefined) return existing;
    // A document without a window (createHTMLDocument, DOMParser, template contents' owner)
    // cannot be observed by its own context: this window's MutationObserver watches it.
    const context = this.#createContext(document, null, undefined, false);
    const observer = new this.window.MutationObserver((records) => {
      context.notifyMutation(records as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
    });
    // What the context acts on (the values of that document's elements are not cached): the tree,
    // base elements' href and, with xml:base on, every attribute (xml:base is namespaced, and an
    // attributeFilter never matches a namespaced attribute).
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeOldValue: true,
      ...(this.#options.xmlBase === true ? {} : { attributeFilter: ["href"] }),
    });
    this.#otherDocuments.set(document, { context, observer });
    return context;
  }

  #emit(change: BaseURLChange<DOMTreeAdapterMap>): void {
    const event: JSDOMBaseURLChange = {
      reason: change.reason,
      document: change.context.document as DocumentLike,
      roots: change.roots as readonly NodeLike[],
      oldBaseURL: change.oldBaseURL,
      newBaseURL: change.newBaseURL,
    };
    this.#dispatch(event);
  }

  #dispatch(event: JSDOMBaseURLChange): void {
    let failure: unknown = null;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        failure ??= error;
      }
    }
    // A frame's changes are its parent installation's too.
    if (this.#parent !== null) this.#parent.#dispatch(event);
    if (failure !== null) throw failure;
  }

  onBaseURLChange(listener: (change: JSDOMBaseURLChange) => void): () => void {
    if (this.window.document.readyState !== "loading") this.activate();
    const entry = (change: JSDOMBaseURLChange): void => listener(change);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  // --- Prototypes ------------------------------------------------------------------------------

  #interface(name: string): { prototype: object } | null {
    const value = this.window[name];
    return typeof value === "function" && typeof (value as { prototype?: unknown }).prototype === "object"
      ? (value as { prototype: object })
      : null;
  }

  #patchPrototypes(): void {
    const installation = this;
    const patches = this.#patches;

    // https://dom.spec.whatwg.org/#dom-node-baseuri — "the node document's document base URL, serialized".
    patches.accessor(this.window.Node.prototype, "baseURI", function (this: object) {
      const node = this as NodeLike;
      return baseURI(installation.contextOf(node), node);
    });

    // https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils
    for (const name of ["HTMLAnchorElement", "HTMLAreaElement"]) {
      const prototype = this.#interface(name)?.prototype;
      if (prototype === undefined) continue;
      for (const attribute of hyperlinkAttributeNames) {
        const compute = (context: Context, element: ElementLike): string => getHyperlinkAttribute(context, element, attribute);
        const get = function (this: object): string {
          return installation.readHyperlink(this as ElementLike, attribute, compute);
        };
        const set =
          attribute === "origin"
            ? undefined
            : function (this: object, value: unknown): void {
                const element = this as ElementLike;
                setHyperlinkAttribute(installation.contextOf(element), element, attribute as HyperlinkSettableAttributeName, String(value));
              };
        patches.accessor(prototype, attribute, get, set);
      }
      // https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href (the stringifier)
      const href = (context: Context, element: ElementLike): string => getHyperlinkAttribute(context, element, "href");
      patches.method(prototype, "toString", function (this: object) {
        return installation.readHyperlink(this as ElementLike, "href", href);
      });
    }

    // Reflected URL attributes (https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes),
    // as the catalogue of URL-bearing attributes lists them (url-utils' reflectedURLAttributes is derived from it),
    // on the interface of each element that has them: button.formAction, which jsdom lacks, included.
    for (const entry of reflectedURLAttributes) {
      if (entry.kind === "hyperlink") continue;
      const prototype = this.#prototypeOfElement(entry.element);
      if (prototype === null) continue;
      const name = entry.name;
      const contentAttribute = entry.contentAttribute;
      const compute = (context: Context, element: ElementLike): string => getReflectedURL(context, element, name);
      patches.accessor(
        prototype,
        name,
        function (this: object) {
          return installation.read(this as ElementLike, name, contentAttribute, compute);
        },
        function (this: object, value: unknown) {
          const element = this as ElementLike;
          setReflectedURL(installation.contextOf(element), element, name, String(value));
        },
      );
    }

    // Frames: reading a frame's document or window first brings docbase's view of frames up to date.
    const iframe = this.#interface("HTMLIFrameElement")?.prototype;
    if (iframe !== undefined) {
      for (const key of ["contentDocument", "contentWindow"]) {
        const originalGet = patches.originalOf(iframe, key)?.get;
        if (originalGet === undefined) continue;
        patches.accessor(iframe, key, function (this: object) {
          installation.sync();
          return originalGet.call(this);
        });
      }
    }
  }

  /** The prototype of the interface `document.createElement(localName)` makes, or null. */
  #prototypeOfElement(localName: string): object | null {
    const element = this.window.document.createElement(localName);
    const prototype = Object.getPrototypeOf(element) as object | null;
    const generic = this.#interface("HTMLUnknownElement")?.prototype ?? null;
    return prototype === generic ? null : prototype;
  }

  // --- Reads and coherence ------------------------------------------------------------------------

  /**
   * A reflected URL attribute's getter (`img.src`, …: `compute`), whose
   * content attribute is `contentAttribute`: from the cache when the
   * attribute is the one the value was computed from, else computed (and
   * cached when the element is in the window document's tree).
   */
  read(element: ElementLike, name: string, contentAttribute: string, compute: (context: Context, element: ElementLike) => string): string {
    this.sync();
    const entry = this.#entryOf(element);
    if (entry === null) return compute(this.#contextOfUnsynced(element), element);
    const epoch = this.#epoch;
    const cached = entry.values?.get(name);
    if (cached !== undefined && cached.epoch === epoch) {
      this.#hit();
      return cached.value;
    }
    const attribute = this.#native.getAttributeNS.call(element, null, contentAttribute);
    if (cached !== undefined) {
      const same = cached.attribute === attribute;
      this.#compared(same);
      if (same) {
        cached.epoch = epoch;
        return cached.value;
      }
    }
    const value = this.#computeInTree(element, compute);
    (entry.values ??= new Map()).set(name, { attribute, value, epoch });
    return value;
  }

  /**
   * An HTMLHyperlinkElementUtils getter of an `a` or `area` element
   * (https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils):
   * url-utils' `getHyperlinkAttribute(context, element, name)` (which
   * `compute` is), cached as {@link read} caches, with the href attribute.
   */
  readHyperlink(element: ElementLike, name: HyperlinkAttributeName, compute: (context: Context, element: ElementLike) => string): string {
    this.sync();
    const entry = this.#entryOf(element);
    if (entry === null) return compute(this.#contextOfUnsynced(element), element);
    const epoch = this.#epoch;
    if (entry.hrefAttribute !== undefined && entry.epoch === epoch) {
      this.#hit();
      return this.#fromURL(entry, name);
    }
    const cached = entry.values?.get(name);
    if (cached !== undefined && cached.epoch === epoch) {
      this.#hit();
      return cached.value;
    }
    const href = this.#native.getAttributeNS.call(element, null, "href");
    if (entry.hrefAttribute === href) {
      this.#compared(true);
      entry.epoch = epoch;
      return this.#fromURL(entry, name);
    }
    if (cached !== undefined && cached.attribute === href) {
      this.#compared(true);
      cached.epoch = epoch;
      return cached.value;
    }
    if (entry.hrefAttribute !== undefined || cached !== undefined) this.#compared(false);
    return this.#hyperlinkAttribute(element, entry, name, href, compute);
  }

  /** A hyperlink getter's value from the url of the fast path (see #hyperlinkAttribute). */
  #fromURL(entry: CacheEntry, name: HyperlinkAttributeName): string {
    const href = entry.hrefAttribute as string | null;
    let url = entry.url;
    if (url === NOT_PARSED) {
      if (name === "href") return entry.href!;
      // The entry is of the current generation: the document's base URL is the one `href` was made with.
      url = entry.url = encodingParseURL(this.#context!, href as string);
    }
    if (name === "href") return (entry.href ??= hyperlinkAttributeOfURL("href", url, href));
    return hyperlinkAttributeOfURL(name, url, href);
  }

  /**
   * The cache entry of `element` when it is in the window document's tree
   * (made now if it has none for the current generation), else null: the
   * values of other elements are not cached, as their insertions and
   * removals are not observed.
   *
   * A cached value is current when the entry is of the current generation
   * and the content attribute it was computed from is the element's now: it
   * is a function of the element's kind (constant), its node document (the
   * window's, as long as it is in the tree: no node was removed since) and
   * that document's base URL, encoding and URL (a change of the base URL
   * starts a new generation; the encoding is constant; a base element's href
   * is observed), and that one attribute. The attribute is compared when an
   * observed attribute changed anywhere in the document since it was last
   * seen (the attribute epoch moved on), or at every read while the
   * attributes are not observed (see #adapt); else it is known to be the
   * same, and the value is used without a call to jsdom.
   *
   * Optimisation: the records of attribute changes are counted, not matched
   * to the entries (see #process). Which element one concerns
   * (`record.target`) costs jsdom more than the attribute read it would
   * save (it makes a cache object on the record), and setting a link's
   * href, then reading it, is the common mutation.
   */
  #entryOf(element: ElementLike): CacheEntry | null {
    // Nothing is cached in a window without MutationObserver: nothing would tell of a change.
    if (this.#context === null || this.#observer === null) return null;
    const entry = this.#cache.get(element);
    // Optimisation: an entry of the current generation says that the element is still in the
    // tree (see CacheEntry.generation), without asking jsdom again.
    if (entry !== undefined && entry.generation === this.#generation) return entry;
    if (this.#native.getRootNode.call(element) !== this.#document) return null;
    const fresh: CacheEntry = {
      generation: this.#generation,
      kind: entry?.kind ?? UNKNOWN,
      hrefAttribute: undefined,
      epoch: 0,
      url: null,
      href: undefined,
      values: null,
    };
    this.#cache.set(element, fresh);
    return fresh;
  }

  /**
   * `compute(context, element)` for an element that #entryOf found in the
   * window document's tree, in the window document's context.
   *
   * Optimisation: while it runs, this installation's adapter answers the
   * element's node document (https://dom.spec.whatwg.org/#concept-node-document)
   * itself: the document-base and url-utils layers ask for it on every
   * computation (twice for a hyperlink attribute), and each `ownerDocument`
   * costs a call through jsdom's wrappers. The answer is right: a node in a
   * document's tree has that document as its node document, the element is
   * in the window document's tree (its entry is of the current generation),
   * and a getter's computation only reads the tree, so nothing moves it
   * before the answer is forgotten (in `finally`).
   */
  #computeInTree(element: ElementLike, compute: (context: Context, element: ElementLike) => string): string {
    const known = this.#known;
    known.node = element;
    known.document = this.#document;
    try {
      return compute(this.#context!, element);
    } finally {
      known.node = null;
      known.document = null;
    }
  }

  /**
   * An HTMLHyperlinkElementUtils getter's value for an element in the
   * window document's tree whose href attribute is `href`:
   * `getHyperlinkAttribute(context, element, name)`.
   *
   * Optimisation: every getter reads only the element's url after
   * "reinitialize url" and its href attribute
   * (https://html.spec.whatwg.org/multipage/links.html#reinitialise-url), and
   * that url is the href attribute encoding-parsed relative to the element's
   * node document, unless the element keeps a blob: url (see below). That is
   * computed here, kept in the cache entry for the element's other getters,
   * and handed to url-utils' own getter steps (`hyperlinkAttributeOfURL`):
   * no jsdom call but the attribute, which the caller has read. url-utils'
   * general path makes three more per element (local name, namespace, node
   * document) and keeps a state of its own; reading every link of a page is
   * mostly this.
   *
   * It is url-utils' value exactly: "reinitialize url" sets the url afresh
   * from the attribute and the current base URL, unless the url it holds is
   * a blob: URL with an opaque path, which it keeps even when the base URL
   * has changed since. So url-utils computes the value when it holds such a
   * url (`keepsHyperlinkURL`), and when the url just parsed is one, so that
   * it holds it from now on as the standard does. With xml:base on, an
   * element's base URL is its own, and url-utils computes every value; it
   * also throws for an element that is not an HTML `a` or `area` (a getter
   * called on another object).
   */
  #hyperlinkAttribute(
    element: ElementLike,
    entry: CacheEntry,
    name: HyperlinkAttributeName,
    href: string | null,
    compute: (context: Context, element: ElementLike) => string,
  ): string {
    const context = this.#context!;
    if (
      this.#options.xmlBase === true ||
      this.#kindOf(element, entry) !== HYPERLINK ||
      keepsHyperlinkURL(context as unknown as Parameters<typeof keepsHyperlinkURL>[0], element, href)
    ) {
      return this.#viaURLUtils(element, entry, name, href, compute);
    }
    if (name === "href") {
      // Optimisation: the href getter's value is the url serialized, which
      // encodingParseAndSerializeURL makes without a record for the common
      // shapes; the record is parsed when another getter asks (#fromURL).
      const serialized = href === null ? null : encodingParseAndSerializeURL(context, href);
      // A blob: URL with an opaque path (serialized, "blob:" and no "/" after it) is url-utils'.
      if (serialized !== null && serialized.startsWith("blob:") && serialized.charCodeAt(5) !== 0x2f) {
        return this.#viaURLUtils(element, entry, name, href, compute);
      }
      const value = serialized ?? hyperlinkAttributeOfURL("href", null, href);
      return this.#keep(entry, href, serialized === null ? null : NOT_PARSED, name, value);
    }
    // "Set the url", step 3: encoding-parse the href attribute relative to the node document
    // (the window's document: the element is in its tree).
    const url = href === null ? null : encodingParseURL(context, href);
    if (url !== null && url.scheme === "blob" && url.opaquePath) return this.#viaURLUtils(element, entry, name, href, compute);
    return this.#keep(entry, href, url, name, hyperlinkAttributeOfURL(name, url, href));
  }

  /** Keeps `value`, the getter `name`'s, in the entry, with the href attribute and url it came from. */
  #keep(entry: CacheEntry, href: string | null, url: CacheEntry["url"], name: HyperlinkAttributeName, value: string): string {
    entry.hrefAttribute = href;
    entry.epoch = this.#epoch;
    entry.url = url;
    entry.href = name === "href" ? value : undefined;
    return value;
  }

  /** A hyperlink getter's value computed by url-utils, kept in the entry with the href attribute `href`. */
  #viaURLUtils(
    element: ElementLike,
    entry: CacheEntry,
    name: HyperlinkAttributeName,
    href: string | null,
    compute: (context: Context, element: ElementLike) => string,
  ): string {
    // The fast path's url, if any, is of another href attribute.
    entry.hrefAttribute = undefined;
    entry.url = null;
    entry.href = undefined;
    const value = this.#computeInTree(element, compute);
    (entry.values ??= new Map()).set(name, { attribute: href, value, epoch: this.#epoch });
    return value;
  }

  /** Whether `element` is an HTML `a` or `area` (see CacheEntry.kind), asked of jsdom once per entry. */
  #kindOf(element: ElementLike, entry: CacheEntry): number {
    if (entry.kind === UNKNOWN) {
      const name = this.#native.localName.call(element);
      entry.kind = (name === "a" || name === "area") && this.#native.namespaceURI.call(element) === HTML_NAMESPACE ? HYPERLINK : OTHER;
    }
    return entry.kind;
  }

  #observe(document: DocumentLike): void {
    const Observer = this.window.MutationObserver;
    if (typeof Observer !== "function") return;
    this.#observer = new Observer((records) => this.#process(records));
    this.#observeDocument(true);
    this.#observeBases();
  }

  /** (Re)registers the observer on the document, reporting the URL attributes of every element or not (see #adapt). */
  #observeDocument(attributes: boolean): void {
    this.#trusting = attributes;
    this.#observer?.observe(
      this.#document,
      // An attributeFilter never matches a namespaced attribute, so xml:base needs them all.
      this.#options.xmlBase === true
        ? { subtree: true, childList: true, attributes: true, attributeOldValue: true }
        : attributes
          ? { subtree: true, childList: true, attributes: true, attributeFilter: WindowInstallation.urlAttributes }
          : { subtree: true, childList: true },
    );
  }

  /**
   * Optimisation: whether the URL attributes of every element are observed
   * is decided by what the document sees, as each way costs where the other
   * does not.
   *
   * - Observed (#trusting): jsdom makes a MutationRecord for every change of
   *   a URL content attribute in the document (about eight attribute reads'
   *   worth), and a read whose element's attribute epoch is current uses its
   *   cached value without a call to jsdom.
   * - Not observed: setting an attribute costs nothing more, and every read
   *   compares the element's attribute with the one its value came from (one
   *   call to jsdom).
   *
   * It starts observed. When the records cost more than the reads they
   * spare (eight reads' worth a record, against one a read served without a
   * call, counting at most 256 of those, with a margin of 64), the
   * attributes are not observed any more; after 64 reads in a row whose
   * attribute had not changed, they are again.
   * Either way every value is current: only what a read costs changes. (With
   * xml:base on, every attribute is observed, always.)
   */
  #adapt(observe: boolean): void {
    if (this.#observer === null || this.#trusting === observe || this.#options.xmlBase === true) return;
    this.#credit = 0;
    // What was cached before is checked once more: unobserved, an attribute may have changed.
    this.#epoch++;
    this.#observeDocument(observe);
  }

  /** `count` records of attribute changes (see #adapt). */
  #attributesChanged(count: number): void {
    this.#epoch++;
    if (!this.#trusting) return;
    this.#credit -= 8 * count;
    if (this.#credit < -64) this.#adapt(false);
  }

  /** A read served from the cache without a call to jsdom, thanks to the observed epoch (see #adapt). */
  #hit(): void {
    if (this.#credit < 256) this.#credit++;
  }

  /**
   * A read that compared its element's attribute: `same` when it had not
   * changed, which an observed epoch would have spared (see #adapt).
   */
  #compared(same: boolean): void {
    if (this.#trusting) return;
    if (!same) this.#credit = 0;
    else if (++this.#credit >= 64) this.#adapt(true);
  }

  /** The content attributes the cached values are computed from: href, and every reflected URL attribute's. */
  static readonly urlAttributes: readonly string[] = [...new Set(["href", ...reflectedURLAttributes.map((entry) => entry.contentAttribute)])];

  /** What the observer observes on an iframe: the attributes that navigate it. */
  static readonly frameAttributes = { attributes: true, attributeFilter: ["srcdoc", "src"] };
  /** What the observer observes on a base element. */
  static readonly baseAttributes = { attributes: true, attributeFilter: ["href"] };

  /**
   * Has the observer observe the href of every base element that can decide
   * the document base URL: the first one with an href, and those before it
   * in tree order (one of them may get an href), or all of them when none
   * has one (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url).
   * A base element after the first one with an href decides nothing while
   * that one stays before it; this runs again when that may have changed
   * (see #process): a base element's href changed, a base element inserted
   * (or moved), the first one removed. Observing a base element again, or
   * one that decides nothing any more, is harmless.
   *
   * Optimisation: found as document-base finds the first base element (its
   * #findFirstBase), in the head when it holds one with an href, without a
   * walk of the whole document.
   */
  #observeBases(): void {
    const observer = this.#observer;
    // With xml:base on, every attribute of the document is observed.
    if (observer === null || this.#options.xmlBase === true) return;
    let first: ElementLike | null = null;
    const found = new Map<ElementLike, string | null>();
    const observe = (bases: ArrayLike<ElementLike>): boolean => {
      found.clear();
      for (let i = 0; i < bases.length; i++) {
        const base = bases[i]!;
        observer.observe(base, WindowInstallation.baseAttributes);
        const href = base.getAttributeNS(null, "href");
        found.set(base, href);
        if (href !== null) {
          first = base;
          return true;
        }
      }
      return false;
    };
    const head = headOf(this.#adapter, this.#document) as ElementLike | null;
    if (head === null || !observe(head.getElementsByTagNameNS(HTML_NAMESPACE, "base"))) {
      observe(this.#document.getElementsByTagNameNS(HTML_NAMESPACE, "base"));
    }
    this.#bases = found;
    this.#firstBase = first;
  }

  /**
   * Reports to the document's context the base elements of #bases whose
   * href is not the one #observeBases saw (an href attribute changed
   * somewhere), and finds the base elements that count again if one did.
   *
   * Optimisation: the attribute records are not matched to their elements
   * (see #process); the few base elements that count are looked at instead
   * (none, on most pages; one, on most others).
   */
  #checkBases(): void {
    let changed = false;
    for (const [base, known] of this.#bases) {
      if (base.getAttributeNS(null, "href") === known) continue;
      changed = true;
      // https://dom.spec.whatwg.org/#concept-element-attributes-change-ext, as a record would report it.
      this.#context?.attributeChanged(base, null, "href", known);
    }
    if (changed) this.#observeBases();
  }

  /**
   * Takes the pending mutation records synchronously, so that a read right
   * after a mutation is never stale.
   */
  sync(): void {
    if (!this.#active) this.activate();
    if (this.#pending !== 0) this.#takePending();
    const observer = this.#observer;
    if (observer === null) return;
    const records = this.#native.takeRecords.call(observer);
    if (records.length > 0) this.#process(records);
    // Unobserved, any attribute may have changed since the last read (see #adapt).
    if (!this.#trusting) this.#epoch++;
  }

  /** What sync() has to look at besides the records (see #pending). */
  #takePending(): void {
    const pending = this.#pending;
    if ((pending & ENCODING_PENDING) !== 0) this.#checkEncoding();
    if ((pending & (URL_CHANGED | URL_UNWATCHED)) !== 0) {
      this.#pending &= ~URL_CHANGED;
      if (this.#documentURLToken() !== this.#takenURL) this.#followDocumentURL();
    }
  }

  /**
   * The document's URL, as #takenURL keeps it: jsdom's URL record (one
   * property read, no call), or the serialized URL in a window without one.
   */
  #documentURLToken(): unknown {
    const impl = this.#documentImpl;
    return impl !== null ? impl._URL : this.#document.URL;
  }

  /**
   * The document's URL changed since the context took it: history.pushState()
   * and replaceState() (https://html.spec.whatwg.org/multipage/nav-history-apis.html#url-and-history-update-steps),
   * a fragment navigation (`location.hash = …`,
   * https://html.spec.whatwg.org/multipage/browsing-the-web.html#scroll-to-fragid),
   * a history traversal, or JSDOM's `reconfigure({ url })`. The fallback base
   * URL is the document's URL (unless it matches about:blank or is an iframe
   * srcdoc document's), so the document base URL follows when there is no
   * `<base href>`; the context reports the change, if any.
   *
   * Deviation: an about:srcdoc document keeps its URL: docbase gives it
   * about:srcdoc over jsdom's about:blank (see populateSrcdoc), and jsdom's
   * pushState() in it works on about:blank.
   */
  #followDocumentURL(): void {
    this.#takenURL = this.#documentURLToken();
    const context = this.#context;
    if (context === null || this.#origin?.documentURL !== undefined) return;
    const url = this.#document.URL;
    if (url === context.url) return;
    // Cached values are computed from the document's URL through its base URL only; the
    // generation moves on anyway, as a URL change is rare.
    this.#generation++;
    context.urlChanged(url);
  }

  /**
   * Hears of jsdom's changes of the document's URL as they happen: jsdom
   * calls its document's `_clearBaseURLCache()` right after each one
   * (pushState, replaceState, a fragment navigation, a traversal,
   * `reconfigure`), as its own base URL cache would be stale otherwise.
   * docbase wraps that function on the document's internal object (an own
   * property: the object stays as fast as it was) so that the next read
   * takes the change (see #pending), and a microtask takes it without a
   * read, as a MutationObserver's records are taken, for the listeners of
   * onBaseURLChange. Returns false for a window without that function: every
   * read then compares the document's URL.
   */
  #hookDocumentURL(): boolean {
    const impl = this.#documentImpl as (DocumentImplLike & Record<string, unknown>) | null;
    if (impl === null || typeof impl._clearBaseURLCache !== "function") return false;
    const notify = (): void => {
      // A base element's change calls it too; and the URL is taken when the document is activated.
      if (!this.#active || this.#documentURLToken() === this.#takenURL) return;
      this.#pending |= URL_CHANGED;
      if (this.#urlTaskQueued) return;
      this.#urlTaskQueued = true;
      this.#queueMicrotask(() => {
        this.#urlTaskQueued = false;
        if (this.#installed) this.sync();
      });
    };
    const hook = documentURLHooks.get(impl);
    if (hook !== undefined) {
      hook.notify = notify;
      return true;
    }
    const slot: { notify: (() => void) | null } = { notify };
    documentURLHooks.set(impl, slot);
    const original = impl._clearBaseURLCache as (this: unknown, ...args: unknown[]) => unknown;
    // Optimisation: uninstall() does not delete it again (that would turn the object into a
    // slower dictionary-mode one); it stays, calling jsdom's function and nothing else.
    Object.defineProperty(impl, "_clearBaseURLCache", {
      configurable: true,
      enumerable: false,
      writable: true,
      value: function (this: unknown, ...args: unknown[]): unknown {
        const result = original.apply(this, args);
        slot.notify?.();
        return result;
      },
    });
    return true;
  }

  /**
   * Queues `task` as the window's own queueMicrotask does (an exception is
   * reported to the window, as a MutationObserver callback's is), else as
   * the platform's.
   */
  #queueMicrotask(task: () => void): void {
    const queue = this.#windowQueueMicrotask;
    if (queue !== undefined) queue.call(this.window, task);
    else queueMicrotask(task);
  }

  /**
   * A frame navigated to a URL whose document had no node yet when it was
   * activated (see activate): once it has one, its parser has started, with
   * the document's own encoding, which URL queries in it use
   * (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url:
   * "the document's character encoding"; each document has its own, a frame
   * loaded from a URL included). A context made with its container's
   * encoding is made again.
   */
  #checkEncoding(): void {
    const document = this.#document;
    if (document.firstChild === null && document.readyState === "loading") return;
    this.#pending &= ~ENCODING_PENDING;
    const context = this.#context;
    // A context someone made before the installation (see activate) is theirs to keep.
    if (context === null || !this.#contexts.has(context) || getEncoding(document.characterSet) === context.encoding) return;
    context.dispose();
    this.#contexts.delete(context);
    this.#context = this.#createContext(document, null, this.#origin?.documentURL, false);
    this.#generation++;
  }

  #process(records: ArrayLike<MutationRecordShape>): void {
    if (!this.#installed) return;
    const xmlBase = this.#options.xmlBase === true;
    // The frames to process, and the records the document's context has to learn of; made when
    // needed.
    let frames: Set<ElementLike> | null = null;
    let forContext: MutationRecordShape[] | null = null;
    // Whether the base elements that count may be others now.
    let bases = false;
    // The number of attribute records (see #adapt), and whether one was of an href, a src or a srcdoc.
    let attributes = 0;
    let hrefs = false;
    let sources = false;
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      const type = record.type;
      if (type === "attributes") {
        attributes++;
        if (xmlBase) {
          // The context acts on a base element's href and on xml:base.
          (forContext ??= []).push(record);
          const target = record.target as ElementLike;
          if (isHTMLIFrame(target)) (frames ??= new Set()).add(target);
          continue;
        }
        // Optimisation: which element a record concerns is not asked (`record.target` costs jsdom
        // more than the other fields: it makes a cache object on the record). Only an href can be
        // a base element's, and only a src or a srcdoc an iframe's: those few are looked at below.
        const name = record.attributeName;
        if (name === "href") hrefs = true;
        else if (name === "src" || name === "srcdoc") sources = true;
      } else if (type === "childList") {
        // A node that moved in or out may have another document or base URL now.
        const added = record.addedNodes;
        const removed = record.removedNodes;
        if (added.length > 0 || removed.length > 0) this.#generation++;
        // A base element inserted may come before the first one with an href now (even that one,
        // moved): the base elements that count are found again. One removed may have been the
        // first with an href: those after it count now.
        for (let j = 0; j < added.length; j++) if (this.#collect(added[j]!, (frames ??= new Set()))) bases = true;
        for (let j = 0; j < removed.length; j++) this.#collect(removed[j]!, (frames ??= new Set()));
        if (removed.length > 0 && this.#firstBase !== null && this.#firstBase.getRootNode() !== this.#document) bases = true;
        (forContext ??= []).push(record);
      }
    }
    if (attributes > 0) this.#attributesChanged(attributes);
    // The document's context learns of the mutations that concern it (a base element inserted,
    // removed or changed, xml:base, …); its base-URL change listener bumps the generation.
    if (forContext !== null) this.#context?.notifyMutation(forContext as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
    if (hrefs) this.#checkBases();
    if (bases) this.#observeBases();
    // processFrame does nothing for a frame whose window and srcdoc are as they were.
    if (sources) for (const iframe of this.#frames.keys()) (frames ??= new Set()).add(iframe as ElementLike);
    if (frames !== null) for (const iframe of frames) this.processFrame(iframe);
  }

  /**
   * Adds `root` and the iframes under it to `frames` (iteratively: trees may
   * be deep); returns whether there is an HTML base element among them.
   */
  #collect(root: NodeLike, frames: Set<ElementLike>): boolean {
    if (root.nodeType !== 1 && root.nodeType !== 11) return false;
    let bases = false;
    const take = (element: ElementLike): void => {
      if (element.namespaceURI !== HTML_NAMESPACE) return;
      const name = element.localName;
      if (name === "iframe") frames.add(element);
      else if (name === "base") bases = true;
    };
    if (root.nodeType === 1) take(root as ElementLike);
    const candidates = (root as Partial<DocumentLike>).querySelectorAll?.("iframe, base");
    if (candidates !== undefined) for (let i = 0; i < candidates.length; i++) take(candidates[i]!);
    return bases;
  }

  /**
   * Installs into the frame's window, if it has one, and for srcdoc frames
   * parses the srcdoc document.
   *
   * https://html.spec.whatwg.org/multipage/iframe-embed-object.html#process-the-iframe-attributes
   */
  processFrame(iframe: ElementLike): void {
    this.#observer?.observe(iframe, WindowInstallation.frameAttributes);
    const originalWindow = this.#patches.originalOf(this.#interface("HTMLIFrameElement")!.prototype, "contentWindow")?.get;
    const frameWindow = (originalWindow?.call(iframe) ?? null) as WindowLike | null;
    const known = this.#frames.get(iframe);
    if (frameWindow === null) {
      if (known !== undefined) {
        known.child.uninstall();
        this.#frames.delete(iframe);
      }
      return;
    }
    const srcdoc = this.#options.srcdoc === false ? null : iframe.getAttribute("srcdoc");
    if (known !== undefined && known.window === frameWindow && known.srcdoc === srcdoc) return;
    if (known !== undefined) known.child.uninstall();
    if (installations.has(frameWindow)) {
      // Someone installed into it directly; leave theirs alone.
      this.#frames.delete(iframe);
      return;
    }

    const aboutBaseURL = this.#creationBaseURL(this.contextOf(iframe), iframe);
    let origin: FrameOrigin;
    if (srcdoc !== null) {
      // "If element has a srcdoc attribute specified": an about:srcdoc document, whose about base
      // URL is the container document's base URL.
      origin = { parent: this, aboutBaseURL, documentURL: "about:srcdoc" };
    } else if (isAboutBlank(frameWindow.document.URL)) {
      // A document whose URL matches about:blank takes its creator's base URL.
      origin = { parent: this, aboutBaseURL, documentURL: undefined };
    } else {
      origin = { parent: this, aboutBaseURL: null, documentURL: undefined };
    }
    const child = new WindowInstallation(frameWindow, this.#options, origin);
    installations.set(frameWindow, child);
    this.#frames.set(iframe, { window: frameWindow, child, srcdoc });
    if (srcdoc !== null) child.populateSrcdoc(srcdoc);
    // Optimisation: a frame navigated to a URL whose document its parser has yet to build is
    // activated as a window's document is (see the constructor): when parsing ends, or at the first
    // read, so that the parser's insertions are not observed one by one.
    if (srcdoc !== null || origin.aboutBaseURL !== null || frameWindow.document.readyState !== "loading") child.activate();
  }

  /**
   * The container document's base URL for a frame created now, serialized:
   * the rule of document-base's `frameCreationBaseURL` (the first `<base
   * href>` counts only when it precedes the frame in tree order).
   *
   * Optimisation: the DOM's own `querySelectorAll` and
   * `compareDocumentPosition` answer it without walking the tree element by
   * element through jsdom's wrappers, as the adapter-generic walk would.
   *
   * Deviation: the HTML Standard snapshots it when the frame's document is
   * created. docbase sees the frame when it next takes the mutation records
   * (at the next read through docbase, or in a microtask), so a `<base>`
   * that comes after the iframe in tree order is left out, which is what the
   * parser's order gives; a `<base>` inserted by script before the iframe
   * between insertion and the next read is the one case that differs.
   */
  #creationBaseURL(context: Context, iframe: ElementLike): string {
    const document = context.document as DocumentLike;
    const bases = document.querySelectorAll("base[href]");
    for (let i = 0; i < bases.length; i++) {
      const base = bases[i]!;
      if (base.namespaceURI !== HTML_NAMESPACE) continue;
      const follows = (iframe.compareDocumentPosition(base) & DOCUMENT_POSITION_FOLLOWING) !== 0;
      return serializeURL(follows ? fallbackBaseURL(context) : documentBaseURL(context));
    }
    return serializeURL(documentBaseURL(context));
  }

  /**
   * Parses `srcdoc` into the window's document (document.open/write/close)
   * and makes its URL about:srcdoc.
   *
   * https://html.spec.whatwg.org/multipage/iframe-embed-object.html#attr-iframe-srcdoc
   */
  populateSrcdoc(srcdoc: string): void {
    const document = this.window.document;
    for (const key of ["URL", "documentURI"]) {
      // jsdom has no srcdoc documents: the document keeps about:blank as its URL otherwise.
      this.#patches.accessor(document, key, () => "about:srcdoc");
    }
    document.open();
    document.write(srcdoc);
    document.close();
  }

  // --- Uninstall ------------------------------------------------------------------------------

  uninstall(): void {
    if (!this.#installed) return;
    this.#installed = false;
    const hook = this.#documentImpl === null ? undefined : documentURLHooks.get(this.#documentImpl);
    if (hook !== undefined) hook.notify = null;
    this.#observer?.disconnect();
    this.#observer = null;
    this.#firstBase = null;
    this.#bases.clear();
    for (const { observer } of this.#otherDocuments.values()) observer.disconnect();
    this.#otherDocuments.clear();
    this.#context = null;
    for (const { child } of this.#frames.values()) child.uninstall();
    this.#frames.clear();
    for (const context of this.#contexts) context.dispose();
    this.#contexts.clear();
    this.#patches.restore();
    this.#listeners.clear();
    installations.delete(this.window);
  }
}

/**
 * jsdom's internal Document object behind `window.document`
 * (`window._document`), when it has a URL record, else null.
 */
function documentImplOf(window: WindowLike): DocumentImplLike | null {
  const impl = window["_document"];
  if (impl === null || typeof impl !== "object" || !("_URL" in impl)) return null;
  const url = (impl as DocumentImplLike)._URL;
  return url !== null && typeof url === "object" ? (impl as DocumentImplLike) : null;
}

/** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#matches-about:blank */
function isAboutBlank(url: string): boolean {
  const record = parseURL(url);
  return record !== null && matchesAboutBlank(record);
}

/**
 * The window's own `getAttributeNS`, `getRootNode`, `localName` and
 * `namespaceURI` getters and MutationObserver `takeRecords` (see
 * WindowInstallation's #native); those of the DOM's interfaces when the
 * window lacks one (not a jsdom window), which call the element's own.
 */
function nativeFunctions(window: WindowLike): NativeFunctions {
  const prototype = (name: string): Record<string, unknown> | undefined => {
    const value = window[name];
    return typeof value === "function" ? (value as { prototype?: Record<string, unknown> }).prototype : undefined;
  };
  const element = prototype("Element");
  const getter = (key: string): ((this: object) => never) | undefined =>
    (element === undefined ? undefined : Object.getOwnPropertyDescriptor(element, key)?.get) as ((this: object) => never) | undefined;
  const method = <F>(owner: Record<string, unknown> | undefined, key: string): F | undefined =>
    typeof owner?.[key] === "function" ? (owner[key] as F) : undefined;
  return {
    getAttributeNS:
      method(element, "getAttributeNS") ??
      function (this: object, namespace: string | null, localName: string) {
        return (this as ElementLike).getAttributeNS(namespace, localName);
      },
    getRootNode:
      method(prototype("Node"), "getRootNode") ??
      function (this: object) {
        return (this as ElementLike).getRootNode();
      },
    localName:
      getter("localName") ??
      function (this: object) {
        return (this as ElementLike).localName;
      },
    namespaceURI:
      getter("namespaceURI") ??
      function (this: object) {
        return (this as ElementLike).namespaceURI;
      },
    takeRecords:
      method(prototype("MutationObserver"), "takeRecords") ??
      function (this: object) {
        return (this as MutationObserverLike).takeRecords();
      },
  };
}

function isHTMLIFrame(node: NodeLike): boolean {
  const element = node as Partial<ElementLike>;
  return node.nodeType === 1 && element.localName === "iframe" && element.namespaceURI === HTML_NAMESPACE;
}

/**
 * Makes a jsdom window resolve URLs as a browser does. Call it from JSDOM's
 * `beforeParse(window)`, so that docbase sees the document from its first
 * node; calling it later works too.
 *
 * What changes: `Node.prototype.baseURI`; the URL decomposition attributes
 * of `<a>` and `<area>` (href, origin, protocol, username, password, host,
 * hostname, port, pathname, search, hash, toString); every reflected URL
 * attribute (img.src, link.href, form.action, button.formAction, base.href,
 * q/blockquote/ins/del cite, …); `<iframe srcdoc>` documents; about:blank
 * frames' base URL; queries in each document's own encoding (UTF-16
 * documents use UTF-8; a frame loaded from a URL uses its own, not its
 * container's); the document's URL followed through pushState, replaceState
 * and fragment navigations. The document's context is made, and its frames
 * installed, when parsing ends. Values are cached per element with the
 * content attribute they came from, and kept coherent by a MutationObserver
 * (of the tree, of base elements and iframes, and, while that pays, of the
 * URL attributes) whose pending records are taken synchronously before each
 * read, with the document's URL record.
 * Throws a TypeError when `window` is already installed.
 *
 * @example
 * ```ts
 * import { JSDOM } from "jsdom";
 * import { install } from "docbase/jsdom";
 * let handle;
 * const dom = new JSDOM(`<base href="/docs/"><a href="intro">x</a><iframe srcdoc="<a href=y>y</a>"></iframe>`, {
 *   url: "https://example.com/",
 *   beforeParse(window) { handle = install(window); },
 * });
 * dom.window.document.querySelector("a").href; // "https://example.com/docs/intro"
 * dom.window.document.querySelector("iframe").contentDocument.querySelector("a").href;
 * // "https://example.com/docs/y" (srcdoc documents inherit the container's base URL)
 * handle.uninstall();
 * ```
 */
export function install(window: unknown, options: InstallOptions = {}): Installation {
  const target = window as WindowLike;
  if (target === null || typeof target !== "object" || typeof target.document !== "object" || typeof target.Node !== "function") {
    throw new TypeError("install(window): expected a jsdom window (as JSDOM's beforeParse(window) receives it)");
  }
  if (installations.has(target)) throw new TypeError("install(window): docbase is already installed in this window");
  const installation = new WindowInstallation(target, options, null);
  installations.set(target, installation);
  return installation;
}

