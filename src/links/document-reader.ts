/**
 * The document reader, last step of the read stage: turns the start tags a
 * parse recorded into links, one method per kind of URL-bearing attribute
 * of the catalogue (a single URL, a list, a srcset, a refresh, CSS, a
 * srcdoc document), each resolved as a browser resolves it.
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#resolving-urls
 *
 * @module
 */

import { basicURLParse, type EncodingName, type OutputEncodingName, serializeURL, type URLRecord, validateURL } from "../core/index.ts";
import { serializeFast, withoutValidationErrors } from "../core/fast-path.ts";
import { asciiLowercase, isASCIIWhitespace } from "../core/infra.ts";
import { SlotMemo } from "../core/slot-memo.ts";
import { HTML_NAMESPACE, isParsedBaseElementWithHref, SVG_NAMESPACE, XLINK_NAMESPACE } from "../html/index.ts";
import type { DocumentURLs } from "./base-url.ts";
import { type CatalogueEntry, lookupAttribute, urlAttributeNames } from "./catalogue.ts";
import { decodeAttributeValue, type DecodedText, sourceEnd, sourceStart } from "./character-references.ts";
import { type CSSURLReference, cssValueMap, findCSSURLs, mayContainCSSURL } from "./css-urls.ts";
import { type Attribute, type LeanElement, type LeanText, parseWithPositions, type ParsedSource, StartTagSource, type TagRecord } from "./html-source.ts";
import { rawTextEnd } from "./html-tokenizer.ts";
import type { AttributeSite, Layer, LinkSite, MissingSite, StyleTextSite } from "./link-site.ts";
import type { Link, LinkKind, LinkValidationError } from "./link-types.ts";
import { MAX_ERRORS_PER_DOCUMENT, MAX_ERRORS_PER_VALUE } from "./options.ts";
import { parseRefresh } from "./refresh.ts";
import { placeValidationErrors, type ValueMap } from "./settle-links.ts";
import { parseSrcset } from "./srcset.ts";

/**
 * One document to read: the top one, or a srcdoc document inside it.
 *
 * @example
 * ```ts
 * const job: Job = { text, parsed: parseWithPositions(text), url, encoding: "UTF-8", aboutBaseURL: null, layers: [], depth: 0, template: false, id: 0 };
 * ```
 */
export interface Job {
  readonly text: string;
  readonly parsed: ParsedSource;
  readonly url: Readonly<URLRecord>;
  readonly encoding: EncodingName;
  /** The about base URL (a srcdoc document's container's document base URL). */
  readonly aboutBaseURL: Readonly<URLRecord> | null;
  /** The srcdoc levels it is inside, innermost first. */
  readonly layers: readonly Layer[];
  readonly depth: number;
  readonly template: boolean;
  /** Which document of the input it is (0: the top one), for {@link LinkSite.attributeKey}. */
  readonly id: number;
}

/**
 * How a reading goes, the same for every document of an input.
 *
 * @example
 * ```ts
 * const settings: ReadSettings = { validate: true, scripting: true, maxSrcdocDepth: 32 };
 * ```
 */
export interface ReadSettings {
  readonly validate: boolean;
  readonly scripting: boolean;
  readonly maxSrcdocDepth: number;
}

/**
 * What the readers of one input add to: its links in the order read, their
 * sites when rewriting, the srcdoc documents met and not yet read, and the
 * srcdoc documents too deep to read.
 *
 * @example
 * ```ts
 * const batch: LinkBatch = { links: [], sites: null, srcdocs: [], tooDeep: [], documents: 1, errorsKept: 0 };
 * ```
 */
export interface LinkBatch {
  readonly links: Link[];
  /** The link sites, when rewriting; else null. */
  readonly sites: LinkSite[] | null;
  /** srcdoc documents to read (see read-document.ts). */
  readonly srcdocs: Job[];
  /** Where the srcdoc values of iframes too deep to read start, in the top document's text. */
  readonly tooDeep: { depth: number; start: number }[];
  /** How many documents have been numbered (the next one's {@link Job.id}). */
  documents: number;
  /** How many validation errors the links read keep (bounded by MAX_ERRORS_PER_DOCUMENT). */
  errorsKept: number;
}

/** The number of slots of a reader's memo of resolved values (see `DocumentReader.resolve`): a power of two. */
const MEMO_SLOTS = 512;

const ABOUT_SRCDOC = basicURLParse("about:srcdoc")!;

/** The site of every link when not rewriting (where the text is does not matter then). */
const noSite: AttributeSite = { type: "attribute", quote: '"', valueStart: 0, valueEnd: 0, css: null };

/** The qualified name of an attribute of the tree, as written in HTML. */
function qualifiedName(attr: Attribute): string {
  if (attr.namespace === undefined) return attr.name;
  if (attr.namespace === XLINK_NAMESPACE) return `xlink:${attr.name}`;
  return attr.prefix !== undefined && attr.prefix !== "" ? `${attr.prefix}:${attr.name}` : attr.name;
}

/** https://html.spec.whatwg.org/multipage/semantics.html#attr-meta-http-equiv-refresh */
function isRefreshMeta(element: LeanElement): boolean {
  for (const attr of element.attrs) {
    if (attr.name === "http-equiv" && (attr.namespace === undefined || attr.namespace === "")) {
      return asciiLowercase(attr.value) === "refresh";
    }
  }
  return false;
}

/** The `rel` attribute's value of an HTML element, or null without one. */
function relOf(element: LeanElement): string | null {
  for (const attr of element.attrs) if (attr.name === "rel" && (attr.namespace === undefined || attr.namespace === "")) return attr.value;
  return null;
}

/** The value map of `v.slice(offset, …)` of a value whose map is `outer`. */
function sliceMap(outer: ValueMap, offset: number): ValueMap {
  return { start: (d) => outer.start(offset + d), end: (d) => outer.end(offset + d) };
}

/**
 * The value map of URL reference `ref` of `css`, whose own map is
 * `outer`: through the CSS escapes (when there are any) first; null when
 * the escapes do not decode to the value.
 */
function cssMap(outer: ValueMap, css: string, ref: CSSURLReference): ValueMap | null {
  const escapes = cssValueMap(css, ref);
  if (escapes === null) return sliceMap(outer, ref.start);
  if (escapes.text !== ref.value) return null;
  return { start: (d) => outer.start(sourceStart(escapes, d)), end: (d) => outer.end(sourceEnd(escapes, d)) };
}

/** The map of a text that is the source from `start` on, one for one. */
function offsetMap(start: number): ValueMap {
  const at = (d: number): number => start + d;
  return { start: at, end: at };
}

/**
 * Where the code units of the attribute value being read are in the
 * source: one per reader, loaded for each attribute.
 */
class AttributeValueSource {
  /** The value, decoded (as the tree has it). */
  value = "";
  /** Its source text's range. */
  start = 0;
  end = 0;
  /** The map of the decoded text to the source; null when the source text is the value, code unit for code unit. */
  map: DecodedText | null = null;
  /** False when the source does not decode to the value (a decoder here and the parser would disagree): then every offset maps to the value's start. */
  mapped = true;

  load(text: string, start: number, end: number, verbatim: boolean, value: string): void {
    this.value = value;
    this.start = start;
    this.end = end;
    this.map = null;
    this.mapped = true;
    // Optimisation: a value with nothing decoded maps one for one (CR → LF and NUL → U+FFFD keep the length, so compare).
    if (verbatim) return;
    const map = decodeAttributeValue(text, start, end);
    this.map = map;
    // The map is only right when it decodes what the parser decoded.
    if (map.text !== value) this.mapped = false;
  }

  /** Where code unit `d` of the value starts in the source. */
  at(d: number): number {
    return !this.mapped ? this.start : this.map === null ? this.start + d : sourceStart(this.map, d);
  }

  /** Where the value's text before code unit `d` ends in the source. */
  endAt(d: number): number {
    return !this.mapped ? this.start : this.map === null ? this.start + d : sourceEnd(this.map, d);
  }

  /** The value map of the value from `offset` on, as it is now (it outlives the next {@link load}). */
  slice(offset: number): ValueMap {
    const { start, map, mapped } = this;
    if (!mapped) return { start: () => start, end: () => start };
    if (map === null) return offsetMap(start + offset);
    return { start: (d) => sourceStart(map, offset + d), end: (d) => sourceEnd(map, offset + d) };
  }
}

/**
 * The reader of one document: turns its recorded tags into links (and,
 * when rewriting, their sites), resolved against the document's URLs.
 *
 * @example
 * ```ts
 * const document = prepareDocument("<a href=x>", { url: "https://example.com/" });
 * const batch: LinkBatch = { links: [], sites: null, srcdocs: [], tooDeep: [], documents: 1, errorsKept: 0 };
 * const job = { text: document.text, parsed: document.parsed, url: document.url, encoding: document.encoding, aboutBaseURL: null, layers: [], depth: 0, template: false, id: 0 };
 * new DocumentReader(job, document.options, batch, documentURLs(document.parsed.document, document.url, "UTF-8", null, false)).read();
 * batch.links[0].url; // "https://example.com/x"
 * ```
 */
export class DocumentReader {
  readonly job: Job;
  private urls: DocumentURLs;
  private readonly settings: ReadSettings;
  private readonly validate: boolean;
  private readonly batch: LinkBatch;
  /** Each base element's href link, when the caller asked for them (see read-document.ts); else null. */
  private readonly baseLinks: Map<LeanElement, Link> | null;
  private baseHref: string;
  private fallbackHref: string;
  private documentHref: string;
  /** The text the tags' positions are in (the job's, or a streamed document's current piece). */
  private text: string;
  /** What every position the tokenizer noted is shifted by in {@link text} (see {@link readStreamedTag}). */
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
  /** Where the attribute value being read is in the source (reused for every attribute). */
  private readonly value = new AttributeValueSource();
  // The tag and attribute being read.
  private tag: TagRecord | null = null;
  private ns: "html" | "svg" = "html";
  private attribute: string | null = null;
  private obsolete = false;

  constructor(job: Job, settings: ReadSettings, batch: LinkBatch, urls: DocumentURLs, baseLinks: Map<LeanElement, Link> | null = null) {
    this.job = job;
    this.settings = settings;
    this.validate = settings.validate;
    this.batch = batch;
    this.baseLinks = baseLinks;
    this.text = job.text;
    this.positions = job.parsed;
    this.urls = urls;
    this.baseHref = serializeURL(urls.documentBaseURL as URLRecord);
    this.fallbackHref = serializeURL(urls.fallbackBaseURL as URLRecord);
    this.documentHref = serializeURL(urls.documentURL as URLRecord);
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
   * Reads one tag of a streamed document: `text` is the piece of input the
   * tag's source is in now, `positions` where its attribute positions are,
   * and `shift` what its noted offsets are shifted by in `text`.
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
    this.tag = tag;
    this.ns = ns;
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
      this.readAttribute(name, attr, i, row);
    }
    if (ns === "html" && element.tagName === "form" && tag.adopted === null && !element.attrs.some((a) => a.name === "action" && a.namespace === undefined)) {
      this.missingFormAction();
    }
    if (element.tagName === "style" && tag.adopted === null) this.styleText();
  }

  /** The links of attribute `attr` (named `name`, of kind `row`) of the tag being read, whose positions are attribute `index` of the tag source. */
  private readAttribute(name: string, attr: Attribute, index: number, row: CatalogueEntry): void {
    const tagSource = this.tagSource;
    const value = this.value;
    value.load(this.text, tagSource.valueStart(index), tagSource.valueEnd(index), tagSource.isVerbatim(index), attr.value);
    this.attribute = name;
    this.obsolete = row.obsolete;
    // Optimisation: where the text is matters only for rewriting.
    const site: AttributeSite =
      this.batch.sites === null ? noSite : { type: "attribute", quote: tagSource.quote(index), valueStart: value.start, valueEnd: value.end, css: null };
    switch (row.kind) {
      case "single":
        return this.singleURL(site);
      case "list":
        return this.urlList(site, "list");
      case "absolute-list":
        return this.urlList(site, "absolute-list");
      case "srcset":
        return this.srcsetURLs(site);
      case "refresh":
        return this.refreshURL(site);
      case "css":
        return this.cssURLs(site);
      case "srcdoc":
        return this.srcdocDocument(index);
    }
  }

  /** A single URL: the whole value, without its leading and trailing ASCII whitespace. */
  private singleURL(site: AttributeSite): void {
    const value = this.value;
    const v = value.value;
    const name = this.attribute;
    let s = 0;
    let e = v.length;
    while (s < e && isASCIIWhitespace(v.charCodeAt(s))) s++;
    while (e > s && isASCIIWhitespace(v.charCodeAt(e - 1))) e--;
    const item = s === 0 && e === v.length ? v : v.slice(s, e);
    const valueMap = this.validate ? value.slice(s) : null;
    const enc = this.urls.outputEncoding;
    let link: Link;
    if (this.ns === "html" && name === "href" && this.tag!.element.tagName === "base") {
      // https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url —
      // "parsing the value of element's href content attribute with document's
      // fallback base URL, and document's character encoding".
      link = this.add("single", item, value.at(s), value.endAt(e), this.urls.fallbackBaseURL, this.fallbackHref, enc, site, valueMap);
      this.baseLinks?.set(this.tag!.element, link);
    } else if (this.ns === "html" && v === "" && (name === "action" || name === "formaction")) {
      // https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-submission-algorithm —
      // "If action is the empty string, let action be the URL of the form document."
      link = this.add("single", item, value.at(s), value.endAt(e), this.urls.documentURL, this.documentHref, enc, site, valueMap, this.documentHref);
    } else {
      link = this.add("single", item, value.at(s), value.endAt(e), this.urls.documentBaseURL, this.baseHref, enc, site, valueMap);
    }
    // The attribute's own text, whitespace and all: what a browser's getter returns when it does not parse.
    if (item !== v) (link as { raw: string }).raw = v;
  }

  /**
   * A list of URLs, split on ASCII whitespace (https://infra.spec.whatwg.org/#split-on-ascii-whitespace):
   * resolved against the document base URL, or, for an `absolute-list`
   * (`itemtype`), against no base.
   */
  private urlList(site: AttributeSite, kind: "list" | "absolute-list"): void {
    // Deviation: the obsolete `archive` (and `classid`, `data`) of an object
    // once resolved against its `codebase`; the standard now resolves them
    // against the document base URL, as here.
    const value = this.value;
    const v = value.value;
    const validate = this.validate;
    let i = 0;
    while (i < v.length) {
      while (i < v.length && isASCIIWhitespace(v.charCodeAt(i))) i++;
      if (i >= v.length) break;
      const s = i;
      while (i < v.length && !isASCIIWhitespace(v.charCodeAt(i))) i++;
      const item = v.slice(s, i);
      const valueMap = validate ? value.slice(s) : null;
      if (kind === "list") this.add("list", item, value.at(s), value.endAt(i), this.urls.documentBaseURL, this.baseHref, this.urls.outputEncoding, site, valueMap);
      else this.add("absolute-list", item, value.at(s), value.endAt(i), null, null, "UTF-8", site, valueMap);
    }
  }

  /** The URL of each image candidate of a srcset (https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute). */
  private srcsetURLs(site: AttributeSite): void {
    // Deviation: a candidate whose descriptors the standard's parser
    // rejects is still reported (it is a URL in the document), marked
    // `ignored: true`.
    const value = this.value;
    const validate = this.validate;
    for (const candidate of parseSrcset(value.value)) {
      const valueMap = validate ? value.slice(candidate.start) : null;
      const link = this.add("srcset", candidate.url, value.at(candidate.start), value.endAt(candidate.end), this.urls.documentBaseURL, this.baseHref, this.urls.outputEncoding, site, valueMap);
      (link as { descriptors?: readonly string[] }).descriptors = candidate.descriptors;
      if (!candidate.valid) (link as { ignored?: true }).ignored = true;
    }
  }

  /** The URL of a refresh (https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps). */
  private refreshURL(site: AttributeSite): void {
    const value = this.value;
    const v = value.value;
    const refresh = parseRefresh(v);
    if (refresh === null || refresh.url === null) return;
    const { text: item, start, end } = refresh.url;
    let refreshSite = site;
    if (this.batch.sites !== null) {
      // "Skip quotes": the quote, if any, is the code point right before the URL.
      const q = start > 0 ? v.charCodeAt(start - 1) : 0;
      const quote = q === 0x27 ? "'" : q === 0x22 ? '"' : "";
      const close = quote === "" ? -1 : v.indexOf(quote, end);
      const tail = close !== -1 && v.slice(close + 1).trim() !== "";
      refreshSite = {
        ...site,
        refresh: {
          quote,
          open: quote === "" ? null : [value.at(start - 1), value.endAt(start)],
          close: close === -1 ? null : [value.at(close), value.endAt(close + 1)],
          tail,
        },
      };
    }
    const valueMap = this.validate ? value.slice(start) : null;
    this.add("refresh", item, value.at(start), value.endAt(end), this.urls.documentBaseURL, this.baseHref, this.urls.outputEncoding, refreshSite, valueMap);
  }

  /** Each `url()` and `@import` of a `style` or presentation attribute. */
  private cssURLs(site: AttributeSite): void {
    const value = this.value;
    const v = value.value;
    const outer = this.validate ? value.slice(0) : null;
    for (const ref of findCSSURLs(v)) {
      // CSS always parses URLs as UTF-8, against the document base URL.
      const cssSite: AttributeSite = this.batch.sites === null ? noSite : { ...site, css: ref.context };
      const valueMap = outer === null ? null : cssMap(outer, v, ref);
      this.add(ref.import ? "css-import" : "css-url", ref.value, value.at(ref.start), value.endAt(ref.end), this.urls.documentBaseURL, this.baseHref, "UTF-8", cssSite, valueMap);
    }
  }

  /**
   * An iframe's srcdoc document, to read after this one (see
   * read-document.ts), or, beyond `maxSrcdocDepth`, where it is.
   *
   * https://html.spec.whatwg.org/multipage/iframe-embed-object.html#process-the-iframe-attributes —
   * an about:srcdoc document, UTF-8, whose about base URL is the container
   * document's base URL when the parser created the iframe: a `<base>`
   * that comes later in the source does not count yet.
   */
  private srcdocDocument(index: number): void {
    const value = this.value;
    if (!value.mapped) return;
    const job = this.job;
    const batch = this.batch;
    if (job.depth + 1 > this.settings.maxSrcdocDepth) {
      let start = value.start;
      for (const layer of job.layers) start = sourceStart(layer.map, start);
      batch.tooDeep.push({ depth: job.depth + 1, start });
      return;
    }
    const v = value.value;
    const srcdocMap = value.map ?? { text: v, sourceStart: value.start, sourceEnd: value.end, segments: null };
    batch.srcdocs.push({
      text: v,
      parsed: parseWithPositions(v, this.settings.scripting),
      url: ABOUT_SRCDOC,
      encoding: "UTF-8",
      aboutBaseURL: this.firstBaseSeen ? this.urls.documentBaseURL : this.urls.fallbackBaseURL,
      layers: [{ map: srcdocMap, quote: this.tagSource.quote(index) ?? "" }, ...job.layers],
      depth: job.depth + 1,
      template: job.template || this.tag!.inTemplate,
      id: batch.documents++,
    });
  }

  /** A `form` without an `action`: it submits to the document's URL. */
  private missingFormAction(): void {
    const at = this.tagSource.nameEnd;
    this.attribute = "action";
    this.obsolete = false;
    const site: MissingSite = { type: "missing" };
    const link = this.add("single", "", at, at, this.urls.documentURL, this.documentHref, this.urls.outputEncoding, site, null, this.documentHref);
    (link as { missing?: true }).missing = true;
  }

  /** Each `url()` and `@import` of a `style` element's text. */
  private styleText(): void {
    const text = this.text;
    const ns = this.ns;
    const contentStart = this.tagSource.end;
    const contentEnd = rawTextEnd(text, contentStart, "style");
    const css = text.slice(contentStart, contentEnd);
    if (ns === "svg") {
      // Deviation: in SVG, a style element's content is markup (character
      // references, CDATA sections, comments, even elements); only content
      // that is plain text, the same in the source as in the tree, is read.
      const children = this.tag!.element.childNodes;
      const only = children.length === 1 && children[0]!.nodeName === "#text" ? (children[0] as LeanText).value : children.length === 0 ? "" : null;
      if (only === null || only !== css) return;
    }
    this.attribute = null;
    this.obsolete = false;
    // The style sheet is raw text: an offset in it is `contentStart` more in the document.
    const outer = this.validate ? offsetMap(contentStart) : null;
    for (const ref of findCSSURLs(css)) {
      const valueMap = outer === null ? null : cssMap(outer, css, ref);
      const site: StyleTextSite = { type: "style-text", css: ref.context, markup: ns === "svg" };
      this.add(ref.import ? "css-import" : "css-url", ref.value, contentStart + ref.start, contentStart + ref.end, this.urls.documentBaseURL, this.baseHref, "UTF-8", site, valueMap);
    }
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
   * Optimisation: pages repeat their links, and the same value against the
   * same base and encoding is the same URL. A small direct-mapped memo
   * (SlotMemo) remembers the last value in each of its slots: a repeat is
   * not parsed again (and shares its string). A hash map would hash every
   * value, a fresh string on every page, where most values are distinct.
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

  /**
   * Adds one link of the tag and attribute being read: `value`, at
   * `[localStart, localEnd)` of this document's text, resolved against
   * `base` (null: no base) with `encoding`, or with `fixedURL` as its URL.
   * With `validate`, `valueMap` says where the value's code units are in
   * this document's text (null: nowhere more precise than the link).
   */
  private add(
    kind: LinkKind,
    value: string,
    localStart: number,
    localEnd: number,
    base: Readonly<URLRecord> | null,
    baseHref: string | null,
    encoding: OutputEncodingName,
    site: AttributeSite | StyleTextSite | MissingSite,
    valueMap: ValueMap | null,
    fixedURL?: string,
  ): Link {
    const job = this.job;
    const tag = this.tag!;
    // Lift the range through the srcdoc levels to the top document's source.
    let start = localStart;
    let end = localEnd;
    for (const layer of job.layers) {
      const s = sourceStart(layer.map, start);
      end = end === start ? s : sourceEnd(layer.map, end);
      start = s;
    }
    const url = fixedURL !== undefined ? fixedURL : this.resolve(value, base, encoding);
    // Deviation: an element in template contents belongs to the template's
    // inert document, whose URL is about:blank, so a browser's `a.href` there
    // does not resolve a relative URL. Its links are resolved against this
    // document's base URL, where they will be once the template is used, and
    // marked `template: true`.
    const link: Link = {
      element: tag.element.tagName,
      namespace: this.ns,
      attribute: this.attribute,
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
      obsolete: this.obsolete,
      srcdoc: job.depth,
      template: job.template || tag.inTemplate,
    };
    if (this.ns === "html" && tag.element.tagName === "link") (link as { rel?: string | null }).rel = relOf(tag.element);
    if (this.validate) {
      // An empty or missing form action is never parsed ("If action is the
      // empty string, let action be the URL of the form document"): no errors.
      // Optimisation: a value of the common clean shapes is not parsed again to find no errors (see withoutValidationErrors).
      // Bounded: a value of millions of errors keeps the first MAX_ERRORS_PER_VALUE, a document the first
      // MAX_ERRORS_PER_DOCUMENT, and counts the rest.
      const maxErrors = Math.min(MAX_ERRORS_PER_VALUE, MAX_ERRORS_PER_DOCUMENT - this.batch.errorsKept);
      const validated = fixedURL !== undefined || withoutValidationErrors(value, base) ? null : validateURL(value, { base: (base as URLRecord | null) ?? undefined, encoding, maxErrors });
      if (validated !== null) this.batch.errorsKept += validated.errors.length;
      (link as { errors?: readonly LinkValidationError[] }).errors = placeValidationErrors(validated?.errors ?? [], value.length, valueMap, job.layers, start, end);
      if (validated?.omitted !== undefined) (link as { errorsOmitted?: number }).errorsOmitted = validated.omitted;
    }
    this.batch.links.push(link);
    const sites = this.batch.sites;
    if (sites !== null) {
      const attributeKey = job.id * 536870912 + (site.type === "attribute" ? site.valueStart : localStart);
      sites.push({ link, localStart, localEnd, site, layers: job.layers, attributeKey });
    }
    return link;
  }
}
