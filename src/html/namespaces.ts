/**
 * The namespaces of the Infra Standard that docbase's elements and
 * attributes are in (https://infra.spec.whatwg.org/#namespaces).
 *
 * @module
 */

/**
 * https://infra.spec.whatwg.org/#html-namespace — the namespace of HTML
 * elements; only `base` elements in it are base elements.
 *
 * @example
 * ```ts
 * adapter.getNamespaceURI(baseElement) === HTML_NAMESPACE; // true for <base> in HTML content
 * ```
 */
export const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

/**
 * https://infra.spec.whatwg.org/#svg-namespace
 *
 * @example
 * ```ts
 * adapter.getNamespaceURI(svgBase) === SVG_NAMESPACE; // <svg><base/></svg>: not a base element
 * ```
 */
export const SVG_NAMESPACE = "http://www.w3.org/2000/svg";

/**
 * https://infra.spec.whatwg.org/#mathml-namespace
 *
 * @example
 * ```ts
 * adapter.getNamespaceURI(mathBase) === MATHML_NAMESPACE; // <math><base/></math>: not a base element
 * ```
 */
export const MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML";

/**
 * https://infra.spec.whatwg.org/#xml-namespace — the namespace of `xml:base`.
 *
 * @example
 * ```ts
 * adapter.setAttribute(element, XML_NAMESPACE, "base", "/feeds/", "xml"); // xml:base="/feeds/"
 * adapter.getAttribute(element, XML_NAMESPACE, "base"); // "/feeds/"
 * ```
 */
export const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";

/**
 * https://infra.spec.whatwg.org/#xlink-namespace — the namespace of SVG's
 * deprecated `xlink:href`.
 *
 * @example
 * ```ts
 * adapter.getAttribute(use, XLINK_NAMESPACE, "href"); // <svg><use xlink:href="#icon"/></svg>: "#icon"
 * ```
 */
export const XLINK_NAMESPACE = "http://www.w3.org/1999/xlink";

/**
 * https://infra.spec.whatwg.org/#xmlns-namespace — the namespace of
 * `xmlns` and `xmlns:*` attributes.
 *
 * @example
 * ```ts
 * adapter.getAttribute(svg, XMLNS_NAMESPACE, "xlink"); // <svg xmlns:xlink="…">: "http://www.w3.org/1999/xlink"
 * ```
 */
export const XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/";
