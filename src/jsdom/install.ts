/**
 * install(window): makes a jsdom window resolve URLs as a browser does, from
 * docbase's layers, through jsdom's public surface only (interface
 * prototypes, MutationObserver, document.open/write/close).
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url
 *
 * @module
 */

import {
  type BaseURLChange,
  baseURI,
  createDocumentContext,
  type DocumentContext,
  documentBaseURL,
  documentContextOf,
  type DOMTreeAdapterMap,
  domTreeAdapter,
  fallbackBaseURL,
  HTML_NAMESPACE,
  matchesAboutBlank,
  encodingParseAndSerializeURL,
  type MutationRecordLike,
} from "../document-base/index.ts";
import { parseURL, serializeURL } from "../core/index.ts";
import {
  getHyperlinkAttribute,
  getReflectedURL,
  hyperlinkAttributeNames,
  type HyperlinkSettableAttributeName,
  reflectedURLAttributes,
  setHyperlinkAttribute,
  setReflectedURL,
} from "../url-utils/index.ts";
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
   * Resolve `xml:base` attributes (XML Base), as older HTML drafts required.
   * Off by default: browsers ignore xml:base today.
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
 * subtree), the old and the new base URL. Reported once per change.
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
   * Calls `listener` after every base-URL change in the window's documents
   * (its frames' documents included); returns a function that removes it.
   */
  onBaseURLChange(listener: (change: JSDOMBaseURLChange) => void): () => void;
  /** Restores plain jsdom behaviour in the window and in the frames it installed into. */
  uninstall(): void;
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

type Context = DocumentContext<DOMTreeAdapterMap>;

/** What a patched getter cached for one element. */
interface CacheEntry {
  readonly generation: number;
  readonly context: Context;
  readonly values: Map<string, string>;
}

/** https://dom.spec.whatwg.org/#dom-node-document_position_following */
const DOCUMENT_POSITION_FOLLOWING = 4;

/**
 * One window's installation: the patched prototypes, the document contexts
 * of the window's documents, and the frames it installed into.
 */
class WindowInstallation implements Installation {
  readonly window: WindowLike;
  readonly #options: InstallOptions;
  readonly #patches = new PropertyPatches();
  readonly #listeners = new Set<(change: JSDOMBaseURLChange) => void>();
  /** Every context this installation made (its document's, and synthetic documents'). */
  readonly #contexts = new Set<Context>();
  readonly #frames = new Map<object, { window: object; child: WindowInstallation; srcdoc: string | null }>();
  readonly #parent: WindowInstallation | null;
  /** The one observer of the window's document: feeds its context, the read cache and the frames. */
  #observer: MutationObserverLike | null = null;
  /** The window document's context, once active. */
  #context: Context | null = null;
  #installed = true;
  readonly #origin: FrameOrigin | null;
  #active = false;
  /**
   * Optimisation: the values read through the patched getters, per element, valid while
   * #generation is unchanged and no record touched the element. jsdom's own DOM calls cost
   * about a microsecond each (wrapper conversions), so a repeated read that makes none is what
   * makes docbase's getters an order of magnitude faster than jsdom's. Only elements of the
   * window's document that are in its tree are cached: only their mutations are observed.
   */
  readonly #cache = new WeakMap<object, CacheEntry>();
  /** Whether the hyperlinks' hrefs were computed in one pass (see #primeHyperlinks). */
  #primed = false;
  /** Documents without a window that this window's nodes belong to, each with its observer. */
  readonly #otherDocuments = new Map<object, { context: Context; observer: MutationObserverLike }>();
  #generation = 0;

  constructor(window: WindowLike, options: InstallOptions, origin: FrameOrigin | null) {
    this.window = window;
    this.#options = options;
    this.#origin = origin;
    this.#parent = origin?.parent ?? null;
    this.#patchPrototypes();
    const document = window.document;
    if (document.readyState === "loading") {
      // Optimisation: while the parser builds the document, nothing reads it through docbase, and
      // observing every node the parser inserts would cost more than the whole parse. The
      // document's context is made, and its frames taken, at the first read, when a listener is
      // added, or when parsing ends, whichever comes first.
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
    this.#context = documentContextOf<DOMTreeAdapterMap>(document) ?? this.#createContext(document, this.#origin?.aboutBaseURL ?? null, this.#origin?.documentURL, false);
    this.#observe(document);
    // getElementsByTagName: jsdom answers it much faster than querySelectorAll.
    const existing = document.getElementsByTagName("iframe");
    for (let i = 0; i < existing.length; i++) {
      const iframe = existing[i]!;
      if (iframe.namespaceURI === HTML_NAMESPACE) this.processFrame(iframe);
    }
  }

  // --- Contexts -------------------------------------------------------------------------------

  #createContext(document: DocumentLike, aboutBaseURL: string | null, url: string | undefined, observe: boolean): Context {
    const context = createDocumentContext(domTreeAdapter, document, {
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
    const other = this.#otherDocuments.get(document);
    if (other !== undefined) {
      // Bring that document's context up to date too.
      const records = other.observer.takeRecords();
      if (records.length > 0) other.context.notifyMutation(records as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
      return other.context;
    }
    const existing = documentContextOf<DOMTreeAdapterMap>(document);
    if (existing !== undefined) return existing;
    // A document without a window (createHTMLDocument, DOMParser, template contents' owner)
    // cannot be observed by its own context: this window's MutationObserver watches it.
    const context = this.#createContext(document, null, undefined, false);
    const observer = new this.window.MutationObserver((records) => {
      context.notifyMutation(records as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
    });
    observer.observe(document, this.#observeOptions());
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
          return installation.read(this as ElementLike, attribute, compute);
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
        return installation.read(this as ElementLike, "href", href);
      });
    }

    // Reflected URL attributes (https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes),
    // on the interface of each element that has them: button.formAction, which jsdom lacks, included.
    for (const entry of reflectedURLAttributes) {
      if (entry.kind === "hyperlink") continue;
      const prototype = this.#prototypeOfElement(entry.element);
      if (prototype === null) continue;
      const name = entry.name;
      const compute = (context: Context, element: ElementLike): string => getReflectedURL(context, element, name);
      patches.accessor(
        prototype,
        name,
        function (this: object) {
          return installation.read(this as ElementLike, name, compute);
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
   * A patched getter's value for `element`: from the cache when nothing
   * that could change it happened since, else computed and cached.
   */
  read(element: ElementLike, name: string, compute: (context: Context, element: ElementLike) => string): string {
    if (!this.#active) this.activate();
    this.sync();
    const entry = this.#cache.get(element);
    if (entry !== undefined && entry.generation === this.#generation) {
      const value = entry.values.get(name);
      if (value !== undefined) return value;
      const computed = compute(entry.context, element);
      entry.values.set(name, computed);
      return computed;
    }
    if (name === "href" && !this.#primed) {
      this.#primed = true;
      this.#primeHyperlinks();
      const primed = this.#cache.get(element);
      const value = primed?.values.get(name);
      if (value !== undefined) return value;
    }
    // Only elements in the window document's tree are cached: theirs are the mutations observed.
    // (Their context is the window document's, found without asking for the node document.)
    const inTree = (element as unknown as { getRootNode(): unknown }).getRootNode() === this.window.document;
    const context = inTree && this.#context !== null ? this.#context : this.#contextOfUnsynced(element);
    const value = compute(context, element);
    if (inTree && context === this.#context) {
      this.#cache.set(element, { generation: this.#generation, context, values: new Map([[name, value]]) });
    }
    return value;
  }

  /**
   * Optimisation: the first href read computes the href of every `<a>` and
   * `<area>` of the document in one pass. Most callers that read one link's
   * href read them all (crawlers, link checkers), and one pass over
   * `querySelectorAll` needs one jsdom call per link (`getAttribute`),
   * where an element at a time needs four or five (node document, root,
   * namespaced attribute lookups). The values are exactly url-utils' href
   * getter: the href attribute encoding-parsed relative to the document and
   * serialized, or the attribute itself (as a scalar value string) when it
   * does not parse. Done once per installation, not after every mutation,
   * so that it stays linear; skipped with xml:base, where elements differ.
   */
  #primeHyperlinks(): void {
    const context = this.#context;
    if (context === null || this.#options.xmlBase === true) return;
    // https://html.spec.whatwg.org/multipage/dom.html#dom-document-links — a and area elements
    // with an href, in the HTML namespace; jsdom answers it in one walk.
    const links = this.window.document.links;
    for (let i = 0; i < links.length; i++) {
      const element = links[i]!;
      if (element.namespaceURI !== HTML_NAMESPACE) continue;
      const attribute = element.getAttribute("href");
      if (attribute === null) continue;
      const href = encodingParseAndSerializeURL(context, attribute) ?? attribute.toWellFormed();
      this.#cache.set(element, { generation: this.#generation, context, values: new Map([["href", href]]) });
    }
  }

  /** The content attributes whose changes matter: URL attributes, srcdoc. */
  static readonly observedAttributes: readonly string[] = [
    ...new Set(["href", "srcdoc", ...reflectedURLAttributes.map((entry) => entry.contentAttribute)]),
  ];

  #observe(document: DocumentLike): void {
    const Observer = this.window.MutationObserver;
    if (typeof Observer !== "function") return;
    const observer = new Observer((records) => this.#process(records));
    observer.observe(document, this.#observeOptions());
    this.#observer = observer;
  }

  #observeOptions(): Record<string, unknown> {
    return {
      subtree: true,
      childList: true,
      attributes: true,
      attributeOldValue: true,
      // An attributeFilter never matches a namespaced attribute, so xml:base needs them all.
      ...(this.#options.xmlBase === true ? {} : { attributeFilter: WindowInstallation.observedAttributes }),
    };
  }

  /**
   * Takes the pending mutation records synchronously, so that a read right
   * after a mutation is never stale.
   */
  sync(): void {
    if (!this.#active) this.activate();
    const observer = this.#observer;
    if (observer === null) return;
    const records = observer.takeRecords();
    if (records.length > 0) this.#process(records);
  }

  #process(records: ArrayLike<MutationRecordShape>): void {
    if (!this.#installed) return;
    const frames = new Set<ElementLike>();
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      if (record.type === "attributes") {
        this.#cache.delete(record.target);
        if (isHTMLIFrame(record.target) && (record.attributeName === "srcdoc" || record.attributeName === "src")) {
          frames.add(record.target as ElementLike);
        }
      } else if (record.type === "childList") {
        // A node that moved in or out may have another document or base URL now.
        if (record.addedNodes.length > 0 || record.removedNodes.length > 0) this.#generation++;
        for (let j = 0; j < record.addedNodes.length; j++) collectIFrames(record.addedNodes[j]!, frames);
        for (let j = 0; j < record.removedNodes.length; j++) collectIFrames(record.removedNodes[j]!, frames);
      }
    }
    // The document's context learns of the same mutations (a base element's href, xml:base, …);
    // its base-URL change listener bumps the generation.
    this.#context?.notifyMutation(records as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
    for (const iframe of frames) this.processFrame(iframe);
  }

  /**
   * Installs into the frame's window, if it has one, and for srcdoc frames
   * parses the srcdoc document.
   *
   * https://html.spec.whatwg.org/multipage/iframe-embed-object.html#process-the-iframe-attributes
   */
  processFrame(iframe: ElementLike): void {
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
    child.activate();
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
    this.#observer?.disconnect();
    this.#observer = null;
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

/** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#matches-about:blank */
function isAboutBlank(url: string): boolean {
  const record = parseURL(url);
  return record !== null && matchesAboutBlank(record);
}

function isHTMLIFrame(node: NodeLike): boolean {
  const element = node as Partial<ElementLike>;
  return node.nodeType === 1 && element.localName === "iframe" && element.namespaceURI === HTML_NAMESPACE;
}

/** Adds `root` and its descendant iframes to `into` (iteratively: trees may be deep). */
function collectIFrames(root: NodeLike, into: Set<ElementLike>): void {
  if (root.nodeType !== 1 && root.nodeType !== 11) return;
  if (isHTMLIFrame(root)) into.add(root as ElementLike);
  const candidates = (root as Partial<DocumentLike>).querySelectorAll?.("iframe");
  if (candidates === undefined) return;
  for (let i = 0; i < candidates.length; i++) {
    const iframe = candidates[i]!;
    if (iframe.namespaceURI === HTML_NAMESPACE) into.add(iframe);
  }
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
 * frames' base URL; queries in the document's encoding (UTF-16 documents use
 * UTF-8). Values are cached per element and kept coherent with a
 * MutationObserver whose pending records are taken synchronously before
 * each read. Throws a TypeError when `window` is already installed.
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

