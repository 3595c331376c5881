/**
 * The links of a CSS file (a style sheet of its own, not in HTML): its
 * bytes decoded by CSS Syntax's rules (BOM, the protocol's charset,
 * `@charset`, UTF-8), its `url()`, `src()`, `image-set()` and `@import`
 * URLs resolved against the style sheet's own URL, and their rewriting
 * through the one writer (write-links.ts), every other byte kept.
 *
 * @module
 */

import { basicURLParse, type EncodingName, getEncoding, serializeURL, type URLRecord, validateURL } from "../core/index.ts";
import { withoutValidationErrors } from "../core/fast-path.ts";
import { sourceEnd, sourceStart } from "./character-references.ts";
import { type CSSURLReference, cssValueMap, findCSSURLs } from "./css-urls.ts";
import { type DecodedDocument, decodeWith } from "./document-bytes.ts";
import { bomSniff, type EncodingSource } from "./encoding-sniffing.ts";
import { LinksError } from "./errors.ts";
import type { LinkSite } from "./link-site.ts";
import type { Link, LinkValidationError } from "./link-types.ts";
import { checkDocumentInput, checkObject, checkRewriteOption, documentURLOption, encodingOfLabel, MAX_ERRORS_PER_VALUE } from "./options.ts";
import { placeValidationErrors, settleLinks, type ValueMap } from "./settle-links.ts";
import { applyEdits, askRewrite, buildEdits } from "./write-links.ts";

/**
 * Options of {@link extractStylesheetLinks}.
 *
 * @example
 * ```ts
 * const options: StylesheetOptions = { url: "https://example.com/css/site.css", encoding: "utf-8", validate: true };
 * ```
 */
export interface StylesheetOptions {
  /** The style sheet's own URL: its URLs are resolved against it (not against a document's base). */
  readonly url: string;
  /** For bytes: the encoding label of the protocol (an HTTP `charset`), which wins over `@charset`; a BOM wins over both. */
  readonly encoding?: string | undefined;
  /** Give each link its validation errors (as `extractLinks` does). */
  readonly validate?: boolean | undefined;
}

/**
 * Options of {@link rewriteStylesheetLinks}.
 *
 * @example
 * ```ts
 * const options: RewriteStylesheetOptions = { url: "https://example.com/css/site.css", rewrite: (link) => link.url ?? undefined };
 * ```
 */
export interface RewriteStylesheetOptions extends Omit<StylesheetOptions, "validate"> {
  /** The new URL text of a link, or undefined to keep it. */
  readonly rewrite: (link: Link) => string | undefined;
}

/**
 * A style sheet read: its text, how it was decoded, its links and (when
 * rewriting) where each is written.
 *
 * @example
 * ```ts
 * const read: StylesheetRead = { text: "a{}", encoding: "UTF-8", encodingSource: "default", links: [], sites: null, decoded: null };
 * ```
 */
export interface StylesheetRead {
  readonly text: string;
  /** What the text was decoded from (UTF-8 for a string). */
  readonly encoding: EncodingName;
  /** What decided it: a BOM, the `encoding` option, an `@charset` rule ("declaration"), or the default (UTF-8). */
  readonly encodingSource: EncodingSource;
  readonly links: Link[];
  readonly sites: LinkSite[] | null;
  /** Set for bytes. */
  readonly decoded: DecodedDocument | null;
}

/** `@charset "` (https://drafts.csswg.org/css-syntax/#determine-the-fallback-encoding). */
const CHARSET_RULE = [0x40, 0x63, 0x68, 0x61, 0x72, 0x73, 0x65, 0x74, 0x20, 0x22];

/**
 * https://drafts.csswg.org/css-syntax/#determine-the-fallback-encoding —
 * step 2: the encoding an `@charset "…";` at the very start names, or null.
 * "If the first 1024 bytes of the stream begin with the hex sequence 40 63
 * 68 61 72 73 65 74 20 22 XX* 22 3B … Get an encoding for the sequence of
 * XX bytes, interpreted as ASCII. If the return value was utf-16be or
 * utf-16le, return utf-8; if the return value was failure, continue".
 */
function charsetRuleEncoding(bytes: Uint8Array): EncodingName | null {
  for (let i = 0; i < CHARSET_RULE.length; i++) if (bytes[i] !== CHARSET_RULE[i]) return null;
  const end = Math.min(bytes.length, 1024);
  let close = CHARSET_RULE.length;
  while (close < end && bytes[close] !== 0x22) close++;
  if (close + 1 >= end || bytes[close + 1] !== 0x3b) return null;
  let label = "";
  for (let i = CHARSET_RULE.length; i < close; i++) label += String.fromCharCode(bytes[i]!);
  const encoding = getEncoding(label);
  if (encoding === "UTF-16BE" || encoding === "UTF-16LE") return "UTF-8";
  return encoding;
}

/**
 * https://drafts.csswg.org/css-syntax/#input-byte-stream — a style sheet's
 * bytes decoded: the fallback encoding is the protocol's (`given`), else
 * the `@charset` rule's, else UTF-8, and a BOM wins over it ("decode").
 *
 * Deviation: there is no referring document to give an environment
 * encoding (step 3): a CSS file of a site is read on its own.
 *
 * @example
 * ```ts
 * decodeStylesheet(Uint8Array.of(0x40, 0x63, 0x68, 0x61, 0x72, 0x73, 0x65, 0x74, 0x20, 0x22, 0x6c, 0x61, 0x74, 0x69, 0x6e, 0x31, 0x22, 0x3b, 0xe9), undefined).decoded.text;
 * // '@charset "latin1";é'
 * ```
 */
export function decodeStylesheet(bytes: Uint8Array, given: EncodingName | undefined): { decoded: DecodedDocument; source: EncodingSource } {
  const bom = bomSniff(bytes);
  if (bom !== null) return { decoded: decodeWith(bytes, bom), source: "bom" };
  if (given !== undefined) return { decoded: decodeWith(bytes, given), source: "given" };
  const declared = charsetRuleEncoding(bytes);
  if (declared !== null) return { decoded: decodeWith(bytes, declared), source: "declaration" };
  return { decoded: decodeWith(bytes, "UTF-8"), source: "default" };
}

/** Where the code units of `ref`'s value are in `css`: through its escapes; null when they do not decode to the value. */
function referenceMap(css: string, ref: CSSURLReference): ValueMap | null {
  const escapes = cssValueMap(css, ref);
  if (escapes === null) return { start: (d) => ref.start + d, end: (d) => ref.start + d };
  if (escapes.text !== ref.value) return null;
  return { start: (d) => sourceStart(escapes, d), end: (d) => sourceEnd(escapes, d) };
}

/** The links of `text`, a style sheet at `url`, in source order, with lines and columns (and, when `rewriting`, their sites). */
function stylesheetLinks(text: string, url: Readonly<URLRecord>, validate: boolean, rewriting: boolean): { links: Link[]; sites: LinkSite[] | null } {
  const links: Link[] = [];
  const sites: LinkSite[] | null = rewriting ? [] : null;
  const base = serializeURL(url);
  for (const ref of findCSSURLs(text)) {
    // https://drafts.csswg.org/css-values-4/#relative-urls — "relative URLs are resolved against the base URL of the style sheet",
    // the style sheet's own URL; CSS parses URLs as UTF-8.
    const record = basicURLParse(ref.value, { base: url as URLRecord });
    const link: Link = {
      element: "",
      namespace: "html",
      attribute: null,
      value: ref.value,
      raw: ref.value,
      url: record === null ? null : serializeURL(record),
      base,
      encoding: "UTF-8",
      line: 0,
      column: 0,
      start: ref.start,
      end: ref.end,
      kind: ref.import ? "css-import" : "css-url",
      obsolete: false,
      srcdoc: 0,
      template: false,
    };
    if (validate) {
      const validated = withoutValidationErrors(ref.value, url) ? null : validateURL(ref.value, { base: url as URLRecord, maxErrors: MAX_ERRORS_PER_VALUE });
      (link as { errors?: readonly LinkValidationError[] }).errors = placeValidationErrors(validated?.errors ?? [], ref.value.length, referenceMap(text, ref), [], ref.start, ref.end);
      if (validated?.omitted !== undefined) (link as { errorsOmitted?: number }).errorsOmitted = validated.omitted;
    }
    links.push(link);
    sites?.push({ link, localStart: ref.start, localEnd: ref.end, site: { type: "style-text", css: ref.context, markup: false }, layers: [], attributeKey: ref.start });
  }
  settleLinks(text, links, sites, validate);
  return { links, sites };
}

/**
 * Reads a style sheet (a string, or bytes decoded by {@link decodeStylesheet}).
 * Internal: for {@link extractStylesheetLinks}, {@link rewriteStylesheetLinks}
 * and the command. Throws a LinksError for a bad option.
 *
 * @example
 * ```ts
 * readStylesheet("a{background:url(bg.png)}", { url: "https://example.com/css/site.css" }, false).links[0]?.url;
 * // "https://example.com/css/bg.png"
 * ```
 */
export function readStylesheet(css: string | Uint8Array, options: StylesheetOptions, rewriting: boolean): StylesheetRead {
  checkDocumentInput(css);
  checkObject(options);
  const url = documentURLOption(options.url);
  const given = encodingOfLabel(options.encoding);
  const validate = options.validate === true;
  if (typeof css === "string") return { text: css, encoding: "UTF-8", encodingSource: "default", ...stylesheetLinks(css, url, validate, rewriting), decoded: null };
  const { decoded, source } = decodeStylesheet(css, given);
  return { text: decoded.text, encoding: decoded.encoding, encodingSource: source, ...stylesheetLinks(decoded.text, url, validate, rewriting), decoded };
}

/**
 * Every URL of a CSS file — `url()`, `src()` and `image-set()` strings,
 * `@import` — resolved against the style sheet's URL (not a document's
 * base), at its line and column; for bytes, decoded as CSS Syntax says
 * (a BOM, the `encoding` option, `@charset`, else UTF-8). A link of a
 * style sheet has no element: `element` is "" and `attribute` null.
 *
 * @example
 * ```ts
 * extractStylesheetLinks('@import "print.css";\nbody { background: url(../img/bg.png) }', { url: "https://example.com/css/site.css" })
 *   .map((l) => [l.kind, l.url, l.line, l.column]);
 * // [["css-import", "https://example.com/css/print.css", 1, 10], ["css-url", "https://example.com/img/bg.png", 2, 24]]
 * ```
 */
export function extractStylesheetLinks(css: string | Uint8Array, options: StylesheetOptions): Link[] {
  return readStylesheet(css, options, false).links;
}

/**
 * A CSS file with the URLs `rewrite` changes rewritten, escaped for where
 * each is (a string, an unquoted `url()`), every other byte kept; bytes
 * are written back in the style sheet's encoding (a code point it lacks
 * as a CSS escape).
 *
 * @example
 * ```ts
 * rewriteStylesheetLinks("a{background:url(bg.png)}", { url: "https://example.com/css/", rewrite: (l) => l.url ?? undefined });
 * // "a{background:url(https://example.com/css/bg.png)}"
 * ```
 */
export function rewriteStylesheetLinks(css: string | Uint8Array, options: RewriteStylesheetOptions): string | Uint8Array {
  checkRewriteOption(options);
  return rewriteStylesheet(readStylesheet(css, options, true), css, options.rewrite);
}

/**
 * A style sheet read for rewriting (`readStylesheet(css, …, true)`) with
 * the URLs `rewrite` changes rewritten (see {@link rewriteStylesheetLinks}).
 * Internal: for the command, which looks at the reading first.
 *
 * @example
 * ```ts
 * const css = "a{background:url(bg.png)}";
 * rewriteStylesheet(readStylesheet(css, { url: "https://example.com/" }, true), css, () => "x.png"); // "a{background:url(x.png)}"
 * ```
 */
export function rewriteStylesheet(read: StylesheetRead, css: string | Uint8Array, rewrite: (link: Link) => string | undefined): string | Uint8Array {
  const sites = read.sites;
  if (sites === null) throw new LinksError("rewriteStylesheet: the style sheet was not read for rewriting");
  const edits = buildEdits(read.text, sites, askRewrite(sites, rewrite));
  return applyEdits(read.text, typeof css === "string" ? null : css, read.decoded, edits);
}
