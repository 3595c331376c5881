/**
 * Where a link's text is in the source, as the read stage notes it for the
 * write stage: how the attribute (or `style` text) holding it is written,
 * and the srcdoc levels it is inside. Only a rewrite needs these.
 *
 * @module
 */

import type { DecodedText } from "./character-references.ts";
import type { Link } from "./link-types.ts";

/**
 * How a URL's text sits in the source: what a new value must be escaped for.
 *
 * @example
 * ```ts
 * const site: AttributeSite = { type: "attribute", quote: '"', valueStart: 9, valueEnd: 10, css: null }; // <a href="x">
 * ```
 */
export interface AttributeSite {
  readonly type: "attribute";
  /** How the attribute is written: quoted, unquoted, or null for an attribute without a value (`<a href>`). */
  readonly quote: '"' | "'" | "" | null;
  /** The attribute value's range in this document's source. */
  readonly valueStart: number;
  readonly valueEnd: number;
  /** The CSS context inside the attribute, for a `style` or presentation attribute. */
  readonly css: '"' | "'" | "" | null;
  /** For the URL of a refresh: the quote it was written after, and where that quote and its closing one are. */
  readonly refresh?: RefreshQuoting;
}

/**
 * How a refresh URL is quoted inside its content attribute: the quote the
 * refresh parser skipped before it ("" for none), the source ranges of that
 * quote and of the closing one (null where there is none), and whether
 * anything but whitespace follows the closing quote.
  *
  * @example
  * ```ts
  * const quoting: RefreshQuoting = { quote: "'", open: [40, 41], close: [42, 43], tail: false }; // <meta http-equiv=refresh content="0;url='x'">
  * ```
 */
export interface RefreshQuoting {
  readonly quote: "'" | '"' | "";
  readonly open: readonly [number, number] | null;
  readonly close: readonly [number, number] | null;
  readonly tail: boolean;
}

/**
 * A URL in a `style` element's text (raw text in HTML; in SVG, markup whose text is plain).
 *
 * @example
 * ```ts
 * const site: StyleTextSite = { type: "style-text", css: "", markup: false }; // <style>a{background:url(x)}</style>
 * ```
 */
export interface StyleTextSite {
  readonly type: "style-text";
  readonly css: '"' | "'" | "";
  /** True in SVG, where the text is markup: a new URL must not bring a character reference or a tag into it. */
  readonly markup: boolean;
}

/**
 * Where a form without an action could have one: insert ` action="…"` at `start`.
 *
 * @example
 * ```ts
 * const site: MissingSite = { type: "missing" }; // <form>
 * ```
 */
export interface MissingSite {
  readonly type: "missing";
}

/**
 * One srcdoc level a link is inside: its text is the decoded value of a
 * srcdoc attribute, `map` leads back to that attribute's source, and
 * `quote` is how that attribute is quoted.
  *
  * @example
  * ```ts
  * const layer: Layer = { map: decodeAttributeValue(html, 16, 40), quote: '"' }; // <iframe srcdoc="…">
  * ```
 */
export interface Layer {
  readonly map: DecodedText;
  readonly quote: '"' | "'" | "";
}

/**
 * A link with what rewriting needs.
 *
 * @example
 * ```ts
 * extractSites(prepareDocument("<a href=x>", { url: "https://example.com/" }), true).sites[0].localStart; // 8
 * ```
 */
export interface LinkSite {
  readonly link: Link;
  /** The range in its own document's text (the srcdoc's, for a srcdoc link). */
  readonly localStart: number;
  readonly localEnd: number;
  readonly site: AttributeSite | StyleTextSite | MissingSite;
  /** The srcdoc levels, innermost first (empty for the document itself). */
  readonly layers: readonly Layer[];
  /** Which document (0: the top one) and which attribute: links with the same key share an attribute value (document number × 2^29 + offset; strings are shorter than 2^29). */
  readonly attributeKey: number;
}

