/**
 * The HTML Standard's tree construction for link work: every insertion
 * mode, over a stack of open elements and a list of active formatting
 * elements of small element records, that keeps no tree — an element
 * knows its parent and no element its children, so one the construction
 * no longer holds and no start tag record refers to is garbage — and
 * records, for the document reader, each start tag that may carry a link
 * (a {@link ParsedSource}). The tokenizer (html-tokenizer.ts) drives it.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#tree-construction
 *
 * It builds the tree parse5 8 builds (test/links/tree-construction.test.ts
 * compares the two on html5lib-tests and on generated documents): the
 * standard's algorithm as parse5 implements it, with the `select`
 * insertion modes and without declarative shadow roots, which are noted
 * beside the tree as html-source.ts notes them.
 *
 * Deviation: the children of the adoption agency's furthest block stay
 * its children (the standard moves them into the new formatting element),
 * since no element lists its children here; this changes no element's
 * namespace, template contents, or whether it is in the document's tree.
 *
 * @module
 */

import { Token, TokenizerMode } from "parse5";
import { asciiLowercase } from "../core/infra.ts";
import { isParsedBaseElementWithHref } from "../html/index.ts";
import {
  BLOCK_END,
  BLOCK_START,
  BUTTON_SCOPE,
  FORMATTING,
  FOSTER_TARGET,
  foreignAttributes,
  HTML,
  HTML_INTEGRATION,
  IMPLIED_END,
  IMPLIED_END_THOROUGH,
  kindOf,
  leavesForeignContent,
  LIST_ITEM_BOUNDARY,
  LIST_SCOPE,
  MATHML,
  MATHML_TEXT_INTEGRATION,
  NS_URIS,
  SCOPE,
  SPECIAL,
  SVG,
  svgAttributeNames,
  svgTagNames,
  TABLE_SCOPE,
  TAG,
  tagID,
} from "./element-kinds.ts";
import { HTMLTokenizer } from "./html-tokenizer.ts";
import {
  attachesDeclarativeShadowRoot,
  type Attribute,
  baseDocument,
  isInDocumentTree,
  type LeanChild,
  type LeanDocument,
  type LeanElement,
  type LeanFragment,
  type LeanParent,
  mayBeTarget,
  mayHaveLinks,
  type ParsedSource,
  startTagRecord,
  type TagRecord,
} from "./parsed-source.ts";
import { isQuirksDoctype } from "./quirks-mode.ts";

const CHARACTER = 0;
const WHITESPACE = 1;
const NULL = 2;

// https://html.spec.whatwg.org/multipage/parsing.html#the-insertion-mode
const INITIAL = 0;
const BEFORE_HTML = 1;
const BEFORE_HEAD = 2;
const IN_HEAD = 3;
const IN_HEAD_NOSCRIPT = 4;
const AFTER_HEAD = 5;
const IN_BODY = 6;
const TEXT = 7;
const IN_TABLE = 8;
const IN_TABLE_TEXT = 9;
const IN_CAPTION = 10;
const IN_COLUMN_GROUP = 11;
const IN_TABLE_BODY = 12;
const IN_ROW = 13;
const IN_CELL = 14;
const IN_SELECT = 15;
const IN_SELECT_IN_TABLE = 16;
const IN_TEMPLATE = 17;
const AFTER_BODY = 18;
const IN_FRAMESET = 19;
const AFTER_FRAMESET = 20;
const AFTER_AFTER_BODY = 21;
const AFTER_AFTER_FRAMESET = 22;

/** The children of a node whose children are not kept (all but an SVG `style`'s). */
const NO_CHILDREN: LeanChild[] = Object.freeze([]) as unknown as LeanChild[];

/**
 * An element the tree construction made: its local name, namespace, tag id
 * and kinds (element-kinds.ts), its parent, and the attributes the
 * tokenizer kept. It has the shape of a {@link LeanElement}, which the
 * records and the facts read from them use.
 *
 * @example
 * ```ts
 * parseTreeless("<p><a href=x>").tags[0].element.tagName; // "a"
 * ```
 */
export class ConstructedElement implements LeanElement {
  readonly nodeName: string;
  readonly tagName: string;
  attrs: Attribute[];
  readonly namespaceURI: string;
  /** Kept only for an SVG `style` (its text is read for links); else an empty, frozen list. */
  childNodes: LeanChild[];
  parentNode: LeanParent | null = null;
  content?: LeanFragment;
  /** HTML, SVG or MATHML. */
  readonly ns: number;
  /** The tag id of the token it was made for (element-kinds.ts's TAG). */
  readonly id: number;
  /** Its kinds (element-kinds.ts), for scope and category tests. */
  readonly kind: number;

  /** `keepsText`: an SVG `style` whose text is read. */
  constructor(tagName: string, ns: number, id: number, attrs: Attribute[], kind: number, keepsText = false) {
    this.nodeName = tagName;
    this.tagName = tagName;
    this.attrs = attrs;
    this.namespaceURI = NS_URIS[ns]!;
    this.childNodes = keepsText ? [] : NO_CHILDREN;
    this.ns = ns;
    this.id = id;
    this.kind = kind;
  }
}

type Element = ConstructedElement;

/** A tag token as the tokenizer gives it (parse5's shape). */
type TagToken = Token.TagToken;

/**
 * What a tree construction reports beside its records, for tests: each
 * element as it is made, and how many template contents it is made in.
 *
 * @example
 * ```ts
 * const trace: ConstructionTrace = { onElement: (element, depth) => console.log(element.tagName, depth) };
 * ```
 */
export interface ConstructionTrace {
  onElement(element: ConstructedElement, templateDepth: number): void;
}

/** An entry of the list of active formatting elements: an element, or a marker. */
type FormattingEntry = Element | null;
const MARKER = null;

/**
 * The tree construction stage for one document (see the module's
 * comment): give it to an {@link HTMLTokenizer} and run that over the
 * input; then {@link TreeConstruction.result} is what link work reads.
 *
 * @example
 * ```ts
 * const construction = new TreeConstruction(true);
 * construction.tokenizer.run("<base href=/d/><a href=x>");
 * construction.result().tags.length; // 2
 * ```
 */
export class TreeConstruction {
  readonly tokenizer: HTMLTokenizer;
  /** "The scripting flag": with it, `noscript` content is raw text. */
  private readonly scripting: boolean;
  private readonly trace: ConstructionTrace | null;
  /** Whether an SVG `style` keeps its text (its CSS is read for links); a reading that reads no link keeps none. */
  private readonly keepStyleText: boolean;
  /** The document: the parent of the `html` element (its children are not kept). */
  readonly document: LeanDocument = { nodeName: "#document", mode: "no-quirks", childNodes: [] };
  private quirks = false;

  private mode = INITIAL;
  private originalMode = INITIAL;
  /** https://html.spec.whatwg.org/multipage/parsing.html#stack-of-template-insertion-modes */
  private readonly templateModes: number[] = [];
  /** https://html.spec.whatwg.org/multipage/parsing.html#stack-of-open-elements (the current node last). */
  private readonly stack: Element[] = [];
  /**
   * How many elements of each (namespace, tag id) are open, by
   * `namespace * 128 + id`. Optimisation: a scope test for an element none
   * of which is open is answered without walking the stack (100,000
   * nested `div`s each ask for a `p` in button scope).
   */
  private readonly openCounts = new Int32Array(3 * 128);
  /** https://html.spec.whatwg.org/multipage/parsing.html#list-of-active-formatting-elements */
  private readonly formatting: FormattingEntry[] = [];
  private headElement: Element | null = null;
  private formElement: Element | null = null;
  private framesetOk = true;
  private fosterParenting = false;
  /** After a `pre`, `listing` or `textarea` start tag: a newline that starts the next token is dropped. */
  private skipNewline = false;
  /** https://html.spec.whatwg.org/multipage/parsing.html#concept-pending-table-char-tokens — only whether they hold more than whitespace matters here. */
  private pendingTableNonWhitespace = false;

  // Where the element being made goes (see templateKind): the kinds of the open templates, bottom to top.
  private readonly templateKinds: (1 | 2)[] = [];
  private shadowHosts: Set<LeanElement> | null = null;
  private pendingShadowTemplate: Element | null = null;

  // The records (see ParsedSource).
  /** The records made, in source order (a stream takes them as it reads them: see streaming-source.ts). */
  readonly tags: TagRecord[] = [];
  /** Where the text the tokenizer reads starts in the whole input (see TagRecord.origin): a stream's piece's. */
  origin = 0;
  positions = new Int32Array(1024);
  positionsLength = 0;
  private hasBaseWithHref = false;
  /** The HTML base elements with an href made in no template contents, in the order made. */
  private readonly bases: Element[] = [];
  /** The table the node being inserted goes before (foster parenting), or null (see appropriateParent). */
  private fosterTable: Element | null = null;
  private fosterParentedBeforeBase = false;
  /** The elements made outside template contents with an `id` or a `name` (see ParsedSource.targetCandidates). */
  readonly targetCandidates: Element[] = [];

  constructor(scripting: boolean, trace: ConstructionTrace | null = null, keepStyleText = true) {
    this.scripting = scripting;
    this.trace = trace;
    this.keepStyleText = keepStyleText;
    this.tokenizer = new HTMLTokenizer(this);
  }

  /**
   * What the parse gave (after the tokenizer has run): the records, the
   * elements that may be fragment targets, and a document holding a copy
   * of the first base element with an href, when one element alone can be
   * it (else `null`: see parseWithPositions in html-source.ts).
   */
  result(): ParsedSource | null {
    const bases = this.bases.filter(isInDocumentTree);
    if (bases.length > 1) return null;
    return {
      document: baseDocument(bases[0] ?? null),
      tags: this.tags,
      hasBaseWithHref: this.hasBaseWithHref,
      positions: this.positions,
      targetCandidates: this.targetCandidates,
    };
  }

  // --- What a stream reads (streaming-source.ts) -----------------------------------------

  /** The first HTML base element with an href the parser made in no template contents (wherever it is now), or null. */
  get firstBase(): ConstructedElement | null {
    return this.bases[0] ?? null;
  }

  /**
   * Whether an element was foster-parented before a table that holds
   * {@link firstBase}: it, or what goes into it later, may hold a base
   * element that comes first in tree order.
   */
  get fosterParentedBeforeFirstBase(): boolean {
    return this.fosterParentedBeforeBase;
  }

  /** Whether `element` is in the stack of open elements. */
  isOpen(element: LeanElement): boolean {
    return this.stack.lastIndexOf(element as Element) !== -1;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#frameset-ok-flag — true for "ok". */
  get framesetOkFlag(): boolean {
    return this.framesetOk;
  }

  // --- What the tokenizer reads -----------------------------------------------------

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#markup-declaration-open-state —
   * "if there is an adjusted current node and it is not an element in the
   * HTML namespace" (the adjusted current node is the current node: no
   * fragment parsing here).
   */
  get currentNotInHTML(): boolean {
    const stack = this.stack;
    return stack.length > 0 && stack[stack.length - 1]!.ns !== HTML;
  }

  // --- Tokens -----------------------------------------------------------------------

  /**
   * A character token of class `type` (the tokenizer's: parse5's token
   * types), whose text the construction asks the tokenizer for only where
   * it keeps it (see {@link insertCharacters}).
   *
   * Optimisation: the insertion modes only classify character tokens
   * (whitespace, U+0000, other); no string is made for the text of a page.
   */
  onCharacterRun(type: number): void {
    this.characters(type === Token.TokenType.CHARACTER ? CHARACTER : type === Token.TokenType.WHITESPACE_CHARACTER ? WHITESPACE : NULL, null);
  }

  onComment(): void {
    this.skipNewline = false;
    // Comments are not kept; in table text, one ends the pending character tokens.
    if (this.mode === IN_TABLE_TEXT && !this.inForeignContent()) this.flushTableText();
  }

  onDoctype(token: Token.DoctypeToken): void {
    this.skipNewline = false;
    if (this.mode === IN_TABLE_TEXT) this.flushTableText();
    // https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode — a DOCTYPE elsewhere is ignored.
    if (this.mode !== INITIAL) return;
    this.quirks = isQuirksDoctype(token);
    this.document.mode = this.quirks ? "quirks" : "no-quirks";
    this.mode = BEFORE_HTML;
  }

  onStartTag(token: TagToken): void {
    this.skipNewline = false;
    if (this.startTagInForeignContent(token)) this.foreignStartTag(token);
    else this.startTag(this.mode, token);
  }

  onEndTag(token: TagToken): void {
    this.skipNewline = false;
    // https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher — end tags go to foreign content whenever the current node is foreign.
    if (this.currentNotInHTML) this.foreignEndTag(token);
    else this.endTag(this.mode, token);
  }

  onEof(): void {
    this.eof(this.mode);
  }

  /** Whether the current node makes a character token go to the rules for foreign content. */
  private inForeignContent(): boolean {
    const stack = this.stack;
    if (stack.length === 0) return false;
    const current = stack[stack.length - 1]!;
    return current.ns !== HTML && !this.isIntegrationPoint(current);
  }

  private isIntegrationPoint(element: Element): boolean {
    return (element.kind & (MATHML_TEXT_INTEGRATION | HTML_INTEGRATION)) !== 0 || this.isHTMLIntegrationPoint(element);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point */
  private isHTMLIntegrationPoint(element: Element): boolean {
    if ((element.kind & HTML_INTEGRATION) !== 0) return true;
    if (element.ns !== MATHML || element.id !== TAG.ANNOTATION_XML) return false;
    // "An annotation-xml element in the MathML namespace whose start tag token had an attribute with the name
    // "encoding" whose value was an ASCII case-insensitive match for the string "text/html" or "application/xhtml+xml"".
    const attrs = element.attrs;
    for (let i = 0; i < attrs.length; i++) {
      const attr = attrs[i]!;
      if (attr.name === "encoding" && attr.namespace === undefined) {
        const value = asciiLowercase(attr.value);
        return value === "text/html" || value === "application/xhtml+xml";
      }
    }
    return false;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher — for a start tag. */
  private startTagInForeignContent(token: TagToken): boolean {
    const stack = this.stack;
    if (stack.length === 0) return false;
    const current = stack[stack.length - 1]!;
    if (current.ns === HTML) return false;
    const id = token.tagID;
    if ((current.kind & MATHML_TEXT_INTEGRATION) !== 0 && id !== TAG.MGLYPH && id !== TAG.MALIGNMARK) return false;
    if (current.ns === MATHML && current.id === TAG.ANNOTATION_XML && id === TAG.SVG) return false;
    return !this.isHTMLIntegrationPoint(current);
  }

  /** `chars`: the token's text, or null for the text the tokenizer holds. */
  private characters(type: number, chars: string | null): void {
    if (this.skipNewline) {
      this.skipNewline = false;
      // "If the next token is a U+000A LINE FEED (LF) character token, then ignore that token."
      const text = chars ?? this.tokenizer.characterText();
      if (text.charCodeAt(0) === 0x0a) {
        if (text.length === 1) return;
        chars = text.slice(1);
      }
    }
    if (this.inForeignContent()) this.foreignCharacters(type, chars);
    else this.charactersIn(this.mode, type, chars);
  }

  // --- The stack of open elements ----------------------------------------------------

  private get current(): Element {
    return this.stack[this.stack.length - 1]!;
  }

  private push(element: Element): void {
    this.stack.push(element);
    this.openCounts[element.ns * 128 + element.id]!++;
    if (element.id === TAG.TEMPLATE && element.ns === HTML) {
      const outer = this.templateKind();
      this.templateKinds.push(this.pendingShadowTemplate === element && outer !== 1 ? 2 : 1);
      this.pendingShadowTemplate = null;
    }
  }

  private pop(): Element {
    const element = this.stack.pop()!;
    this.openCounts[element.ns * 128 + element.id]!--;
    if (element.id === TAG.TEMPLATE && element.ns === HTML) this.templateKinds.pop();
    return element;
  }

  /** Pops elements until an HTML element with tag id `id` has been popped. */
  private popUntil(id: number): void {
    while (this.stack.length > 0) {
      const element = this.pop();
      if (element.id === id && element.ns === HTML) return;
    }
  }

  /** Pops elements until one of the HTML h1–h6 has been popped. */
  private popUntilHeading(): void {
    while (this.stack.length > 0) {
      const element = this.pop();
      if (element.ns === HTML && isHeading(element.id)) return;
    }
  }

  /** Pops elements until `element` has been popped. */
  private popUntilElement(element: Element): void {
    while (this.stack.length > 0 && this.pop() !== element);
  }

  private isCurrent(id: number): boolean {
    const current = this.current;
    return current.id === id && current.ns === HTML;
  }

  private hasOpen(id: number): boolean {
    return this.openCounts[id]! > 0;
  }

  /** Removes `element` from the stack of open elements, wherever it is. */
  private removeOpen(element: Element): void {
    const i = this.stack.lastIndexOf(element);
    if (i === -1) return;
    this.stack.splice(i, 1);
    this.openCounts[element.ns * 128 + element.id]!--;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-the-specific-scope —
   * whether an HTML element with tag id `id` is in the scope whose
   * boundaries have kind `boundary`.
   */
  private inScope(id: number, boundary: number): boolean {
    if (this.openCounts[id] === 0) return false;
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i]!;
      if (element.id === id && element.ns === HTML) return true;
      if ((element.kind & boundary) !== 0) return false;
    }
    return false;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-select-scope */
  private inSelectScope(id: number): boolean {
    if (this.openCounts[id] === 0) return false;
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i]!;
      if (element.id === id && element.ns === HTML) return true;
      if (!(element.ns === HTML && (element.id === TAG.OPTGROUP || element.id === TAG.OPTION))) return false;
    }
    return false;
  }

  /** Whether `target` itself is in scope. */
  private elementInScope(target: Element): boolean {
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i]!;
      if (element === target) return true;
      if ((element.kind & SCOPE) !== 0) return false;
    }
    return false;
  }

  private headingInScope(): boolean {
    const counts = this.openCounts;
    if (counts[TAG.H1] === 0 && counts[TAG.H2] === 0 && counts[TAG.H3] === 0 && counts[TAG.H4] === 0 && counts[TAG.H5] === 0 && counts[TAG.H6] === 0) return false;
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i]!;
      if (element.ns === HTML && isHeading(element.id)) return true;
      if ((element.kind & SCOPE) !== 0) return false;
    }
    return false;
  }

  /** Whether a td or th is in table scope. */
  private cellInTableScope(): boolean {
    return this.inScope(TAG.TD, TABLE_SCOPE) || this.inScope(TAG.TH, TABLE_SCOPE);
  }

  /** Whether a tbody, thead or tfoot is in table scope. */
  private tableBodyInTableScope(): boolean {
    return this.inScope(TAG.TBODY, TABLE_SCOPE) || this.inScope(TAG.THEAD, TABLE_SCOPE) || this.inScope(TAG.TFOOT, TABLE_SCOPE);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#generate-implied-end-tags — except for HTML elements with tag id `except`. */
  private generateImpliedEndTags(except = -1): void {
    for (;;) {
      const current = this.current;
      if ((current.kind & IMPLIED_END) === 0 || current.id === except) return;
      this.pop();
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#generate-all-implied-end-tags-thoroughly */
  private generateImpliedEndTagsThoroughly(): void {
    while ((this.current.kind & IMPLIED_END_THOROUGH) !== 0) this.pop();
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#close-a-p-element */
  private closeP(): void {
    this.generateImpliedEndTags(TAG.P);
    this.popUntil(TAG.P);
  }

  /** Closes a p element if one is in button scope. */
  private closePInButtonScope(): void {
    if (this.inScope(TAG.P, BUTTON_SCOPE)) this.closeP();
  }

  /** Pops elements until the current node is an HTML element with one of `ids` (or html): "clear the stack back to a … context". */
  private clearStackBackTo(ids: readonly number[]): void {
    for (;;) {
      const current = this.current;
      if (current.ns === HTML && (current.id === TAG.HTML || ids.includes(current.id))) return;
      this.pop();
    }
  }

  // --- Making and inserting elements ------------------------------------------------------

  /** Where the element being made goes: 0, the document's tree; 1, inert template contents; 2, a declarative shadow root. */
  private templateKind(): 0 | 1 | 2 {
    const kinds = this.templateKinds;
    return kinds.length === 0 ? 0 : kinds[kinds.length - 1]!;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#create-an-element-for-the-token —
   * the element for `token` in namespace `ns` (its tag name already
   * adjusted), recorded when it may carry a link.
   */
  private elementFor(token: TagToken, ns: number, tagName = token.tagName, id = token.tagID): Element {
    const element = new ConstructedElement(tagName, ns, id, token.attrs, kindOf(ns, id), ns === SVG && id === TAG.STYLE && this.keepStyleText);
    this.made(element);
    const attrs = token.attrs;
    // Only the element of the start tag being handled is recorded (not the clones made from an earlier token's list).
    if (attrs !== this.tokenizer.emittingAttrs) return element;
    if (id === TAG.TEMPLATE && ns === HTML) this.noteDeclarativeShadowRoot(element);
    const where = this.templateKind();
    if (where === 0 && mayBeTarget(attrs)) this.targetCandidates.push(element);
    if (!mayHaveLinks(tagName, attrs)) return element;
    if (isParsedBaseElementWithHref(element)) {
      this.hasBaseWithHref = true;
      if (where === 0) this.bases.push(element);
    }
    this.tags.push(this.tagRecord(element, attrs, null, where));
    return element;
  }

  /** An element the parser makes without a token of its own (html, head, body, tbody, tr, colgroup): no attributes, never recorded. */
  private impliedElement(tagName: string, id: number): Element {
    const element = new ConstructedElement(tagName, HTML, id, [], kindOf(HTML, id));
    this.made(element);
    return element;
  }

  /** A clone of a formatting element, from its token's attributes (the adoption agency, the reconstruction). */
  private cloneElement(original: Element): Element {
    const element = new ConstructedElement(original.tagName, original.ns, original.id, original.attrs, original.kind);
    this.made(element);
    return element;
  }

  private made(element: Element): void {
    if (element.id === TAG.TEMPLATE && element.ns === HTML) element.content = { nodeName: "#document-fragment", childNodes: NO_CHILDREN };
    this.trace?.onElement(element, this.templateKinds.length);
  }

  private tagRecord(element: Element, attrs: Attribute[], adopted: ReadonlySet<Attribute> | null, where: 0 | 1 | 2): TagRecord {
    return startTagRecord(element, this.tokenizer, this, this.origin, attrs, adopted, where);
  }

  /** Notes `template` as a declarative shadow root when the standard's parser would attach one (see attachesDeclarativeShadowRoot). */
  private noteDeclarativeShadowRoot(template: Element): void {
    const stack = this.stack;
    if (attachesDeclarativeShadowRoot(template.attrs, stack[stack.length - 1]!, stack.length === 1, (this.shadowHosts ??= new Set()))) this.pendingShadowTemplate = template;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#appropriate-place-for-inserting-a-node —
   * the parent a node inserted now gets (with `override` as the override target).
   */
  private appropriateParent(override: Element | null = null): LeanParent {
    const target = override ?? this.current;
    this.fosterTable = null;
    if (this.fosterParenting && (target.kind & FOSTER_TARGET) !== 0) {
      // https://html.spec.whatwg.org/multipage/parsing.html#foster-parent
      const stack = this.stack;
      let table = -1;
      let template = -1;
      for (let i = stack.length - 1; i >= 0 && (table === -1 || template === -1); i--) {
        const element = stack[i]!;
        if (element.ns !== HTML) continue;
        if (table === -1 && element.id === TAG.TABLE) table = i;
        else if (template === -1 && element.id === TAG.TEMPLATE) template = i;
      }
      // "If there is a last template and either there is no last table, or there is one, but last template is lower
      // (more recently added) than last table in the stack of open elements": inside its template contents.
      if (template !== -1 && template > table) return stack[template]!.content!;
      if (table === -1) return stack[0]!;
      const parent = stack[table]!.parentNode;
      if (parent !== null) {
        // "The adjusted insertion location … immediately before last table".
        this.fosterTable = stack[table]!;
        return parent;
      }
      return contentsOr(stack[table - 1]!);
    }
    return contentsOr(target);
  }

  /** Puts `element` at the appropriate place (its parent) and pushes it onto the stack. */
  private insert(element: Element, override: Element | null = null): void {
    this.place(element, this.appropriateParent(override));
    this.push(element);
  }

  private place(element: Element, parent: LeanParent): void {
    element.parentNode = parent;
    const table = this.fosterTable;
    if (table !== null) {
      this.fosterTable = null;
      this.fosterParented(table);
    }
    if (parent.childNodes !== NO_CHILDREN && parent.nodeName !== "#document") parent.childNodes.push(element);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#insert-an-html-element */
  private insertHTMLElement(token: TagToken): Element {
    const element = this.elementFor(token, HTML);
    this.insert(element);
    return element;
  }

  /** Inserts an HTML element for `token` and pops it at once (a void element; "acknowledge the token's self-closing flag"). */
  private insertVoid(token: TagToken): Element {
    const element = this.insertHTMLElement(token);
    this.pop();
    return element;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#insert-a-character —
   * only an SVG `style` keeps its text (its CSS is read from it).
   */
  private insertCharacters(text: string | null): void {
    const parent = this.appropriateParent();
    if (parent.childNodes === NO_CHILDREN || parent.nodeName === "#document") return;
    const chars = text ?? this.tokenizer.characterText();
    const children = parent.childNodes;
    const last = children[children.length - 1];
    if (last !== undefined && last.nodeName === "#text") (last as { value: string }).value += chars;
    else children.push({ nodeName: "#text", value: chars, parentNode: parent });
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#generic-raw-text-element-parsing-algorithm (and RCDATA's) */
  private textElement(token: TagToken, state: number): void {
    this.insertHTMLElement(token);
    this.tokenizer.state = state;
    this.originalMode = this.mode;
    this.mode = TEXT;
  }

  // --- The list of active formatting elements ------------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#push-onto-the-list-of-active-formatting-elements */
  private pushFormatting(element: Element): void {
    const list = this.formatting;
    // The Noah's Ark clause: "If there are already three elements in the list of active formatting elements after the
    // last marker, if any, or anywhere in the list if there are no markers, that have the same tag name, namespace,
    // and attributes as element, then remove the earliest such element from the list".
    let same = 0;
    let earliest = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      const entry = list[i]!;
      if (entry === MARKER) break;
      if (entry.id === element.id && entry.tagName === element.tagName && sameAttributes(entry.attrs, element.attrs)) {
        same++;
        earliest = i;
      }
    }
    if (same >= 3) list.splice(earliest, 1);
    list.push(element);
  }

  private insertMarker(): void {
    this.formatting.push(MARKER);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#clear-the-list-of-active-formatting-elements-up-to-the-last-marker */
  private clearFormattingToMarker(): void {
    const list = this.formatting;
    while (list.length > 0 && list.pop() !== MARKER);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#reconstruct-the-active-formatting-elements */
  private reconstructFormatting(): void {
    const list = this.formatting;
    if (list.length === 0) return;
    const last = list[list.length - 1]!;
    if (last === MARKER || this.stack.lastIndexOf(last) !== -1) return;
    // Rewind to the entry after the last marker or open element, then create forward.
    let i = list.length - 1;
    while (i > 0) {
      const entry = list[i - 1]!;
      if (entry === MARKER || this.stack.lastIndexOf(entry) !== -1) break;
      i--;
    }
    for (; i < list.length; i++) {
      const clone = this.cloneElement(list[i]!);
      this.insert(clone);
      list[i] = clone;
    }
  }

  /** The last element of the list after its last marker with tag name `tagName`, or -1. */
  private formattingIndex(tagName: string): number {
    const list = this.formatting;
    for (let i = list.length - 1; i >= 0; i--) {
      const entry = list[i]!;
      if (entry === MARKER) return -1;
      if (entry.tagName === tagName) return i;
    }
    return -1;
  }

  private removeFormatting(element: Element): void {
    const i = this.formatting.lastIndexOf(element);
    if (i !== -1) this.formatting.splice(i, 1);
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#adoption-agency-algorithm —
   * for an end tag named `token.tagName` (or a start tag that closes its
   * formatting element first), acting as "any other end tag" where the
   * steps say to.
   */
  private adoptionAgency(token: TagToken): void {
    const subject = token.tagName;
    const stack = this.stack;
    // "If the current node is an HTML element whose tag name is subject, and the current node is not in the list of
    // active formatting elements, then pop the current node off the stack of open elements and return."
    const current = this.current;
    if (current.ns === HTML && current.tagName === subject && !this.formatting.includes(current)) {
      this.pop();
      return;
    }
    for (let outer = 0; outer < 8; outer++) {
      const f = this.formattingIndex(subject);
      // "If there is no such element, then return and instead act as described in the "any other end tag" entry."
      if (f === -1) return this.anyOtherEndTag(token);
      const formattingElement = this.formatting[f]!;
      const at = stack.lastIndexOf(formattingElement);
      if (at === -1) {
        this.formatting.splice(f, 1);
        return;
      }
      if (!this.elementInScope(formattingElement)) return;
      let furthest = -1;
      for (let i = at + 1; i < stack.length; i++) {
        if ((stack[i]!.kind & SPECIAL) !== 0) {
          furthest = i;
          break;
        }
      }
      if (furthest === -1) {
        while (stack.length > at) this.pop();
        this.formatting.splice(f, 1);
        return;
      }
      const furthestBlock = stack[furthest]!;
      const commonAncestor = stack[at - 1]!;
      // The bookmark: the entry the new formatting element goes after (null: in the formatting element's place).
      let bookmark: Element | null = null;
      let node: Element;
      let lastNode = furthestBlock;
      let index = furthest;
      for (let inner = 1; ; inner++) {
        index--;
        node = stack[index]!;
        if (node === formattingElement) break;
        const entry = this.formatting.lastIndexOf(node);
        if (inner > 3 && entry !== -1) {
          this.formatting.splice(entry, 1);
        }
        if (inner > 3 || entry === -1) {
          stack.splice(index, 1);
          this.openCounts[node.ns * 128 + node.id]!--;
          continue;
        }
        // The clone has the node's name and namespace: the counts stay.
        const clone = this.cloneElement(node);
        this.formatting[this.formatting.lastIndexOf(node)] = clone;
        stack[index] = clone;
        node = clone;
        if (lastNode === furthestBlock) bookmark = clone;
        lastNode.parentNode = node;
        lastNode = node;
      }
      // Insert lastNode at the appropriate place for inserting a node, with commonAncestor as the override target.
      this.placeAgain(lastNode, this.appropriateParent(commonAncestor));
      const replacement = this.cloneElement(formattingElement);
      replacement.parentNode = furthestBlock;
      // The new element takes the formatting element's entry: at the bookmark, or in its place.
      const list = this.formatting;
      if (bookmark === null) {
        list[list.indexOf(formattingElement)] = replacement;
      } else {
        list.splice(list.indexOf(formattingElement), 1);
        list.splice(list.indexOf(bookmark) + 1, 0, replacement);
      }
      stack.splice(stack.lastIndexOf(formattingElement), 1);
      stack.splice(stack.lastIndexOf(furthestBlock) + 1, 0, replacement);
    }
  }

  /** Moves `element` (already made) under `parent`. */
  private placeAgain(element: Element, parent: LeanParent): void {
    element.parentNode = parent;
    const table = this.fosterTable;
    if (table !== null) {
      this.fosterTable = null;
      this.fosterParented(table);
    }
  }

  /** An element went before `table`: note it when the table holds the first base element (see {@link fosterParentedBeforeFirstBase}). */
  private fosterParented(table: Element): void {
    const base = this.firstBase;
    if (base === null || this.fosterParentedBeforeBase) return;
    for (let node: LeanParent | null | undefined = base; node !== null && node !== undefined; node = (node as LeanElement).parentNode) {
      if (node === table) {
        this.fosterParentedBeforeBase = true;
        return;
      }
    }
  }

  // --- The insertion modes -------------------------------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#reset-the-insertion-mode-appropriately */
  private resetInsertionMode(): void {
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const node = stack[i]!;
      const last = i === 0;
      if (node.ns !== HTML) {
        if (last) this.mode = IN_BODY;
        continue;
      }
      switch (node.id) {
        case TAG.SELECT:
          if (!last) {
            for (let j = i - 1; j > 0; j--) {
              const ancestor = stack[j]!;
              if (ancestor.ns !== HTML) continue;
              if (ancestor.id === TAG.TEMPLATE) break;
              if (ancestor.id === TAG.TABLE) {
                this.mode = IN_SELECT_IN_TABLE;
                return;
              }
            }
          }
          this.mode = IN_SELECT;
          return;
        case TAG.TD:
        case TAG.TH:
          if (last) break;
          this.mode = IN_CELL;
          return;
        case TAG.TR:
          this.mode = IN_ROW;
          return;
        case TAG.TBODY:
        case TAG.THEAD:
        case TAG.TFOOT:
          this.mode = IN_TABLE_BODY;
          return;
        case TAG.CAPTION:
          this.mode = IN_CAPTION;
          return;
        case TAG.COLGROUP:
          this.mode = IN_COLUMN_GROUP;
          return;
        case TAG.TABLE:
          this.mode = IN_TABLE;
          return;
        case TAG.TEMPLATE:
          this.mode = this.templateModes[this.templateModes.length - 1]!;
          return;
        case TAG.HEAD:
          if (last) break;
          this.mode = IN_HEAD;
          return;
        case TAG.BODY:
          this.mode = IN_BODY;
          return;
        case TAG.FRAMESET:
          this.mode = IN_FRAMESET;
          return;
        case TAG.HTML:
          this.mode = this.headElement === null ? BEFORE_HEAD : AFTER_HEAD;
          return;
      }
      if (last) this.mode = IN_BODY;
    }
  }

  private charactersIn(mode: number, type: number, chars: string | null): void {
    switch (mode) {
      case INITIAL:
        if (type === WHITESPACE) return;
        this.initialAnythingElse();
        return this.charactersIn(this.mode, type, chars);
      case BEFORE_HTML:
        if (type === WHITESPACE) return;
        this.beforeHTMLAnythingElse();
        return this.charactersIn(this.mode, type, chars);
      case BEFORE_HEAD:
        if (type === WHITESPACE) return;
        this.beforeHeadAnythingElse();
        return this.charactersIn(this.mode, type, chars);
      case IN_HEAD:
        if (type === WHITESPACE) return this.insertCharacters(chars);
        this.inHeadAnythingElse();
        return this.charactersIn(this.mode, type, chars);
      case IN_HEAD_NOSCRIPT:
        if (type === WHITESPACE) return this.charactersIn(IN_HEAD, type, chars);
        this.pop();
        this.mode = IN_HEAD;
        return this.charactersIn(this.mode, type, chars);
      case AFTER_HEAD:
        if (type === WHITESPACE) return this.insertCharacters(chars);
        this.afterHeadAnythingElse();
        return this.charactersIn(this.mode, type, chars);
      case IN_BODY:
      case IN_CAPTION:
      case IN_CELL:
      case IN_TEMPLATE:
        return this.charactersInBody(type, chars);
      case TEXT:
        return this.insertCharacters(chars);
      case IN_TABLE:
      case IN_TABLE_BODY:
      case IN_ROW:
        return this.charactersInTable(type, chars);
      case IN_TABLE_TEXT:
        if (type === NULL) return;
        if (type === CHARACTER) this.pendingTableNonWhitespace = true;
        return;
      case IN_COLUMN_GROUP:
        if (type === WHITESPACE) return this.insertCharacters(chars);
        if (!this.isCurrent(TAG.COLGROUP)) return;
        this.pop();
        this.mode = IN_TABLE;
        return this.charactersIn(this.mode, type, chars);
      case IN_SELECT:
      case IN_SELECT_IN_TABLE:
        if (type === NULL) return;
        return this.insertCharacters(chars);
      case AFTER_BODY:
      case AFTER_AFTER_BODY:
        if (type === WHITESPACE) return this.charactersInBody(type, chars);
        this.mode = IN_BODY;
        return this.charactersIn(this.mode, type, chars);
      case IN_FRAMESET:
      case AFTER_FRAMESET:
        if (type === WHITESPACE) this.insertCharacters(chars);
        return;
      case AFTER_AFTER_FRAMESET:
        if (type === WHITESPACE) this.charactersInBody(type, chars);
        return;
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody — character tokens. */
  private charactersInBody(type: number, chars: string | null): void {
    if (type === NULL) return;
    this.reconstructFormatting();
    this.insertCharacters(chars);
    if (type === CHARACTER) this.framesetOk = false;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable — character tokens. */
  private charactersInTable(type: number, chars: string | null): void {
    const current = this.current;
    // "A character token, if the current node is table, tbody, template, tfoot, thead, or tr element".
    if (current.ns === HTML && ((current.kind & FOSTER_TARGET) !== 0 || current.id === TAG.TEMPLATE)) {
      this.pendingTableNonWhitespace = false;
      this.originalMode = this.mode;
      this.mode = IN_TABLE_TEXT;
      return this.charactersIn(IN_TABLE_TEXT, type, chars);
    }
    this.fosterParenting = true;
    this.charactersInBody(type, chars);
    this.fosterParenting = false;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intabletext — anything else: the pending character tokens. */
  private flushTableText(): void {
    if (this.pendingTableNonWhitespace) {
      // "Reprocess the character tokens … using the rules given in the "anything else" entry in the "in table" insertion mode."
      this.fosterParenting = true;
      this.reconstructFormatting();
      this.framesetOk = false;
      this.fosterParenting = false;
    }
    this.pendingTableNonWhitespace = false;
    this.mode = this.originalMode;
  }

  private initialAnythingElse(): void {
    // "If the document is not an iframe srcdoc document, then this is a parse error; if the parser cannot change the
    // mode flag is false, set the Document to quirks mode." (srcdoc documents too, as parse5 does.)
    this.quirks = true;
    this.document.mode = "quirks";
    this.mode = BEFORE_HTML;
  }

  private beforeHTMLAnythingElse(): void {
    const html = this.impliedElement("html", TAG.HTML);
    this.place(html, this.document);
    this.push(html);
    this.mode = BEFORE_HEAD;
  }

  private beforeHeadAnythingElse(): void {
    const head = this.impliedElement("head", TAG.HEAD);
    this.insert(head);
    this.headElement = head;
    this.mode = IN_HEAD;
  }

  private inHeadAnythingElse(): void {
    this.pop();
    this.mode = AFTER_HEAD;
  }

  private afterHeadAnythingElse(): void {
    this.insert(this.impliedElement("body", TAG.BODY));
    this.mode = IN_BODY;
  }

  private startTag(mode: number, token: TagToken): void {
    if (mode === IN_TABLE_TEXT) {
      this.flushTableText();
      return this.startTag(this.mode, token);
    }
    const id = token.tagID;
    switch (mode) {
      case INITIAL:
        this.initialAnythingElse();
        return this.startTag(this.mode, token);
      case BEFORE_HTML:
        if (id === TAG.HTML) {
          const html = this.elementFor(token, HTML);
          this.place(html, this.document);
          this.push(html);
          this.mode = BEFORE_HEAD;
          return;
        }
        this.beforeHTMLAnythingElse();
        return this.startTag(this.mode, token);
      case BEFORE_HEAD:
        if (id === TAG.HTML) return this.startTagInBody(token);
        if (id === TAG.HEAD) {
          this.headElement = this.insertHTMLElement(token);
          this.mode = IN_HEAD;
          return;
        }
        this.beforeHeadAnythingElse();
        return this.startTag(this.mode, token);
      case IN_HEAD:
        return this.startTagInHead(token);
      case IN_HEAD_NOSCRIPT:
        if (id === TAG.HTML) return this.startTagInBody(token);
        if (id === TAG.BASEFONT || id === TAG.BGSOUND || id === TAG.LINK || id === TAG.META || id === TAG.NOFRAMES || id === TAG.STYLE) return this.startTagInHead(token);
        if (id === TAG.HEAD || id === TAG.NOSCRIPT) return;
        this.pop();
        this.mode = IN_HEAD;
        return this.startTag(this.mode, token);
      case AFTER_HEAD:
        return this.startTagAfterHead(token);
      case IN_BODY:
        return this.startTagInBody(token);
      case TEXT:
        return;
      case IN_TABLE:
        return this.startTagInTable(token);
      case IN_CAPTION:
        if (isTableStructureStart(id)) {
          if (!this.inScope(TAG.CAPTION, TABLE_SCOPE)) return;
          this.closeCaption();
          return this.startTag(this.mode, token);
        }
        return this.startTagInBody(token);
      case IN_COLUMN_GROUP:
        if (id === TAG.HTML) return this.startTagInBody(token);
        if (id === TAG.COL) {
          this.insertVoid(token);
          return;
        }
        if (id === TAG.TEMPLATE) return this.startTagInHead(token);
        if (!this.isCurrent(TAG.COLGROUP)) return;
        this.pop();
        this.mode = IN_TABLE;
        return this.startTag(this.mode, token);
      case IN_TABLE_BODY:
        return this.startTagInTableBody(token);
      case IN_ROW:
        return this.startTagInRow(token);
      case IN_CELL:
        if (isTableStructureStart(id)) {
          if (!this.cellInTableScope()) return;
          this.closeCell();
          return this.startTag(this.mode, token);
        }
        return this.startTagInBody(token);
      case IN_SELECT:
        return this.startTagInSelect(token);
      case IN_SELECT_IN_TABLE:
        if (id === TAG.CAPTION || id === TAG.TABLE || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD || id === TAG.TR || id === TAG.TD || id === TAG.TH) {
          this.popUntil(TAG.SELECT);
          this.resetInsertionMode();
          return this.startTag(this.mode, token);
        }
        return this.startTagInSelect(token);
      case IN_TEMPLATE:
        return this.startTagInTemplate(token);
      case AFTER_BODY:
      case AFTER_AFTER_BODY:
        if (id === TAG.HTML) return this.startTagInBody(token);
        this.mode = IN_BODY;
        return this.startTag(this.mode, token);
      case IN_FRAMESET:
        if (id === TAG.HTML) return this.startTagInBody(token);
        if (id === TAG.FRAMESET) {
          this.insertHTMLElement(token);
          return;
        }
        if (id === TAG.FRAME) {
          this.insertVoid(token);
          return;
        }
        if (id === TAG.NOFRAMES) return this.startTagInHead(token);
        return;
      case AFTER_FRAMESET:
      case AFTER_AFTER_FRAMESET:
        if (id === TAG.HTML) return this.startTagInBody(token);
        if (id === TAG.NOFRAMES) return this.startTagInHead(token);
        return;
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — start tags. */
  private startTagInHead(token: TagToken): void {
    switch (token.tagID) {
      case TAG.HTML:
        return this.startTagInBody(token);
      case TAG.BASE:
      case TAG.BASEFONT:
      case TAG.BGSOUND:
      case TAG.LINK:
      case TAG.META:
        this.insertVoid(token);
        return;
      case TAG.TITLE:
        return this.textElement(token, TokenizerMode.RCDATA);
      case TAG.NOSCRIPT:
        if (this.scripting) return this.textElement(token, TokenizerMode.RAWTEXT);
        this.insertHTMLElement(token);
        this.mode = IN_HEAD_NOSCRIPT;
        return;
      case TAG.NOFRAMES:
      case TAG.STYLE:
        return this.textElement(token, TokenizerMode.RAWTEXT);
      case TAG.SCRIPT:
        return this.textElement(token, TokenizerMode.SCRIPT_DATA);
      case TAG.TEMPLATE:
        this.insertHTMLElement(token);
        this.insertMarker();
        this.framesetOk = false;
        this.mode = IN_TEMPLATE;
        this.templateModes.push(IN_TEMPLATE);
        return;
      case TAG.HEAD:
        return;
    }
    this.inHeadAnythingElse();
    this.startTag(this.mode, token);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode — start tags. */
  private startTagAfterHead(token: TagToken): void {
    const id = token.tagID;
    switch (id) {
      case TAG.HTML:
        return this.startTagInBody(token);
      case TAG.BODY:
        this.insertHTMLElement(token);
        this.framesetOk = false;
        this.mode = IN_BODY;
        return;
      case TAG.FRAMESET:
        this.insertHTMLElement(token);
        this.mode = IN_FRAMESET;
        return;
      case TAG.HEAD:
        return;
      default: {
        if (!inHeadStartTags.has(id)) break;
        // "Push the node pointed to by the head element pointer onto the stack of open elements. Process the token
        // using the rules for the "in head" insertion mode. Remove the node pointed to by the head element pointer
        // from the stack of open elements. (It might not be the current node at this point.)"
        const head = this.headElement!;
        this.push(head);
        this.startTagInHead(token);
        this.removeOpen(head);
        return;
      }
    }
    this.afterHeadAnythingElse();
    this.startTag(this.mode, token);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody — start tags. */
  private startTagInBody(token: TagToken): void {
    const id = token.tagID;
    if (inHeadStartTags.has(id)) return this.startTagInHead(token);
    const kind = kindOf(HTML, id);
    if ((kind & BLOCK_START) !== 0) {
      this.closePInButtonScope();
      this.insertHTMLElement(token);
      return;
    }
    if ((kind & FORMATTING) !== 0 && id !== TAG.A && id !== TAG.NOBR) {
      this.reconstructFormatting();
      this.pushFormatting(this.insertHTMLElement(token));
      return;
    }
    switch (id) {
      case TAG.HTML:
        if (this.templateKinds.length > 0) return;
        this.adoptAttributes(this.stack[0]!, token.attrs);
        return;
      case TAG.BODY: {
        const body = this.stack[1];
        if (body === undefined || body.id !== TAG.BODY || body.ns !== HTML || this.templateKinds.length > 0) return;
        this.framesetOk = false;
        this.adoptAttributes(body, token.attrs);
        return;
      }
      case TAG.FRAMESET: {
        const body = this.stack[1];
        if (body === undefined || body.id !== TAG.BODY || body.ns !== HTML) return;
        if (!this.framesetOk) return;
        // "Remove the second element on the stack of open elements from its parent node, if it has one."
        body.parentNode = null;
        while (this.stack.length > 1) this.pop();
        this.insertHTMLElement(token);
        this.mode = IN_FRAMESET;
        return;
      }
      case TAG.H1:
      case TAG.H2:
      case TAG.H3:
      case TAG.H4:
      case TAG.H5:
      case TAG.H6: {
        this.closePInButtonScope();
        const current = this.current;
        if (current.ns === HTML && isHeading(current.id)) this.pop();
        this.insertHTMLElement(token);
        return;
      }
      case TAG.PRE:
      case TAG.LISTING:
        this.closePInButtonScope();
        this.insertHTMLElement(token);
        this.skipNewline = true;
        this.framesetOk = false;
        return;
      case TAG.FORM: {
        const inTemplate = this.templateKinds.length > 0;
        if (this.formElement !== null && !inTemplate) return;
        this.closePInButtonScope();
        const form = this.insertHTMLElement(token);
        if (!inTemplate) this.formElement = form;
        return;
      }
      case TAG.LI:
      case TAG.DD:
      case TAG.DT:
        return this.listItemStart(token);
      case TAG.PLAINTEXT:
        this.closePInButtonScope();
        this.insertHTMLElement(token);
        this.tokenizer.state = TokenizerMode.PLAINTEXT;
        return;
      case TAG.BUTTON:
        if (this.inScope(TAG.BUTTON, SCOPE)) {
          this.generateImpliedEndTags();
          this.popUntil(TAG.BUTTON);
        }
        this.reconstructFormatting();
        this.insertHTMLElement(token);
        this.framesetOk = false;
        return;
      case TAG.A: {
        const a = this.formattingIndex("a");
        if (a !== -1) {
          const element = this.formatting[a]!;
          this.adoptionAgency(token);
          this.removeFormatting(element);
          this.removeOpen(element);
        }
        this.reconstructFormatting();
        this.pushFormatting(this.insertHTMLElement(token));
        return;
      }
      case TAG.NOBR:
        this.reconstructFormatting();
        if (this.inScope(TAG.NOBR, SCOPE)) {
          this.adoptionAgency(token);
          this.reconstructFormatting();
        }
        this.pushFormatting(this.insertHTMLElement(token));
        return;
      case TAG.APPLET:
      case TAG.MARQUEE:
      case TAG.OBJECT:
        this.reconstructFormatting();
        this.insertHTMLElement(token);
        this.insertMarker();
        this.framesetOk = false;
        return;
      case TAG.TABLE:
        if (!this.quirks) this.closePInButtonScope();
        this.insertHTMLElement(token);
        this.framesetOk = false;
        this.mode = IN_TABLE;
        return;
      case TAG.AREA:
      case TAG.BR:
      case TAG.EMBED:
      case TAG.IMG:
      case TAG.KEYGEN:
      case TAG.WBR:
        this.reconstructFormatting();
        this.insertVoid(token);
        this.framesetOk = false;
        return;
      case TAG.INPUT:
        this.reconstructFormatting();
        this.insertVoid(token);
        if (!isHiddenInput(token)) this.framesetOk = false;
        return;
      case TAG.PARAM:
      case TAG.SOURCE:
      case TAG.TRACK:
        this.insertVoid(token);
        return;
      case TAG.HR:
        this.closePInButtonScope();
        this.insertVoid(token);
        this.framesetOk = false;
        return;
      case TAG.IMAGE:
        // "Parse error. Change the token's tag name to "img" and reprocess it. (Don't ask.)"
        token.tagName = "img";
        token.tagID = TAG.IMG;
        return this.startTagInBody(token);
      case TAG.TEXTAREA:
        this.insertHTMLElement(token);
        this.skipNewline = true;
        this.tokenizer.state = TokenizerMode.RCDATA;
        this.originalMode = this.mode;
        this.framesetOk = false;
        this.mode = TEXT;
        return;
      case TAG.XMP:
        this.closePInButtonScope();
        this.reconstructFormatting();
        this.framesetOk = false;
        return this.textElement(token, TokenizerMode.RAWTEXT);
      case TAG.IFRAME:
        this.framesetOk = false;
        return this.textElement(token, TokenizerMode.RAWTEXT);
      case TAG.NOEMBED:
        return this.textElement(token, TokenizerMode.RAWTEXT);
      case TAG.NOSCRIPT:
        if (this.scripting) return this.textElement(token, TokenizerMode.RAWTEXT);
        break;
      case TAG.SELECT:
        this.reconstructFormatting();
        this.insertHTMLElement(token);
        this.framesetOk = false;
        this.mode =
          this.mode === IN_TABLE || this.mode === IN_CAPTION || this.mode === IN_TABLE_BODY || this.mode === IN_ROW || this.mode === IN_CELL
            ? IN_SELECT_IN_TABLE
            : IN_SELECT;
        return;
      case TAG.OPTGROUP:
      case TAG.OPTION:
        if (this.isCurrent(TAG.OPTION)) this.pop();
        this.reconstructFormatting();
        this.insertHTMLElement(token);
        return;
      case TAG.RB:
      case TAG.RTC:
        if (this.inScope(TAG.RUBY, SCOPE)) this.generateImpliedEndTags();
        this.insertHTMLElement(token);
        return;
      case TAG.RP:
      case TAG.RT:
        if (this.inScope(TAG.RUBY, SCOPE)) this.generateImpliedEndTags(TAG.RTC);
        this.insertHTMLElement(token);
        return;
      case TAG.MATH:
      case TAG.SVG: {
        this.reconstructFormatting();
        const ns = id === TAG.MATH ? MATHML : SVG;
        adjustAttributes(token, ns);
        const element = this.elementFor(token, ns);
        this.insert(element);
        if (token.selfClosing) this.pop();
        return;
      }
      case TAG.CAPTION:
      case TAG.COL:
      case TAG.COLGROUP:
      case TAG.FRAME:
      case TAG.HEAD:
      case TAG.TBODY:
      case TAG.TD:
      case TAG.TFOOT:
      case TAG.TH:
      case TAG.THEAD:
      case TAG.TR:
        return;
    }
    // Any other start tag.
    this.reconstructFormatting();
    this.insertHTMLElement(token);
  }

  /** In body, a start tag li, dd or dt. */
  private listItemStart(token: TagToken): void {
    this.framesetOk = false;
    const id = token.tagID;
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const node = stack[i]!;
      if (node.ns === HTML && (id === TAG.LI ? node.id === TAG.LI : node.id === TAG.DD || node.id === TAG.DT)) {
        this.generateImpliedEndTags(node.id);
        this.popUntil(node.id);
        break;
      }
      if ((node.kind & LIST_ITEM_BOUNDARY) !== 0) break;
    }
    this.closePInButtonScope();
    this.insertHTMLElement(token);
  }

  /**
   * A second `html` or `body` start tag: "for each attribute on the token,
   * check to see if the attribute is already present on the top element
   * … If it is not, add the attribute". Recorded when it adds one.
   */
  private adoptAttributes(element: Element, attrs: Attribute[]): void {
    let adopted: Set<Attribute> | null = null;
    const own = element.attrs;
    for (let i = 0; i < attrs.length; i++) {
      const attr = attrs[i]!;
      if (own.some((present) => present.name === attr.name)) continue;
      own.push(attr);
      (adopted ??= new Set()).add(attr);
    }
    if (adopted === null) return;
    this.tags.push(this.tagRecord(element, attrs, adopted, 0));
    if (this.templateKind() === 0 && mayBeTarget([...adopted])) this.targetCandidates.push(element);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable — start tags. */
  private startTagInTable(token: TagToken): void {
    const id = token.tagID;
    switch (id) {
      case TAG.CAPTION:
        this.clearStackBackTo(TABLE_CONTEXT);
        this.insertMarker();
        this.insertHTMLElement(token);
        this.mode = IN_CAPTION;
        return;
      case TAG.COLGROUP:
        this.clearStackBackTo(TABLE_CONTEXT);
        this.insertHTMLElement(token);
        this.mode = IN_COLUMN_GROUP;
        return;
      case TAG.COL:
        this.clearStackBackTo(TABLE_CONTEXT);
        this.insert(this.impliedElement("colgroup", TAG.COLGROUP));
        this.mode = IN_COLUMN_GROUP;
        return this.startTag(this.mode, token);
      case TAG.TBODY:
      case TAG.TFOOT:
      case TAG.THEAD:
        this.clearStackBackTo(TABLE_CONTEXT);
        this.insertHTMLElement(token);
        this.mode = IN_TABLE_BODY;
        return;
      case TAG.TD:
      case TAG.TH:
      case TAG.TR:
        this.clearStackBackTo(TABLE_CONTEXT);
        this.insert(this.impliedElement("tbody", TAG.TBODY));
        this.mode = IN_TABLE_BODY;
        return this.startTag(this.mode, token);
      case TAG.TABLE:
        if (!this.inScope(TAG.TABLE, TABLE_SCOPE)) return;
        this.popUntil(TAG.TABLE);
        this.resetInsertionMode();
        return this.startTag(this.mode, token);
      case TAG.STYLE:
      case TAG.SCRIPT:
      case TAG.TEMPLATE:
        return this.startTagInHead(token);
      case TAG.INPUT:
        if (!isHiddenInput(token)) break;
        this.insertVoid(token);
        return;
      case TAG.FORM:
        if (this.hasOpen(TAG.TEMPLATE) || this.formElement !== null) return;
        this.formElement = this.insertHTMLElement(token);
        this.pop();
        return;
    }
    this.fosterParenting = true;
    this.startTagInBody(token);
    this.fosterParenting = false;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intbody — start tags. */
  private startTagInTableBody(token: TagToken): void {
    const id = token.tagID;
    if (id === TAG.TR) {
      this.clearStackBackTo(TABLE_BODY_CONTEXT);
      this.insertHTMLElement(token);
      this.mode = IN_ROW;
      return;
    }
    if (id === TAG.TH || id === TAG.TD) {
      this.clearStackBackTo(TABLE_BODY_CONTEXT);
      this.insert(this.impliedElement("tr", TAG.TR));
      this.mode = IN_ROW;
      return this.startTag(this.mode, token);
    }
    if (id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD) {
      if (!this.tableBodyInTableScope()) return;
      this.clearStackBackTo(TABLE_BODY_CONTEXT);
      this.pop();
      this.mode = IN_TABLE;
      return this.startTag(this.mode, token);
    }
    this.startTagInTable(token);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intr — start tags. */
  private startTagInRow(token: TagToken): void {
    const id = token.tagID;
    if (id === TAG.TH || id === TAG.TD) {
      this.clearStackBackTo(TABLE_ROW_CONTEXT);
      this.insertHTMLElement(token);
      this.mode = IN_CELL;
      this.insertMarker();
      return;
    }
    if (id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD || id === TAG.TR) {
      if (!this.inScope(TAG.TR, TABLE_SCOPE)) return;
      this.closeRow();
      return this.startTag(this.mode, token);
    }
    this.startTagInTable(token);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inselect — start tags. */
  private startTagInSelect(token: TagToken): void {
    switch (token.tagID) {
      case TAG.HTML:
        return this.startTagInBody(token);
      case TAG.OPTION:
        if (this.isCurrent(TAG.OPTION)) this.pop();
        this.insertHTMLElement(token);
        return;
      case TAG.OPTGROUP:
        if (this.isCurrent(TAG.OPTION)) this.pop();
        if (this.isCurrent(TAG.OPTGROUP)) this.pop();
        this.insertHTMLElement(token);
        return;
      case TAG.HR:
        if (this.isCurrent(TAG.OPTION)) this.pop();
        if (this.isCurrent(TAG.OPTGROUP)) this.pop();
        this.insertVoid(token);
        return;
      case TAG.SELECT:
        if (!this.inSelectScope(TAG.SELECT)) return;
        this.popUntil(TAG.SELECT);
        this.resetInsertionMode();
        return;
      case TAG.INPUT:
      case TAG.KEYGEN:
      case TAG.TEXTAREA:
        if (!this.inSelectScope(TAG.SELECT)) return;
        this.popUntil(TAG.SELECT);
        this.resetInsertionMode();
        return this.startTag(this.mode, token);
      case TAG.SCRIPT:
      case TAG.TEMPLATE:
        return this.startTagInHead(token);
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intemplate — start tags. */
  private startTagInTemplate(token: TagToken): void {
    const id = token.tagID;
    if (inHeadStartTags.has(id)) return this.startTagInHead(token);
    let next: number;
    switch (id) {
      case TAG.CAPTION:
      case TAG.COLGROUP:
      case TAG.TBODY:
      case TAG.TFOOT:
      case TAG.THEAD:
        next = IN_TABLE;
        break;
      case TAG.COL:
        next = IN_COLUMN_GROUP;
        break;
      case TAG.TR:
        next = IN_TABLE_BODY;
        break;
      case TAG.TD:
      case TAG.TH:
        next = IN_ROW;
        break;
      default:
        next = IN_BODY;
    }
    this.templateModes.pop();
    this.templateModes.push(next);
    this.mode = next;
    this.startTag(next, token);
  }

  private closeCaption(): void {
    this.generateImpliedEndTags();
    this.popUntil(TAG.CAPTION);
    this.clearFormattingToMarker();
    this.mode = IN_TABLE;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#close-the-cell */
  private closeCell(): void {
    this.generateImpliedEndTags();
    const stack = this.stack;
    while (stack.length > 0) {
      const element = this.pop();
      if (element.ns === HTML && (element.id === TAG.TD || element.id === TAG.TH)) break;
    }
    this.clearFormattingToMarker();
    this.mode = IN_ROW;
  }

  private closeRow(): void {
    this.clearStackBackTo(TABLE_ROW_CONTEXT);
    this.pop();
    this.mode = IN_TABLE_BODY;
  }

  // --- End tags ------------------------------------------------------------------------

  private endTag(mode: number, token: TagToken): void {
    const id = token.tagID;
    switch (mode) {
      case IN_TABLE_TEXT:
        this.flushTableText();
        return this.endTag(this.mode, token);
      case INITIAL:
        this.initialAnythingElse();
        return this.endTag(this.mode, token);
      case BEFORE_HTML:
        if (id !== TAG.HEAD && id !== TAG.BODY && id !== TAG.HTML && id !== TAG.BR) return;
        this.beforeHTMLAnythingElse();
        return this.endTag(this.mode, token);
      case BEFORE_HEAD:
        if (id !== TAG.HEAD && id !== TAG.BODY && id !== TAG.HTML && id !== TAG.BR) return;
        this.beforeHeadAnythingElse();
        return this.endTag(this.mode, token);
      case IN_HEAD:
        if (id === TAG.HEAD) {
          this.pop();
          this.mode = AFTER_HEAD;
          return;
        }
        if (id === TAG.TEMPLATE) return this.templateEndTag();
        if (id !== TAG.BODY && id !== TAG.HTML && id !== TAG.BR) return;
        this.inHeadAnythingElse();
        return this.endTag(this.mode, token);
      case IN_HEAD_NOSCRIPT:
        if (id === TAG.NOSCRIPT) {
          this.pop();
          this.mode = IN_HEAD;
          return;
        }
        if (id !== TAG.BR) return;
        this.pop();
        this.mode = IN_HEAD;
        return this.endTag(this.mode, token);
      case AFTER_HEAD:
        if (id === TAG.TEMPLATE) return this.templateEndTag();
        if (id !== TAG.BODY && id !== TAG.HTML && id !== TAG.BR) return;
        this.afterHeadAnythingElse();
        return this.endTag(this.mode, token);
      case IN_BODY:
        return this.endTagInBody(token);
      case TEXT:
        this.pop();
        this.mode = this.originalMode;
        return;
      case IN_TABLE:
        return this.endTagInTable(token);
      case IN_CAPTION:
        if (id === TAG.CAPTION || id === TAG.TABLE) {
          if (!this.inScope(TAG.CAPTION, TABLE_SCOPE)) return;
          this.closeCaption();
          if (id === TAG.TABLE) this.endTag(this.mode, token);
          return;
        }
        if (id === TAG.BODY || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML || id === TAG.TBODY || id === TAG.TD || id === TAG.TFOOT || id === TAG.TH || id === TAG.THEAD || id === TAG.TR) return;
        return this.endTagInBody(token);
      case IN_COLUMN_GROUP:
        if (id === TAG.COLGROUP) {
          if (!this.isCurrent(TAG.COLGROUP)) return;
          this.pop();
          this.mode = IN_TABLE;
          return;
        }
        if (id === TAG.COL) return;
        if (id === TAG.TEMPLATE) return this.templateEndTag();
        if (!this.isCurrent(TAG.COLGROUP)) return;
        this.pop();
        this.mode = IN_TABLE;
        return this.endTag(this.mode, token);
      case IN_TABLE_BODY:
        if (id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD) {
          if (!this.inScope(id, TABLE_SCOPE)) return;
          this.clearStackBackTo(TABLE_BODY_CONTEXT);
          this.pop();
          this.mode = IN_TABLE;
          return;
        }
        if (id === TAG.TABLE) {
          if (!this.tableBodyInTableScope()) return;
          this.clearStackBackTo(TABLE_BODY_CONTEXT);
          this.pop();
          this.mode = IN_TABLE;
          return this.endTag(this.mode, token);
        }
        if (id === TAG.BODY || id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML || id === TAG.TD || id === TAG.TH || id === TAG.TR) return;
        return this.endTagInTable(token);
      case IN_ROW:
        if (id === TAG.TR) {
          if (!this.inScope(TAG.TR, TABLE_SCOPE)) return;
          this.closeRow();
          return;
        }
        if (id === TAG.TABLE) {
          if (!this.inScope(TAG.TR, TABLE_SCOPE)) return;
          this.closeRow();
          return this.endTag(this.mode, token);
        }
        if (id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD) {
          if (!this.inScope(id, TABLE_SCOPE)) return;
          if (!this.inScope(TAG.TR, TABLE_SCOPE)) return;
          this.closeRow();
          return this.endTag(this.mode, token);
        }
        if (id === TAG.BODY || id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML || id === TAG.TD || id === TAG.TH) return;
        return this.endTagInTable(token);
      case IN_CELL:
        if (id === TAG.TD || id === TAG.TH) {
          if (!this.inScope(id, TABLE_SCOPE)) return;
          this.generateImpliedEndTags();
          this.popUntil(id);
          this.clearFormattingToMarker();
          this.mode = IN_ROW;
          return;
        }
        if (id === TAG.BODY || id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML) return;
        if (id === TAG.TABLE || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD || id === TAG.TR) {
          if (!this.inScope(id, TABLE_SCOPE)) return;
          this.closeCell();
          return this.endTag(this.mode, token);
        }
        return this.endTagInBody(token);
      case IN_SELECT:
        return this.endTagInSelect(token);
      case IN_SELECT_IN_TABLE:
        if (id === TAG.CAPTION || id === TAG.TABLE || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD || id === TAG.TR || id === TAG.TD || id === TAG.TH) {
          if (!this.inScope(id, TABLE_SCOPE)) return;
          this.popUntil(TAG.SELECT);
          this.resetInsertionMode();
          return this.endTag(this.mode, token);
        }
        return this.endTagInSelect(token);
      case IN_TEMPLATE:
        if (id === TAG.TEMPLATE) return this.templateEndTag();
        return;
      case AFTER_BODY:
        if (id === TAG.HTML) {
          this.mode = AFTER_AFTER_BODY;
          return;
        }
        this.mode = IN_BODY;
        return this.endTag(this.mode, token);
      case IN_FRAMESET:
        if (id === TAG.FRAMESET && this.stack.length > 1) {
          this.pop();
          if (!this.isCurrent(TAG.FRAMESET)) this.mode = AFTER_FRAMESET;
        }
        return;
      case AFTER_FRAMESET:
        if (id === TAG.HTML) this.mode = AFTER_AFTER_FRAMESET;
        return;
      case AFTER_AFTER_BODY:
        this.mode = IN_BODY;
        return this.endTag(this.mode, token);
      case AFTER_AFTER_FRAMESET:
        return;
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — an end tag "template". */
  private templateEndTag(): void {
    if (!this.hasOpen(TAG.TEMPLATE)) return;
    this.generateImpliedEndTagsThoroughly();
    this.popUntil(TAG.TEMPLATE);
    this.clearFormattingToMarker();
    this.templateModes.pop();
    this.resetInsertionMode();
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody — end tags. */
  private endTagInBody(token: TagToken): void {
    const id = token.tagID;
    const kind = kindOf(HTML, id);
    if ((kind & BLOCK_END) !== 0) {
      if (!this.inScope(id, SCOPE)) return;
      this.generateImpliedEndTags();
      this.popUntil(id);
      return;
    }
    if ((kind & FORMATTING) !== 0) return this.adoptionAgency(token);
    switch (id) {
      case TAG.TEMPLATE:
        return this.templateEndTag();
      case TAG.BODY:
        if (!this.inScope(TAG.BODY, SCOPE)) return;
        this.mode = AFTER_BODY;
        return;
      case TAG.HTML:
        if (!this.inScope(TAG.BODY, SCOPE)) return;
        this.mode = AFTER_BODY;
        return this.endTag(AFTER_BODY, token);
      case TAG.FORM: {
        if (this.hasOpen(TAG.TEMPLATE)) {
          if (!this.inScope(TAG.FORM, SCOPE)) return;
          this.generateImpliedEndTags();
          this.popUntil(TAG.FORM);
          return;
        }
        const node = this.formElement;
        this.formElement = null;
        if (node === null || !this.elementInScope(node)) return;
        this.generateImpliedEndTags();
        this.removeOpen(node);
        return;
      }
      case TAG.P:
        if (!this.inScope(TAG.P, BUTTON_SCOPE)) this.insertHTMLElement(pStartTag());
        this.closeP();
        return;
      case TAG.LI:
        if (!this.inScope(TAG.LI, LIST_SCOPE)) return;
        this.generateImpliedEndTags(TAG.LI);
        this.popUntil(TAG.LI);
        return;
      case TAG.DD:
      case TAG.DT:
        if (!this.inScope(id, SCOPE)) return;
        this.generateImpliedEndTags(id);
        this.popUntil(id);
        return;
      case TAG.H1:
      case TAG.H2:
      case TAG.H3:
      case TAG.H4:
      case TAG.H5:
      case TAG.H6:
        if (!this.headingInScope()) return;
        this.generateImpliedEndTags();
        this.popUntilHeading();
        return;
      case TAG.APPLET:
      case TAG.MARQUEE:
      case TAG.OBJECT:
        if (!this.inScope(id, SCOPE)) return;
        this.generateImpliedEndTags();
        this.popUntil(id);
        this.clearFormattingToMarker();
        return;
      case TAG.BR:
        // "Parse error. Drop the attributes from the token, and act as described in the next entry; i.e. act as if
        // this was a "br" start tag token with no attributes, rather than the end tag token that it actually is."
        this.reconstructFormatting();
        this.insert(this.impliedElement("br", TAG.BR));
        this.pop();
        this.framesetOk = false;
        return;
    }
    this.anyOtherEndTag(token);
  }

  /** In body, "any other end tag". */
  private anyOtherEndTag(token: TagToken): void {
    const stack = this.stack;
    const name = token.tagName;
    for (let i = stack.length - 1; i >= 0; i--) {
      const node = stack[i]!;
      if (node.ns === HTML && node.tagName === name) {
        this.generateImpliedEndTags(node.id === 0 ? -2 : node.id);
        // Generating implied end tags never pops node: it is an HTML element named `name`.
        this.popUntilElement(node);
        return;
      }
      if ((node.kind & SPECIAL) !== 0) return;
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable — end tags. */
  private endTagInTable(token: TagToken): void {
    const id = token.tagID;
    if (id === TAG.TABLE) {
      if (!this.inScope(TAG.TABLE, TABLE_SCOPE)) return;
      this.popUntil(TAG.TABLE);
      this.resetInsertionMode();
      return;
    }
    if (id === TAG.TEMPLATE) return this.templateEndTag();
    if (id === TAG.BODY || id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML || id === TAG.TBODY || id === TAG.TD || id === TAG.TFOOT || id === TAG.TH || id === TAG.THEAD || id === TAG.TR) return;
    this.fosterParenting = true;
    this.endTagInBody(token);
    this.fosterParenting = false;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inselect — end tags. */
  private endTagInSelect(token: TagToken): void {
    switch (token.tagID) {
      case TAG.OPTGROUP: {
        const stack = this.stack;
        const below = stack[stack.length - 2];
        if (this.isCurrent(TAG.OPTION) && below !== undefined && below.ns === HTML && below.id === TAG.OPTGROUP) this.pop();
        if (this.isCurrent(TAG.OPTGROUP)) this.pop();
        return;
      }
      case TAG.OPTION:
        if (this.isCurrent(TAG.OPTION)) this.pop();
        return;
      case TAG.SELECT:
        if (!this.inSelectScope(TAG.SELECT)) return;
        this.popUntil(TAG.SELECT);
        this.resetInsertionMode();
        return;
      case TAG.TEMPLATE:
        return this.templateEndTag();
    }
  }

  // --- End of file ----------------------------------------------------------------------

  private eof(mode: number): void {
    switch (mode) {
      case INITIAL:
        this.initialAnythingElse();
        return this.eof(this.mode);
      case BEFORE_HTML:
        this.beforeHTMLAnythingElse();
        return this.eof(this.mode);
      case BEFORE_HEAD:
        this.beforeHeadAnythingElse();
        return this.eof(this.mode);
      case IN_HEAD:
        this.inHeadAnythingElse();
        return this.eof(this.mode);
      case IN_HEAD_NOSCRIPT:
        this.pop();
        this.mode = IN_HEAD;
        return this.eof(this.mode);
      case AFTER_HEAD:
        this.afterHeadAnythingElse();
        return this.eof(this.mode);
      case TEXT:
        this.pop();
        this.mode = this.originalMode;
        return this.eof(this.mode);
      case IN_TABLE_TEXT:
        this.flushTableText();
        return this.eof(this.mode);
      case IN_BODY:
      case IN_TABLE:
      case IN_CAPTION:
      case IN_COLUMN_GROUP:
      case IN_TABLE_BODY:
      case IN_ROW:
      case IN_CELL:
      case IN_SELECT:
      case IN_SELECT_IN_TABLE:
      case IN_TEMPLATE:
        // "If the stack of template insertion modes is not empty, then process the token using the rules for the
        // "in template" insertion mode." (Else stop parsing.)
        if (this.templateModes.length === 0 || !this.hasOpen(TAG.TEMPLATE)) return;
        this.popUntil(TAG.TEMPLATE);
        this.clearFormattingToMarker();
        this.templateModes.pop();
        this.resetInsertionMode();
        return this.eof(this.mode);
    }
  }

  // --- Foreign content --------------------------------------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign — character tokens. */
  private foreignCharacters(type: number, chars: string | null): void {
    if (type === NULL) {
      // "Insert a U+FFFD REPLACEMENT CHARACTER character." (One for the token, as parse5 does.)
      this.insertCharacters("\uFFFD");
      return;
    }
    this.insertCharacters(chars);
    if (type === CHARACTER) this.framesetOk = false;
  }

  /** Pops until the current node is an HTML element or an integration point. */
  private popToHTMLOrIntegrationPoint(): void {
    for (;;) {
      const current = this.current;
      if (current.ns === HTML || this.isIntegrationPoint(current)) return;
      this.pop();
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign — start tags. */
  private foreignStartTag(token: TagToken): void {
    if (leavesForeignContent.has(token.tagID) || (token.tagID === TAG.FONT && hasFontAttribute(token.attrs))) {
      this.popToHTMLOrIntegrationPoint();
      return this.startTag(this.mode, token);
    }
    const ns = this.current.ns;
    let tagName = token.tagName;
    let id = token.tagID;
    if (ns === SVG) {
      const adjusted = svgTagNames.get(tagName);
      // The adjusted name has its own id (foreignObject's; "foreignobject" has none).
      if (adjusted !== undefined) {
        tagName = adjusted;
        id = tagID(adjusted);
      }
    }
    adjustAttributes(token, ns);
    const element = this.elementFor(token, ns, tagName, id);
    this.insert(element);
    if (token.selfClosing) this.pop();
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign — end tags. */
  private foreignEndTag(token: TagToken): void {
    const id = token.tagID;
    if (id === TAG.P || id === TAG.BR) {
      this.popToHTMLOrIntegrationPoint();
      return this.endTag(this.mode, token);
    }
    const stack = this.stack;
    const name = token.tagName;
    for (let i = stack.length - 1; i > 0; i--) {
      const node = stack[i]!;
      if (node.ns === HTML) return this.endTag(this.mode, token);
      if (node.tagName === name || (node.ns === SVG && asciiLowercase(node.tagName) === name)) {
        while (stack.length > i) this.pop();
        return;
      }
    }
  }
}

/** The start tags "in body", "after head" and "in template" process using the rules for "in head". */
const inHeadStartTags: ReadonlySet<number> = new Set([TAG.BASE, TAG.BASEFONT, TAG.BGSOUND, TAG.LINK, TAG.META, TAG.NOFRAMES, TAG.SCRIPT, TAG.STYLE, TAG.TEMPLATE, TAG.TITLE]);

const TABLE_CONTEXT = [TAG.TABLE, TAG.TEMPLATE];
const TABLE_BODY_CONTEXT = [TAG.TBODY, TAG.TFOOT, TAG.THEAD, TAG.TEMPLATE];
const TABLE_ROW_CONTEXT = [TAG.TR, TAG.TEMPLATE];

/** Where a node inserted into `element` goes: its template contents for a template. */
function contentsOr(element: Element): LeanParent {
  return element.content ?? element;
}

function isHeading(id: number): boolean {
  return id === TAG.H1 || id === TAG.H2 || id === TAG.H3 || id === TAG.H4 || id === TAG.H5 || id === TAG.H6;
}

/** The start tags that close a caption or a cell first (in caption, in cell). */
function isTableStructureStart(id: number): boolean {
  return id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.TBODY || id === TAG.TD || id === TAG.TFOOT || id === TAG.TH || id === TAG.THEAD || id === TAG.TR;
}

/** "If the token does not have an attribute with the name "type", or if it does, but that attribute's value is not an ASCII case-insensitive match for the string "hidden"". */
function isHiddenInput(token: TagToken): boolean {
  for (const attr of token.attrs) if (attr.name === "type") return asciiLowercase(attr.value) === "hidden";
  return false;
}

function hasFontAttribute(attrs: readonly Attribute[]): boolean {
  for (const attr of attrs) if (attr.name === "color" || attr.name === "face" || attr.name === "size") return true;
  return false;
}

/** Whether two attribute lists have the same names with the same values (in any order). */
function sameAttributes(a: readonly Attribute[], b: readonly Attribute[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  outer: for (const attr of a) {
    for (const other of b) if (other.name === attr.name && other.value === attr.value && other.namespace === attr.namespace) continue outer;
    return false;
  }
  return true;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#adjust-mathml-attributes,
 * #adjust-svg-attributes and #adjust-foreign-attributes: the token's
 * attributes for a foreign element of namespace `ns`, adjusted in place.
 */
function adjustAttributes(token: TagToken, ns: number): void {
  const attrs = token.attrs;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    if (ns === MATHML) {
      if (attr.name === "definitionurl") attr.name = "definitionURL";
    } else {
      const adjusted = svgAttributeNames.get(attr.name);
      if (adjusted !== undefined) attr.name = adjusted;
    }
    const foreign = foreignAttributes.get(attr.name);
    if (foreign !== undefined) {
      attr.prefix = foreign[0];
      attr.name = foreign[1];
      attr.namespace = foreign[2];
    }
  }
}

/** A `p` start tag with no attributes (an `</p>` with no p open inserts one). */
function pStartTag(): TagToken {
  return { type: 2 as TagToken["type"], tagName: "p", tagID: TAG.P, selfClosing: false, ackSelfClosing: false, attrs: [], location: null };
}

/**
 * Parses `html` as a whole document with the tree construction above (see
 * the module's comment). Null when two base elements with an href are in
 * the document's tree: which comes first in tree order is not known
 * without the tree (html-source.ts parses again, keeping it).
 *
 * @example
 * ```ts
 * parseTreeless("<p><a href=x>t</a>").tags.map((t) => t.element.tagName); // ["a"]
 * ```
 */
export function parseTreeless(html: string, scripting = true, trace: ConstructionTrace | null = null): ParsedSource | null {
  const construction = new TreeConstruction(scripting, trace);
  construction.tokenizer.run(html);
  return construction.result();
}
