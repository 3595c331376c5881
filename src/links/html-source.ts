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

/** Builds the lean tree adapter for one parse; its records go to `tags`. */
/** What the tree adapter asks the parser about the token being processed. */
interface ParserState {
  /** The attribute list of the start tag being processed, or null. */
  startTagAttrs(): Attribute[] | null;
  /** The offset just after the `>` of the tag being processed. */
  tagEnd(): number;
  /** Whether a template is open (the element goes in template contents). */
  inTemplate(): boolean;
  sawBase(): void;
}

function leanTreeAdapter(tags: TagRecord[], state: ParserState): TreeAdapter<DefaultTreeAdapterMap> {
  /** The attribute list of the last element recorded. */
  let recordedAttrs: Attribute[] | null = null;

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

  const adapter = {
    createDocument(): LeanDocument {
      return { nodeName: "#document", mode: "no-quirks", childNodes: [] };
    },
    createDocumentFragment(): LeanFragment {
      return { nodeName: "#document-fragment", childNodes: [] };
    },
    createElement(tagName: string, namespaceURI: string, attrs: Attribute[]): LeanElement {
      const element: LeanElement = { nodeName: tagName, tagName, attrs, namespaceURI, childNodes: [], parentNode: null };
      // Only the element of the start tag being processed is recorded: the
      // adoption agency and the reconstruction of active formatting
      // elements make clones from an earlier token's attribute list, and
      // implied elements (html, head, body, tbody …) have a list of their own.
      if (attrs === recordedAttrs || attrs !== state.startTagAttrs() || !mayHaveLinks(tagName, attrs)) return element;
      recordedAttrs = attrs;
      if (tagName === "base" && namespaceURI === HTML_NS && attrs.some((a) => a.name === "href" && a.namespace === undefined)) state.sawBase();
      // Optimisation: the parser's own count of open templates, not an
      // onElementCreated hook (for which parse5 makes an object per element).
      const record: TagRecord = { element, tagEnd: state.tagEnd(), tokenAttrs: attrs, attrCount: attrs.length, adopted: null, inTemplate: state.inTemplate() };
      tags.push(record);
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
        tags.push({ element: recipient, tagEnd: state.tagEnd(), tokenAttrs: attrs, attrCount: attrs.length, adopted, inTemplate: false });
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
  };
  return adapter as unknown as TreeAdapter<DefaultTreeAdapterMap>;
}

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
  const tags: TagRecord[] = [];
  let hasBaseWithHref = false;
  let parser: Parser<DefaultTreeAdapterMap> | null = null;
  const state: ParserState = {
    startTagAttrs() {
      const token = (parser as unknown as { currentToken: Token.Token | null }).currentToken;
      return token !== null && token.type === Token.TokenType.START_TAG ? token.attrs : null;
    },
    // The tokenizer emits a tag on its ">", and the parser makes the element then.
    tagEnd: () => parser!.tokenizer.preprocessor.offset + 1,
    // "isInTemplate" as parse5 gives it to onElementCreated.
    inTemplate: () => parser!.openElements.tmplCount > 0,
    sawBase() {
      hasBaseWithHref = true;
    },
  };
  parser = new Parser<DefaultTreeAdapterMap>({ treeAdapter: leanTreeAdapter(tags, state), scriptingEnabled: scripting });
  parser.tokenizer.write(html, true);
  return { document: parser.document as unknown as LeanDocument, tags, hasBaseWithHref };
}

// --- Start tags in the source --------------------------------------------------

/** One attribute of a start tag in the source. */
export interface SourceAttribute {
  /** The name as the tokenizer makes it (ASCII lower case, NUL → U+FFFD). */
  readonly name: string;
  readonly nameStart: number;
  /** Where the value's text starts and ends (inside the quotes); both at the name's end when there is no value. */
  readonly valueStart: number;
  readonly valueEnd: number;
  /** `"` or `'` for a quoted value, "" for an unquoted one, null when the attribute has no value. */
  readonly quote: '"' | "'" | "" | null;
}

/** A start tag in the source: its attributes (duplicates dropped) and where it ends. */
export interface SourceStartTag {
  /** The attributes, all of them or (when `end` is -1) the first ones asked for. */
  readonly attributes: readonly SourceAttribute[];
  /** The offset just after the tag's name. */
  readonly nameEnd: number;
  /** The offset just after the closing `>`, or -1 when the scan stopped early. */
  readonly end: number;
}

function isTagWhitespace(c: number): boolean {
  // TAB, LF, FF, SPACE, and CR (which input preprocessing turns into LF).
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/**
 * Reads the start tag whose `<` is at `tagStart`, following the tokenizer's
 * states from the tag open state to the emission of the tag
 * (https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state and
 * the attribute states after it). Character references never change where
 * a value ends (a reference cannot contain a quote, whitespace or `>`), so
 * the values are found without decoding them. With `limit`, it stops after
 * that many attributes (`end` is then -1).
 *
 * @example
 * ```ts
 * scanStartTag("<a HREF='x' href=y title>", 0);
 * // { attributes: [{ name: "href", nameStart: 3, valueStart: 9, valueEnd: 10, quote: "'" },
 * //                { name: "title", nameStart: 19, valueStart: 24, valueEnd: 24, quote: null }],
 * //   nameEnd: 2, end: 25 }
 * ```
 */
export function scanStartTag(html: string, tagStart: number, limit = Infinity): SourceStartTag {
  const n = html.length;
  let i = tagStart + 1;
  // Tag name state.
  while (i < n) {
    const c = html.charCodeAt(i);
    if (isTagWhitespace(c) || c === 0x2f || c === 0x3e) break;
    i++;
  }
  const nameEnd = i;
  const attributes: SourceAttribute[] = [];
  const push = (attr: SourceAttribute): void => {
    // "If there is already an attribute on the token with the exact same
    // name, then this is a duplicate-attribute parse error and the new
    // attribute must be removed from the token."
    for (let k = 0; k < attributes.length; k++) if (attributes[k]!.name === attr.name) return;
    attributes.push(attr);
  };
  // Before attribute name state (and the states after an attribute).
  for (;;) {
    // Optimisation: stop once the attributes asked for are found.
    if (attributes.length >= limit) return { attributes, nameEnd, end: -1 };
    while (i < n && isTagWhitespace(html.charCodeAt(i))) i++;
    if (i >= n) return { attributes, nameEnd, end: n };
    let c = html.charCodeAt(i);
    if (c === 0x3e) return { attributes, nameEnd, end: i + 1 };
    if (c === 0x2f) {
      // Self-closing start tag state: "/" then ">" ends the tag; anything
      // else is reconsumed in the before attribute name state.
      i++;
      if (i < n && html.charCodeAt(i) === 0x3e) return { attributes, nameEnd, end: i + 1 };
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
    const name = attributeName(html.slice(nameStart, i));
    // After attribute name state.
    let j = i;
    while (j < n && isTagWhitespace(html.charCodeAt(j))) j++;
    if (j >= n || html.charCodeAt(j) !== 0x3d) {
      push({ name, nameStart, valueStart: i, valueEnd: i, quote: null });
      i = j;
      continue;
    }
    // Before attribute value state.
    j++;
    while (j < n && isTagWhitespace(html.charCodeAt(j))) j++;
    if (j >= n) {
      push({ name, nameStart, valueStart: j, valueEnd: j, quote: "" });
      return { attributes, nameEnd, end: n };
    }
    c = html.charCodeAt(j);
    if (c === 0x22 || c === 0x27) {
      const close = html.indexOf(c === 0x22 ? '"' : "'", j + 1);
      const valueEnd = close === -1 ? n : close;
      push({ name, nameStart, valueStart: j + 1, valueEnd, quote: c === 0x22 ? '"' : "'" });
      // After attribute value (quoted) state: anything but whitespace, "/"
      // or ">" is reconsumed in the before attribute name state.
      i = close === -1 ? n : close + 1;
      continue;
    }
    if (c === 0x3e) {
      // Missing attribute value: the tag ends here with an empty value.
      push({ name, nameStart, valueStart: j, valueEnd: j, quote: "" });
      return { attributes, nameEnd, end: j + 1 };
    }
    // Attribute value (unquoted) state.
    const valueStart = j;
    while (j < n) {
      c = html.charCodeAt(j);
      if (isTagWhitespace(c) || c === 0x3e) break;
      j++;
    }
    push({ name, nameStart, valueStart, valueEnd: j, quote: "" });
    i = j;
  }
}

/**
 * Finds the `<` of the start tag that ends at `tagEnd` and that the
 * tokenizer read as `record`: the nearest `<` before it whose tag, read
 * again by {@link scanStartTag}, ends there with the same name and the same
 * attributes (a `<` inside an attribute value or a tag name is not it).
 * `floor` is where the previous recorded tag ended. Returns the scan too,
 * or null if there is no such tag within the search limits (only
 * adversarial input, with thousands of `<` in one tag, gets there).
 *
 * @example
 * ```ts
 * const html = '<p title="a<b"><a href=x>';
 * // (records come from parseWithPositions)
 * findStartTag(html, { tagEnd: 26, element: { tagName: "a" }, tokenAttrs: [{ name: "href", value: "x" }], attrCount: 1 } as never, 0)!.start; // 16
 * ```
 */
export function findStartTag(html: string, record: TagRecord, floor: number): { start: number; scan: SourceStartTag } | null {
  const end = record.tagEnd;
  // Backward: the nearest "<" is the tag's own unless its name or attributes hold one.
  let c = html.lastIndexOf("<", end - 1);
  for (let tries = 0; c >= floor && tries < 64; tries++) {
    const scan = verifyStartTag(html, c, record);
    if (scan !== null) return { start: c, scan };
    c = c === 0 ? -1 : html.lastIndexOf("<", c - 1);
  }
  // Forward from the previous tag: every "<" in between is a tag, text or a comment.
  c = html.indexOf("<", floor);
  for (let tries = 0; c !== -1 && c < end && tries < 4096; tries++) {
    const scan = verifyStartTag(html, c, record);
    if (scan !== null) return { start: c, scan };
    c = html.indexOf("<", c + 1);
  }
  return null;
}

function isASCIIAlpha(c: number): boolean {
  return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
}

/** The scan of the start tag at `start` if it is the one `record` was made from, else null. */
function verifyStartTag(html: string, start: number, record: TagRecord): SourceStartTag | null {
  // Tag open state: a start tag begins with "<" and an ASCII letter.
  if (!isASCIIAlpha(html.charCodeAt(start + 1))) return null;
  const scan = scanStartTag(html, start);
  if (scan.end !== record.tagEnd) return null;
  const attrs = record.tokenAttrs;
  if (scan.attributes.length !== record.attrCount) return null;
  const name = attributeName(html.slice(start + 1, scan.nameEnd)).toLowerCase();
  const tagName = record.element.tagName.toLowerCase();
  // The parser renames <image> to img, and adjusts the case of SVG names.
  if (name !== tagName && !(name === "image" && tagName === "img")) return null;
  for (let i = 0; i < record.attrCount; i++) {
    const attr = attrs[i]!;
    const source = scan.attributes[i]!;
    const qualified = attr.prefix !== undefined && attr.prefix !== "" ? `${attr.prefix}:${attr.name}` : attr.name;
    if (source.name !== qualified && source.name !== qualified.toLowerCase()) return null;
    const raw = html.slice(source.valueStart, source.valueEnd);
    if (raw !== attr.value && decodeAttributeValue(html, source.valueStart, source.valueEnd).text !== attr.value) return null;
  }
  return scan;
}

/** The attribute name as the tokenizer builds it: ASCII upper alpha lowered, NUL replaced. */
function attributeName(raw: string): string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || c === 0) {
      // Only ASCII letters are lowered (toLowerCase alone would lower others too).
      return raw.replace(/[A-Z]+/g, (s) => s.toLowerCase()).replaceAll("\0", "\uFFFD");
    }
  }
  return raw;
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
