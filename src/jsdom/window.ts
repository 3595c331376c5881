/**
 * The part of a jsdom window (or any DOM window) that the integration uses:
 * its public surface only — interface objects and their prototypes,
 * `MutationObserver`, the document. Structural types, so that docbase needs
 * no DOM typings and does not import jsdom, and the lookup of an interface.
 *
 * @module
 */

import type { DocumentContext, DOMDocument, DOMElement, DOMNode, DOMTreeAdapterMap } from "../document-base/index.ts";

/**
 * A DOM node as the integration reads it.
 *
 * @example
 * ```ts
 * const node: NodeLike = window.document.body;
 * ```
 */
export type NodeLike = DOMNode;

/**
 * An element as the integration reads it.
 *
 * @example
 * ```ts
 * const a = window.document.querySelector("a") as unknown as ElementLike;
 * ```
 */
export interface ElementLike extends DOMElement {
  readonly firstElementChild: ElementLike | null;
  getAttribute(qualifiedName: string): string | null;
  getElementsByTagNameNS(namespace: string | null, localName: string): ArrayLike<ElementLike>;
  getRootNode(): NodeLike;
  hasAttribute(qualifiedName: string): boolean;
  compareDocumentPosition(other: NodeLike): number;
}

/**
 * A document as the integration reads it.
 *
 * @example
 * ```ts
 * const document: DocumentLike = window.document;
 * ```
 */
export interface DocumentLike extends DOMDocument {
  readonly documentElement: ElementLike | null;
  getElementsByTagNameNS(namespace: string | null, localName: string): ArrayLike<ElementLike>;
  createElement(localName: string): ElementLike;
  querySelectorAll(selectors: string): ArrayLike<ElementLike>;
  getElementsByTagName(qualifiedName: string): ArrayLike<ElementLike>;
  readonly links: ArrayLike<ElementLike>;
  readonly readyState: string;
  addEventListener(type: string, listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: string, listener: () => void): void;
  open(): unknown;
  write(...text: string[]): void;
  close(): void;
}

/**
 * A mutation record (https://dom.spec.whatwg.org/#interface-mutationrecord), the fields used here.
 *
 * @example
 * ```ts
 * const records: ArrayLike<MutationRecordShape> = observer.takeRecords();
 * ```
 */
export interface MutationRecordShape {
  readonly type: string;
  readonly target: NodeLike;
  readonly addedNodes: ArrayLike<NodeLike>;
  readonly removedNodes: ArrayLike<NodeLike>;
  readonly attributeName: string | null;
}

/**
 * https://dom.spec.whatwg.org/#interface-mutationobserver
 *
 * @example
 * ```ts
 * const observer: MutationObserverLike = new window.MutationObserver(() => {});
 * ```
 */
export interface MutationObserverLike {
  observe(target: NodeLike, options: Record<string, unknown>): void;
  takeRecords(): ArrayLike<MutationRecordShape>;
  disconnect(): void;
}

/**
 * An interface object (`window.HTMLAnchorElement`, …).
 *
 * @example
 * ```ts
 * const anchor: InterfaceObject | null = interfaceOf(window, "HTMLAnchorElement");
 * ```
 */
export interface InterfaceObject {
  readonly prototype: object;
}

/**
 * A window: a jsdom `DOMWindow` (as `beforeParse(window)` receives it) or
 * any window with the same interface objects.
 *
 * @example
 * ```ts
 * import { JSDOM } from "jsdom";
 * const { window } = new JSDOM("", { url: "https://example.com/" });
 * const w: WindowLike = window as unknown as WindowLike;
 * ```
 */
export interface WindowLike {
  readonly document: DocumentLike;
  readonly Node: InterfaceObject;
  readonly MutationObserver: new (callback: (records: ArrayLike<MutationRecordShape>) => void) => MutationObserverLike;
  readonly [name: string]: unknown;
}

/**
 * A document context of a window's document (document-base's, over the DOM).
 *
 * @example
 * ```ts
 * const context: DOMContext = createDocumentContext(domTreeAdapter, window.document, { url: window.document.URL });
 * ```
 */
export type DOMContext = DocumentContext<DOMTreeAdapterMap>;

/**
 * The interface object `name` of `window` (`HTMLIFrameElement`, …), or null
 * when the window has none.
 *
 * @example
 * ```ts
 * interfaceOf(window, "HTMLAnchorElement")?.prototype; // HTMLAnchorElement.prototype
 * interfaceOf(window, "NoSuchElement"); // null
 * ```
 */
export function interfaceOf(window: WindowLike, name: string): InterfaceObject | null {
  const value = window[name];
  return typeof value === "function" && typeof (value as { prototype?: unknown }).prototype === "object" ? (value as InterfaceObject) : null;
}
