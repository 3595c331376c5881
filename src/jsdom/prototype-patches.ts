/**
 * The accessors docbase puts on a window's interface prototypes:
 * `Node.baseURI`, the HTMLHyperlinkElementUtils of `a` and `area`, every
 * reflected URL attribute of the catalogue, and the iframe getters that
 * bring docbase's view of frames up to date.
 *
 * @module
 */

import { baseURI } from "../document-base/index.ts";
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
import type { PropertyPatches } from "./property-patches.ts";
import type { Compute } from "./read-cache.ts";
import { type DOMContext, type ElementLike, interfaceOf, type NodeLike, type WindowLike } from "./window.ts";

/**
 * What the accessors call besides the reads: the installation, which takes
 * the pending mutation records.
 *
 * @example
 * ```ts
 * const synced: Synced = installation; // a WindowInstallation
 * baseURI(synced.contextOf(node), node);
 * ```
 */
export interface Synced {
  /** The context of a node's node document, the pending records taken. */
  contextOf(node: NodeLike): DOMContext;
  /** Takes the pending mutation records (frames included). */
  sync(): void;
}

/**
 * The reads of URL attributes that the getters call (a ReadCache): each
 * takes the pending mutation records first.
 *
 * @example
 * ```ts
 * const reads: Reads = cache;
 * reads.read(img, "src", "src", (context, element) => getReflectedURL(context, element, "src"));
 * ```
 */
export interface Reads {
  /** A reflected URL attribute's value (see read-cache.ts). */
  read(element: ElementLike, name: string, contentAttribute: string, compute: Compute): string;
  /** An HTMLHyperlinkElementUtils attribute's value (see read-cache.ts). */
  readHyperlink(element: ElementLike, name: HyperlinkAttributeName, compute: Compute): string;
}

/**
 * Puts docbase's accessors on `window`'s prototypes, recorded in `patches`
 * (whose `restore()` takes them off).
 *
 * @example
 * ```ts
 * patchPrototypes(window, patches, installation, cache);
 * window.document.querySelector("a").href; // through cache.readHyperlink
 * ```
 */
export function patchPrototypes(window: WindowLike, patches: PropertyPatches, synced: Synced, reads: Reads): void {
  // https://dom.spec.whatwg.org/#dom-node-baseuri — "the node document's document base URL, serialized".
  patches.accessor(window.Node.prototype, "baseURI", function (this: object) {
    const node = this as NodeLike;
    return baseURI(synced.contextOf(node), node);
  });

  // https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils
  for (const name of ["HTMLAnchorElement", "HTMLAreaElement"]) {
    const prototype = interfaceOf(window, name)?.prototype;
    if (prototype === undefined) continue;
    for (const attribute of hyperlinkAttributeNames) {
      const compute = (context: DOMContext, element: ElementLike): string => getHyperlinkAttribute(context, element, attribute);
      const get = function (this: object): string {
        return reads.readHyperlink(this as ElementLike, attribute, compute);
      };
      // "readonly attribute USVString origin": the one without a setter.
      const set =
        attribute === "origin"
          ? undefined
          : function (this: object, value: unknown): void {
              const element = this as ElementLike;
              setHyperlinkAttribute(synced.contextOf(element), element, attribute as HyperlinkSettableAttributeName, String(value));
            };
      patches.accessor(prototype, attribute, get, set);
    }
    // https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href (the stringifier)
    const href = (context: DOMContext, element: ElementLike): string => getHyperlinkAttribute(context, element, "href");
    patches.method(prototype, "toString", function (this: object) {
      return reads.readHyperlink(this as ElementLike, "href", href);
    });
  }

  // Reflected URL attributes (https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes),
  // from the catalogue, on each element's interface: button.formAction, which jsdom lacks, included.
  for (const entry of reflectedURLAttributes) {
    if (entry.kind === "hyperlink") continue;
    const prototype = prototypeOfElement(window, entry.element);
    if (prototype === null) continue;
    const name = entry.name;
    const contentAttribute = entry.contentAttribute;
    const compute = (context: DOMContext, element: ElementLike): string => getReflectedURL(context, element, name);
    patches.accessor(
      prototype,
      name,
      function (this: object) {
        return reads.read(this as ElementLike, name, contentAttribute, compute);
      },
      function (this: object, value: unknown) {
        const element = this as ElementLike;
        setReflectedURL(synced.contextOf(element), element, name, String(value));
      },
    );
  }

  // Frames: reading a frame's document or window first brings docbase's view of frames up to date.
  const iframe = interfaceOf(window, "HTMLIFrameElement")?.prototype;
  if (iframe !== undefined) {
    for (const key of ["contentDocument", "contentWindow"]) {
      const originalGet = patches.originalOf(iframe, key)?.get;
      if (originalGet === undefined) continue;
      patches.accessor(iframe, key, function (this: object) {
        synced.sync();
        return originalGet.call(this);
      });
    }
  }
}

/** The prototype of the interface `document.createElement(localName)` makes, or null. */
function prototypeOfElement(window: WindowLike, localName: string): object | null {
  const element = window.document.createElement(localName);
  const prototype = Object.getPrototypeOf(element) as object | null;
  const generic = interfaceOf(window, "HTMLUnknownElement")?.prototype ?? null;
  return prototype === generic ? null : prototype;
}
