/**
 * docbase/url-utils — the HTML Standard's URL attributes of elements over any
 * tree: HTMLHyperlinkElementUtils for `a` and `area`, the reflected URL
 * attributes (`img.src`, `form.action`, `base.href`, …) and SVG's `href`.
 * Getters resolve against the element's current base URL with its
 * document's encoding; setters write the content attribute through the adapter.
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import { createDocumentContext, parse5TreeAdapter } from "docbase/document-base";
 * import { getReflectedURL, hyperlink } from "docbase/url-utils";
 * const document = parse('<base href="/docs/"><a href="guide#install">Guide</a><img src="logo.png">');
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/" });
 * // a, img: the elements, found your way (a tree walk, cheerio, …)
 * hyperlink(context, a).pathname; // "/docs/guide"
 * hyperlink(context, a).hash = "usage"; // href attribute → "https://example.com/docs/guide#usage"
 * getReflectedURL(context, img, "src"); // "https://example.com/docs/logo.png"
 * ```
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "../core/require-supported-runtime.ts";

export { URLUtilsError, isURLUtilsError } from "./errors.ts";
export {
  hyperlink,
  isHyperlinkElement,
  getHyperlinkAttribute,
  setHyperlinkAttribute,
  hyperlinkURL,
  setTheURL,
  hyperlinkAttributeNames,
  type HyperlinkElementUtils,
  type HyperlinkAttributeName,
  type HyperlinkSettableAttributeName,
} from "./hyperlink-element-utils.ts";
export {
  getReflectedURL,
  setReflectedURL,
  reflectedURLAttributes,
  reflectedURLAttributesOf,
  type ReflectedURLAttribute,
  type ReflectedURLAttributeName,
  type ReflectedURLAttributeKind,
} from "./reflected-url.ts";
export { catalogue, type AttributeKind, type CatalogueEntry, type URLReflection } from "../html/index.ts";
export { getSVGHref, setSVGHref, isSVGURIReferenceElement, svgURIReferenceElements, type SVGHref } from "./svg-uri-reference.ts";
