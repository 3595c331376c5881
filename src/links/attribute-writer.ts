/**
 * The one place that writes a URL into an attribute value: it turns the
 * URL text a rewrite returned into source text that the HTML tokenizer, and
 * then the attribute's own microsyntax (a srcset candidate list, a ping
 * list, a refresh value), read back as that same URL — or it throws an
 * {@link UnwritableValueError} rather than write something else.
 *
 * Two steps, in this order:
 * 1. {@link urlTextForItem}: the URL as an item of its attribute's
 *    microsyntax. List-significant characters that the URL parser would
 *    treat as the same URL are made harmless (ASCII tab and newline are
 *    removed, as the URL parser removes them; a space or form feed is
 *    percent-encoded, as the URL parser encodes it), and the result is
 *    checked to resolve to the URL the caller's text resolves to.
 * 2. {@link escapeAttributeText}: the item as attribute source text, for the
 *    attribute's quoting form (a valueless attribute gets `="…"`, an
 *    unquoted one that needs quotes gets them, see write-links.ts).
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(double-quoted)-state
 *
 * @module
 */

import { brandedError, brandGuard } from "../core/branded-error.ts";
import { basicURLParse, parseURL, serializeURL, type OutputEncodingName } from "../core/index.ts";
import { isASCIIWhitespace } from "../core/infra.ts";
import { attributeReferenceAt } from "./character-references.ts";
import { LinksError } from "./errors.ts";

/**
 * Thrown by `rewriteLinks` when a rewrite's value cannot be written where
 * the link is without changing what the document says: a srcset candidate
 * URL that ends in a comma (the srcset parser drops trailing commas, and
 * no other spelling of that URL avoids one), a refresh URL that contains
 * both quote characters after other text, and the like. It is a
 * {@link LinksError} too. Its message names the value and the reason.
 *
 * @example
 * ```ts
 * try {
 *   rewriteLinks('<img srcset="a.png 1x">', { url: "https://example.com/", rewrite: () => "b.png," });
 * } catch (error) {
 *   isUnwritableValueError(error); // true
 * }
 * ```
 */
export class UnwritableValueError extends brandedError("UnwritableValueError", LinksError) {
  /** The value the rewrite returned. */
  readonly value: string;

  constructor(value: string, reason: string) {
    super(`The rewritten value ${JSON.stringify(value)} cannot be written here: ${reason}`);
    this.value = value;
  }
}

/**
 * Whether `value` is an {@link UnwritableValueError} from any realm.
 *
 * @example
 * ```ts
 * isUnwritableValueError(new UnwritableValueError("a,", "a trailing comma")); // true
 * ```
 */
export const isUnwritableValueError = brandGuard<UnwritableValueError>("UnwritableValueError");

/**
 * How an attribute is written in the source: quoted, unquoted, or with no value at all (`<a href>`).
 *
 * @example
 * ```ts
 * const quote: AttributeQuote = null; // <a href>
 * ```
 */
export type AttributeQuote = '"' | "'" | "" | null;

/**
 * The microsyntax a URL is an item of, in its attribute.
 *
 * @example
 * ```ts
 * const kind: ItemKind = "srcset";
 * ```
 */
export type ItemKind = "single" | "srcset" | "list" | "refresh" | "css";

/**
 * What a URL text resolves against, to check that a respelling is the same URL.
 *
 * @example
 * ```ts
 * const resolution: ItemResolution = { base: "https://example.com/", encoding: "UTF-8" };
 * ```
 */
export interface ItemResolution {
  /** The base URL (serialized), or null for URLs that must be absolute (itemtype). */
  readonly base: string | null;
  readonly encoding: OutputEncodingName;
}

/** The serialized URL `text` resolves to (null: it does not parse). */
function resolveText(text: string, resolution: ItemResolution): string | null {
  const record = resolution.base === null ? basicURLParse(text) : parseURL(text, { base: resolution.base, encoding: resolution.encoding });
  return record === null ? null : serializeURL(record);
}

/**
 * The text to write for URL `text` as an item of a `kind` microsyntax, such
 * that the item reads back as one item that resolves to the URL `text`
 * resolves to.
 *
 * - srcset (https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute):
 *   "collect a sequence of code points that are not ASCII whitespace" ends
 *   a URL at whitespace; leading commas are skipped as separators and
 *   trailing commas removed. Whitespace is respelt as the URL parser would
 *   read it; a leading comma gets `./` before it (a relative reference,
 *   the same URL); a URL that must end in a comma cannot be written.
 * - list (ping, https://html.spec.whatwg.org/multipage/links.html#ping):
 *   "split on ASCII whitespace": whitespace is respelt; an empty item would
 *   vanish, so it is written as the URL it resolves to.
 * - refresh: an empty URL would be no URL at all (a reload of the document
 *   itself), so it is written as the URL it resolves to; otherwise as it is
 *   (its quotes are chosen by {@link refreshQuoteFor}).
 * - single, css: returned as it is (their writers handle quotes).
 *
 * Tab, LF and CR are removed ("remove all ASCII tab or newline from
 * input"); a space or a form feed is percent-encoded (`%20`, `%0C`), as
 * the URL parser encodes it in a path, query or fragment. Where a respelling
 * would resolve elsewhere (a space in an opaque path, where it is kept),
 * the URL's own serialization is written if it fits, or the value is
 * refused with an {@link UnwritableValueError}.
 *
 * @example
 * ```ts
 * urlTextForItem("srcset", "sp ace.png", { base: "https://example.com/", encoding: "UTF-8" }); // "sp%20ace.png"
 * urlTextForItem("list", "", { base: "https://example.com/a", encoding: "UTF-8" }); // "https://example.com/a"
 * ```
 */
export function urlTextForItem(kind: ItemKind, text: string, resolution: ItemResolution): string {
  if (kind === "refresh" && /^[\t\n\f\r ]*$/.test(text)) {
    // An empty refresh URL is no URL: the refresh would reload the document's own URL, not the base URL "" resolves to.
    const target = resolveText(text, resolution);
    if (target === null) throw new UnwritableValueError(text, "as a refresh URL an empty value means the document itself");
    return target;
  }
  // The refresh parser skips whitespace before the URL (and would then read a quote there as its own), and the
  // URL parser strips it: the URL without it is the same URL.
  if (kind === "refresh") return text.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "");
  if (kind !== "srcset" && kind !== "list") return text;
  let safe = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isASCIIWhitespace(c)) continue;
    safe += text.slice(from, i) + (c === 0x20 ? "%20" : c === 0x0c ? "%0C" : "");
    from = i + 1;
  }
  safe = from === 0 ? text : safe + text.slice(from);
  if (kind === "srcset" && safe.charCodeAt(0) === 0x2c) safe = `./${safe}`;
  const fits = (candidate: string): boolean =>
    candidate !== "" && (kind !== "srcset" || candidate.charCodeAt(candidate.length - 1) !== 0x2c) && !/[\t\n\f\r ]/.test(candidate);
  const target = resolveText(text, resolution);
  if (fits(safe) && resolveText(safe, resolution) === target) return safe;
  // The URL's own serialization, where it is one item (it is ASCII, and has no tab or newline).
  if (target !== null && fits(target) && (kind !== "srcset" || target.charCodeAt(0) !== 0x2c)) return target;
  const where = kind === "srcset" ? "a srcset candidate" : "an item of a space-separated list";
  const why =
    target === null
      ? "it does not parse, and no other spelling of it is one item"
      : safe.charCodeAt(safe.length - 1) === 0x2c
        ? "the srcset parser removes a URL's trailing commas, and every spelling of this URL ends in one"
        : "no spelling of this URL is one item";
  throw new UnwritableValueError(text, `as ${where}, ${why}`);
}

/**
 * The refresh URL `text` as the URL part of a `<meta http-equiv=refresh>`
 * content value whose URL was written after `quote` (`'`, `"` or none):
 * the quote to write it in, so that "truncate urlString at" the quote does
 * not cut it (https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps).
 * Returns the quote to use: the same one where the text does not contain
 * it, the other one where it contains only this one, none where it
 * contains both and may stand unquoted (it does not start with a quote and
 * does not end in whitespace); otherwise it throws an
 * {@link UnwritableValueError}.
 *
 * @example
 * ```ts
 * refreshQuoteFor("https://new.example/it's/", "'"); // '"'
 * refreshQuoteFor("a.html", "'"); // "'"
 * ```
 */
export function refreshQuoteFor(text: string, quote: "'" | '"' | ""): "'" | '"' | "" {
  const hasSingle = text.includes("'");
  const hasDouble = text.includes('"');
  if (quote !== "" && !text.includes(quote)) return quote;
  // Unquoted, a URL that begins with a quote would be read as quoted, and one that begins with "url=" as the
  // optional "URL=" before the URL (where there was none).
  const unquotedReadsAsIs = !(text.charCodeAt(0) === 0x27 || text.charCodeAt(0) === 0x22) && !/^url[\t\n\f\r ]*=/i.test(text);
  if (quote === "" && unquotedReadsAsIs) return "";
  if (!hasSingle) return "'";
  if (!hasDouble) return '"';
  const last = text.charCodeAt(text.length - 1);
  if (unquotedReadsAsIs && !isASCIIWhitespace(last)) return "";
  throw new UnwritableValueError(text, "as a refresh URL it contains both quote characters and cannot stand unquoted");
}

/**
 * Escapes `text` for an attribute value written with `quote`, so that the
 * tokenizer's attribute value states read back exactly `text`: the quote
 * itself; an `&` only where the tokenizer would read a character reference
 * (`following` is the source text after the insertion point, which can
 * complete one); CR (which the tokenizer would turn into LF); and, in an
 * unquoted value, whatever would end it (whitespace, `>`) or, at its start,
 * a quote that would make it a quoted value — as character references.
 * A `null` quote (a valueless attribute) is written as a double-quoted one:
 * the caller adds `="…"` around it.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(unquoted)-state
 *
 * @example
 * ```ts
 * escapeAttributeText('?a=1&b="2"&copy', '"', ""); // "?a=1&b=&quot;2&quot;&amp;copy"
 * escapeAttributeText("a b>c", "", ""); // "a&#32;b&gt;c"
 * ```
 */
export function escapeAttributeText(text: string, quote: AttributeQuote, following: string, atValueStart = false): string {
  const q = quote ?? '"';
  let out = "";
  let from = 0;
  const whole = text + following;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let replacement: string | null = null;
    if (c === 0x26) {
      if (attributeReferenceAt(whole, i, whole.length) !== null) replacement = "&amp;";
    } else if (c === 0x0d) {
      replacement = "&#13;";
    } else if (q === '"' && c === 0x22) {
      replacement = "&quot;";
    } else if (q === "'" && c === 0x27) {
      replacement = "&#39;";
    } else if (q === "" && (isASCIIWhitespace(c) || c === 0x3e)) {
      replacement = c === 0x3e ? "&gt;" : `&#${c};`;
    } else if (q === "" && i === 0 && atValueStart && (c === 0x22 || c === 0x27)) {
      // A value that starts with a quote would be read as a quoted value.
      replacement = `&#${c};`;
    }
    if (replacement === null) continue;
    out += text.slice(from, i) + replacement;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
