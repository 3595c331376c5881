/**
 * The error this layer raises for misuse: asking for an interface an element
 * does not have. A URL that does not parse is a value, never an error.
 *
 * @module
 */

import { brandedError, brandGuard } from "../core/branded-error.ts";

/**
 * Thrown when an element does not have the interface or IDL attribute asked
 * for ({@link hyperlink} on a `div`, `src` of a `form`, the SVG `href` of an
 * element without one): a `TypeError` naming both. Recognise it with
 * {@link isURLUtilsError}, which works across realms.
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
