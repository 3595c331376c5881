/**
 * The error this layer raises for misuse (never for bad URLs or bad trees,
 * which are values: a URL that does not parse is null, a tree is what it is).
 *
 * @module
 */

import { brandedError, brandGuard } from "../core/branded-error.ts";

/**
 * Thrown for a misuse of a document context (an option that is not an
 * absolute URL, a second context for a document, an observation the tree
 * cannot do, a non-context): a `TypeError` naming the bad value. Recognise
 * it with {@link isDocumentContextError}, which works across realms.
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
