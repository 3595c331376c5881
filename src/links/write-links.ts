/**
 * The write stage: the edits a rewrite makes to a document's text — each
 * new URL written through the attribute writer (attribute-writer.ts) as an
 * item of its attribute's microsyntax, escaped for CSS, for its attribute
 * and for every srcdoc level it is inside — and the output text or bytes
 * with them made, every other byte as it was.
 *
 * @module
 */

import type { EncodingName } from "../core/index.ts";
import { isASCIIWhitespace } from "../core/infra.ts";
import { escapeAttributeText, type ItemKind, refreshQuoteFor, UnwritableValueError, urlTextForItem } from "./attribute-writer.ts";
import { sourceEnd, sourceStart } from "./character-references.ts";
import { escapeCSSURL } from "./css-urls.ts";
import { byteOffsets, concatBytes, type DecodedDocument, decodeWith, encodeText } from "./document-bytes.ts";
import { LinksError } from "./errors.ts";
import type { Layer, LinkSite } from "./link-site.ts";
import type { Link } from "./link-types.ts";
import type { PreparedDocument } from "./prepare-document.ts";

/**
 * One replacement in the top document's text.
 *
 * @example
 * ```ts
 * const edit: Edit = { start: 8, end: 9, text: "y", context: "attribute", order: 0 };
 * ```
 */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** How an unencodable code point is written here (for byte output). */
  readonly context: "attribute" | "css";
  /** Among edits at the same place: an opening quote (-1) before the value (0) before a closing quote (1). */
  readonly order: -1 | 0 | 1;
}

/** One replacement in a link's own document (before it is lifted through srcdoc levels). */
interface LocalEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly order: -1 | 0 | 1;
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

/** The microsyntax a link's URL is an item of (see attribute-writer.ts). */
function itemKind(link: Link): ItemKind {
  switch (link.kind) {
    case "srcset":
      return "srcset";
    case "list":
    case "absolute-list":
      return "list";
    case "refresh":
      return "refresh";
    case "css-url":
    case "css-import":
      return "css";
    default:
      return "single";
  }
}

/**
 * The text of the URL as it goes into its place, before attribute escaping:
 * an item of its microsyntax (attribute-writer.ts), then escaped for CSS
 * where the URL is in CSS.
 */
function urlText(site: LinkSite, replacement: string): string {
  const link = site.link;
  const item = urlTextForItem(itemKind(link), replacement, { base: link.base, encoding: link.encoding });
  const s = site.site;
  if (s.type === "style-text") return escapeCSSURL(item, s.css, s.markup);
  if (s.type === "attribute" && s.css !== null) return escapeCSSURL(item, s.css);
  return item;
}

/**
 * Turns the new URL texts into edits of the top document, every one through
 * the attribute writer: the URL as an item of its attribute's microsyntax
 * (urlTextForItem; a refresh URL's quotes through refreshQuoteFor), escaped
 * for CSS where it is in CSS, then for the attribute (a valueless attribute
 * gets `="…"`; an unquoted value that needs quotes gets them around the whole
 * value, once per attribute), then for each srcdoc attribute it is inside.
 *
 * @example
 * ```ts
 * const document = prepareDocument("<a href>", { url: "https://example.com/" });
 * buildEdits(document.text, extractSites(document, true).sites, ["x y"]); // [{ start: 7, end: 7, text: '="x y"', … }]
 * ```
 */
export function buildEdits(text: string, sites: readonly LinkSite[], replacements: readonly (string | undefined)[]): Edit[] {
  const edits: Edit[] = [];
  const texts = new Array<string | undefined>(sites.length);
  // Attributes (by key) that get quotes, and which quote.
  const quoted = new Map<number, '"' | "'">();
  for (let i = 0; i < sites.length; i++) {
    const replacement = replacements[i];
    if (replacement === undefined) continue;
    const site = sites[i]!;
    const t = urlText(site, replacement);
    texts[i] = t;
    if (site.site.type !== "attribute" || site.site.quote !== "") continue;
    if (!quoted.has(site.attributeKey) && unquotedNeedsQuotes(t, site.localStart, site.localEnd, site.site.valueStart, site.site.valueEnd)) {
      // Choose a quote that the value does not contain (the value text is in this document's source).
      const own = site.layers.length === 0 ? text : site.layers[0]!.map.text;
      const raw = own.slice(site.site.valueStart, site.site.valueEnd);
      // With both quotes in the value, none is added: character references do instead.
      // Otherwise the quote the value (and the new text) does not have, double by choice.
      if (!(raw.includes('"') && raw.includes("'"))) {
        quoted.set(site.attributeKey, raw.includes('"') || (t.includes('"') && !t.includes("'") && !raw.includes("'")) ? "'" : '"');
      }
    }
  }
  const quotesAdded = new Set<number>();
  for (let i = 0; i < sites.length; i++) {
    const t = texts[i];
    if (t === undefined) continue;
    const site = sites[i]!;
    const own = site.layers.length === 0 ? text : site.layers[0]!.map.text;
    const local: LocalEdit[] = [];
    let context: "attribute" | "css" = "attribute";
    const s = site.site;
    if (s.type === "missing") {
      local.push({ start: site.localStart, end: site.localEnd, text: ` action="${escapeAttributeText(t, '"', "")}"`, order: 0 });
    } else if (s.type === "style-text") {
      local.push({ start: site.localStart, end: site.localEnd, text: t, order: 0 });
      context = "css";
    } else if (s.quote === null) {
      // A valueless attribute (`<a href>`): its value is written after the name, with `=` and quotes.
      local.push({ start: s.valueStart, end: s.valueEnd, text: `="${escapeAttributeText(t, '"', "")}"`, order: 0 });
    } else {
      const added = quoted.get(site.attributeKey);
      const quote = added ?? s.quote;
      const following = own.slice(site.localEnd, Math.min(s.valueEnd, site.localEnd + 40));
      const refresh = s.refresh;
      if (refresh !== undefined) {
        // https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps —
        // "If quote is not the empty string, and there is a code point in urlString equal to quote,
        // then truncate urlString at that code point": write the URL in a quote it does not contain.
        const next = refreshQuoteFor(t, refresh.quote);
        if (next !== refresh.quote) {
          if (next === "" && refresh.tail) {
            throw new UnwritableValueError(t, "as a refresh URL it needs its quotes removed, and text follows the closing quote");
          }
          const quoteText = next === "" ? "" : escapeAttributeText(next, quote, "");
          if (refresh.open !== null) local.push({ start: refresh.open[0], end: refresh.open[1], text: quoteText, order: -1 });
          else if (next !== "") local.push({ start: site.localStart, end: site.localStart, text: quoteText, order: -1 });
          if (refresh.close !== null) local.push({ start: refresh.close[0], end: refresh.close[1], text: quoteText, order: 1 });
          else if (next !== "") local.push({ start: site.localEnd, end: site.localEnd, text: quoteText, order: 1 });
        }
      }
      local.push({ start: site.localStart, end: site.localEnd, text: escapeAttributeText(t, quote, following, site.localStart === s.valueStart), order: 0 });
      if (added !== undefined && !quotesAdded.has(site.attributeKey)) {
        quotesAdded.add(site.attributeKey);
        local.push({ start: s.valueStart, end: s.valueStart, text: added, order: -1 });
        local.push({ start: s.valueEnd, end: s.valueEnd, text: added, order: 1 });
      }
    }
    // Lift each local edit through the srcdoc layers.
    for (const edit of local) {
      let { start, end, text: e } = edit;
      for (let k = 0; k < site.layers.length; k++) {
        const layer = site.layers[k]!;
        const outerStart = sourceStartOf(layer, start);
        end = end === start ? outerStart : sourceEndOf(layer, end);
        start = outerStart;
        // The text of the document the srcdoc attribute is in.
        const outer = k + 1 < site.layers.length ? site.layers[k + 1]!.map.text : text;
        e = escapeAttributeText(e, layer.quote, outer.slice(end, Math.min(layer.map.sourceEnd, end + 40)));
        context = "attribute";
      }
      edits.push({ start, end, text: e, context, order: edit.order });
    }
  }
  edits.sort((a, b) => a.start - b.start || a.order - b.order || a.end - b.end);
  return edits;
}

function sourceStartOf(layer: Layer, offset: number): number {
  return sourceStart(layer.map, offset);
}

function sourceEndOf(layer: Layer, offset: number): number {
  return sourceEnd(layer.map, offset);
}

/**
 * Asks `rewrite` about every link; returns the replacements (undefined: keep).
 *
 * @example
 * ```ts
 * const document = prepareDocument("<a href=x>", { url: "https://example.com/" });
 * askRewrite(extractSites(document, true).sites, (link) => link.value + "/"); // ["x/"]
 * ```
 */
export function askRewrite(sites: readonly LinkSite[], rewrite: (link: Link) => string | undefined): (string | undefined)[] {
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

/**
 * `text` with `edits` (sorted, not overlapping) made.
 *
 * @example
 * ```ts
 * applyToString("<a href=x>", [{ start: 8, end: 9, text: "y", context: "attribute", order: 0 }]); // "<a href=y>"
 * ```
 */
export function applyToString(text: string, edits: readonly Edit[]): string {
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
 * `text` (or, for a document read from bytes, `bytes`, whose text it is
 * as `decoded` says) with `edits` made. In bytes, each edit is encoded in
 * the document's encoding and the bytes between edits are copied; a code
 * point the encoding cannot represent is written as a decimal character
 * reference `&#N;` in an attribute (the parser turns it back into the
 * same code point) and as a CSS escape `\HEX ` in CSS (the CSS tokenizer
 * does).
 *
 * @example
 * ```ts
 * applyEdits("<a href=x>", null, null, [{ start: 8, end: 9, text: "y", context: "attribute", order: 0 }]); // "<a href=y>"
 * ```
 */
export function applyEdits(text: string, bytes: Uint8Array | null, decoded: DecodedDocument | null, edits: readonly Edit[]): string | Uint8Array {
  if (bytes === null || decoded === null) return applyToString(text, edits);
  // A copy (Uint8Array's slice: a Node.js Buffer's own slice would be a view of the input).
  if (edits.length === 0) return Uint8Array.prototype.slice.call(bytes);
  const out = writeEditsToBytes(bytes, decoded, edits).output;
  if (decoded.encoding === "ISO-2022-JP") {
    // A stateful encoding: the new bytes start and end in ASCII; check that
    // this leaves the text around them as it was.
    const written = decodeWith(out, decoded.encoding).text;
    // (The check compares the whole text, with each edit as it was written.)
    if (written !== applyToString(text, writtenEdits(edits, decoded.encoding))) {
      throw new LinksError("The rewritten links cannot be written back in ISO-2022-JP without changing the text around them");
    }
  }
  return out;
}

/** A document's edits made in its bytes (see {@link applyEdits}), in the encoding it was read in. */
function applyToBytes(document: PreparedDocument, edits: readonly Edit[]): Uint8Array {
  const decoded = document.decoded!;
  const encoding: EncodingName = decoded.encoding === document.encoding ? decoded.encoding : document.encoding;
  return applyEdits(document.text, document.bytes!, { ...decoded, encoding }, edits) as Uint8Array;
}

/**
 * How code point `cp`, which the encoding cannot represent, is written in
 * `edit`: a decimal character reference in an attribute (the parser turns
 * it back into the same code point), a CSS escape in a `style` element's
 * text (the CSS tokenizer does).
 */
function unencodable(edit: Edit, cp: number): string {
  return edit.context === "css" ? `\\${cp.toString(16)} ` : `&#${cp};`;
}

/** The edits as the bytes say them: with character references (or CSS escapes) where a code point had no bytes. */
function writtenEdits(edits: readonly Edit[], encoding: EncodingName): Edit[] {
  return edits.map((edit) => {
    let substituted = false;
    const inserted = encodeText(edit.text, encoding, (cp) => {
      substituted = true;
      return unencodable(edit, cp);
    });
    return substituted ? { ...edit, text: decodeWith(inserted, encoding).text } : edit;
  });
}

/**
 * `bytes`, whose text is `decoded` (a document, or a piece of one that
 * starts where a character starts, in an encoding without state), with
 * `edits` of that text made: the bytes between edits are copied, and each
 * edit's text is encoded in the encoding (see {@link applyToBytes}).
 * With `end`, only the bytes up to text offset `end` (after every edit);
 * `end` in the result is where they end in `bytes`. Without edits, the
 * output is a view of `bytes`.
 *
 * @example
 * ```ts
 * const bytes = Uint8Array.of(0x61, 0xe9, 0x62);
 * writeEditsToBytes(bytes, decodeWith(bytes, "windows-1252"), [{ start: 2, end: 3, text: "c", context: "attribute", order: 0 }]).output;
 * // Uint8Array [0x61, 0xe9, 0x63]
 * ```
 */
export function writeEditsToBytes(bytes: Uint8Array, decoded: DecodedDocument, edits: readonly Edit[], end?: number): { output: Uint8Array; end: number } {
  const encoding = decoded.encoding;
  const offsets: number[] = [];
  for (const edit of edits) offsets.push(edit.start, edit.end);
  if (end !== undefined) offsets.push(end);
  const mapped = byteOffsets(bytes, decoded, offsets);
  const last = end === undefined ? bytes.length : mapped[mapped.length - 1]!;
  // Optimisation (memory): nothing to change is a view of the bytes, not a copy (a stream's pieces mostly).
  if (edits.length === 0) return { output: bytes.subarray(0, last), end: last };
  const parts: Uint8Array[] = [];
  let total = 0;
  let at = 0;
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i]!;
    const start = mapped[2 * i]!;
    const editEnd = mapped[2 * i + 1]!;
    const before = bytes.subarray(at, start);
    const inserted = encodeText(edit.text, encoding, (cp) => unencodable(edit, cp));
    parts.push(before, inserted);
    total += before.length + inserted.length;
    at = editEnd;
  }
  const rest = bytes.subarray(at, last);
  parts.push(rest);
  total += rest.length;
  return { output: concatBytes(parts, total), end: last };
}

/**
 * The text (or bytes) of a prepared document with the URLs `rewrite`
 * changes rewritten: the sites of its links, read for rewriting, in source
 * order (see {@link rewriteLinks}).
 *
 * @example
 * ```ts
 * const document = prepareDocument("<a href=x>", { url: "https://example.com/" });
 * rewriteDocument(document, extractSites(document, true).sites, () => "y"); // "<a href=y>"
 * ```
 */
export function rewriteDocument(document: PreparedDocument, sites: readonly LinkSite[], rewrite: (link: Link) => string | undefined): string | Uint8Array {
  const replacements = askRewrite(sites, rewrite);
  const edits = buildEdits(document.text, sites, replacements);
  return document.bytes === null ? applyToString(document.text, edits) : applyToBytes(document, edits);
}
