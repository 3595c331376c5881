/**
 * The read stage's parse of a whole document: the records of every start
 * tag that may carry a link and where it and each of its attributes is in
 * the source — the {@link ParsedSource} the document reader reads — made
 * by the tree construction of tree-construction.ts, which keeps no tree;
 * and, where a tree is needed, parse5's tree construction over a lean tree
 * driven by the same tokenizer (html-tokenizer.ts).
 *
 * https://html.spec.whatwg.org/multipage/parsing.html
 *
 * Optimisation: parse5's own `sourceCodeLocationInfo` records a location
 * object for every token, every attribute and every text run. Our
 * tokenizer notes the positions of the tag being handled in one reusable
 * array, and the construction copies them only for the tags it records.
 * With `keepTree` (and for a document with two base elements with an
 * href, whose tree order only the tree tells) the tree is kept: elements
 * only, text dropped (but inside an SVG `style`, whose CSS we read), no
 * comments, in parse5's default shapes (`nodeName`, `tagName`, `attrs`,
 * `namespaceURI`, `childNodes`, `parentNode`, `content`), so that the
 * document-base layer's parse5 adapter walks it as it is; the stream
 * (streaming-source.ts) builds its own over the same lean adapter.
 *
 * @module
 */

import { Parser, type DefaultTreeAdapterMap, type TreeAdapter } from "parse5";
import { HTML_NAMESPACE, isParsedBaseElementWithHref, SVG_NAMESPACE } from "../html/index.ts";
import { type HTMLTokenizer, installTokenizer, isVerbatimValue, POSITION_FIELDS, valueQuote } from "./html-tokenizer.ts";
import {
  attachesDeclarativeShadowRoot,
  type Attribute,
  isInDocumentTree,
  type LeanChild,
  type LeanDocument,
  type LeanElement,
  type LeanFragment,
  type LeanParent,
  type LeanText,
  mayBeTarget,
  mayHaveLinks,
  type ParsedSource,
  startTagRecord,
  type TagRecord,
} from "./parsed-source.ts";
import { parseTreeless, TreeConstruction } from "./tree-construction.ts";

export { isInDocumentTree };
export type { Attribute, LeanChild, LeanDocument, LeanElement, LeanFragment, LeanParent, LeanText, ParsedSource, TagRecord };


const dummyComment = { nodeName: "#comment", data: "", parentNode: null };

/**
 * The state of the parse in progress (see {@link parseWithPositions}).
 *
 * @example
 * ```ts
 * newParse().positionsLength; // 0
 * ```
 */
interface LeanParse {
  readonly tags: TagRecord[];
  parser: Parser<DefaultTreeAdapterMap> | null;
  tokenizer: HTMLTokenizer | null;
  hasBaseWithHref: boolean;
  /** The attribute list of the last element recorded. */
  recordedAttrs: Attribute[] | null;
  /** The recorded tags' attribute positions, and how much of the array is used. */
  positions: Int32Array;
  positionsLength: number;
  /** The templates the parser made declarative shadow roots (null: none yet). */
  declarativeTemplates: Set<LeanElement> | null;
  /** Their hosts: the elements that are shadow hosts. */
  shadowHosts: Set<LeanElement> | null;
  /** The HTML templates in the stack of open elements, bottom to top. */
  openTemplates: LeanElement[];
  /** For each, where its contents are: 1, inert; 2, a shadow tree (see {@link templateDepthKind}). */
  openTemplateKinds: (1 | 2)[];
  /** The HTML `base` elements with an `href` made in no template contents, in the order made; null: not noted (a stream's parse). */
  bases: LeanElement[] | null;
  /** See {@link ParsedSource.targetCandidates}; null: not noted. */
  targetCandidates: LeanElement[] | null;
}

/**
 * A new parse state.
 *
 * @example
 * ```ts
 * newParse().tags.length; // 0
 * ```
 */
function newParse(): LeanParse {
  return {
    tags: [],
    parser: null,
    tokenizer: null,
    hasBaseWithHref: false,
    recordedAttrs: null,
    positions: new Int32Array(1024),
    positionsLength: 0,
    declarativeTemplates: null,
    shadowHosts: null,
    openTemplates: [],
    openTemplateKinds: [],
    bases: null,
    targetCandidates: null,
  };
}

/**
 * The parse in progress. Parsing is synchronous and the adapter never
 * calls out, so one slot serves; {@link parseWithPositions} saves and
 * restores it all the same.
 */
let current: LeanParse = newParse();


/** Notes `template` as a declarative shadow root when the standard's parser would attach one (see {@link attachesDeclarativeShadowRoot}). */
function noteDeclarativeShadowRoot(parse: LeanParse, template: LeanElement, attrs: readonly Attribute[]): void {
  const openElements = parse.parser!.openElements;
  const host = openElements.current as unknown as LeanElement;
  if (attachesDeclarativeShadowRoot(attrs, host, host === (openElements.items[0] as unknown as LeanElement), (parse.shadowHosts ??= new Set()))) {
    (parse.declarativeTemplates ??= new Set()).add(template);
  }
}

/**
 * Where the element being made goes, as {@link TagRecord.inTemplate} and
 * {@link TagRecord.inShadowTree} say: 0, the document's tree; 1, the
 * contents of an inert template (some open template is an ordinary one);
 * 2, a shadow tree (every open template is a declarative shadow root).
 * The kinds of the open templates are kept as they are pushed, so that
 * this costs O(1) however deep the stack is.
 *
 * @example
 * ```ts
 * templateDepthKind(newParse()); // 0: no template open
 * ```
 */
function templateDepthKind(parse: LeanParse): 0 | 1 | 2 {
  const kinds = parse.openTemplateKinds;
  return kinds.length === 0 ? 0 : kinds[kinds.length - 1]!;
}

function isHTMLTemplate(node: LeanElement): boolean {
  return node.tagName === "template" && node.namespaceURI === HTML_NAMESPACE;
}

function tagRecord(parse: LeanParse, element: LeanElement, attrs: Attribute[], adopted: ReadonlySet<Attribute> | null, where: 0 | 1 | 2): TagRecord {
  return startTagRecord(element, parse.tokenizer!, parse, 0, attrs, adopted, where);
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

function insertBefore(parent: LeanParent, node: LeanChild, reference: LeanChild): void {
  const siblings = parent.childNodes;
  const i = siblings.indexOf(reference);
  siblings.splice(i === -1 ? siblings.length : i, 0, node);
  node.parentNode = parent;
}

function insertText(parent: LeanParent, text: string, before: LeanChild | null): void {
  // Only an SVG style element's text is kept (its CSS is read from the tree).
  if (parent.nodeName !== "style" || (parent as LeanElement).namespaceURI !== SVG_NAMESPACE) return;
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
 * https://html.spec.whatwg.org/multipage/parsing.html#create-an-element-for-the-token —
 * the element, with `childNodes` as its list of children, recorded in the
 * parse in progress when it is the element of the start tag being handled.
 */
function makeElement(tagName: string, namespaceURI: string, attrs: Attribute[], childNodes: LeanChild[]): LeanElement {
  const element: LeanElement = { nodeName: tagName, tagName, attrs, namespaceURI, childNodes, parentNode: null };
  const parse = current;
  if (tagName === "template" && namespaceURI === HTML_NAMESPACE && attrs === parse.tokenizer!.emittingAttrs) noteDeclarativeShadowRoot(parse, element, attrs);
  // Only the element of the start tag being handled is recorded: the
  // adoption agency and the reconstruction of active formatting
  // elements make clones from an earlier token's attribute list, and
  // implied elements (html, head, body, tbody …) have a list of their own.
  if (attrs === parse.recordedAttrs || attrs !== parse.tokenizer!.emittingAttrs) return element;
  const where = templateDepthKind(parse);
  // A clone has its original's id, and is in the document's tree when its original is.
  if (where === 0 && parse.targetCandidates !== null && mayBeTarget(attrs)) parse.targetCandidates.push(element);
  if (!mayHaveLinks(tagName, attrs)) return element;
  parse.recordedAttrs = attrs;
  if (isParsedBaseElementWithHref(element)) {
    parse.hasBaseWithHref = true;
    if (where === 0) parse.bases?.push(element);
  }
  parse.tags.push(tagRecord(parse, element, attrs, null, where));
  return element;
}

/**
 * The lean tree adapter: one object for every parse, its records going to
 * the parse in progress (`current`).
 *
 * Optimisation: one adapter with fixed functions, not one made per parse:
 * parse5 calls the adapter from its hottest code, and a call site that
 * sees the same function every time can inline it, where closures made
 * per parse are new functions to it each time.
  *
  * @example
  * ```ts
  * new Parser({ treeAdapter: leanTreeAdapter }); // what parseWithPositions makes
  * ```
 */
const leanTreeAdapter = {
  createDocument(): LeanDocument {
    return { nodeName: "#document", mode: "no-quirks", childNodes: [] };
  },
  createDocumentFragment(): LeanFragment {
    return { nodeName: "#document-fragment", childNodes: [] };
  },
  createElement(tagName: string, namespaceURI: string, attrs: Attribute[]): LeanElement {
    return makeElement(tagName, namespaceURI, attrs, []);
  },
  createCommentNode(): typeof dummyComment {
    return dummyComment;
  },
  createTextNode(value: string): LeanText {
    return { nodeName: "#text", value, parentNode: null };
  },
  appendChild,
  insertBefore,
  // The stack of open elements: its templates, for templateDepthKind.
  onItemPush(node: LeanElement): void {
    if (!isHTMLTemplate(node)) return;
    const parse = current;
    // The adoption agency reports the current node again after replacing a formatting element
    // (never a template: a template bounds the scope it needs, but be safe).
    if (parse.openTemplates[parse.openTemplates.length - 1] === node) return;
    const outer = templateDepthKind(parse);
    parse.openTemplates.push(node);
    parse.openTemplateKinds.push(parse.declarativeTemplates?.has(node) === true && outer !== 1 ? 2 : 1);
  },
  onItemPop(node: LeanElement): void {
    if (!isHTMLTemplate(node)) return;
    const parse = current;
    const i = parse.openTemplates.lastIndexOf(node);
    if (i === -1) return;
    parse.openTemplates.splice(i, 1);
    parse.openTemplateKinds.splice(i, 1);
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
      parse.tags.push(tagRecord(parse, recipient, attrs, adopted, 0));
      if (parse.targetCandidates !== null && mayBeTarget([...adopted])) parse.targetCandidates.push(recipient);
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

/** One parse of `html` by parse5's tree construction, keeping the tree (see {@link parseWithPositions}). */
function parseKeepingTree(html: string, scripting: boolean): { parse: LeanParse; document: LeanDocument } {
  const outer = current;
  const parse = newParse();
  parse.bases = [];
  parse.targetCandidates = [];
  current = parse;
  try {
    const options = scripting ? parserOptions.scripting : parserOptions.noScripting;
    const parser = new Parser<DefaultTreeAdapterMap>(options);
    parse.parser = parser;
    parse.tokenizer = installTokenizer(parser);
    parse.tokenizer.run(html);
    return { parse, document: parser.document as unknown as LeanDocument };
  } finally {
    current = outer;
  }
}

/**
 * What of a document's tree {@link parseWithPositions} keeps.
 *
 * @example
 * ```ts
 * const keep: TreeKept = "bases"; // for readLinks' { bases: true }
 * ```
 */
export type TreeKept = "none" | "bases" | "tree";

/**
 * Parses `html` as a whole document (https://html.spec.whatwg.org/multipage/parsing.html#parsing)
 * and lists the start tags that may carry links, with where each begins.
 * With `scripting` (the default, as in a browser), `noscript` content is
 * text; without, it is markup. `keep` says what of the tree it keeps:
 * `"none"`, what links need (see the module's comment); `"bases"`, also
 * every base element with an href in tree order (see base-elements.ts),
 * in the order read ({@link ParsedSource.basesInOrder}) when it can, else in the whole
 * tree; `"tree"`, the whole tree.
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
export function parseWithPositions(html: string, scripting = true, keep: TreeKept = "none"): ParsedSource {
  if (keep !== "tree") {
    // Null: the base elements need the tree (see parseTreeless); parse again, keeping it.
    const parsed = parseTreeless(html, scripting, null, keep === "bases");
    if (parsed !== null) return parsed;
  }
  const { parse, document } = parseKeepingTree(html, scripting);
  return {
    document,
    tags: parse.tags,
    hasBaseWithHref: parse.hasBaseWithHref,
    positions: parse.positions,
    targetCandidates: parse.targetCandidates!,
  };
}

// --- Start tags in the source --------------------------------------------------

/**
 * Where a recorded start tag and its attributes are in the source, read
 * from the numbers the tokenizer noted ({@link ParsedSource.positions}):
 * {@link StartTagSource.load} a tag, then ask about its attributes by their
 * index in the token's list.
 *
 * @example
 * ```ts
 * const parsed = parseWithPositions("<a HREF='x' href=y title>");
 * const source = new StartTagSource();
 * source.load(parsed, parsed.tags[0]);
 * [source.valueStart(0), source.valueEnd(0), source.quote(0), source.end]; // [9, 10, "'", 25]
 * ```
 */
export class StartTagSource {
  /** The offset just after the tag's name. */
  nameEnd = 0;
  /** The offset just after the tag's `>`. */
  end = 0;
  private positions: Int32Array = new Int32Array(0);
  private at = 0;
  /** What is added to the noted positions (see {@link load}). */
  private shift = 0;

  /**
   * Reads `tag` of `parsed`. With `shift`, every offset is that much more
   * than the tokenizer noted (a streamed tag read from a text that starts
   * elsewhere than the tokenizer's input did).
   */
  load(parsed: Pick<ParsedSource, "positions">, tag: TagRecord, shift = 0): void {
    this.positions = parsed.positions;
    this.at = tag.positionsAt;
    this.shift = shift;
    this.nameEnd = tag.tagNameEnd + shift;
    this.end = tag.tagEnd + shift;
  }

  /** Where attribute `i`'s value text starts and ends (inside the quotes; both at the name's end when there is no value). */
  valueStart(i: number): number {
    return this.positions[this.at + i * POSITION_FIELDS + 2]! + this.shift;
  }
  valueEnd(i: number): number {
    return this.positions[this.at + i * POSITION_FIELDS + 3]! + this.shift;
  }
  /** `"` or `'` for a quoted value, "" for an unquoted one, null for no value. */
  quote(i: number): '"' | "'" | "" | null {
    return valueQuote(this.positions[this.at + i * POSITION_FIELDS + 4]!);
  }
  /** Whether attribute `i`'s source text is its value as it is (no character reference, CR or NUL in it). */
  isVerbatim(i: number): boolean {
    return isVerbatimValue(this.positions[this.at + i * POSITION_FIELDS + 4]!);
  }
}

/**
 * Objects kept alive for the life of the module: a tree construction and
 * a parse5 parser (each with its tokenizer) that have parsed a small
 * document, and a start tag reader.
 *
 * Optimisation: V8 holds an object shape (a "map") weakly, through the
 * objects that have it; code optimised for that shape embeds it, and is
 * thrown away by the first full garbage collection after the last such
 * object dies. Every construction, its tokenizer and its stacks die with
 * their parse, so each full collection would send the hottest code back to
 * the interpreter; one that lives on keeps those shapes, and the optimised
 * code, alive.
 *
 * @example
 * ```ts
 * retainedShapes.length; // 3: a tree construction, a kept-tree parse (with its parser), and a start tag reader
 * ```
 */
export const retainedShapes: readonly object[] = (() => {
  const sample =
    '<!doctype html><html><head><title>t</title><style>a{}</style></head><body><p class=c id=p><a href="x" title=\'y\'>z</a><b>b<i>i</b>i</i>' +
    "<table><tr><td>x &amp; y</td></tr></table><form><input></form><svg><a href=s /></svg><template><img src=i></template><!-- c --></body></html>";
  // The construction holds its tokenizer; the kept-tree parse its parser.
  const construction = new TreeConstruction(true);
  construction.tokenizer.run(sample);
  return [construction, parseKeepingTree(sample, true).parse, new StartTagSource()];
})();
