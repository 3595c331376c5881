/**
 * The error this layer raises for misuse: a bad option. Bad HTML and bad
 * URLs are never errors (a URL that does not parse is `url: null`). An
 * unknown encoding label throws the core's `UnknownEncodingError`.
 *
 * @module
 */

import { brandedError, brandGuard } from "../core/branded-error.ts";

/**
 * Thrown by `extractLinks` and `rewriteLinks` for a bad option: a `url`
 * that is not an absolute URL, a `rewrite` that is not a function or
 * returns something other than a string or undefined, or a rewrite whose
 * result cannot be written back in the document's encoding. Its message
 * names the bad value. Use {@link isLinksError} rather than `instanceof`
 * across realms.
 *
 * @example
 * ```ts
 * try {
 *   extractLinks("<a href=x>", { url: "/not/absolute" });
 * } catch (error) {
 *   isLinksError(error); // true
 *   // error.message: 'The "url" option is not an absolute URL: "/not/absolute"'
 * }
 * ```
 */
export class LinksError extends brandedError<TypeError>("LinksError", TypeError) {}

/**
 * Whether `value` is a {@link LinksError} from any realm.
 *
 * @example
 * ```ts
 * isLinksError(new LinksError("x")); // true
 * isLinksError(new TypeError("x")); // false
 * ```
 */
export const isLinksError = brandGuard<LinksError>("LinksError");
