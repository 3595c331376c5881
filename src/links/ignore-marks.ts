/**
 * The attributes that mark an element whose links, and its descendants',
 * a link checker leaves alone: docbase's own, and htmltest's and
 * html-proofer's, which sites already carry.
 *
 * @module
 */

/**
 * The marks, lower case (as the tokenizer makes attribute names); both are
 * {@link IGNORE_MARK_LENGTH} characters long.
 *
 * @example
 * ```ts
 * IGNORE_MARKS.has("data-proofer-ignore"); // true
 * ```
 */
export const IGNORE_MARKS: ReadonlySet<string> = new Set(["data-docbase-ignore", "data-proofer-ignore"]);

/**
 * The length of every mark: a cheap test before the set's.
 *
 * @example
 * ```ts
 * IGNORE_MARK_LENGTH; // 19
 * ```
 */
export const IGNORE_MARK_LENGTH = 19;
