/**
 * What the links layer reports: a {@link Link} (one URL in a document,
 * where it is and what it resolves to), its validation errors, and the
 * places a reading reports instead of links (a srcdoc too deep to read, a
 * stream's warning).
 *
 * @module
 */

import type { OutputEncodingName, ValidationError } from "../core/index.ts";
import type { AttributeKind } from "./catalogue.ts";

/**
 * What kind of URL occurrence a {@link Link} is: the attribute kinds of
 * the catalogue (see `AttributeKind`), with CSS split into `url()` (and
 * `src()`, `image-set()` strings) and `@import`.
 *
 * @example
 * ```ts
 * const kind: LinkKind = "css-import";
 * ```
 */
export type LinkKind = Exclude<AttributeKind, "css" | "srcdoc"> | "css-url" | "css-import";

/**
 * A validation error of a link's value: the URL Standard's error (`type`,
 * and `start`/`end`, UTF-16 offsets into the link's `value`) and where it
 * is in the source, in the same coordinates as the link's `start` and
 * `end` (through character references, CR LF, CSS escapes and every
 * srcdoc level): `sourceStart`/`sourceEnd`, and `line`/`column` of
 * `sourceStart`, counted as the link's are.
 *
 * An error on a character that a reference or an escape stands for starts
 * at its `&` (or `\`) and, when it ends there, ends after it. An empty
 * range at the value's end is at the link's `end`; an error of a form
 * without an action (an empty value, not in the source) has the link's
 * own range.
 *
 * @example
 * ```ts
 * const html = '<a href="x&#x20;y">';
 * const [link] = extractLinks(html, { url: "https://example.com/", validate: true });
 * link.errors;
 * // [{ type: "invalid-URL-unit", start: 1, end: 2, sourceStart: 10, sourceEnd: 16, line: 1, column: 11 }]
 * html.slice(10, 16); // "&#x20;"
 * ```
 */
export interface LinkValidationError extends ValidationError {
  /** Where the error's range starts in the source (UTF-16 offset, as the link's `start`). */
  readonly sourceStart: number;
  /** Where it ends in the source (exclusive). */
  readonly sourceEnd: number;
  /** 1-based line of `sourceStart` (CR, LF and CR LF end a line). */
  readonly line: number;
  /** 1-based column of `sourceStart`, in code points from the line's start. */
  readonly column: number;
}

/**
 * One URL occurrence in a document.
 *
 * @example
 * ```ts
 * extractLinks('<p>\n  <a href="/docs/">Docs</a>', { url: "https://example.com/a/b" })[0];
 * // { element: "a", namespace: "html", attribute: "href", value: "/docs/", raw: "/docs/",
 * //   url: "https://example.com/docs/", base: "https://example.com/a/b", encoding: "UTF-8",
 * //   line: 2, column: 12, start: 15, end: 21, kind: "single", obsolete: false,
 * //   srcdoc: 0, template: false }
 * ```
 */
export interface Link {
  /** The element's local name, lower case as the parser makes it (`"a"`, `"img"`; SVG keeps its case: `"feImage"`). */
  readonly element: string;
  /** The element's namespace. */
  readonly namespace: "html" | "svg";
  /**
   * The attribute's qualified name as written (`"href"`, `"xlink:href"`,
   * `"srcset"`, `"style"`), or null for the text of a `style` element.
   */
  readonly attribute: string | null;
  /**
   * The text of this one URL, decoded (character references, CSS escapes):
   * a single URL attribute without its leading and trailing ASCII
   * whitespace, one item of a list, one srcset candidate's URL, the URL
   * part of a refresh, the argument of one `url()`. For a `form` without
   * an `action`, "".
   */
  readonly value: string;
  /**
   * The attribute text of this one URL as the element holds it, decoded:
   * for a single-URL attribute its whole value (`getAttribute`), leading and
   * trailing whitespace included; elsewhere (a list item, a srcset URL, a
   * refresh URL, a CSS `url()`) the same as `value`. What a browser's URL
   * getter (`a.href`, `img.src`) returns is `url ?? raw`: the serialized URL,
   * or, when it does not parse, the content attribute as it is
   * (https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes).
   */
  readonly raw: string;
  /** The resolved URL, serialized, or null when `value` does not parse. */
  readonly url: string | null;
  /**
   * What `value` was resolved against: the document base URL (for `<base
   * href>`, the fallback base URL), serialized; null for `itemtype`, whose
   * URLs must be absolute.
   */
  readonly base: string | null;
  /** The encoding the URL's query was encoded with ("UTF-8" for CSS and for srcdoc documents). */
  readonly encoding: OutputEncodingName;
  /** 1-based line of the URL's first character in the source (CR, LF and CR LF end a line). */
  readonly line: number;
  /** 1-based column of that character, in code points from the line's start. */
  readonly column: number;
  /**
   * Where the URL's text is in the source (UTF-16 offsets into the string
   * given, or into the decoded text of a byte input), `[start, end)`. For a
   * value with character references the range covers them (`&amp;` and
   * all). For a missing form action, an empty range after the tag name.
   */
  readonly start: number;
  readonly end: number;
  readonly kind: LinkKind;
  /** True for an attribute the HTML Standard lists as obsolete (`background`, `longdesc`, …). */
  readonly obsolete: boolean;
  /** 0 in the document itself; 1 inside an iframe's srcdoc document, 2 in a srcdoc inside that, … */
  readonly srcdoc: number;
  /**
   * True inside a `template` element's contents (resolved against the
   * document's base all the same); false in a declarative shadow root
   * (`<template shadowrootmode="open">` in an element that can host one,
   * which a browser's parser attaches as a shadow root of the document).
   */
  readonly template: boolean;
  /**
   * For a link of an HTML `<link>` element: its `rel` attribute's value
   * (null without one), which decides whether its href is a resource the
   * page loads or a hyperlink (see `linkTypesLoad`).
   */
  readonly rel?: string | null;
  /** For a `form` without an `action` attribute: true (the form submits to the document's URL). */
  readonly missing?: true;
  /** For a srcset candidate: its descriptors (`["2x"]`, `["100w"]`, `[]`). */
  readonly descriptors?: readonly string[];
  /** For a srcset candidate with invalid descriptors, which the standard's parser drops: true. */
  readonly ignored?: true;
  /**
   * With the `validate` option: the URL Standard's validation errors of
   * `value` (`start`/`end` offsets into `value`), each with where it is in
   * the source (`sourceStart`/`sourceEnd`, `line`/`column`); see
   * {@link LinkValidationError}. Bounded: at most
   * `MAX_ERRORS_PER_VALUE` of them, and `MAX_ERRORS_PER_DOCUMENT` in the
   * whole document (past it, none); `errorsOmitted` counts the rest.
   */
  readonly errors?: readonly LinkValidationError[];
  /** With `validate`, for a value with more errors than it keeps (see `errors`): how many more there are, not in `errors`. */
  readonly errorsOmitted?: number;
}

/**
 * An iframe whose srcdoc document was not read: it would be at `depth`,
 * beyond the cap. `start` is where its srcdoc value starts in the source
 * (UTF-16 offset of the string given, or of the decoded text of bytes);
 * `line` and `column` as links have them.
 *
 * @example
 * ```ts
 * const place: SrcdocTooDeep = { depth: 33, start: 4096, line: 1, column: 4097 };
 * ```
 */
export interface SrcdocTooDeep {
  readonly depth: number;
  readonly start: number;
  readonly line: number;
  readonly column: number;
}

/**
 * Something a stream could not do as the whole document would have: links
 * already resolved (and written) when a later `<base>` or `<meta charset>`
 * turned up that would have changed them. `start` is where that element's
 * tag is in the text (as a link's `start`).
 *
 * @example
 * ```ts
 * const warning: StreamWarning = { type: "base-after-links", start: 5000000, line: 80000, column: 3, message: "…" };
 * ```
 */
export interface StreamWarning {
  readonly type: "base-after-links" | "encoding-after-links";
  readonly start: number;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}
