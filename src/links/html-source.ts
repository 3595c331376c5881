/**
 * Parsing HTML with the source positions that link extraction needs, and
 * nothing more: parse5's parser (the HTML Standard's tokenizer and tree
 * construction) over a lean tree, with the start offset of every start tag
 * that carries attributes, and a scanner that finds each attribute's value
 * in the source from there.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html
 *
 * Optimisation: parse5's own `sourceCodeLocationInfo` records a location
 * object for every token, every attribute and every text run, and costs
 * 1.3–1.6x the parse. We need the positions of a few attributes only, so
 * the tree adapter notes where each start tag that carries a URL ends (the
 * tokenizer is at its `>` when the element is made), {@link findStartTag}
 * finds its `<`, and {@link scanStartTag} re-reads just that tag, following
 * the tokenizer's attribute states exactly. parse5's tokenizer is used as
 * it is: a subclass would make parse5's hot code see two classes, which
 * slows every parse in the process (ours and, say, jsdom's) by up to 2x. The tree keeps elements only:
 * text is dropped (except inside an SVG `style`, whose CSS we read) and so
 * are comments, which makes the parse itself cheaper than parse5's default
 * tree. The tree has parse5's default shapes (`nodeName`, `tagName`,
 * `attrs`, `namespaceURI`, `childNodes`, `parentNode`, `content`), so the
 * document-base layer's parse5 adapter walks it as it is.
 *
 * @module
 */

import { Parser, Token, type DefaultTreeAdapterMap, type TreeAdapter } from "parse5";
import { cssAttributeNames, urlAttributeNames } from "./catalogue.ts";
import { decodeAttributeValue } from "./character-references.ts";
import { mayContainCSSURL } from "./css-urls.ts";

/** A parse5 attribute (`name`, `value`, and `namespace`/`prefix` for adjusted foreign attributes). */
export type Attribute = Token.Attribute;

/** An element of the lean tree (parse5's default element shape, without source locations). */
export interface LeanElement {
  nodeName: string;
  tagName: string;
  attrs: Attribute[];
  namespaceURI: string;
  childNodes: LeanChild[];
  parentNode: LeanParent | null;
  /** The template contents, for an HTML `template`. */
  content?: LeanFragment;
}

/** A text node, kept only inside an SVG `style` element. */
export interface LeanText {
  nodeName: "#text";
  value: string;
  parentNode: LeanParent | null;
}

/** The document of the lean tree. */
export interface LeanDocument {
  nodeName: "#document";
  mode: string;
  childNodes: LeanChild[];
}

/** A document fragment (template contents). */
export interface LeanFragment {
  nodeName: "#document-fragment";
  childNodes: LeanChild[];
  parentNode?: null;
}

export type LeanParent = LeanDocument | LeanFragment | LeanElement;
export type LeanChild = LeanElement | LeanText;

/**
 * One start tag the parser turned into an element (or whose attributes it
 * added to an existing `html` or `body` element), in source order.
 */
export interface TagRecord {
  readonly element: LeanElement;
  /** The offset just after the tag's `>` in the source (see {@link findStartTag} for its `<`). */
  readonly tagEnd: number;
  /**
   * The token's attributes, in source order without duplicates (the
   * tokenizer drops later ones): the first `attrCount` of this list (for an
   * ordinary tag it is the element's own list, to which a second `<html>`
   * or `<body>` tag may add).
   */
  readonly tokenAttrs: readonly Attribute[];
  readonly attrCount: number;
  /**
   * For a second `<html>` or `<body>` tag: the attributes that the element
   * adopted (the others were already there). Null for an ordinary tag.
   */
  readonly adopted: ReadonlySet<Attribute> | null;
  /** Whether the element is in template contents. */
  readonly inTemplate: boolean;
}

/** The result of {@link parseWithPositions}. */
export interface ParsedSource {
  readonly document: LeanDocument;
  /** Every start tag with attributes, every `form` and every `style`, in source order. */
  readonly tags: readonly TagRecord[];
  /** Whether the parser made an HTML `base` element with an `href` (wherever it is). */
  readonly hasBaseWithHref: boolean;
}

const HTML_NS = "http://www.w3.org/1999/xhtml";
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Whether an element needs a record: it has an attribute that may hold a
 * URL (by name; the catalogue decides later), or it is a `form` (whose
 * missing action is a link), a `style` (its text), or a `meta` (a charset
 * declaration can change a byte document's encoding).
 */
function mayHaveLinks(tagName: string, attrs: readonly Attribute[]): boolean {
  if (tagName === "form" || tagName === "style" || tagName === "meta") return true;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    if (!urlAttributeNames.has(attr.name)) continue;
    // A style or presentation attribute without a URL is no link (the common case).
    if (cssAttributeNames.has(attr.name) && !mayContainCSSURL(attr.value)) continue;
    return true;
  }
  return false;
}

const dummyComment = { nodeName: "#comment", data: "", parentNode: null };

/** The state of the parse in progress (see {@link parseWithPositions}). */
interface LeanParse {
  readonly tags: TagRecord[];
  parser: Parser<DefaultTreeAdapterMap> | null;
  hasBaseWithHref: boolean;
  /** The attribute list of the last element recorded. */
  recordedAttrs: Attribute[] | null;
}

/**
 * The parse in progress. Parsing is synchronous and the adapter never
 * calls out, so one slot serves; {@link parseWithPositions} saves and
 * restores it all the same.
 */
let current: LeanParse = { tags: [], parser: null, hasBaseWithHref: false, recordedAttrs: null };

/** The attribute list of the start tag the parser is processing, or null. */
function startTagAttrs(parser: Parser<DefaultTreeAdapterMap>): Attribute[] | null {
  const token = (parser as unknown as { currentToken: Token.Token | null }).currentToken;
  return token !== null && token.type === Token.TokenType.START_TAG ? token.attrs : null;
}

function appendChild(parent: LeanParent, node: LeanChild | typeof dummyComment): void {
  if (node === dummyComment) return;
  const child = node as LeanChild;
  parent.childNodes.push(child);
  child.parentNode = parent;
}

function detachNode(node: LeanChild): void {
  const parent = node.parentNode;
  if (parent === null) return;
  const siblings = parent.childNodes;
  // The parser mostly detaches the last child (adoption agency, foster parenting).
  const i = siblings[siblings.length - 1] === node ? siblings.length - 1 : siblings.indexOf(node);
  if (i !== -1) siblings.splice(i, 1);
  node.parentNode = null;
}

function insertText(parent: LeanParent, text: string, before: LeanChild | null): void {
  // Only an SVG style element's text is kept (its CSS is read from the tree).
  if (parent.nodeName !== "style" || (parent as LeanElement).namespaceURI !== SVG_NS) return;
  const siblings = parent.childNodes;
  const i = before === null ? siblings.length : siblings.indexOf(before);
  const prev = siblings[i - 1];
  if (prev !== undefined && prev.nodeName === "#text") {
    (prev as LeanText).value += text;
    return;
  }
  const node: LeanText = { nodeName: "#text", value: text, parentNode: parent };
  siblings.splice(i, 0, node);
}

/**
 * The lean tree adapter: one object for every parse, its records going to
 * the parse in progress (`current`).
 *
 * Optimisation: one adapter with fixed functions, not one made per parse:
 * parse5 calls the adapter from its hottest code, and a call site that
 * sees the same function every time can inline it, where closures made
 * per parse are new functions to it each time.
 */
const leanTreeAdapter = {
  createDocument(): LeanDocument {
    return { nodeName: "#document", mode: "no-quirks", childNodes: [] };
  },
  createDocumentFragment(): LeanFragment {
    return { nodeName: "#document-fragment", childNodes: [] };
  },
  createElement(tagName: string, namespaceURI: string, attrs: Attribute[]): LeanElement {
    const element: LeanElement = { nodeName: tagName, tagName, attrs, namespaceURI, childNodes: [], parentNode: null };
    const parse = current;
    const parser = parse.parser!;
    // Only the element of the start tag being processed is recorded: the
    // adoption agency and the reconstruction of active formatting
    // elements make clones from an earlier token's attribute list, and
    // implied elements (html, head, body, tbody …) have a list of their own.
    if (attrs === parse.recordedAttrs || attrs !== startTagAttrs(parser) || !mayHaveLinks(tagName, attrs)) return element;
    parse.recordedAttrs = attrs;
    if (tagName === "base" && namespaceURI === HTML_NS && attrs.some((a) => a.name === "href" && a.namespace === undefined)) parse.hasBaseWithHref = true;
    // The tokenizer emits a tag on its ">", and the parser makes the element then.
    // Optimisation: the parser's own count of open templates ("isInTemplate"
    // as parse5 gives it to onElementCreated), not that hook, for which
    // parse5 makes an object per element.
    const record: TagRecord = {
      element,
      tagEnd: parser.tokenizer.preprocessor.offset + 1,
      tokenAttrs: attrs,
      attrCount: attrs.length,
      adopted: null,
      inTemplate: parser.openElements.tmplCount > 0,
    };
    parse.tags.push(record);
    return element;
  },
  createCommentNode(): typeof dummyComment {
    return dummyComment;
  },
  createTextNode(value: string): LeanText {
    return { nodeName: "#text", value, parentNode: null };
  },
  appendChild,
  insertBefore(parent: LeanParent, node: LeanChild, reference: LeanChild): void {
    const siblings = parent.childNodes;
    const i = siblings.indexOf(reference);
    siblings.splice(i === -1 ? siblings.length : i, 0, node);
    node.parentNode = parent;
  },
  setTemplateContent(template: LeanElement, content: LeanFragment): void {
    template.content = content;
  },
  getTemplateContent(template: LeanElement): LeanFragment {
    return template.content!;
  },
  setDocumentType(): void {},
  setDocumentMode(document: LeanDocument, mode: string): void {
    document.mode = mode;
  },
  getDocumentMode(document: LeanDocument): string {
    return document.mode;
  },
  detachNode,
  insertText(parent: LeanParent, text: string): void {
    insertText(parent, text, null);
  },
  insertTextBefore(parent: LeanParent, text: string, reference: LeanChild): void {
    insertText(parent, text, reference);
  },
  adoptAttributes(recipient: LeanElement, attrs: Attribute[]): void {
    const present = new Set(recipient.attrs.map((a) => a.name));
    const adopted = new Set<Attribute>();
    for (const attr of attrs) {
      if (!present.has(attr.name)) {
        recipient.attrs.push(attr);
        adopted.add(attr);
      }
    }
    if (adopted.size > 0) {
      const parse = current;
      parse.tags.push({ element: recipient, tagEnd: parse.parser!.tokenizer.preprocessor.offset + 1, tokenAttrs: attrs, attrCount: attrs.length, adopted, inTemplate: false });
    }
  },
  getFirstChild(node: LeanParent): LeanChild | null {
    return node.childNodes[0] ?? null;
  },
  getChildNodes(node: LeanParent): LeanChild[] {
    return node.childNodes;
  },
  getParentNode(node: LeanChild): LeanParent | null {
    return node.parentNode;
  },
  getAttrList(element: LeanElement): Attribute[] {
    return element.attrs;
  },
  getTagName(element: LeanElement): string {
    return element.tagName;
  },
  getNamespaceURI(element: LeanElement): string {
    return element.namespaceURI;
  },
  getTextNodeContent(node: LeanText): string {
    return node.value;
  },
  getCommentNodeContent(): string {
    return "";
  },
  getDocumentTypeNodeName(): string {
    return "";
  },
  getDocumentTypeNodePublicId(): string {
    return "";
  },
  getDocumentTypeNodeSystemId(): string {
    return "";
  },
  isTextNode(node: { nodeName: string }): boolean {
    return node.nodeName === "#text";
  },
  isCommentNode(node: { nodeName: string }): boolean {
    return node.nodeName === "#comment";
  },
  isDocumentTypeNode(node: { nodeName: string }): boolean {
    return node.nodeName === "#documentType";
  },
  isElementNode(node: { tagName?: string }): boolean {
    return node.tagName !== undefined;
  },
  // No source locations are asked for, so these are never called with one.
  setNodeSourceCodeLocation(): void {},
  getNodeSourceCodeLocation(): undefined {
    return undefined;
  },
  updateNodeSourceCodeLocation(): void {},
} as unknown as TreeAdapter<DefaultTreeAdapterMap>;

/** The parser options for each scripting flag (one object each, made once). */
const parserOptions = {
  scripting: { treeAdapter: leanTreeAdapter, scriptingEnabled: true },
  noScripting: { treeAdapter: leanTreeAdapter, scriptingEnabled: false },
};

/**
 * Parses `html` as a whole document (https://html.spec.whatwg.org/multipage/parsing.html#parsing)
 * into a lean tree, and lists the start tags that may carry links, with
 * where each begins. With `scripting` (the default, as in a browser),
 * `noscript` content is text; without, it is markup.
 *
 * @example
 * ```ts
 * const { tags } = parseWithPositions('<p><a href="x">t</a>');
 * tags.map((t) => [t.element.tagName, t.tagEnd]); // [["a", 15]]
 * ```
 *
 * Never throws for bad input: the HTML parser accepts anything. Nesting is
 * not limited by the call stack: parse5's stack of open elements is an
 * array, and nothing here recurses into the tree.
 */
export function parseWithPositions(html: string, scripting = true): ParsedSource {
  const outer = current;
  const parse: LeanParse = { tags: [], parser: null, hasBaseWithHref: false, recordedAttrs: null };
  current = parse;
  try {
    const parser = new Parser<DefaultTreeAdapterMap>(scripting ? parserOptions.scripting : parserOptions.noScripting);
    parse.parser = parser;
    parser.tokenizer.write(html, true);
    return { document: parser.document as unknown as LeanDocument, tags: parse.tags, hasBaseWithHref: parse.hasBaseWithHref };
  } finally {
    current = outer;
  }
}

// --- Start tags in the source --------------------------------------------------

/** How an attribute's value is written: no value, unquoted, `"…"` or `'…'`. */
const NO_VALUE = 0;
const UNQUOTED = 1;
const DOUBLE_QUOTED = 2;
const SINGLE_QUOTED = 3;
type ValueQuote = typeof NO_VALUE | typeof UNQUOTED | typeof DOUBLE_QUOTED | typeof SINGLE_QUOTED;

const FIELDS = 5;
/** A flag beside the quote: the source text is the value (see `isVerbatim`). */
const VERBATIM = 4;

/**
 * A start tag read from the source by {@link scanStartTag}: its
 * attributes' positions (duplicates dropped, as the tokenizer drops them),
 * where its name ends and where it ends.
 *
 * Optimisation: the positions live in one reusable `Int32Array` and names
 * are compared in place, never sliced out: every tag that carries a link
 * is read again this way, and on a large page the objects and strings of
 * a per-attribute record cost more than the scan.
 *
 * @example
 * ```ts
 * const scan = new StartTagScan();
 * scanStartTag("<a HREF='x' href=y title>", 0, scan);
 * [scan.count, scan.valueStart(0), scan.valueEnd(0), scan.quote(0), scan.end]; // [2, 9, 10, "'", 25]
 * ```
 */
export class StartTagScan {
  /** The number of attributes. */
  count = 0;
  /** The offset just after the tag's name. */
  nameEnd = 0;
  /** The offset just after the closing `>` (the input's length when it ends first). */
  end = 0;
  private data = new Int32Array(FIELDS * 16);

  /** Where attribute `i`'s name starts and ends in the source. */
  nameStart(i: number): number {
    return this.data[i * FIELDS]!;
  }
  attributeNameEnd(i: number): number {
    return this.data[i * FIELDS + 1]!;
  }
  /** Where attribute `i`'s value text starts and ends (inside the quotes; both at the name's end when there is no value). */
  valueStart(i: number): number {
    return this.data[i * FIELDS + 2]!;
  }
  valueEnd(i: number): number {
    return this.data[i * FIELDS + 3]!;
  }
  /** `"` or `'` for a quoted value, "" for an unquoted one, null for no value. */
  quote(i: number): '"' | "'" | "" | null {
    const q = this.data[i * FIELDS + 4]! & 3;
    return q === DOUBLE_QUOTED ? '"' : q === SINGLE_QUOTED ? "'" : q === UNQUOTED ? "" : null;
  }

  /**
   * Whether attribute `i`'s source text is its value as it is (no
   * character reference, CR or NUL in it), as {@link findStartTag} found
   * when it checked the tag.
   */
  isVerbatim(i: number): boolean {
    return (this.data[i * FIELDS + 4]! & VERBATIM) !== 0;
  }
  markVerbatim(i: number): void {
    this.data[i * FIELDS + 4]! |= VERBATIM;
  }

  /** Starts a new scan. */
  reset(nameEnd: number): void {
    this.count = 0;
    this.nameEnd = nameEnd;
    this.end = 0;
  }

  /**
   * Adds an attribute unless the tag has one of the same name already:
   * "If there is already an attribute on the token with the exact same
   * name, then this is a duplicate-attribute parse error and the new
   * attribute must be removed from the token."
   */
  push(html: string, nameStart: number, nameEnd: number, valueStart: number, valueEnd: number, quote: ValueQuote): void {
    const data = this.data;
    for (let k = 0; k < this.count; k++) {
      if (sameTokenName(html, data[k * FIELDS]!, data[k * FIELDS + 1]!, nameStart, nameEnd)) return;
    }
    let at = this.count * FIELDS;
    if (at + FIELDS > data.length) {
      const grown = new Int32Array(data.length * 2);
      grown.set(data);
      this.data = grown;
    }
    const d = this.data;
    d[at++] = nameStart;
    d[at++] = nameEnd;
    d[at++] = valueStart;
    d[at++] = valueEnd;
    d[at] = quote;
    this.count++;
  }

  /** Whether attribute `i`'s name, as the tokenizer makes it, is `name` with ASCII letters in any case. */
  nameIs(html: string, i: number, name: string): boolean {
    return tokenNameIs(html, this.data[i * FIELDS]!, this.data[i * FIELDS + 1]!, name);
  }
}

function isTagWhitespace(c: number): boolean {
  // TAB, LF, FF, SPACE, and CR (which input preprocessing turns into LF).
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/**
 * A code unit of a tag or attribute name as the tokenizer makes it: ASCII
 * upper alpha lowered ("append the lowercase version"), NUL replaced by
 * U+FFFD, anything else as it is.
 */
function tokenNameUnit(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c + 0x20;
  return c === 0 ? 0xfffd : c;
}

/** Whether two names in the source are the same name once the tokenizer has made them. */
function sameTokenName(html: string, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) {
    if (tokenNameUnit(html.charCodeAt(aStart + i)) !== tokenNameUnit(html.charCodeAt(bStart + i))) return false;
  }
  return true;
}

/** Whether the name at `[start, end)` of the source, once the tokenizer has made it, is `name` with ASCII letters in any case. */
function tokenNameIs(html: string, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) {
    if (tokenNameUnit(html.charCodeAt(start + i)) !== tokenNameUnit(name.charCodeAt(i))) return false;
  }
  return true;
}

/**
 * Reads the start tag whose `<` is at `tagStart` into `scan`, following
 * the tokenizer's states from the tag open state to the emission of the
 * tag (https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state
 * and the attribute states after it). Character references never change
 * where a value ends (a reference cannot contain a quote, whitespace or
 * `>`), so the values are found without decoding them.
 *
 * @example
 * ```ts
 * const scan = new StartTagScan();
 * scanStartTag("<a HREF='x' href=y title>", 0, scan);
 * // scan.count 2 (the second href is a duplicate); attribute 0: name [3, 7),
 * // value [9, 10) quoted "'"; attribute 1 ("title"): no value; scan.end 25
 * ```
 */
export function scanStartTag(html: string, tagStart: number, scan: StartTagScan): void {
  const n = html.length;
  let i = tagStart + 1;
  // Tag name state.
  while (i < n) {
    const c = html.charCodeAt(i);
    if (isTagWhitespace(c) || c === 0x2f || c === 0x3e) break;
    i++;
  }
  scan.reset(i);
  // Before attribute name state (and the states after an attribute).
  for (;;) {
    while (i < n && isTagWhitespace(html.charCodeAt(i))) i++;
    if (i >= n) {
      scan.end = n;
      return;
    }
    let c = html.charCodeAt(i);
    if (c === 0x3e) {
      scan.end = i + 1;
      return;
    }
    if (c === 0x2f) {
      // Self-closing start tag state: "/" then ">" ends the tag; anything
      // else is reconsumed in the before attribute name state.
      i++;
      if (i < n && html.charCodeAt(i) === 0x3e) {
        scan.end = i + 1;
        return;
      }
      continue;
    }
    // Attribute name state ("=" as the first character is part of the name).
    const nameStart = i;
    i++;
    while (i < n) {
      c = html.charCodeAt(i);
      if (isTagWhitespace(c) || c === 0x2f || c === 0x3e || c === 0x3d) break;
      i++;
    }
    const nameEnd = i;
    // After attribute name state.
    let j = i;
    while (j < n && isTagWhitespace(html.charCodeAt(j))) j++;
    if (j >= n || html.charCodeAt(j) !== 0x3d) {
      scan.push(html, nameStart, nameEnd, nameEnd, nameEnd, NO_VALUE);
      i = j;
      continue;
    }
    // Before attribute value state.
    j++;
    while (j < n && isTagWhitespace(html.charCodeAt(j))) j++;
    if (j >= n) {
      scan.push(html, nameStart, nameEnd, j, j, UNQUOTED);
      scan.end = n;
      return;
    }
    c = html.charCodeAt(j);
    if (c === 0x22 || c === 0x27) {
      const close = html.indexOf(c === 0x22 ? '"' : "'", j + 1);
      const valueEnd = close === -1 ? n : close;
      scan.push(html, nameStart, nameEnd, j + 1, valueEnd, c === 0x22 ? DOUBLE_QUOTED : SINGLE_QUOTED);
      // After attribute value (quoted) state: anything but whitespace, "/"
      // or ">" is reconsumed in the before attribute name state.
      i = close === -1 ? n : close + 1;
      continue;
    }
    if (c === 0x3e) {
      // Missing attribute value: the tag ends here with an empty value.
      scan.push(html, nameStart, nameEnd, j, j, UNQUOTED);
      scan.end = j + 1;
      return;
    }
    // Attribute value (unquoted) state.
    const valueStart = j;
    while (j < n) {
      c = html.charCodeAt(j);
      if (isTagWhitespace(c) || c === 0x3e) break;
      j++;
    }
    scan.push(html, nameStart, nameEnd, valueStart, j, UNQUOTED);
    i = j;
  }
}

/**
 * Finds the `<` of the start tag that ends at `tagEnd` and that the
 * tokenizer read as `record`: the nearest `<` before it whose tag, read
 * again by {@link scanStartTag}, ends there with the same name and the same
 * attributes (a `<` inside an attribute value or a tag name is not it).
 * `floor` is where the previous recorded tag ended. Returns that offset,
 * with the tag read into `scan`, or -1 if there is no such tag within the
 * search limits (only adversarial input, with thousands of `<` in one tag,
 * gets there).
 *
 * @example
 * ```ts
 * const html = '<p title="a<b"><a href=x>';
 * // (records come from parseWithPositions)
 * const record = { tagEnd: 26, element: { tagName: "a" }, tokenAttrs: [{ name: "href", value: "x" }], attrCount: 1 } as never;
 * findStartTag(html, record, 0, new StartTagScan()); // 16
 * ```
 */
export function findStartTag(html: string, record: TagRecord, floor: number, scan: StartTagScan): number {
  const end = record.tagEnd;
  // Backward: the nearest "<" is the tag's own unless its name or attributes hold one.
  let c = html.lastIndexOf("<", end - 1);
  for (let tries = 0; c >= floor && tries < 64; tries++) {
    if (isStartTagOf(html, c, record, scan)) return c;
    c = c === 0 ? -1 : html.lastIndexOf("<", c - 1);
  }
  // Forward from the previous tag: every "<" in between is a tag, text or a comment.
  c = html.indexOf("<", floor);
  for (let tries = 0; c !== -1 && c < end && tries < 4096; tries++) {
    if (isStartTagOf(html, c, record, scan)) return c;
    c = html.indexOf("<", c + 1);
  }
  return -1;
}

/**
 * Whether `html[start, end)` is `value`, code unit for code unit.
 *
 * Optimisation: a short text is compared in place; a long one as a slice,
 * because string equality compares flat strings with memcmp, several times
 * faster than `startsWith` (attribute values can be a third of a page).
 */
function sourceIs(html: string, start: number, end: number, value: string): boolean {
  const n = value.length;
  if (end - start !== n) return false;
  if (n < 16) {
    for (let k = 0; k < n; k++) if (html.charCodeAt(start + k) !== value.charCodeAt(k)) return false;
    return true;
  }
  return html.slice(start, end) === value;
}

function isASCIIAlpha(c: number): boolean {
  return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
}

/** Whether the start tag at `start` is the one `record` was made from; reads it into `scan`. */
function isStartTagOf(html: string, start: number, record: TagRecord, scan: StartTagScan): boolean {
  // Tag open state: a start tag begins with "<" and an ASCII letter.
  if (!isASCIIAlpha(html.charCodeAt(start + 1))) return false;
  scanStartTag(html, start, scan);
  if (scan.end !== record.tagEnd || scan.count !== record.attrCount) return false;
  const tagName = record.element.tagName;
  // The parser renames <image> to img, and adjusts the case of SVG names.
  if (!tokenNameIs(html, start + 1, scan.nameEnd, tagName) && !(tagName === "img" && tokenNameIs(html, start + 1, scan.nameEnd, "image"))) return false;
  const attrs = record.tokenAttrs;
  for (let i = 0; i < record.attrCount; i++) {
    const attr = attrs[i]!;
    if (attr.prefix !== undefined && attr.prefix !== "") {
      // An adjusted foreign attribute ("xlink:href" is prefix "xlink", name "href").
      const nameStart = scan.nameStart(i);
      const colon = nameStart + attr.prefix.length;
      if (
        scan.attributeNameEnd(i) !== colon + 1 + attr.name.length ||
        html.charCodeAt(colon) !== 0x3a ||
        !tokenNameIs(html, nameStart, colon, attr.prefix) ||
        !tokenNameIs(html, colon + 1, scan.attributeNameEnd(i), attr.name)
      ) {
        return false;
      }
    } else if (!scan.nameIs(html, i, attr.name)) {
      return false;
    }
    const value = attr.value;
    const vs = scan.valueStart(i);
    const ve = scan.valueEnd(i);
    if (sourceIs(html, vs, ve, value)) {
      scan.markVerbatim(i);
      continue;
    }
    if (decodeAttributeValue(html, vs, ve).text !== value) return false;
  }
  return true;
}

/**
 * The end of the text of a raw text element (`style`) whose start tag ends
 * at `contentStart`: the start of the first `</style` followed by
 * whitespace, `/` or `>` (an "appropriate end tag token",
 * https://html.spec.whatwg.org/multipage/parsing.html#rawtext-end-tag-name-state),
 * or the end of the input.
 *
 * @example
 * ```ts
 * rawTextEnd("<style>a</styles></STYLE >", 7, "style"); // 17
 * ```
 */
export function rawTextEnd(html: string, contentStart: number, tagName: string): number {
  const n = html.length;
  let i = contentStart;
  for (;;) {
    i = html.indexOf("</", i);
    if (i === -1) return n;
    const nameEnd = i + 2 + tagName.length;
    if (nameEnd <= n && html.slice(i + 2, nameEnd).toLowerCase() === tagName) {
      if (nameEnd === n) return n; // "</style" then EOF: the text ends at EOF with "</style" in it.
      const c = html.charCodeAt(nameEnd);
      if (isTagWhitespace(c) || c === 0x2f || c === 0x3e) return i;
    }
    i += 2;
  }
}

/**
 * Objects kept alive for the life of the module: a parser that has parsed
 * a small document, and a start tag scan.
 *
 * Optimisation: V8 holds an object shape (a "map") weakly, through the
 * objects that have it; code optimised for that shape embeds it, and is
 * thrown away ("embedded weak objects cleared") by the first full garbage
 * collection after the last such object dies. Every parse5 parser, its
 * tokenizer and its stacks die with their parse, so each full collection
 * sent parse5's hottest code back to the interpreter, and the next parse
 * or two ran up to twice as slow (measured on the New Zealand page: 43 ms
 * after a collection, 27 ms once optimised again). A parser that lives on
 * keeps those shapes, and the optimised code, alive. The same holds for
 * every parse5 parser in the process (parse5's own `parse`, jsdom's,
 * cheerio's), which share the parser classes.
 *
 * @example
 * ```ts
 * retainedShapes.length; // 2: a parser that has parsed a small document, and its state
 * ```
 */
export const retainedShapes: readonly object[] = (() => {
  const parse: LeanParse = { tags: [], parser: null, hasBaseWithHref: false, recordedAttrs: null };
  const outer = current;
  current = parse;
  try {
    const parser = new Parser<DefaultTreeAdapterMap>(parserOptions.scripting);
    parse.parser = parser;
    parser.tokenizer.write(
      '<!doctype html><html><head><title>t</title><style>a{}</style></head><body><p class=c><a href="x" title=\'y\'>z</a><b>b<i>i</b>i</i>' +
        "<table><tr><td>x</td></tr></table><form><input></form><svg><a href=s /></svg><template><img src=i></template></body></html>",
      true,
    );
    return [parser, parse, new StartTagScan()];
  } finally {
    current = outer;
  }
})();
