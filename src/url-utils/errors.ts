/**
 * The error this layer raises for misuse: asking for an interface an
 * element does not have (`hyperlink()` on a `div`, `src` of a `form`).
 * Bad URLs are never errors: a URL that does not parse is a value (the
 * getters return what the web platform returns for it).
 *
 * @module
 */

import { brandedError, brandGuard } from "../core/branded-error.ts";

/**
 * Thrown when an element does not have the IDL attribute or interface asked
 * for: {@link hyperlink} on anything but an HTML `a` or `area`, a reflected
 * URL attribute the element does not reflect, or the SVG `href` of an
 * element that has none. It is a `TypeError` whose message names the
 * element and the attribute. Use {@link isURLUtilsError} rather than
 * `instanceof` to recognise it across realms.
 *
 * @example
 * ```ts
 * try {
 *   getReflectedURL(context, div, "src");
 * } catch (error) {
 *   isURLUtilsError(error); // true
 *   // error.message: 'The HTML "div" element has no reflected URL attribute "src"'
 * }
 * ```
 */
export class URLUtilsError extends brandedError<TypeError>("URLUtilsError", TypeError) {}

/**
 * Whether `value` is a {@link URLUtilsError} from any realm (it checks the
 * `Symbol.for("docbase.URLUtilsError")` brand, not the prototype).
 *
 * @example
 * ```ts
 * isURLUtilsError(new URLUtilsError("x")); // true
 * isURLUtilsError(new TypeError("x")); // false
 * ```
 */
export const isURLUtilsError = brandGuard<URLUtilsError>("URLUtilsError");
