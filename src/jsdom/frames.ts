/**
 * The frames of a window's document: an installation in each iframe's
 * window, with the about base URL it takes from its container, and the
 * document an `<iframe srcdoc>` gets.
 *
 * https://html.spec.whatwg.org/multipage/iframe-embed-object.html#the-iframe-element
 *
 * @module
 */

import { parseURL, serializeURL } from "../core/index.ts";
import { documentBaseURL, fallbackBaseURL, frameCreationBaseURL, matchesAboutBlank } from "../document-base/index.ts";
import { HTML_NAMESPACE } from "../html/index.ts";
import type { DocumentObserver } from "./document-observer.ts";
import { installations, type RegisteredInstallation } from "./installations.ts";
import type { PropertyPatches } from "./property-patches.ts";
import { type DocumentLike, type DOMContext, type ElementLike, interfaceOf, type NodeLike, type WindowLike } from "./window.ts";

/**
 * Where an about:blank or about:srcdoc frame document's about base URL comes from.
 * @example
 * ```ts
 * const origin: FrameOrigin = { aboutBaseURL: "https://example.com/docs/", documentURL: "about:srcdoc" };
 * ```
 */
export interface FrameOrigin {
  /** The creator's or container's base URL snapshot; null for a frame navigated to a real URL. */
  readonly aboutBaseURL: string | null;
  /** The document's URL when it is not the window's own (about:srcdoc). */
  readonly documentURL: string | undefined;
}

/**
 * The installation in a frame's window, as its container's sees it.
 *
 * @example
 * ```ts
 * const child: FrameInstallation = createChild(frameWindow, origin);
 * child.populateSrcdoc("<a href=x>x</a>");
 * child.activate();
 * ```
 */
export interface FrameInstallation extends RegisteredInstallation {
  /** Makes the frame document's context and starts watching its frames (once). */
  activate(): void;
  /** Parses `srcdoc` into the frame's document, whose URL becomes about:srcdoc. */
  populateSrcdoc(srcdoc: string): void;
  uninstall(): void;
}

/**
 * What the frames of a window's document need from its installation.
 *
 * @example
 * ```ts
 * const host: FramesHost = { window, patches, srcdoc: true, contextOf, createChild: (w, origin) => new WindowInstallation(w, options, origin) };
 * ```
 */
export interface FramesHost {
  readonly window: WindowLike;
  readonly patches: PropertyPatches;
  /** Whether `<iframe srcdoc>` gets its document (install's `srcdoc` option). */
  readonly srcdoc: boolean;
  /** The context of a node's node document, the installation's records taken. */
  contextOf(node: NodeLike): DOMContext;
  /** A new installation in a frame's window. */
  createChild(window: WindowLike, origin: FrameOrigin): FrameInstallation;
}

/**
 * The frames an installation installed into, by iframe.
 *
 * @example
 * ```ts
 * const frames = new Frames(host);
 * frames.activate(observer); // when parsing ends: every iframe of the document
 * frames.processFrame(iframe); // an iframe inserted, or its src or srcdoc changed
 * ```
 */
export class Frames {
  readonly #host: FramesHost;
  readonly #frames = new Map<ElementLike, { window: object; child: FrameInstallation; srcdoc: string | null }>();
  #observer: DocumentObserver | null = null;
  /** The window's own `length` getter (scripts may replace the property). */
  readonly #windowLength: (() => unknown) | undefined;
  /** The iframe's original `contentWindow` getter. */
  readonly #contentWindow: ((this: object) => unknown) | undefined;

  constructor(host: FramesHost) {
    this.#host = host;
    const window = host.window;
    const length = Object.getOwnPropertyDescriptor(window, "length")?.get;
    this.#windowLength = length === undefined ? undefined : () => length.call(window);
    const iframe = interfaceOf(window, "HTMLIFrameElement")?.prototype;
    this.#contentWindow = iframe === undefined ? undefined : host.patches.originalOf(iframe, "contentWindow")?.get;
  }

  iframes(): IterableIterator<ElementLike> {
    return this.#frames.keys();
  }

  /** Takes every iframe of the document; `observer` (null: none) then observes the attributes that navigate them. */
  activate(document: DocumentLike, observer: DocumentObserver | null): void {
    this.#observer = observer;
    // Optimisation: without child navigables (`window.length`, which jsdom keeps as a count:
    // https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-length) there is no
    // frame to process, and the walk of the whole tree is skipped.
    if (this.#childNavigables() === 0) return;
    // Optimisation: jsdom answers getElementsByTagName much faster than querySelectorAll.
    const existing = document.getElementsByTagName("iframe");
    for (let i = 0; i < existing.length; i++) {
      const iframe = existing[i]!;
      if (iframe.namespaceURI === HTML_NAMESPACE) this.processFrame(iframe);
    }
  }

  /**
   * https://html.spec.whatwg.org/multipage/iframe-embed-object.html#process-the-iframe-attributes —
   * installs into the frame's window, if any, and parses a srcdoc document;
   * nothing when window and srcdoc are as they were.
   */
  processFrame(iframe: ElementLike): void {
    this.#observer?.observeFrame(iframe);
    const frameWindow = (this.#contentWindow?.call(iframe) ?? null) as WindowLike | null;
    const known = this.#frames.get(iframe);
    if (frameWindow === null) {
      if (known !== undefined) {
        known.child.uninstall();
        this.#frames.delete(iframe);
      }
      return;
    }
    const srcdoc = this.#host.srcdoc ? iframe.getAttribute("srcdoc") : null;
    if (known !== undefined && known.window === frameWindow && known.srcdoc === srcdoc) return;
    if (known !== undefined) known.child.uninstall();
    if (installations.has(frameWindow)) {
      // Someone installed into it directly; leave theirs alone.
      this.#frames.delete(iframe);
      return;
    }

    // Deviation: the standard snapshots the creator's base URL when the frame's document is
    // created; docbase takes it when it next takes the records, at the frame's place in tree
    // order. Only a `<base>` inserted by script before the iframe in between differs.
    const aboutBaseURL = creationBaseURL(this.#host.contextOf(iframe), iframe);
    let origin: FrameOrigin;
    if (srcdoc !== null) {
      // "If element has a srcdoc attribute specified": about:srcdoc, with the container's base URL.
      origin = { aboutBaseURL, documentURL: "about:srcdoc" };
    } else if (isAboutBlank(frameWindow.document.URL)) {
      // A document whose URL matches about:blank takes its creator's base URL.
      origin = { aboutBaseURL, documentURL: undefined };
    } else {
      origin = { aboutBaseURL: null, documentURL: undefined };
    }
    const child = this.#host.createChild(frameWindow, origin);
    installations.set(frameWindow, child);
    this.#frames.set(iframe, { window: frameWindow, child, srcdoc });
    if (srcdoc !== null) child.populateSrcdoc(srcdoc);
    // Optimisation: a frame whose parser is still building its document is activated when
    // parsing ends (or at the first read), so that the parser's insertions are not observed.
    if (srcdoc !== null || origin.aboutBaseURL !== null || frameWindow.document.readyState !== "loading") child.activate();
  }

  uninstall(): void {
    for (const { child } of this.#frames.values()) child.uninstall();
    this.#frames.clear();
    this.#observer = null;
  }

  /** `window.length` from the window's own getter; -1 when unknown. */
  #childNavigables(): number {
    const length = this.#windowLength?.();
    return typeof length === "number" ? length : -1;
  }
}

/**
 * https://html.spec.whatwg.org/multipage/iframe-embed-object.html#attr-iframe-srcdoc —
 * parses `srcdoc` into a frame's document (open/write/close) and makes its
 * URL about:srcdoc; `patches` are the frame installation's.
 *
 * @example
 * ```ts
 * populateSrcdoc(frameWindow.document, patches, "<a href=x>x</a>");
 * frameWindow.document.URL; // "about:srcdoc"
 * ```
 */
export function populateSrcdoc(document: DocumentLike, patches: PropertyPatches, srcdoc: string): void {
  for (const key of ["URL", "documentURI"]) {
    // jsdom has no srcdoc documents: the URL would stay about:blank.
    patches.accessor(document, key, () => "about:srcdoc");
  }
  document.open();
  document.write(srcdoc);
  document.close();
}

/**
 * document-base's `frameCreationBaseURL`, serialized.
 *
 * Optimisation: it is the document base URL or the fallback base URL, so
 * when those are equal (no `<base href>`) the walk up to the frame is skipped.
 */
function creationBaseURL(context: DOMContext, iframe: ElementLike): string {
  const documentBase = serializeURL(documentBaseURL(context));
  return documentBase === serializeURL(fallbackBaseURL(context)) ? documentBase : serializeURL(frameCreationBaseURL(context, iframe));
}

/** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#matches-about:blank */
function isAboutBlank(url: string): boolean {
  const record = parseURL(url);
  return record !== null && matchesAboutBlank(record);
}
