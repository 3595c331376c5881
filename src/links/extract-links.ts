/**
 * Link extraction: every URL in an HTML document, where it is in the
 * source, and what it resolves to, as a browser resolves it.
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#resolving-urls
 *
 * @module
 */

import {
  basicURLParse,
  type EncodingName,
  getEncoding,
  type OutputEncodingName,
  serializeURL,
  UnknownEncodingError,
  type URLRecord,
  validateURL,
  type ValidationError,
} from "../core/index.ts";
import { serializeFast, withoutValidationErrors } from "../core/fast-path.ts";
import { asciiLowercase, isASCIIWhitespace } from "../core/infra.ts";
import { SlotMemo } from "../core/slot-memo.ts";
import { changedEncoding, HTML_NAMESPACE, isParsedBaseElementWithHref, metaDeclaredEncoding, SVG_NAMESPACE, XLINK_NAMESPACE } from "../html/index.ts";
import { documentURLs, type DocumentURLs } from "./base-url.ts";
import { type AttributeKind, type CatalogueEntry, lookupAttribute, urlAttributeNames } from "./catalogue.ts";
import { decodeAttributeValue, type DecodedText, sourceEnd, sourceStart } from "./character-references.ts";
import { type CSSURLReference, cssValueMap, findCSSURLs, mayContainCSSURL } from "./css-urls.ts";
import { decodeDocument, type DecodedDocument, decodeWith, isUint8Array } from "./document-bytes.ts";
import { LinksError } from "./errors.ts";
import {
  type Attribute,
  type LeanDocument,
  type LeanElement,
  type LeanText,
  parseWithPositions,
  type ParsedSource,
  StartTagSource,
  type TagRecord,
} from "./html-source.ts";
import { rawTextEnd } from "./html-tokenizer.ts";
import { parseRefresh } from "./refresh.ts";
import { type SourceAnchor, sourcePosition } from "./source-position.ts";
import { parseSrcset } from "./srcset.ts";

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
   * {@link LinkValidationError}.
   */
  readonly errors?: readonly LinkValidationError[];
}

/**
 * Options of {@link extractLinks}.
 *
 * @example
 * ```ts
 * const options: ExtractLinksOptions = { url: "https://example.com/docs/", encoding: "windows-1252", validate: true };
 * ```
 */
export interface ExtractLinksOptions {
  /** The document's URL: an absolute URL. Relative links resolve against it (or against its `<base>`). */
  readonly url: string;
  /**
   * The document's encoding, any Encoding Standard label. For a string, it
   * decides how URL queries are encoded (default UTF-8). For bytes, it
   * overrides sniffing, as an HTTP charset would (a BOM still wins);
   * without it, the HTML encoding sniffing algorithm decides (BOM, meta
   * prescan, windows-1252).
   */
  readonly encoding?: string | undefined;
  /** Report the URL Standard's validation errors of each value in `errors`. Default false. */
  readonly validate?: boolean | undefined;
  /**
   * https://html.spec.whatwg.org/multipage/webappapis.html#concept-n-script —
   * parse as a browser with scripting enabled (the default: `noscript`
   * content is text, so its links are not links), or, with false, as one
   * without (a crawler that runs no script sees the links in `noscript`).
   */
  readonly scripting?: boolean | undefined;
  /**
   * How many srcdoc levels deep links are read (default
   * {@link DEFAULT_MAX_SRCDOC_DEPTH}). Each level's text holds every level
   * inside it, so reading n levels costs n passes over the deepest text:
   * the cap keeps a hostile document linear. The srcdoc documents of
   * iframes deeper than that are not read; `onSrcdocTooDeep` hears of each.
   */
  readonly maxSrcdocDepth?: number | undefined;
  /** Called for each iframe whose srcdoc document is beyond `maxSrcdocDepth`, with where its srcdoc value starts in the source. */
  readonly onSrcdocTooDeep?: ((place: SrcdocTooDeep) => void) | undefined;
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
 * The default of `maxSrcdocDepth`: 32 levels of srcdoc documents, far more
 * than pages use, and few enough that a document of thousands of nested
 * levels (each level's text holding all the deeper ones) stays linear.
 * Browsers cap nested browsing contexts too.
 */
export const DEFAULT_MAX_SRCDOC_DEPTH = 32;

/** How a URL's text sits in the source: what a new value must be escaped for. */
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
 */
export interface RefreshQuoting {
  readonly quote: "'" | '"' | "";
  readonly open: readonly [number, number] | null;
  readonly close: readonly [number, number] | null;
  readonly tail: boolean;
}

/** A URL in a `style` element's text (raw text in HTML; in SVG, markup whose text is plain). */
export interface StyleTextSite {
  readonly type: "style-text";
  readonly css: '"' | "'" | "";
  /** True in SVG, where the text is markup: a new URL must not bring a character reference or a tag into it. */
  readonly markup: boolean;
}

/** Where a form without an action could have one: insert ` action="…"` at `start`. */
export interface MissingSite {
  readonly type: "missing";
}

/**
 * One srcdoc level a link is inside: its text is the decoded value of a
 * srcdoc attribute, `map` leads back to that attribute's source, and
 * `quote` is how that attribute is quoted.
 */
export interface Layer {
  readonly map: DecodedText;
  readonly quote: '"' | "'" | "";
}

/**
 * Where the code units of a link's value come from in its own document's
 * text (the srcdoc's, for a link in a srcdoc document), to place its
 * validation errors: `start(d)` is where code unit `d` starts (for one
 * that a character reference or a CSS escape stands for, where that
 * starts), `end(d)` where the text before `d` ends (after a reference or
 * an escape that ends there).
 *
 * @example
 * ```ts
 * // The value of `<a href="x">`, at offset 9 of its document.
 * const map: ValueMap = { start: (d) => 9 + d, end: (d) => 9 + d };
 * ```
 */
export interface ValueMap {
  start(d: number): number;
  end(d: number): number;
}

/** A link with what rewriting needs. */
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

/** A document ready to be read: its text and where it came from. */
export interface PreparedDocument {
  readonly text: string;
  readonly url: Readonly<URLRecord>;
  readonly encoding: EncodingName;
  /** Set for byte input. */
  readonly bytes: Uint8Array | null;
  readonly decoded: DecodedDocument | null;
  readonly parsed: ParsedSource;
  /** Whether it was parsed with scripting enabled (srcdoc documents are too). */
  readonly scripting: boolean;
  /** How many srcdoc levels are read (see ExtractLinksOptions.maxSrcdocDepth). */
  readonly maxSrcdocDepth: number;
  /** Where the srcdoc values of the iframes too deep to read start in the top document's text (filled by extractSites). */
  readonly tooDeep: { depth: number; start: number }[];
}

/**
 * Checks the `url` option and parses it; throws a {@link LinksError} naming a bad one.
 *
 * @example
 * ```ts
 * documentURLOption("https://example.com/").host; // "example.com"
 * documentURLOption("nope"); // throws LinksError: The "url" option is not an absolute URL: "nope"
 * ```
 */
export function documentURLOption(url: unknown): Readonly<URLRecord> {
  if (typeof url !== "string") {
    throw new LinksError(`The "url" option must be a string (an absolute URL), not ${url === null ? "null" : typeof url}`);
  }
  const record = basicURLParse(url);
  if (record === null) throw new LinksError(`The "url" option is not an absolute URL: ${JSON.stringify(url)}`);
  return record;
}

/** The options every reading of a document takes, checked. */
export interface DocumentOptions {
  readonly url: Readonly<URLRecord>;
  readonly label: string | undefined;
  readonly scripting: boolean;
  readonly maxSrcdocDepth: number;
}

/**
 * Checks the options that say how to read a document (`url`, `encoding`,
 * `scripting`, `maxSrcdocDepth`); throws a {@link LinksError} naming a bad one.
 *
 * @example
 * ```ts
 * documentOptions({ url: "https://example.com/" }).maxSrcdocDepth; // 32
 * ```
 */
export function documentOptions(options: { readonly url?: unknown; readonly encoding?: unknown; readonly scripting?: unknown; readonly maxSrcdocDepth?: unknown }): DocumentOptions {
  if (options === null || typeof options !== "object") throw new LinksError(`The options must be an object with a "url", not ${String(options)}`);
  const url = documentURLOption(options.url);
  const label = options.encoding;
  if (label !== undefined && typeof label !== "string") throw new LinksError(`The "encoding" option must be a string (an encoding label), not ${typeof label}`);
  const scripting = options.scripting !== false;
  const depth = options.maxSrcdocDepth;
  if (depth !== undefined && (typeof depth !== "number" || !Number.isInteger(depth) || depth < 0)) {
    throw new LinksError(`The "maxSrcdocDepth" option must be a whole number of levels (0 or more), not ${JSON.stringify(depth) ?? typeof depth}`);
  }
  return { url, label, scripting, maxSrcdocDepth: depth ?? DEFAULT_MAX_SRCDOC_DEPTH };
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead —
 * the encoding a recorded start tag declares, if it is a `meta` the tree
 * construction stage processes as one ("A start tag whose tag name is
 * "meta"": an HTML element made for that tag, not attributes adopted by
 * an existing element), or null.
 *
 * @example
 * ```ts
 * declaredEncoding(parseWithPositions("<meta charset=sjis>").tags[0]); // "Shift_JIS"
 * ```
 */
export function declaredEncoding(tag: TagRecord): EncodingName | null {
  const element = tag.element;
  if (element.tagName !== "meta" || element.namespaceURI !== HTML_NAMESPACE || tag.adopted !== null) return null;
  let charset: string | null = null;
  let httpEquiv: string | null = null;
  let content: string | null = null;
  for (const attr of element.attrs) {
    if (attr.namespace !== undefined && attr.namespace !== "") continue;
    if (attr.name === "charset") charset = attr.value;
    else if (attr.name === "http-equiv") httpEquiv = attr.value;
    else if (attr.name === "content") content = attr.value;
  }
  return metaDeclaredEncoding(charset, httpEquiv, content);
}

/**
 * Reads the input: decodes bytes (sniffing, and changing the encoding when
 * a `meta` in the parsed document declares another one while the encoding
 * is still tentative), checks the options, and parses.
 *
 * @example
 * ```ts
 * prepareDocument(Uint8Array.of(0x3c, 0x70, 0x3e), { url: "https://example.com/" }).encoding; // "windows-1252"
 * ```
 */
export function prepareDocument(
  html: string | Uint8Array,
  options: { readonly url?: unknown; readonly encoding?: unknown; readonly scripting?: unknown; readonly maxSrcdocDepth?: unknown },
): PreparedDocument {
  const { url, label, scripting, maxSrcdocDepth } = documentOptions(options);
  if (typeof html !== "string" && !isUint8Array(html)) {
    throw new LinksError(`The document must be a string or a Uint8Array, not ${html === null ? "null" : typeof html}`);
  }
  if (typeof html === "string") {
    let encoding: EncodingName = "UTF-8";
    if (label !== undefined) {
      const found = getEncoding(label);
      if (found === null) throw new UnknownEncodingError(label);
      encoding = found;
    }
    return { text: html, url, encoding, bytes: null, decoded: null, parsed: parseWithPositions(html, scripting), scripting, maxSrcdocDepth, tooDeep: [] };
  }
  let decoded = decodeDocument(html, label);
  let parsed = parseWithPositions(decoded.text, scripting);
  if (decoded.confidence === "tentative") {
    // https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — a meta
    // with a charset (or a content-type with one), while the confidence is tentative,
    // changes the encoding; the first one that declares an encoding decides.
    for (const tag of parsed.tags) {
      const declared = declaredEncoding(tag);
      if (declared === null) continue;
      const next = changedEncoding(decoded.encoding, declared);
      if (next !== null) {
        decoded = decodeWith(html, next);
        parsed = parseWithPositions(decoded.text, scripting);
      }
      break;
    }
  }
  return { text: decoded.text, url, encoding: decoded.encoding, bytes: html, decoded, parsed, scripting, maxSrcdocDepth, tooDeep: [] };
}

// --- Extraction ----------------------------------------------------------------

/** One document to read: the top one, or a srcdoc document inside it. */
export interface Job {
  readonly text: string;
  readonly parsed: ParsedSource;
  readonly url: Readonly<URLRecord>;
  readonly encoding: EncodingName;
  /** The about base URL (a srcdoc document's container's document base URL). */
  readonly aboutBaseURL: Readonly<URLRecord> | null;
  readonly layers: readonly Layer[];
  readonly depth: number;
  readonly template: boolean;
  readonly id: number;
}

/** While `retainedSamples` is made: its readers, kept for their shape; then null. */
let sampleReaders: DocumentReader[] | null = [];
/** The number of slots of a reader's memo of resolved values (see `DocumentReader.resolve`): a power of two. */
const MEMO_SLOTS = 512;

const ABOUT_SRCDOC = basicURLParse("about:srcdoc")!;

/**
 * Places each validation error of a link's value (of length
 * `valueLength`) in the top document's source: through `map` into the
 * link's own document, then out through its srcdoc `layers` (innermost
 * first), as the link's own range `[linkStart, linkEnd)` (already in the
 * top document's source) was. An empty range at the value's end is at
 * `linkEnd`. Without a map (a form without an action, or a value that
 * could not be mapped: text that does not decode to the value, which
 * would mean a decoder here and the parser disagree) each error gets the
 * link's range: where its URL is, never a wrong place inside. `line` and
 * `column` are left 0 for {@link extractSites} to count.
 *
 * @example
 * ```ts
 * // '<a href="a&amp;b c">': the value "a&b c" is at 9–19, "&amp;" at 10–15.
 * const map: ValueMap = { start: (d) => [9, 10, 15, 16, 17, 18][d], end: (d) => [9, 10, 15, 16, 17, 18][d] };
 * placeValidationErrors([{ type: "invalid-URL-unit", start: 3, end: 4 }], 5, map, [], 9, 18);
 * // [{ type: "invalid-URL-unit", start: 3, end: 4, sourceStart: 16, sourceEnd: 17, line: 0, column: 0 }]
 * placeValidationErrors([{ type: "invalid-URL-unit", start: 3, end: 4 }], 5, null, [], 9, 18)[0].sourceStart; // 9
 * ```
 */
export function placeValidationErrors(
  errors: readonly ValidationError[],
  valueLength: number,
  map: ValueMap | null,
  layers: readonly Layer[],
  linkStart: number,
  linkEnd: number,
): LinkValidationError[] {
  const placed: LinkValidationError[] = [];
  for (const error of errors) {
    let start = linkStart;
    let end = linkEnd;
    if (map !== null) {
      if (error.start === valueLength && error.end === valueLength) {
        start = linkEnd;
      } else {
        start = map.start(error.start);
        end = error.end === error.start ? start : map.end(error.end);
        // Lift the range through the srcdoc levels, as `add` lifts the link's.
        for (const layer of layers) {
          const s = sourceStart(layer.map, start);
          end = end === start ? s : sourceEnd(layer.map, end);
          start = s;
        }
      }
    }
    placed.push({ type: error.type, start: error.start, end: error.end, sourceStart: start, sourceEnd: end, line: 0, column: 0 });
  }
  return placed;
}

/** The value map of a value that is `v.slice(offset, …)` of an attribute value `v`, whose offsets `at` and `endAt` map to the source. */
function sliceMap(at: (d: number) => number, endAt: (d: number) => number, offset: number): ValueMap {
  return { start: (d) => at(offset + d), end: (d) => endAt(offset + d) };
}

/**
 * The value map of URL reference `ref` of `css`, whose offsets `at` and
 * `endAt` map to the source: through the CSS escapes (when there are any)
 * first; null when the escapes do not decode to the value.
 */
function cssMap(at: (d: number) => number, endAt: (d: number) => number, css: string, ref: CSSURLReference): ValueMap | null {
  const escapes = cssValueMap(css, ref);
  if (escapes === null) return sliceMap(at, endAt, ref.start);
  if (escapes.text !== ref.value) return null;
  return { start: (d) => at(sourceStart(escapes, d)), end: (d) => endAt(sourceEnd(escapes, d)) };
}

/** The qualified name of an attribute of the tree, as written in HTML. */
function qualifiedName(attr: Attribute): string {
  if (attr.namespace === undefined) return attr.name;
  if (attr.namespace === XLINK_NAMESPACE) return `xlink:${attr.name}`;
  return attr.prefix !== undefined && attr.prefix !== "" ? `${attr.prefix}:${attr.name}` : attr.name;
}

/** What a {@link DocumentReader} needs of the whole input. */
export type ReaderSettings = Pick<PreparedDocument, "scripting" | "maxSrcdocDepth" | "tooDeep">;

/**
 * The reader of one document: turns its tags into link sites.
 *
 * @example
 * ```ts
 * const document = prepareDocument("<a href=x>", { url: "https://example.com/" });
 * const links: Link[] = [];
 * const job = { text: document.text, parsed: document.parsed, url: document.url, encoding: document.encoding, aboutBaseURL: null, layers: [], depth: 0, template: false, id: 0 };
 * new DocumentReader(job, false, document, links, null, [], () => 1).read();
 * links[0].url; // "https://example.com/x"
 * ```
 */
export class DocumentReader {
  readonly job: Job;
  private urls: DocumentURLs;
  readonly validate: boolean;
  readonly scripting: boolean;
  /** The link sites, when rewriting; else null. */
  readonly sites: LinkSite[] | null;
  readonly links: Link[];
  readonly jobs: Job[];
  readonly nextId: () => number;
  private baseHref: string;
  private fallbackHref: string;
  private documentHref: string;
  /** The text the tags' positions are in (the job's, or a streamed document's current piece). */
  private text: string;
  /** What every position the tokenizer noted is shifted by in {@link text} (see {@link readTag}). */
  private shift = 0;
  /** Where the tags' attribute positions are. */
  private positions: Pick<ParsedSource, "positions">;
  /**
   * Whether the tags read so far include the document's first base element
   * with an href: frames created before it take the fallback base URL.
   */
  private firstBaseSeen = false;
  private lastParseOptions: { base: URLRecord | null; encoding: OutputEncodingName } | null = null;
  /** Values resolved with `lastParseOptions` and their URLs (see {@link resolve}). */
  private readonly memo = new SlotMemo<string | null>(MEMO_SLOTS);
  /** Where the start tag being read is in the source (reused for every tag). */
  private readonly tagSource = new StartTagSource();
  private readonly maxSrcdocDepth: number;
  private readonly tooDeep: { depth: number; start: number }[];

  constructor(
    job: Job,
    validate: boolean,
    document: ReaderSettings,
    links: Link[],
    sites: LinkSite[] | null,
    jobs: Job[],
    nextId: () => number,
    /** The document's URLs, when the caller knows them (a streamed document); else found in the job's tree. */
    urls?: DocumentURLs,
  ) {
    const scripting = document.scripting;
    this.maxSrcdocDepth = document.maxSrcdocDepth;
    this.tooDeep = document.tooDeep;
    this.links = links;
    this.scripting = scripting;
    this.job = job;
    this.validate = validate;
    this.sites = sites;
    this.jobs = jobs;
    this.nextId = nextId;
    this.text = job.text;
    this.positions = job.parsed;
    this.urls = urls ?? documentURLs(job.parsed.document, job.url, job.encoding, job.aboutBaseURL, job.parsed.hasBaseWithHref);
    this.baseHref = serializeURL(this.urls.documentBaseURL as URLRecord);
    this.fallbackHref = serializeURL(this.urls.fallbackBaseURL as URLRecord);
    this.documentHref = serializeURL(this.urls.documentURL as URLRecord);
  }

  /** Resolves the links read from now on with `urls` (a streamed document whose base URL became known later). */
  useURLs(urls: DocumentURLs): void {
    this.urls = urls;
    this.baseHref = serializeURL(urls.documentBaseURL as URLRecord);
    this.fallbackHref = serializeURL(urls.fallbackBaseURL as URLRecord);
    this.documentHref = serializeURL(urls.documentURL as URLRecord);
  }

  /** Reads the tags of the job's parse, in order. */
  read(): void {
    const tags = this.job.parsed.tags;
    for (let t = 0; t < tags.length; t++) this.readTag(tags[t]!);
  }

  /**
   * Reads one tag. For a streamed document: `text` is the piece of input
   * the tag's source is in now, `positions` where its attribute positions
   * are, and `shift` what its noted offsets are shifted by in `text`.
   */
  readStreamedTag(tag: TagRecord, text: string, positions: Pick<ParsedSource, "positions">, shift: number): void {
    this.text = text;
    this.positions = positions;
    this.shift = shift;
    this.readTag(tag);
  }

  private readTag(tag: TagRecord): void {
    const tagSource = this.tagSource;
    const element = tag.element;
    const ns = element.namespaceURI === HTML_NAMESPACE ? "html" : element.namespaceURI === SVG_NAMESPACE ? "svg" : null;
    if (ns === null) return;
    tagSource.load(this.positions, tag, this.shift);
    if (!this.firstBaseSeen && !tag.inTemplate && !tag.inShadowTree && isParsedBaseElementWithHref(element)) this.firstBaseSeen = true;
    const attrs = tag.tokenAttrs;
    for (let i = 0; i < tag.attrCount; i++) {
      const attr = attrs[i]!;
      if (!urlAttributeNames.has(attr.name)) continue;
      if (tag.adopted !== null && !tag.adopted.has(attr)) continue;
      const name = qualifiedName(attr);
      const row = lookupAttribute(ns, element.tagName, name);
      if (row === undefined) continue;
      if (row.kind === "refresh" && !isRefreshMeta(element)) continue;
      if (row.kind === "css" && !mayContainCSSURL(attr.value)) continue;
      // The positions are the token's attributes', in the same order.
      this.attribute(tag, ns, name, attr, i, row);
    }
    if (ns === "html" && element.tagName === "form" && tag.adopted === null && !element.attrs.some((a) => a.name === "action" && a.namespace === undefined)) {
      this.missingFormAction(tag);
    }
    if (element.tagName === "style" && tag.adopted === null) this.styleText(tag, ns);
  }

  /**
   * The options of basicURLParse for `base` and `encoding`.
   *
   * Optimisation: nearly every link of a document uses the same pair: one
   * object for them, not one per link.
   */
  private parseOptions(base: Readonly<URLRecord> | null, encoding: OutputEncodingName): { base: URLRecord | null; encoding: OutputEncodingName } {
    const last = this.lastParseOptions;
    if (last !== null && last.base === base && last.encoding === encoding) return last;
    this.memo.clear();
    return (this.lastParseOptions = { base: base as URLRecord | null, encoding });
  }

  /**
   * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url —
   * `value` parsed against `base` with `encoding`, serialized; null for failure.
   *
   * Optimisation: pages repeat their links (the 9/11 list: 8,774 links,
   * 1,530 distinct; the HTML spec pages: 85% repeats), and the same value
   * against the same base and encoding is the same URL. A small
   * direct-mapped memo, indexed by the value's length and two of its code
   * units, remembers the last value in each of its slots: a repeat is not
   * parsed again (and shares its string). A hash map would hash every value,
   * a fresh string on every page: measured slower than parsing on the New
   * Zealand page, where three values in four are distinct.
   */
  private resolve(value: string, base: Readonly<URLRecord> | null, encoding: OutputEncodingName): string | null {
    const options = this.parseOptions(base, encoding);
    const known = this.memo.get(value);
    if (known !== undefined) return known;
    // Optimisation: the common shapes are serialized without a record (see serializeFast).
    let url: string | null | undefined = serializeFast(value, options.base);
    if (url === undefined) {
      const record = basicURLParse(value, options);
      url = record === null ? null : serializeURL(record);
    }
    this.memo.set(value, url);
    return url;
  }

  /** Adds one link site, resolving `value` against `base` (null: no base) with `encoding`. */
  private add(
    tag: TagRecord,
    ns: "html" | "svg",
    attribute: string | null,
    kind: LinkKind,
    obsolete: boolean,
    value: string,
    localStart: number,
    localEnd: number,
    base: Readonly<URLRecord> | null,
    baseHref: string | null,
    encoding: OutputEncodingName,
    site: AttributeSite | StyleTextSite | MissingSite,
    /** With `validate`: where the value's code units are in this document's text (null: nowhere more precise than the link). */
    valueMap: ValueMap | null,
    fixedURL?: string,
  ): Link {
    const job = this.job;
    // Lift the range through the srcdoc levels to the top document's source.
    let start = localStart;
    let end = localEnd;
    for (const layer of job.layers) {
      const s = sourceStart(layer.map, start);
      end = end === start ? s : sourceEnd(layer.map, end);
      start = s;
    }
    let url: string | null;
    if (fixedURL !== undefined) {
      url = fixedURL;
    } else {
      url = this.resolve(value, base, encoding);
    }
    // Deviation: an element in template contents belongs to the template's
    // inert document, whose URL is about:blank, so a browser's `a.href` there
    // does not resolve a relative URL. Its links are resolved against this
    // document's base URL, where they will be once the template is used, and
    // marked `template: true`.
    const link: Link = {
      element: tag.element.tagName,
      namespace: ns,
      attribute,
      value,
      raw: value,
      url,
      base: baseHref,
      encoding,
      line: 0,
      column: 0,
      start,
      end,
      kind,
      obsolete,
      srcdoc: job.depth,
      template: job.template || tag.inTemplate,
    };
    if (this.validate) {
      // An empty or missing form action is never parsed ("If action is the
      // empty string, let action be the URL of the form document"): no errors.
      // Optimisation: a value of the common clean shapes is not parsed again to find no errors (see withoutValidationErrors).
      const errors =
        fixedURL !== undefined || withoutValidationErrors(value, base) ? [] : validateURL(value, { base: (base as URLRecord | null) ?? undefined, encoding }).errors;
      (link as { errors?: readonly LinkValidationError[] }).errors = placeValidationErrors(errors, value.length, valueMap, job.layers, start, end);
    }
    this.links.push(link);
    if (this.sites !== null) {
      const attributeKey = job.id * 536870912 + (site.type === "attribute" ? site.valueStart : localStart);
      this.sites.push({ link, localStart, localEnd, site, layers: job.layers, attributeKey });
    }
    return link;
  }

  /** The links of attribute `attr` of `tag`, whose positions are attribute `index` of the tag source. */
  private attribute(tag: TagRecord, ns: "html" | "svg", name: string, attr: Attribute, index: number, row: CatalogueEntry): void {
    const text = this.text;
    const v = attr.value;
    const tagSource = this.tagSource;
    const vs = tagSource.valueStart(index);
    const ve = tagSource.valueEnd(index);
    // Optimisation: a value with nothing decoded maps one for one (CR → LF and NUL → U+FFFD keep the length, so compare).
    let map: DecodedText | null = null;
    let mapped = true;
    if (!tagSource.isVerbatim(index)) {
      map = decodeAttributeValue(text, vs, ve);
      // The map is only right when it decodes what the parser decoded.
      if (map.text !== v) mapped = false;
    }
    const at = (d: number): number => (!mapped ? vs : map === null ? vs + d : sourceStart(map, d));
    const endAt = (d: number): number => (!mapped ? vs : map === null ? vs + d : sourceEnd(map, d));
    // Optimisation: where the text is matters only for rewriting.
    const site: AttributeSite =
      this.sites === null ? noSite : { type: "attribute", quote: tagSource.quote(index), valueStart: vs, valueEnd: ve, css: null };
    const documentBase = this.urls.documentBaseURL;
    const baseHref = this.baseHref;
    const enc = this.urls.outputEncoding;
    const validate = this.validate;
    switch (row.kind) {
      case "single": {
        let s = 0;
        let e = v.length;
        while (s < e && isASCIIWhitespace(v.charCodeAt(s))) s++;
        while (e > s && isASCIIWhitespace(v.charCodeAt(e - 1))) e--;
        const item = s === 0 && e === v.length ? v : v.slice(s, e);
        let link: Link;
        if (ns === "html" && name === "href" && tag.element.tagName === "base") {
          // https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url —
          // "parsing the value of element's href content attribute with document's
          // fallback base URL, and document's character encoding".
          link = this.add(tag, ns, name, "single", row.obsolete, item, at(s), endAt(e), this.urls.fallbackBaseURL, this.fallbackHref, enc, site, validate ? sliceMap(at, endAt, s) : null);
        } else if (ns === "html" && v === "" && (name === "action" || name === "formaction")) {
          // https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-submission-algorithm —
          // "If action is the empty string, let action be the URL of the form document."
          link = this.add(tag, ns, name, "single", row.obsolete, item, at(s), endAt(e), this.urls.documentURL, this.documentHref, enc, site, validate ? sliceMap(at, endAt, s) : null, this.documentHref);
        } else {
          link = this.add(tag, ns, name, "single", row.obsolete, item, at(s), endAt(e), documentBase, baseHref, enc, site, validate ? sliceMap(at, endAt, s) : null);
        }
        // The attribute's own text, whitespace and all: what a browser's getter returns when it does not parse.
        if (item !== v) (link as { raw: string }).raw = v;
        return;
      }
      case "list":
      case "absolute-list": {
        // Deviation: the obsolete `archive` (and `classid`, `data`) of an object
        // once resolved against its `codebase`; the standard now resolves them
        // against the document base URL, as here.
        // Split on ASCII whitespace (https://infra.spec.whatwg.org/#split-on-ascii-whitespace).
        let i = 0;
        while (i < v.length) {
          while (i < v.length && isASCIIWhitespace(v.charCodeAt(i))) i++;
          if (i >= v.length) break;
          const s = i;
          while (i < v.length && !isASCIIWhitespace(v.charCodeAt(i))) i++;
          const item = v.slice(s, i);
          const valueMap = validate ? sliceMap(at, endAt, s) : null;
          if (row.kind === "list") this.add(tag, ns, name, "list", row.obsolete, item, at(s), endAt(i), documentBase, baseHref, enc, site, valueMap);
          else this.add(tag, ns, name, "absolute-list", row.obsolete, item, at(s), endAt(i), null, null, "UTF-8", site, valueMap);
        }
        return;
      }
      case "srcset": {
        // Deviation: a candidate whose descriptors the standard's parser
        // rejects is still reported (it is a URL in the document), marked
        // `ignored: true`.
        for (const candidate of parseSrcset(v)) {
          const valueMap = validate ? sliceMap(at, endAt, candidate.start) : null;
          const link = this.add(tag, ns, name, "srcset", row.obsolete, candidate.url, at(candidate.start), endAt(candidate.end), documentBase, baseHref, enc, site, valueMap);
          (link as { descriptors?: readonly string[] }).descriptors = candidate.descriptors;
          if (!candidate.valid) (link as { ignored?: true }).ignored = true;
        }
        return;
      }
      case "refresh": {
        const refresh = parseRefresh(v);
        if (refresh === null || refresh.url === null) return;
        const { text: item, start, end } = refresh.url;
        let refreshSite = site;
        if (this.sites !== null) {
          // "Skip quotes": the quote, if any, is the code point right before the URL.
          const q = start > 0 ? v.charCodeAt(start - 1) : 0;
          const quote = q === 0x27 ? "'" : q === 0x22 ? '"' : "";
          const close = quote === "" ? -1 : v.indexOf(quote, end);
          const tail = close !== -1 && v.slice(close + 1).trim() !== "";
          refreshSite = {
            ...site,
            refresh: { quote, open: quote === "" ? null : [at(start - 1), endAt(start)], close: close === -1 ? null : [at(close), endAt(close + 1)], tail },
          };
        }
        this.add(tag, ns, name, "refresh", row.obsolete, item, at(start), endAt(end), documentBase, baseHref, enc, refreshSite, validate ? sliceMap(at, endAt, start) : null);
        return;
      }
      case "css": {
        for (const ref of findCSSURLs(v)) {
          // CSS always parses URLs as UTF-8, against the document base URL.
          const cssSite: AttributeSite = this.sites === null ? noSite : { ...site, css: ref.context };
          const valueMap = validate ? cssMap(at, endAt, v, ref) : null;
          this.add(tag, ns, name, ref.import ? "css-import" : "css-url", row.obsolete, ref.value, at(ref.start), endAt(ref.end), documentBase, baseHref, "UTF-8", cssSite, valueMap);
        }
        return;
      }
      case "srcdoc": {
        if (!mapped) return;
        if (this.job.depth + 1 > this.maxSrcdocDepth) {
          let start = vs;
          for (const layer of this.job.layers) start = sourceStart(layer.map, start);
          this.tooDeep.push({ depth: this.job.depth + 1, start });
          return;
        }
        const srcdocMap = map ?? { text: v, sourceStart: vs, sourceEnd: ve, segments: null };
        // https://html.spec.whatwg.org/multipage/iframe-embed-object.html#process-the-iframe-attributes —
        // an about:srcdoc document, UTF-8, whose about base URL is the
        // container document's base URL when the parser created the iframe: a
        // <base> that comes later in the source does not count yet.
        const quote = tagSource.quote(index) ?? "";
        this.jobs.push({
          text: v,
          parsed: parseWithPositions(v, this.scripting),
          url: ABOUT_SRCDOC,
          encoding: "UTF-8",
          aboutBaseURL: this.firstBaseSeen ? documentBase : this.urls.fallbackBaseURL,
          layers: [{ map: srcdocMap, quote }, ...this.job.layers],
          depth: this.job.depth + 1,
          template: this.job.template || tag.inTemplate,
          id: this.nextId(),
        });
        return;
      }
    }
  }

  private missingFormAction(tag: TagRecord): void {
    const enc = this.urls.outputEncoding;
    const at = this.tagSource.nameEnd;
    const link = this.add(tag, "html", "action", "single", false, "", at, at, this.urls.documentURL, this.documentHref, enc, { type: "missing" }, null, this.documentHref);
    (link as { missing?: true }).missing = true;
  }

  private styleText(tag: TagRecord, ns: "html" | "svg"): void {
    const text = this.text;
    const contentStart = this.tagSource.end;
    const contentEnd = rawTextEnd(text, contentStart, "style");
    const css = text.slice(contentStart, contentEnd);
    if (ns === "svg") {
      // Deviation: in SVG, a style element's content is markup (character
      // references, CDATA sections, comments, even elements); only content
      // that is plain text, the same in the source as in the tree, is read.
      const children = tag.element.childNodes;
      const only = children.length === 1 && children[0]!.nodeName === "#text" ? (children[0] as LeanText).value : children.length === 0 ? "" : null;
      if (only === null || only !== css) return;
    }
    // The style sheet is raw text: an offset in it is `contentStart` more in the document.
    const shift = this.validate ? (d: number): number => contentStart + d : null;
    for (const ref of findCSSURLs(css)) {
      const valueMap = shift === null ? null : cssMap(shift, shift, css, ref);
      this.add(tag, ns, null, ref.import ? "css-import" : "css-url", false, ref.value, contentStart + ref.start, contentStart + ref.end, this.urls.documentBaseURL, this.baseHref, "UTF-8", {
        type: "style-text",
        css: ref.context,
        markup: ns === "svg",
      }, valueMap);
    }
  }
}

/** The site of every link when not rewriting (where the text is does not matter then). */
const noSite: AttributeSite = { type: "attribute", quote: '"', valueStart: 0, valueEnd: 0, css: null };

/** https://html.spec.whatwg.org/multipage/semantics.html#attr-meta-http-equiv-refresh */
function isRefreshMeta(element: LeanElement): boolean {
  for (const attr of element.attrs) {
    if (attr.name === "http-equiv" && (attr.namespace === undefined || attr.namespace === "")) {
      return asciiLowercase(attr.value) === "refresh";
    }
  }
  return false;
}

/**
 * One document {@link extractSites} has read (the top one, or a srcdoc
 * document), for a caller that wants more of its tree than its links.
 *
 * @example
 * ```ts
 * const read: ReadDocument = { tree: prepareDocument("<p id=x>", { url: "https://example.com/" }).parsed.document, depth: 0, template: false, links: null };
 * ```
 */
export interface ReadDocument {
  /** Its lean tree: every element, in tree order (template contents under their template's `content`). */
  readonly tree: LeanDocument;
  /** 0 for the top document, 1 for a srcdoc document in it, … */
  readonly depth: number;
  /** Whether its iframe is in template contents. */
  readonly template: boolean;
  /** For a srcdoc document, its own links (not those of srcdoc documents inside it); null for the top document. */
  readonly links: readonly Link[] | null;
}

/**
 * Every link site of a prepared document, srcdoc documents included, in
 * source order, with lines and columns; with `rewriting`, also where each
 * one's text is, for {@link rewriteLinks}.
 *
 * @example
 * ```ts
 * extractSites(prepareDocument("<a href=x>", { url: "https://example.com/" }), false, false).links[0].url;
 * // "https://example.com/x"
 * ```
 */
export function extractSites(document: PreparedDocument, validate: boolean, rewriting: true, onDocument?: (read: ReadDocument) => void): { links: Link[]; sites: LinkSite[] };
export function extractSites(document: PreparedDocument, validate: boolean, rewriting: false, onDocument?: (read: ReadDocument) => void): { links: Link[]; sites: null };
export function extractSites(document: PreparedDocument, validate: boolean, rewriting: boolean, onDocument?: (read: ReadDocument) => void): { links: Link[]; sites: LinkSite[] | null } {
  const links: Link[] = [];
  const sites: LinkSite[] | null = rewriting ? [] : null;
  let id = 0;
  const jobs: Job[] = [
    {
      text: document.text,
      parsed: document.parsed,
      url: document.url,
      encoding: document.encoding,
      aboutBaseURL: null,
      layers: [],
      depth: 0,
      template: false,
      id: id++,
    },
  ];
  // A work list, not recursion: srcdoc documents nest as deep as the input lets them.
  for (let j = 0; j < jobs.length; j++) {
    const job = jobs[j]!;
    const before = links.length;
    const reader = new DocumentReader(job, validate, document, links, sites, jobs, () => id++);
    reader.read();
    // The tree of each document, while it is still there (srcdoc documents are read once, here).
    onDocument?.({ tree: job.parsed.document, depth: job.depth, template: job.template, links: job.depth === 0 ? null : links.slice(before) });
    sampleReaders?.push(reader);
    jobs[j] = undefined as unknown as Job; // Let a finished document's tree go.
  }
  let sorted = true;
  for (let i = 1; i < links.length; i++) {
    if (links[i]!.start < links[i - 1]!.start) {
      sorted = false;
      break;
    }
  }
  // Tree order is source order, except for srcdoc documents (read after their container).
  if (!sorted) {
    links.sort((a, b) => a.start - b.start || a.end - b.end);
    sites?.sort((a, b) => a.link.start - b.link.start || a.link.end - b.link.end);
  }
  setLinesAndColumns(document.text, links);
  if (validate) setErrorPositions(document.text, links);
  return { links, sites };
}

/**
 * Fills in `line` and `column` of every validation error of `links` in
 * `text`, counting from its link's (errors are inside their link's range;
 * the links' own are set).
 *
 * Optimisation: each error counts on from the one before when it is not
 * before it (the parser reports errors mostly in order), so a long value
 * with many errors is read about once, not once per error.
 *
 * @example
 * ```ts
 * const text = "<a href='a b'>";
 * const links = extractLinks(text, { url: "https://example.com/", validate: true });
 * setErrorPositions(text, links); // sets them again, the same
 * ```
 */
export function setErrorPositions(text: string, links: readonly Link[]): void {
  for (const link of links) {
    const errors = link.errors;
    if (errors === undefined) continue;
    let from: SourceAnchor = link;
    for (const error of errors) {
      if (error.sourceStart < from.start) from = link;
      const { line, column } = sourcePosition(text, error.sourceStart, from);
      (error as { line: number }).line = line;
      (error as { column: number }).column = column;
      from = { start: error.sourceStart, line, column };
    }
  }
}

/** A surrogate pair: one code point, two code units. */
const surrogatePair = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Fills in `line` and `column` of every link (sorted by start, none before
 * `from`), in one pass over the text from `from` (default: its start, line
 * 1, column 1): a streamed document's piece starts where the last one's
 * links were counted to. Returns where counting stopped (the last link's
 * place, or `from`), to go on from.
 *
 * Optimisation: line breaks are found with `indexOf` and surrogate pairs
 * with a regular expression (both native scans); columns count code units,
 * less one for each surrogate pair before the link on its line.
 *
 * @example
 * ```ts
 * const links = [{ start: 5, line: 0, column: 0 }];
 * setLinesAndColumns("ab\ncdef", links); // { start: 5, line: 2, column: 3 }
 * ```
 */
export function setLinesAndColumns(text: string, links: readonly { readonly start: number; line: number; column: number }[], from: SourceAnchor = { start: 0, line: 1, column: 1 }): SourceAnchor {
  let line = from.line;
  // Where the line of `from` would start if each code unit before it were a column (pairs before `from` are in its column).
  let lineStart = from.start - (from.column - 1);
  let at = from.start; // Everything before `at` is counted.
  let nextLF = -2;
  let nextCR = -2;
  // Surrogate pairs between the later of lineStart and from.start and the last link, and where the next one is (-1: none).
  let pairs = 0;
  let nextPair = -2;
  surrogatePair.lastIndex = 0;
  let last: SourceAnchor = from;
  for (const link of links) {
    const target = link.start;
    if (target > at) {
      for (;;) {
        if (nextLF !== -1 && nextLF < at) nextLF = text.indexOf("\n", at);
        if (nextCR !== -1 && nextCR < at) nextCR = text.indexOf("\r", at);
        const next = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
        if (next === -1 || next >= target) break;
        // CR LF is one line break.
        at = next + (text.charCodeAt(next) === 0x0d && text.charCodeAt(next + 1) === 0x0a ? 2 : 1);
        line++;
        lineStart = at;
        pairs = 0;
      }
      at = target;
    }
    // Count the pairs that end before the link's first code unit.
    for (;;) {
      if (nextPair !== -1 && nextPair < Math.max(lineStart, from.start)) {
        surrogatePair.lastIndex = Math.max(lineStart, from.start);
        nextPair = surrogatePair.exec(text)?.index ?? -1;
      }
      if (nextPair === -1 || nextPair + 2 > target) break;
      pairs++;
      surrogatePair.lastIndex = nextPair + 2;
      nextPair = surrogatePair.exec(text)?.index ?? -1;
    }
    link.line = line;
    link.column = target - lineStart + 1 - pairs;
    last = link;
  }
  return { start: last.start, line: last.line, column: last.column };
}

/**
 * Every URL in an HTML document, in source order: each URL-bearing
 * attribute of the catalogue (one entry per URL of a list, a srcset or a
 * refresh), each `url()` and `@import` in `style` attributes and `style`
 * elements, and the links of iframe srcdoc documents, which resolve against
 * their container's base URL. Each is resolved as a browser resolves it:
 * against the document base URL of the whole document (a `<base>` after a
 * link still governs it), with the document's encoding for the query.
 *
 * Bad HTML and bad URLs are never errors (a URL that does not parse gives
 * `url: null`). A bad `url` option throws a {@link LinksError} naming it;
 * an unknown encoding label throws the core's `UnknownEncodingError`.
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url
 *
 * @example
 * ```ts
 * const links = extractLinks(
 *   '<img srcset="a.png 1x, b.png 2x"><base href="/static/">',
 *   { url: "https://example.com/page" },
 * );
 * links.map((l) => [l.value, l.url, l.column]);
 * // [["a.png", "https://example.com/static/a.png", 14],
 * //  ["b.png", "https://example.com/static/b.png", 24],
 * //  ["/static/", "https://example.com/static/", 46]]
 * ```
 */
export function extractLinks(html: string | Uint8Array, options: ExtractLinksOptions): Link[] {
  const document = prepareDocument(html, options);
  const links = extractSites(document, options.validate === true, false).links;
  const report = options.onSrcdocTooDeep;
  if (report !== undefined) {
    for (const { depth, start } of document.tooDeep) {
      const { line, column } = sourcePosition(document.text, start);
      report({ depth, start, line, column });
    }
  }
  return links;
}

/**
 * Results kept alive for the life of the module, for the shapes of their
 * objects (see `retainedShapes` in html-source.ts): the readers, links and
 * URL records of a small document that has every kind of link, extracted
 * as `extractLinks` does (no validation, no rewriting). Exported so that
 * it lives as long as the module.
 *
 * Optimisation: without them, the first full garbage collection after an
 * extraction frees the shapes of its objects and throws away the code
 * optimised for them, and the next extraction ran about 1.25x as slow
 * (measured on the New Zealand page, right after a collection: 9.4 ms, and
 * 7.5 ms with these kept). Extracting the sample also with validation and
 * for rewriting kept those shapes too, but the mixed feedback it left made
 * the common case slower in a steady loop (5.5 ms, against 5.1).
 *
 * @example
 * ```ts
 * retainedSamples.length; // 2: the sample's links and its readers
 * ```
 */
export const retainedSamples: readonly object[] = (() => {
  const sample =
    '<!doctype html><html><head><meta charset=utf-8><meta http-equiv=refresh content="5; url=/r"><base href="/b/">' +
    '<link rel=stylesheet href="s.css"><style>a{background:url(x.png)}</style></head>\n<body background="bg.png">' +
    '<a href="a.html" title="t">a</a><a href="https://example.com/x?y#z">b</a><a href="x&amp;y z">c</a>' +
    '<img src="i.png" srcset="i1.png 1x, i2.png 2x"><form><button formaction="f">x</button></form><area ping="p1 p2">' +
    "<p style=\"background:url('p.png')\">x</p><iframe srcdoc=\"<a href=s>s</a>\"></iframe><svg><a href=\"#v\"/></svg></body></html>";
  const samples: object[] = [extractSites(prepareDocument(sample, { url: "https://example.com/d/e" }), false, false), sampleReaders!];
  sampleReaders = null;
  return samples;
})();
