/**
 * One window's installation: wires the parts (contexts, observer, read cache,
 * base elements, frames, document URL, prototypes) to the window's document
 * when parsing ends, brings them up to date before each read, and takes them
 * off again.
 *
 * @module
 */

import { getEncoding } from "../core/index.ts";
import { type DocumentBaseTreeAdapter, documentContextOf, type DOMTreeAdapterMap, type MutationRecordLike } from "../document-base/index.ts";
import { type ElementTree, HTML_NAMESPACE, isBaseElement } from "../html/index.ts";
import { BaseElements } from "./base-elements.ts";
import { BaseURLChangeListeners } from "./base-url-change-events.ts";
import { DocumentContexts } from "./document-contexts.ts";
import { DocumentObserver } from "./document-observer.ts";
import { DocumentURLWatch } from "./document-url.ts";
import { lateEncodingWarning } from "./encoding-warning.ts";
import { type FrameInstallation, type FrameOrigin, Frames, populateSrcdoc } from "./frames.ts";
import type { Installation, InstallationWarning, InstallOptions, JSDOMBaseURLChange } from "./installation.ts";
import { installations } from "./installations.ts";
import { PropertyPatches } from "./property-patches.ts";
import { patchPrototypes, type Synced } from "./prototype-patches.ts";
import { type CacheHost, ReadCache } from "./read-cache.ts";
import { type KnownNodeDocument, type NativeFunctions, nativeFunctions, windowTreeAdapter } from "./window-functions.ts";
import type { DocumentLike, DOMContext, ElementLike, MutationRecordShape, NodeLike, WindowLike } from "./window.ts";

/** A frame's installation: what it takes from its container's. */
interface Container {
  readonly origin: FrameOrigin;
  readonly listeners: BaseURLChangeListeners;
  /** The top installation's warnings, which a frame's go to. */
  readonly warnings: InstallationWarning[];
}

/** Bits of WindowInstallation's #pending. */
const URL_CHANGED = 1;
const URL_UNWATCHED = 2;
const ENCODING_PENDING = 4;

/**
 * An installation in a window (the one `install` makes, or a frame's).
 *
 * @example
 * ```ts
 * const installation = new WindowInstallation(window, {}, null);
 * installation.contextOf(img); // the window document's context, up to date
 * installation.uninstall();
 * ```
 */
export class WindowInstallation implements Installation, FrameInstallation, Synced, CacheHost {
  readonly window: WindowLike;
  readonly #document: DocumentLike;
  readonly #options: InstallOptions;
  readonly #container: Container | null;
  readonly #patches = new PropertyPatches();
  readonly #listeners: BaseURLChangeListeners;
  readonly #warnings: InstallationWarning[];
  readonly #contexts: DocumentContexts;
  readonly #cache: ReadCache;
  readonly #frames: Frames;
  readonly #url: DocumentURLWatch;
  readonly #native: NativeFunctions;
  /** See window-functions.ts. */
  readonly #adapter: DocumentBaseTreeAdapter<DOMTreeAdapterMap>;
  /** Once active (null in a window without MutationObserver). */
  #observer: DocumentObserver | null = null;
  /** The base elements that count, once active (null without an observer, or with xml:base). */
  #bases: BaseElements | null = null;
  #installed = true;
  #active = false;
  /**
   * What sync() looks at besides the records: URL_CHANGED (the document's
   * URL may have changed), URL_UNWATCHED (no change is told, so every read
   * compares it), ENCODING_PENDING (see #checkEncoding). Optimisation: one
   * number for a read to test.
   */
  #pending = 0;

  constructor(window: WindowLike, options: InstallOptions, container: Container | null) {
    this.window = window;
    const document = (this.#document = window.document);
    this.#options = options;
    this.#container = container;
    this.#listeners = new BaseURLChangeListeners(container?.listeners ?? null);
    this.#warnings = container?.warnings ?? [];
    const known: KnownNodeDocument = { node: null, document: null };
    const native = (this.#native = nativeFunctions(window));
    const adapter = (this.#adapter = windowTreeAdapter(native, known));
    const xmlBase = options.xmlBase === true;
    this.#contexts = new DocumentContexts(this, window, adapter, xmlBase, (change) => {
      this.#cache.invalidate();
      this.#listeners.emit(change);
    });
    this.#cache = new ReadCache(this, document, native, known, this.#contexts, xmlBase);
    this.#url = new DocumentURLWatch(window, container?.origin.documentURL !== undefined, {
      changed: () => {
        this.#pending |= URL_CHANGED;
      },
      task: () => {
        if (this.#installed) this.sync();
      },
    });
    if (!this.#url.hooked) this.#pending |= URL_UNWATCHED;
    patchPrototypes(window, this.#patches, this, this.#cache);
    this.#frames = new Frames({
      window,
      patches: this.#patches,
      srcdoc: options.srcdoc !== false,
      contextOf: (node) => this.contextOf(node),
      createChild: (frameWindow, origin) => new WindowInstallation(frameWindow, options, { origin, listeners: this.#listeners, warnings: this.#warnings }),
    });
    if (document.readyState === "loading") {
      // Optimisation: observing every node the parser inserts would cost more than the parse.
      // The context is made at the first read, a listener, or the end of parsing, whichever is
      // first: "the end" (https://html.spec.whatwg.org/multipage/parsing.html#the-end) fires
      // readystatechange synchronously before any deferred script or the caller's code runs.
      // DOMContentLoaded is a fallback for a listener that stops the event.
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
    const document = this.#document;
    const origin = this.#container?.origin;
    const aboutBaseURL = origin?.aboutBaseURL ?? null;
    if (aboutBaseURL !== null) {
      // https://html.spec.whatwg.org/multipage/document-sequences.html#creating-a-new-browsing-context
      // and the srcdoc navigation make UTF-8 documents; jsdom copies the parent's encoding.
      for (const key of ["characterSet", "charset", "inputEncoding"]) this.#patches.accessor(document, key, () => "UTF-8");
    }
    this.#url.take();
    this.#pending &= ~URL_CHANGED;
    this.#contexts.documentContext = documentContextOf<DOMTreeAdapterMap>(document) ?? this.#contexts.create(document, aboutBaseURL, origin?.documentURL);
    // A frame navigated to a URL: jsdom gives its document the container's encoding and sets its
    // own only right before its parser starts; until it has a node, it may change (#checkEncoding).
    if (origin !== undefined && aboutBaseURL === null && document.readyState === "loading" && document.firstChild === null) {
      this.#pending |= ENCODING_PENDING;
    }
    const observer = (this.#observer = DocumentObserver.create(this.window, this.#native, this.#options.xmlBase === true, (records) => this.#process(records)));
    this.#cache.observe(observer);
    if (observer !== null && this.#options.xmlBase !== true) {
      this.#bases = new BaseElements(document, this.#adapter as ElementTree<object>, observer);
      this.#bases.observe();
    }
    // about:blank and srcdoc documents are UTF-8 whatever they declare.
    if (aboutBaseURL === null) {
      const warning = lateEncodingWarning(document);
      if (warning !== null) this.#warnings.push(warning);
    }
    this.#frames.activate(document, observer);
  }

  get warnings(): readonly InstallationWarning[] {
    return this.#warnings;
  }

  onBaseURLChange(listener: (change: JSDOMBaseURLChange) => void): () => void {
    if (this.#document.readyState !== "loading") this.activate();
    return this.#listeners.add(listener);
  }

  populateSrcdoc(srcdoc: string): void {
    populateSrcdoc(this.#document, this.#patches, srcdoc);
  }

  // --- Reads -------------------------------------------------------------------------------------

  contextOf(node: NodeLike): DOMContext {
    this.sync();
    return this.#contexts.contextOf(node);
  }

  syncedDocumentContext(): DOMContext | null {
    if (!this.#installed) return null;
    this.sync();
    return this.#contexts.documentContext;
  }

  /** Takes the pending mutation records synchronously, so that a read after a mutation is never stale. */
  sync(): void {
    if (!this.#active) this.activate();
    if (this.#pending !== 0) this.#takePending();
    const observer = this.#observer;
    if (observer === null) return;
    const records = observer.takeRecords();
    if (records.length > 0) this.#process(records);
    observer.beforeRead();
  }

  #takePending(): void {
    const pending = this.#pending;
    if ((pending & ENCODING_PENDING) !== 0) this.#checkEncoding();
    if ((pending & (URL_CHANGED | URL_UNWATCHED)) !== 0) {
      this.#pending &= ~URL_CHANGED;
      if (this.#url.changed()) {
        // Cached values depend on the URL only through the base URL; a URL change is rare, so all go.
        this.#cache.invalidate();
        this.#url.follow(this.#contexts.documentContext);
      }
    }
  }

  /**
   * A frame navigated to a URL, once its document has a node, has its own
   * encoding, which its URL queries use
   * (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url):
   * a context made with the container's encoding is made again.
   */
  #checkEncoding(): void {
    const document = this.#document;
    if (document.firstChild === null && document.readyState === "loading") return;
    this.#pending &= ~ENCODING_PENDING;
    const contexts = this.#contexts;
    const context = contexts.documentContext;
    // A context someone made before the installation (see activate) is theirs to keep.
    if (context === null || !contexts.made(context) || getEncoding(document.characterSet) === context.encoding) return;
    contexts.dispose(context);
    contexts.documentContext = contexts.create(document, null, this.#container?.origin.documentURL);
    this.#cache.invalidate();
  }

  // --- Mutations ---------------------------------------------------------------------------------

  /** Hands the window document's mutation records to the parts they concern. */
  #process(records: ArrayLike<MutationRecordShape>): void {
    if (!this.#installed) return;
    const xmlBase = this.#options.xmlBase === true;
    // The frames to process, and the records the document's context has to learn of.
    let frames: Set<ElementLike> | null = null;
    let forContext: MutationRecordShape[] | null = null;
    // Whether the base elements that count may be others now.
    let bases = false;
    // The number of attribute records, and whether one was of an href, a src or a srcdoc.
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
        // Optimisation: `record.target` costs jsdom more than the other fields (it makes a cache
        // object), so it is asked only of an href (a base's?) or a src or srcdoc (an iframe's?).
        const name = record.attributeName;
        if (name === "href") hrefs = true;
        else if (name === "src" || name === "srcdoc") sources = true;
      } else if (type === "childList") {
        // A node that moved in or out may have another document or base URL now.
        const added = record.addedNodes;
        const removed = record.removedNodes;
        if (added.length > 0 || removed.length > 0) this.#cache.invalidate();
        // An inserted base may now be first; a removed one may have been: find them again.
        for (let j = 0; j < added.length; j++) if (collect(added[j]!, (frames ??= new Set()))) bases = true;
        for (let j = 0; j < removed.length; j++) collect(removed[j]!, (frames ??= new Set()));
        if (removed.length > 0 && this.#bases?.firstRemoved() === true) bases = true;
        (forContext ??= []).push(record);
      }
    }
    if (attributes > 0) this.#observer?.attributesChanged(attributes);
    // The context learns of the mutations that concern it; its base-URL change listener starts a
    // new generation.
    const context = this.#contexts.documentContext;
    if (forContext !== null) context?.notifyMutation(forContext as unknown as ArrayLike<MutationRecordLike<DOMTreeAdapterMap>>);
    if (hrefs) this.#bases?.check(context);
    if (bases) this.#bases?.observe();
    if (sources) for (const iframe of this.#frames.iframes()) (frames ??= new Set()).add(iframe);
    if (frames !== null) for (const iframe of frames) this.#frames.processFrame(iframe);
  }

  // --- Uninstall ---------------------------------------------------------------------------------

  uninstall(): void {
    if (!this.#installed) return;
    this.#installed = false;
    this.#url.dispose();
    this.#observer?.disconnect();
    this.#observer = null;
    this.#cache.observe(null);
    this.#bases?.clear();
    this.#bases = null;
    this.#contexts.disconnect();
    this.#contexts.documentContext = null;
    this.#frames.uninstall();
    this.#contexts.disposeAll();
    this.#patches.restore();
    this.#listeners.clear();
    installations.delete(this.window);
  }
}

/** Adds `root` and the iframes under it to `frames` (iteratively); whether an HTML base element is among them. */
function collect(root: NodeLike, frames: Set<ElementLike>): boolean {
  if (root.nodeType !== 1 && root.nodeType !== 11) return false;
  let bases = false;
  const take = (element: ElementLike): void => {
    const name = element.localName;
    const namespace = element.namespaceURI;
    if (name === "iframe" && namespace === HTML_NAMESPACE) frames.add(element);
    else if (isBaseElement(name, namespace)) bases = true;
  };
  if (root.nodeType === 1) take(root as ElementLike);
  const candidates = (root as Partial<DocumentLike>).querySelectorAll?.("iframe, base");
  if (candidates !== undefined) for (let i = 0; i < candidates.length; i++) take(candidates[i]!);
  return bases;
}

function isHTMLIFrame(node: NodeLike): boolean {
  const element = node as Partial<ElementLike>;
  return node.nodeType === 1 && element.localName === "iframe" && element.namespaceURI === HTML_NAMESPACE;
}
