/**
 * The parse state the insertion modes share — the insertion mode, the stack
 * of open elements, the list of active formatting elements, the element
 * pointers and the flags — and the algorithms that create elements and
 * insert nodes into it, recording for the document reader each start tag
 * that may carry a link (the records of a {@link ParsedSource}).
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#parse-state
 * https://html.spec.whatwg.org/multipage/parsing.html#creating-and-inserting-nodes
 *
 * @module
 */

import type { Token } from "parse5";
import { isParsedBaseElementWithHref } from "../html/index.ts";
import { ActiveFormattingElements, type FormattingInserter } from "./active-formatting-elements.ts";
import { ConstructedElement, contentsOr, NO_CHILDREN } from "./constructed-element.ts";
import { FOSTER_TARGET, HTML, kindOf, SVG, TAG } from "./element-kinds.ts";
import { HTMLTokenizer } from "./html-tokenizer.ts";
import { objectList } from "./object-list.ts";
import { OpenElements } from "./open-elements.ts";
import {
  attachesDeclarativeShadowRoot,
  type Attribute,
  type LeanDocument,
  type LeanElement,
  type LeanParent,
  mayBeTarget,
  mayHaveLinks,
  type ParsedSource,
  startTagRecord,
  type TagRecord,
} from "./parsed-source.ts";

type Element = ConstructedElement;

/**
 * A tag token as the tokenizer gives it (parse5's shape).
 *
 * @example
 * ```ts
 * const token: TagToken = pStartTag();
 * ```
 */
export type TagToken = Token.TagToken;

/**
 * The classes of character tokens the insertion modes tell apart: other
 * characters, ASCII whitespace, U+0000.
 *
 * @example
 * ```ts
 * state.charactersIn(IN_BODY, WHITESPACE, null);
 * ```
 */
export const CHARACTER = 0;
export const WHITESPACE = 1;
export const NULL = 2;

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-insertion-mode —
 * the insertion modes, as small numbers.
 *
 * @example
 * ```ts
 * state.mode === IN_BODY; // after `<body>`
 * ```
 */
export const INITIAL = 0;
export const BEFORE_HTML = 1;
export const BEFORE_HEAD = 2;
export const IN_HEAD = 3;
export const IN_HEAD_NOSCRIPT = 4;
export const AFTER_HEAD = 5;
export const IN_BODY = 6;
export const TEXT = 7;
export const IN_TABLE = 8;
export const IN_TABLE_TEXT = 9;
export const IN_CAPTION = 10;
export const IN_COLUMN_GROUP = 11;
export const IN_TABLE_BODY = 12;
export const IN_ROW = 13;
export const IN_CELL = 14;
export const IN_SELECT = 15;
export const IN_SELECT_IN_TABLE = 16;
export const IN_TEMPLATE = 17;
export const AFTER_BODY = 18;
export const IN_FRAMESET = 19;
export const AFTER_FRAMESET = 20;
export const AFTER_AFTER_BODY = 21;
export const AFTER_AFTER_FRAMESET = 22;

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

/**
 * The parse state of one document and the algorithms for creating and
 * inserting nodes. The insertion modes (in-head-modes.ts, in-body-mode.ts,
 * in-table-modes.ts, foreign-content.ts, tree-construction.ts) read and
 * change it; the tree construction (tree-construction.ts) gives the
 * dispatch that processes a token "using the rules for" a mode.
 *
 * @example
 * ```ts
 * class Construction extends ParseState { … } // see tree-construction.ts
 * ```
 */
export abstract class ParseState implements FormattingInserter {
  readonly tokenizer: HTMLTokenizer;
  /** "The scripting flag": with it, `noscript` content is raw text. */
  readonly scripting: boolean;
  private readonly trace: ConstructionTrace | null;
  /** Whether an SVG `style` keeps its text (its CSS is read for links); a reading that reads no link keeps none. */
  private readonly keepStyleText: boolean;
  /** The document: the parent of the `html` element (its children are not kept). */
  readonly document: LeanDocument = { nodeName: "#document", mode: "no-quirks", childNodes: [] };
  quirks = false;

  /** https://html.spec.whatwg.org/multipage/parsing.html#insertion-mode */
  mode = INITIAL;
  /** https://html.spec.whatwg.org/multipage/parsing.html#original-insertion-mode */
  originalMode = INITIAL;
  /** https://html.spec.whatwg.org/multipage/parsing.html#stack-of-template-insertion-modes */
  readonly templateModes: number[] = [];
  /** https://html.spec.whatwg.org/multipage/parsing.html#stack-of-open-elements */
  readonly open = new OpenElements();
  /** https://html.spec.whatwg.org/multipage/parsing.html#list-of-active-formatting-elements */
  readonly formatting = new ActiveFormattingElements();
  /** https://html.spec.whatwg.org/multipage/parsing.html#head-element-pointer */
  headElement: Element | null = null;
  /** https://html.spec.whatwg.org/multipage/parsing.html#form-element-pointer */
  formElement: Element | null = null;
  /** https://html.spec.whatwg.org/multipage/parsing.html#frameset-ok-flag — true for "ok". */
  framesetOk = true;
  /** https://html.spec.whatwg.org/multipage/parsing.html#foster-parent — whether an insertion now is foster-parented (when its target is a table part). */
  fosterParenting = false;
  /** After a `pre`, `listing` or `textarea` start tag: a newline that starts the next token is dropped. */
  skipNewline = false;
  /** https://html.spec.whatwg.org/multipage/parsing.html#concept-pending-table-char-tokens — only whether they hold more than whitespace matters here. */
  pendingTableNonWhitespace = false;

  private shadowHosts: Set<LeanElement> | null = null;
  private pendingShadowTemplate: Element | null = null;

  // The records (see ParsedSource).
  /** The records made, in source order (a stream takes them as it reads them: see streaming-source.ts). */
  readonly tags: TagRecord[] = objectList();
  /** Where the text the tokenizer reads starts in the whole input (see TagRecord.origin): a stream's piece's. */
  origin = 0;
  positions = new Int32Array(1024);
  positionsLength = 0;
  hasBaseWithHref = false;
  /** How many HTML base elements with an href the parser made, wherever (in template contents too). */
  protected baseCount = 0;
  /** The HTML base elements with an href made in no template contents, in the order made. */
  protected readonly bases: Element[] = objectList();
  /** The table the node being inserted goes before (foster parenting), or null (see appropriateParent). */
  private fosterTable: Element | null = null;
  private fosterParentedBeforeBase = false;
  readonly targetCandidates: Element[] = objectList();
  /** Whether {@link targetCandidates} are noted: a stream that checks no fragments keeps none, so its memory does not grow with the page's ids. */
  readonly noteTargets: boolean;

  constructor(scripting: boolean, trace: ConstructionTrace | null, keepStyleText: boolean, noteTargets = true) {
    this.scripting = scripting;
    this.trace = trace;
    this.keepStyleText = keepStyleText;
    this.noteTargets = noteTargets;
    this.tokenizer = new HTMLTokenizer(this);
  }

  // --- The dispatch (tree-construction.ts) ---------------------------------------------------

  /** Processes a start tag using the rules for insertion mode `mode`. */
  abstract startTag(mode: number, token: TagToken): void;
  /** Processes an end tag using the rules for insertion mode `mode`. */
  abstract endTag(mode: number, token: TagToken): void;
  /** Processes a character token of class `type` (CHARACTER, WHITESPACE, NULL) using the rules for insertion mode `mode` (`chars`: its text, or null for the tokenizer's). */
  abstract charactersIn(mode: number, type: number, chars: string | null): void;

  // --- What a stream reads (streaming-source.ts) -----------------------------------------------

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

  // --- Where a node goes ---------------------------------------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#current-node */
  get current(): Element {
    return this.open.current;
  }

  /** Where the element being made goes: 0, the document's tree; 1, inert template contents; 2, a declarative shadow root (the topmost open template's contents). */
  templateKind(): 0 | 1 | 2 {
    const at = this.open.indexOf(TAG.TEMPLATE);
    return at === -1 ? 0 : this.open.items[at]!.content!.kind;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#appropriate-place-for-inserting-a-node —
   * the parent a node inserted now gets (with `override` as the override target).
   */
  appropriateParent(override: Element | null = null): LeanParent {
    const target = override ?? this.open.current;
    this.fosterTable = null;
    if (this.fosterParenting && (target.kind & FOSTER_TARGET) !== 0) {
      // https://html.spec.whatwg.org/multipage/parsing.html#foster-parent
      const items = this.open.items;
      const table = this.open.indexOf(TAG.TABLE);
      const template = this.open.indexOf(TAG.TEMPLATE);
      // "If there is a last template and either there is no last table, or there is one, but last template is lower
      // (more recently added) than last table in the stack of open elements": inside its template contents.
      if (template !== -1 && template > table) return items[template]!.content!;
      if (table === -1) return items[0]!;
      const parent = items[table]!.parentNode;
      if (parent !== null) {
        // "The adjusted insertion location … immediately before last table".
        this.fosterTable = items[table]!;
        return parent;
      }
      return contentsOr(items[table - 1]!);
    }
    return contentsOr(target);
  }

  /** Puts `element` at the appropriate place (its parent) and pushes it onto the stack of open elements. */
  insert(element: Element, override: Element | null = null): void {
    this.place(element, this.appropriateParent(override));
    this.open.push(element);
  }

  /** Puts `element` under `parent` (the appropriate place just found), keeping it as a child only where children are kept. */
  place(element: Element, parent: LeanParent): void {
    this.placeAgain(element, parent);
    if (parent.childNodes !== NO_CHILDREN && parent.nodeName !== "#document") parent.childNodes.push(element);
  }

  /** Moves `element` (already made) under `parent`. */
  placeAgain(element: Element, parent: LeanParent): void {
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

  // --- Making elements ----------------------------------------------------------------------------

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#create-an-element-for-the-token —
   * the element for `token` in namespace `ns` (its tag name already
   * adjusted), recorded when it may carry a link.
   */
  elementFor(token: TagToken, ns: number, tagName: string = token.tagName, id: number = token.tagID): Element {
    const element = new ConstructedElement(tagName, ns, id, token.attrs, kindOf(ns, id), ns === SVG && id === TAG.STYLE && this.keepStyleText);
    const attrs = token.attrs;
    // Only the element of the start tag being handled is recorded (not the clones made from an earlier token's list).
    const emitted = attrs === this.tokenizer.emittingAttrs;
    if (id === TAG.TEMPLATE && ns === HTML) {
      const kind = emitted && this.isDeclarativeShadowRoot(element) && this.templateKind() !== 1 ? 2 : 1;
      element.content = { nodeName: "#document-fragment", childNodes: NO_CHILDREN, kind, host: element };
    }
    this.trace?.onElement(element, this.open.templateCount);
    if (!emitted) return element;
    const where = this.templateKind();
    if (where === 0 && this.noteTargets && mayBeTarget(attrs)) this.targetCandidates.push(element);
    if (!mayHaveLinks(tagName, attrs)) return element;
    if (isParsedBaseElementWithHref(element)) {
      this.hasBaseWithHref = true;
      this.baseCount++;
      if (where === 0) this.bases.push(element);
    }
    this.tags.push(this.tagRecord(element, attrs, null, where));
    return element;
  }

  /** An element the parser makes without a token of its own (html, head, body, tbody, tr, colgroup, br): no attributes, never recorded. */
  impliedElement(tagName: string, id: number): Element {
    const element = new ConstructedElement(tagName, HTML, id, [], kindOf(HTML, id));
    this.trace?.onElement(element, this.open.templateCount);
    return element;
  }

  /** A clone of a formatting element, from its token's attributes (the adoption agency, the reconstruction). */
  cloneElement(original: Element): Element {
    const element = new ConstructedElement(original.tagName, original.ns, original.id, original.attrs, original.kind);
    this.trace?.onElement(element, this.open.templateCount);
    return element;
  }

  /** For the reconstruction of the active formatting elements: a clone of `element`, inserted. */
  insertCloneOf(element: Element): Element {
    const clone = this.cloneElement(element);
    this.insert(clone);
    return clone;
  }

  /** The record of a start tag (or of the attributes a second `html` or `body` start tag added: `adopted`). */
  tagRecord(element: Element, attrs: Attribute[], adopted: ReadonlySet<Attribute> | null, where: 0 | 1 | 2): TagRecord {
    return startTagRecord(element, this.tokenizer, this, this.origin, attrs, adopted, where);
  }

  /** Whether `template`, being made, is a declarative shadow root the standard's parser would attach (see attachesDeclarativeShadowRoot). */
  private isDeclarativeShadowRoot(template: Element): boolean {
    const open = this.open;
    return attachesDeclarativeShadowRoot(template.attrs, open.current, open.length === 1, (this.shadowHosts ??= new Set()));
  }

  // --- Inserting ------------------------------------------------------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#insert-an-html-element */
  insertHTMLElement(token: TagToken): Element {
    const element = this.elementFor(token, HTML);
    this.insert(element);
    return element;
  }

  /** Inserts an HTML element for `token` and pops it at once (a void element; "acknowledge the token's self-closing flag"). */
  insertVoid(token: TagToken): Element {
    const element = this.insertHTMLElement(token);
    this.open.pop();
    return element;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#insert-a-character —
   * only an SVG `style` keeps its text (its CSS is read from it).
   */
  insertCharacters(text: string | null): void {
    const parent = this.appropriateParent();
    if (parent.childNodes === NO_CHILDREN || parent.nodeName === "#document") return;
    const chars = text ?? this.tokenizer.characterText();
    const children = parent.childNodes;
    const last = children[children.length - 1];
    if (last !== undefined && last.nodeName === "#text") (last as { value: string }).value += chars;
    else children.push({ nodeName: "#text", value: chars, parentNode: parent });
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#generic-raw-text-element-parsing-algorithm (and RCDATA's): `state` is the tokenizer's. */
  textElement(token: TagToken, state: number): void {
    this.insertHTMLElement(token);
    this.tokenizer.state = state;
    this.originalMode = this.mode;
    this.mode = TEXT;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#reconstruct-the-active-formatting-elements */
  reconstructFormatting(): void {
    this.formatting.reconstruct(this);
  }

  // --- The insertion mode -------------------------------------------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#reset-the-insertion-mode-appropriately */
  resetInsertionMode(): void {
    const items = this.open.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const node = items[i]!;
      const last = i === 0;
      if (node.ns !== HTML) {
        if (last) this.mode = IN_BODY;
        continue;
      }
      switch (node.id) {
        case TAG.SELECT:
          if (!last) {
            for (let j = i - 1; j > 0; j--) {
              const ancestor = items[j]!;
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

  /** The result of a whole parse (see tree-construction.ts's `result`). */
  protected parsedSource(document: LeanDocument, basesInOrder = false): ParsedSource {
    const parsed = { document, tags: this.tags, hasBaseWithHref: this.hasBaseWithHref, positions: this.positions, targetCandidates: this.targetCandidates };
    return basesInOrder ? { ...parsed, basesInOrder } : parsed;
  }
}
