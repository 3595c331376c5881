/**
 * The window's own DOM functions that reads call on every element, and the
 * tree adapter an installation reads its documents through, built on them.
 *
 * @module
 */

import { type DocumentBaseTreeAdapter, type DOMTreeAdapterMap, domTreeAdapter } from "../document-base/index.ts";
import type { DocumentLike, ElementLike, MutationObserverLike, MutationRecordShape, WindowLike } from "./window.ts";

/**
 * The window's own `getAttributeNS`, `getRootNode`, `localName` and
 * `namespaceURI` getters and MutationObserver `takeRecords`, taken from its
 * interface prototypes at install and called with `.call`.
 *
 * Optimisation: `element.getAttributeNS(…)` goes through prototypes that are
 * new in every jsdom window, so after a few windows each lookup is
 * megamorphic; an element that reaches docbase's getters has this window's
 * prototypes, so these are the functions such a lookup finds. A page
 * script's replacement is not called, as a browser's own getters call none.
 * @example
 * ```ts
 * const native: NativeFunctions = nativeFunctions(window);
 * native.getAttributeNS.call(a, null, "href"); // "intro"
 * ```
 */
export interface NativeFunctions {
  readonly getAttributeNS: (this: object, namespace: string | null, localName: string) => string | null;
  readonly getRootNode: (this: object) => unknown;
  readonly localName: (this: object) => string;
  readonly namespaceURI: (this: object) => string | null;
  readonly takeRecords: (this: object) => ArrayLike<MutationRecordShape>;
}

/**
 * The window's {@link NativeFunctions}; those of the DOM's interfaces when
 * the window lacks one (not a jsdom window), which call the element's own.
 *
 * @example
 * ```ts
 * nativeFunctions(window).localName.call(document.body); // "body"
 * ```
 */
export function nativeFunctions(window: WindowLike): NativeFunctions {
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

/**
 * The one element whose node document the adapter of
 * {@link windowTreeAdapter} answers itself, and that document (null: none).
 *
 * @example
 * ```ts
 * const known: KnownNodeDocument = { node: null, document: null };
 * ```
 */
export interface KnownNodeDocument {
  node: object | null;
  document: DocumentLike | null;
}

/**
 * docbase's DOM tree adapter, reading elements with the window's own
 * functions, and answering the node document of `known.node` with
 * `known.document` (the read cache sets it while it computes a value of an
 * element it found in the window document's tree).
 *
 * @example
 * ```ts
 * const known: KnownNodeDocument = { node: null, document: null };
 * const adapter = windowTreeAdapter(nativeFunctions(window), known);
 * adapter.getAttribute(a, null, "href"); // "intro"
 * ```
 */
export function windowTreeAdapter(native: NativeFunctions, known: KnownNodeDocument): DocumentBaseTreeAdapter<DOMTreeAdapterMap> {
  return {
    ...domTreeAdapter,
    getOwnerDocument(node) {
      return node === known.node ? known.document : domTreeAdapter.getOwnerDocument(node);
    },
    getLocalName: (element) => native.localName.call(element),
    getNamespaceURI: (element) => native.namespaceURI.call(element),
    getAttribute: (element, namespace, localName) => native.getAttributeNS.call(element, namespace, localName),
  };
}
