/**
 * The `href` of SVG elements (SVGURIReference): `href` or the deprecated
 * `xlink:href`, and the URL it resolves to.
 *
 * https://svgwg.org/svg2-draft/types.html#InterfaceSVGURIReference and
 * https://svgwg.org/svg2-draft/linking.html#processingURL ("Generating the
 * absolute URL": in an HTML document, encoding-parsing relative to the node
 * document, as WPT query-encoding checks for `a`, `use`, `image`, `feImage`).
 *
 * @module
 */

import { type DocumentContext, type TreeAdapterTypeMap } from "../document-base/index.ts";
import { SVG_NAMESPACE, XLINK_NAMESPACE } from "../html/index.ts";
import { describeElement, type LooseContext, setContentAttribute } from "./content-attribute.ts";
import { URLUtilsError } from "./errors.ts";
import { cachedEncodingParseAndSerialize } from "./reflected-url.ts";

/**
 * The local names of the SVG elements with SVGURIReference's `href` (SVG 2,
 * Filter Effects 1, SVG Animations; SVG 1.1's removed elements are not), as
 * the HTML parser writes them.
 *
 * @example
 * ```ts
 * svgURIReferenceElements.includes("use"); // true
 * svgURIReferenceElements.includes("rect"); // false
 * ```
 */
export const svgURIReferenceElements: readonly string[] = Object.freeze([
  "a",
  "animate",
  "animateMotion",
  "animateTransform",
  "feImage",
  "filter",
  "image",
  "linearGradient",
  "mpath",
  "pattern",
  "radialGradient",
  "script",
  "set",
  "textPath",
  "use",
]);

const svgURIReferenceElementSet: ReadonlySet<string> = new Set(svgURIReferenceElements);

/**
 * The `href` of an SVG element, as {@link getSVGHref} returns it.
 *
 * @example
 * ```ts
 * // <svg><use xlink:href="sprites.svg#icon"></use></svg> in https://example.com/app/
 * const href: SVGHref = { baseVal: "sprites.svg#icon", attribute: "xlink:href", url: "https://example.com/app/sprites.svg#icon" };
 * ```
 */
export interface SVGHref {
  /** https://svgwg.org/svg2-draft/types.html#__svg__SVGAnimatedString__baseVal — `href`'s value, else `xlink:href`'s, else "". */
  readonly baseVal: string;
  /** Which attribute `baseVal` came from, or null when neither is present. */
  readonly attribute: "href" | "xlink:href" | null;
  /** The URL it resolves to, serialized; null when neither attribute is present or it does not parse. */
  readonly url: string | null;
}

/**
 * Whether `element` is an SVG element with SVGURIReference's `href`.
 *
 * @example
 * ```ts
 * isSVGURIReferenceElement(context, svgUse); // true
 * isSVGURIReferenceElement(context, htmlA); // false (an HTML a: see hyperlink())
 * ```
 */
export function isSVGURIReferenceElement<T extends TreeAdapterTypeMap>(context: DocumentContext<T>, element: T["element"]): boolean {
  const adapter = (context as unknown as LooseContext).adapter;
  return adapter.getNamespaceURI(element as object) === SVG_NAMESPACE && svgURIReferenceElementSet.has(adapter.getLocalName(element as object));
}

function check(context: LooseContext, element: object): void {
  if (!isSVGURIReferenceElement(context, element)) {
    throw new URLUtilsError(`${describeElement(context.adapter, element)} has no SVG href (SVGURIReference)`);
  }
}

/**
 * The `href` of an SVG element: its `baseVal` and the URL it resolves to.
 * Throws a {@link URLUtilsError} for an element that has no SVG href.
 *
 * @example
 * ```ts
 * // In https://example.com/app/page, with <base href="/static/">:
 * // <svg><image href="logo.svg" xlink:href="old.svg"/></svg>
 * getSVGHref(context, image);
 * // { baseVal: "logo.svg", attribute: "href", url: "https://example.com/static/logo.svg" }
 * // <svg><use xlink:href="#icon"/></svg>
 * getSVGHref(context, use).url; // "https://example.com/static/#icon"
 * ```
 */
export function getSVGHref<T extends TreeAdapterTypeMap>(context: DocumentContext<T>, element: T["element"]): SVGHref {
  const loose = context as unknown as LooseContext;
  const el = element as object;
  check(loose, el);
  const adapter = loose.adapter;
  // https://svgwg.org/svg2-draft/types.html#InterfaceSVGAnimatedString — baseVal: href when present;
  // else the deprecated xlink:href (SVG 2, "Deprecated XLink URL reference attributes"); else "".
  const href = adapter.getAttribute(el, null, "href");
  if (href !== null) {
    return { baseVal: href, attribute: "href", url: cachedEncodingParseAndSerialize(loose, el, null, "href", href) };
  }
  const xlinkHref = adapter.getAttribute(el, XLINK_NAMESPACE, "href");
  if (xlinkHref !== null) {
    return { baseVal: xlinkHref, attribute: "xlink:href", url: cachedEncodingParseAndSerialize(loose, el, XLINK_NAMESPACE, "href", xlinkHref) };
  }
  return { baseVal: "", attribute: null, url: null };
}

/**
 * Sets `element.href.baseVal`: `xlink:href` when it alone is present (SVG 2
 * keeps such a document consistent), else `href`; reported to the context.
 * Throws a {@link URLUtilsError} for an element that has no SVG href.
 *
 * @example
 * ```ts
 * setSVGHref(context, use, "#other"); // <use xlink:href="#icon"> → <use xlink:href="#other">
 * setSVGHref(context, image, "new.svg"); // <image> → <image href="new.svg">
 * ```
 */
export function setSVGHref<T extends TreeAdapterTypeMap>(context: DocumentContext<T>, element: T["element"], value: string): void {
  const loose = context as unknown as LooseContext;
  const el = element as object;
  check(loose, el);
  const adapter = loose.adapter;
  // The IDL type of baseVal is DOMString: no conversion to scalar values.
  const text = String(value);
  if (adapter.getAttribute(el, null, "href") === null && adapter.getAttribute(el, XLINK_NAMESPACE, "href") !== null) {
    setContentAttribute(loose, el, XLINK_NAMESPACE, "href", text, "xlink");
  } else {
    setContentAttribute(loose, el, null, "href", text);
  }
}
