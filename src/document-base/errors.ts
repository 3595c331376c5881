/**
 * The error this layer raises for misuse (never for bad URLs or bad trees,
 * which are values: a URL that does not parse is null, a tree is what it is).
 *
 * @module
 */

import { brandedError, brandGuard } from "../core/branded-error.ts";

/**
 * Thrown for a misuse of a document context: an option that is not a valid
 * absolute URL, a second context for a document that has one, an
 * observation the tree cannot do, or an object that is not a context where
 * one is expected. It is a `TypeError` whose message names the bad value.
 * Use {@link isDocumentContextError} rather than `instanceof` to recognise
 * it across realms. (An unknown encoding label throws the core's
 * `UnknownEncodingError` instead.)
 *
 * @example
 * ```ts
 * try {
 *   createDocumentContext(parse5TreeAdapter, document, { url: "/relative" });
 * } catch (error) {
 *   isDocumentContextError(error); // true
 *   // error.message: 'The document URL is not an absolute URL: "/relative"'
 * }
 * ```
 */
export class DocumentContextError extends brandedError<TypeError>("DocumentContextError", TypeError) {}

/**
 * Whether `value` is a {@link DocumentContextError} from any realm (it checks
 * the `Symbol.for("docbase.DocumentContextError")` brand, not the prototype).
 *
 * @example
 * ```ts
 * isDocumentContextError(new DocumentContextError("x")); // true
 * isDocumentContextError(new TypeError("x")); // false
 * ```
 */
export const isDocumentContextError = brandGuard<DocumentContextError>("DocumentContextError");
