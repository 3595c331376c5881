/**
 * Byte-preserving link rewriting: replace the text of chosen URLs, and
 * nothing else.
 *
 * @module
 */

import type { EncodingName } from "../core/index.ts";
import { attributeReferenceAt, sourceEnd, sourceStart } from "./character-references.ts";
import { escapeCSSURL } from "./css-urls.ts";
import { byteOffsets, decodeWith, encodeText } from "./document-bytes.ts";
import { LinksError } from "./errors.ts";
import { extractSites, type Layer, type Link, type LinkSite, prepareDocument, type PreparedDocument } from "./extract-links.ts";

/**
 * Options of {@link rewriteLinks}.
 *
 * @example
 * ```ts
 * const options: RewriteLinksOptions = {
 *   url: "https://example.com/docs/",
 *   rewrite: (link) => (link.url?.startsWith("http:") ? link.url.replace("http:", "https:") : undefined),
 * };
 * ```
 */
export interface RewriteLinksOptions {
  /** The document's URL (see `ExtractLinksOptions.url`). */
  readonly url: string;
  /** The document's encoding label (see `ExtractLinksOptions.encoding`). */
  readonly encoding?: string | undefined;
  /** Parse with scripting enabled (see `ExtractLinksOptions.scripting`); default true. */
  readonly scripting?: boolean | undefined;
  /**
   * Called once per link, in source order, with the link as
   * {@link extractLinks} reports it; returns the new text of that URL, or
   * undefined (or the link's own `value`) to leave it as it is.
   */
  readonly rewrite: (link: Link) => string | undefined;
}

/** One replacement in the top document's text. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** How an unencodable code point is written here (for byte output). */
  readonly context: "attribute" | "css";
}

type Quote = '"' | "'" | "";

function isASCIIWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * Escapes `text` for an attribute value quoted with `quote`, minimally: the
 * quote itself; an `&` only where the tokenizer would read a character
 * reference (`following` is the source text after the insertion point,
 * which can complete one); CR (which the tokenizer would turn into LF); and,
 * in an unquoted value, whatever would end it (whitespace, `>`), as
 * character references.
 *
 * @example
 * ```ts
 * escapeAttributeText('?a=1&b="2"&copy', '"', ""); // "?a=1&b=&quot;2&quot;&amp;copy"
 * escapeAttributeText("a b>c", "", ""); // "a&#32;b&gt;c"
 * ```
 */
export function escapeAttributeText(text: string, quote: Quote, following: string, atValueStart = false): string {
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
    } else if (quote === '"' && c === 0x22) {
      replacement = "&quot;";
    } else if (quote === "'" && c === 0x27) {
      replacement = "&#39;";
    } else if (quote === "" && (isASCIIWhitespace(c) || c === 0x3e)) {
      replacement = c === 0x3e ? "&gt;" : `&#${c};`;
    } else if (quote === "" && i === 0 && atValueStart && (c === 0x22 || c === 0x27)) {
      // A value that starts with a quote would be read as a quoted value.
      replacement = `&#${c};`;
    }
    if (replacement === null) continue;
    out += text.slice(from, i) + replacement;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Whether an unquoted attribute value needs quotes once `text` replaces `[start, end)` of it. */
function unquotedNeedsQuotes(text: string, start: number, end: number, valueStart: number, valueEnd: number): boolean {
  if (start === valueStart && end === valueEnd && text === "") return true;
  if (start === valueStart && (text.charCodeAt(0) === 0x22 || text.charCodeAt(0) === 0x27 || text.charCodeAt(0) === 0x3c)) return true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isASCIIWhitespace(c) || c === 0x3e) return true;
  }
  return false;
}

/**
 * Turns the new URL texts into edits of the top document: escaped for CSS
 * where the URL is in CSS, then for the attribute (adding quotes to an
 * unquoted value that needs them, once per attribute), then for each srcdoc
 * attribute the link is inside.
 */
function buildEdits(text: string, sites: readonly LinkSite[], replacements: readonly (string | undefined)[]): Edit[] {
  const edits: Edit[] = [];
  // Attributes (by key) that get quotes, and which quote.
  const quoted = new Map<number, '"' | "'">();
  for (let i = 0; i < sites.length; i++) {
    const replacement = replacements[i];
    const site = sites[i]!;
    if (replacement === undefined || site.site.type !== "attribute" || site.site.quote !== "") continue;
    const css = site.site.css;
    const cssText = css === null ? replacement : escapeCSSURL(replacement, css);
    if (!quoted.has(site.attributeKey) && unquotedNeedsQuotes(cssText, site.localStart, site.localEnd, site.site.valueStart, site.site.valueEnd)) {
      // Choose a quote that the value does not contain (the value text is in this document's source).
      const own = site.layers.length === 0 ? text : site.layers[0]!.map.text;
      const raw = own.slice(site.site.valueStart, site.site.valueEnd);
      // With both quotes in the value, none is added: character references do instead.
      // Otherwise the quote the value (and the new text) does not have, double by choice.
      if (!(raw.includes('"') && raw.includes("'"))) {
        quoted.set(site.attributeKey, raw.includes('"') || (cssText.includes('"') && !cssText.includes("'") && !raw.includes("'")) ? "'" : '"');
      }
    }
  }
  const quotesAdded = new Set<number>();
  for (let i = 0; i < sites.length; i++) {
    const replacement = replacements[i];
    if (replacement === undefined) continue;
    const site = sites[i]!;
    const own = site.layers.length === 0 ? text : site.layers[0]!.map.text;
    const local: { start: number; end: number; text: string }[] = [];
    let context: "attribute" | "css" = "attribute";
    const s = site.site;
    if (s.type === "missing") {
      local.push({ start: site.localStart, end: site.localEnd, text: ` action="${escapeAttributeText(replacement, '"', "")}"` });
    } else if (s.type === "style-text") {
      local.push({ start: site.localStart, end: site.localEnd, text: escapeCSSURL(replacement, s.css) });
      context = "css";
    } else {
      const cssText = s.css === null ? replacement : escapeCSSURL(replacement, s.css);
      const added = quoted.get(site.attributeKey);
      const quote: Quote = added ?? s.quote;
      const following = own.slice(site.localEnd, Math.min(s.valueEnd, site.localEnd + 40));
      local.push({ start: site.localStart, end: site.localEnd, text: escapeAttributeText(cssText, quote, following, site.localStart === s.valueStart) });
      if (added !== undefined && !quotesAdded.has(site.attributeKey)) {
        quotesAdded.add(site.attributeKey);
        local.push({ start: s.valueStart, end: s.valueStart, text: added });
        local.push({ start: s.valueEnd, end: s.valueEnd, text: added });
      }
    }
    // Lift each local edit through the srcdoc layers.
    for (const edit of local) {
      let { start, end, text: t } = edit;
      for (let k = 0; k < site.layers.length; k++) {
        const layer = site.layers[k]!;
        const outerStart = sourceStartOf(layer, start);
        end = end === start ? outerStart : sourceEndOf(layer, end);
        start = outerStart;
        // The text of the document the srcdoc attribute is in.
        const outer = k + 1 < site.layers.length ? site.layers[k + 1]!.map.text : text;
        t = escapeAttributeText(t, layer.quote, outer.slice(end, Math.min(layer.map.sourceEnd, end + 40)));
        context = "attribute";
      }
      edits.push({ start, end, text: t, context });
    }
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  return edits;
}

function sourceStartOf(layer: Layer, offset: number): number {
  return sourceStart(layer.map, offset);
}

function sourceEndOf(layer: Layer, offset: number): number {
  return sourceEnd(layer.map, offset);
}

/** Asks `rewrite` about every link; returns the replacements (undefined: keep). */
function askRewrite(sites: readonly LinkSite[], rewrite: (link: Link) => string | undefined): (string | undefined)[] {
  const replacements = new Array<string | undefined>(sites.length);
  for (let i = 0; i < sites.length; i++) {
    const link = sites[i]!.link;
    const result = rewrite(link);
    if (result !== undefined && typeof result !== "string") {
      throw new LinksError(`The "rewrite" function must return a string or undefined, not ${result === null ? "null" : typeof result} (for ${JSON.stringify(link.value)})`);
    }
    replacements[i] = result === link.value ? undefined : result;
  }
  return replacements;
}

function applyToString(text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const edit of edits) {
    parts.push(text.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * Re-encodes each edit in the document's encoding; the bytes between edits
 * are copied. A code point the encoding cannot represent is written as a
 * decimal character reference `&#N;` in an attribute (the parser turns it
 * back into the same code point) and as a CSS escape `\HEX ` in a `style`
 * element's text (the CSS tokenizer does).
 */
function applyToBytes(document: PreparedDocument, edits: readonly Edit[]): Uint8Array {
  const bytes = document.bytes!;
  if (edits.length === 0) return bytes.slice();
  const decoded = document.decoded!;
  const encoding: EncodingName = decoded.encoding === document.encoding ? decoded.encoding : document.encoding;
  const offsets: number[] = [];
  for (const edit of edits) offsets.push(edit.start, edit.end);
  const mapped = byteOffsets(bytes, { ...decoded, encoding }, offsets);
  const parts: Uint8Array[] = [];
  let total = 0;
  let at = 0;
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i]!;
    const start = mapped[2 * i]!;
    const end = mapped[2 * i + 1]!;
    const before = bytes.subarray(at, start);
    const inserted = encodeText(edit.text, encoding, (cp) => (edit.context === "css" ? `\\${cp.toString(16)} ` : `&#${cp};`));
    parts.push(before, inserted);
    total += before.length + inserted.length;
    at = end;
  }
  const rest = bytes.subarray(at);
  parts.push(rest);
  total += rest.length;
  const out = new Uint8Array(total);
  let o = 0;
  for (const part of parts) {
    out.set(part, o);
    o += part.length;
  }
  if (encoding === "ISO-2022-JP") {
    // A stateful encoding: the new bytes start and end in ASCII; check that
    // this leaves the text around them as it was.
    const expected = applyToString(document.text, edits);
    if (decodeWith(out, encoding).text !== expected) {
      throw new LinksError("The rewritten links cannot be written back in ISO-2022-JP without changing the text around them");
    }
  }
  return out;
}

/**
 * Returns the document with the text of each URL that `rewrite` changes
 * replaced, and every other byte as it was: quotes, character references,
 * whitespace, attribute order and case, comments. A new value is escaped
 * minimally for where it goes: in an attribute, its quote, an `&` that
 * would start a character reference, and CR; in an unquoted value that
 * would end early, quotes are added around the whole value (once); in CSS,
 * what would end the string or `url()`. srcset, ping and other lists are
 * rewritten one URL at a time; links in a srcdoc document are escaped for
 * each attribute they are inside. A form without an action gets
 * ` action="…"` when `rewrite` returns a string for it.
 *
 * A string gives a string. A `Uint8Array` gives a new `Uint8Array`: the
 * bytes between rewritten URLs are copied, and only the new text is encoded,
 * in the document's encoding (the `encoding` option, else sniffed). A code
 * point that encoding cannot represent is written as a decimal character
 * reference (`&#349;`) in an attribute and as a CSS escape (`\15d `) in a
 * `style` element, so the document still says exactly what `rewrite`
 * returned (the URL parser then encodes the query as the document's
 * encoding dictates; return an absolute, serialized URL, which is ASCII, to
 * choose the bytes yourself).
 *
 * @example
 * ```ts
 * rewriteLinks("<A HREF='a.html' title=x>&amp;</A>", {
 *   url: "https://example.com/",
 *   rewrite: (link) => link.value.replace(".html", "/"),
 * });
 * // "<A HREF='a/' title=x>&amp;</A>"
 * rewriteLinks('<img srcset="a.png 1x, b.png 2x">', {
 *   url: "https://example.com/",
 *   rewrite: (link) => (link.value === "b.png" ? "/hi-res/b.png" : undefined),
 * });
 * // '<img srcset="a.png 1x, /hi-res/b.png 2x">'
 * ```
 */
export function rewriteLinks(html: string, options: RewriteLinksOptions): string;
export function rewriteLinks(html: Uint8Array, options: RewriteLinksOptions): Uint8Array;
export function rewriteLinks(html: string | Uint8Array, options: RewriteLinksOptions): string | Uint8Array;
export function rewriteLinks(html: string | Uint8Array, options: RewriteLinksOptions): string | Uint8Array {
  const rewrite = (options as Partial<RewriteLinksOptions> | null)?.rewrite;
  if (typeof rewrite !== "function") throw new LinksError(`The "rewrite" option must be a function, not ${typeof rewrite}`);
  const document = prepareDocument(html, options);
  const { sites } = extractSites(document, false, true);
  const replacements = askRewrite(sites, rewrite);
  const edits = buildEdits(document.text, sites, replacements);
  return document.bytes === null ? applyToString(document.text, edits) : applyToBytes(document, edits);
}
