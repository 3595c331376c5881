/**
 * The HTML Standard's tree construction for link work, keeping no tree: the
 * dispatcher that gives each token the tokenizer (html-tokenizer.ts) emits
 * to the rules of the current insertion mode — or of foreign content — and
 * the small modes that have no file of their own ("text", "in select",
 * "in select in table", "in template", "after body", the frameset modes).
 * What it records for the document reader is a {@link ParsedSource}.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#tree-construction
 *
 * It builds the tree parse5 8 builds (test/links/tree-construction.test.ts
 * compares the two on html5lib-tests and on generated documents): the
 * standard's algorithm as parse5 implements it, with the `select`
 * insertion modes and without declarative shadow roots, which are noted
 * beside the tree as html-source.ts notes them. An element knows its
 * parent and no element its children (constructed-element.ts), so one the
 * construction no longer holds and no start tag record refers to is
 * garbage. The parse state and the insertion of nodes: parse-state.ts; the
 * modes: in-head-modes.ts, in-body-mode.ts, in-table-modes.ts,
 * foreign-content.ts.
 *
 * @module
 */

import { Token } from "parse5";
import type { ConstructedElement } from "./constructed-element.ts";
import { HTML, IN_HEAD_START, kindOf, TAG } from "./element-kinds.ts";
import { charactersInForeignContent, foreignCharacters, foreignEndTag, foreignStartTag, startTagInForeignContent } from "./foreign-content.ts";
import { charactersInBody, endTagInBody, startTagInBody } from "./in-body-mode.ts";
import {
  afterHeadAnythingElse,
  beforeHeadAnythingElse,
  beforeHTMLAnythingElse,
  endTagAfterHead,
  endTagBeforeHead,
  endTagInHead,
  endTagInHeadNoscript,
  inHeadAnythingElse,
  inHeadNoscriptAnythingElse,
  initialAnythingElse,
  startTagAfterHead,
  startTagBeforeHead,
  startTagBeforeHTML,
  startTagInHead,
  startTagInHeadNoscript,
  templateEndTag,
} from "./in-head-modes.ts";
import {
  charactersInTable,
  charactersInTableText,
  columnGroupAnythingElse,
  endTagInCaption,
  endTagInCell,
  endTagInColumnGroup,
  endTagInRow,
  endTagInTable,
  endTagInTableBody,
  flushTableText,
  startTagInCaption,
  startTagInCell,
  startTagInColumnGroup,
  startTagInRow,
  startTagInTable,
  startTagInTableBody,
} from "./in-table-modes.ts";
import {
  AFTER_AFTER_BODY,
  AFTER_AFTER_FRAMESET,
  AFTER_BODY,
  AFTER_FRAMESET,
  AFTER_HEAD,
  BEFORE_HEAD,
  BEFORE_HTML,
  CHARACTER,
  type ConstructionTrace,
  IN_BODY,
  IN_CAPTION,
  IN_CELL,
  IN_COLUMN_GROUP,
  IN_FRAMESET,
  IN_HEAD,
  IN_HEAD_NOSCRIPT,
  IN_ROW,
  IN_SELECT,
  IN_SELECT_IN_TABLE,
  IN_TABLE,
  IN_TABLE_BODY,
  IN_TABLE_TEXT,
  IN_TEMPLATE,
  INITIAL,
  NULL,
  ParseState,
  type TagToken,
  TEXT,
  WHITESPACE,
} from "./parse-state.ts";
import { baseDocument, isInDocumentTree, type LeanElement, type ParsedSource } from "./parsed-source.ts";
import { isQuirksDoctype } from "./quirks-mode.ts";

export type { ConstructedElement } from "./constructed-element.ts";
export type { ConstructionTrace } from "./parse-state.ts";

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
export class TreeConstruction extends ParseState {
  constructor(scripting: boolean, trace: ConstructionTrace | null = null, keepStyleText = true, noteTargets = true) {
    super(scripting, trace, keepStyleText, noteTargets);
  }

  /**
   * What the parse gave (after the tokenizer has run): the records, the
   * elements that may be fragment targets, and a document holding a copy
   * of the first base element with an href, when one element alone can be
   * it (else `null`: see parseWithPositions in html-source.ts). With
   * `everyBase`, only when the parse knows every base element with an
   * href in tree order without the tree (see ParsedSource.basesInOrder):
   * all made outside template contents, at most one in the tree; else
   * `null`.
   */
  result(everyBase = false): ParsedSource | null {
    const bases = this.bases.filter(isInDocumentTree);
    if (bases.length > 1) return null;
    if (!everyBase) return this.parsedSource(baseDocument(bases[0] ?? null));
    // A base in template contents has its place in tree order, and may be outside the tree, by its template's place.
    if (this.baseCount !== this.bases.length) return null;
    return this.parsedSource(baseDocument(bases[0] ?? null), true);
  }

  /** Whether `element` is in the stack of open elements. */
  isOpen(element: LeanElement): boolean {
    return (element as ConstructedElement).index !== -1;
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
    return this.open.length > 0 && this.open.current.ns !== HTML;
  }

  /**
   * See the tokenizer's TreeConstruction.wholeTextRuns: in text mode
   * character tokens are ignored; in the modes whose characters go by the
   * "in body" rules, a run's whitespace and other characters alike
   * reconstruct the active formatting elements and are inserted (into an
   * HTML element: dropped), and only the others set frameset-ok to "not
   * ok" — unless a newline is to be skipped, foster parenting is on, or
   * the current node is foreign (its text may be kept).
   */
  get wholeTextRuns(): boolean {
    const mode = this.mode;
    if (this.skipNewline) return false;
    if (mode === TEXT) return true;
    if (mode !== IN_BODY && mode !== IN_CELL && mode !== IN_CAPTION && mode !== IN_TEMPLATE) return false;
    return !this.fosterParenting && this.open.length > 0 && this.open.current.ns === HTML;
  }

  // --- Tokens -----------------------------------------------------------------------

  /**
   * A character token of class `type` (the tokenizer's: parse5's token
   * types), whose text the construction asks the tokenizer for only where
   * it keeps it (see insertCharacters in parse-state.ts).
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
    if (this.mode === IN_TABLE_TEXT && !charactersInForeignContent(this)) flushTableText(this);
  }

  onDoctype(token: Token.DoctypeToken): void {
    this.skipNewline = false;
    if (this.mode === IN_TABLE_TEXT) flushTableText(this);
    // https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode — a DOCTYPE elsewhere is ignored.
    if (this.mode !== INITIAL) return;
    this.quirks = isQuirksDoctype(token);
    this.document.mode = this.quirks ? "quirks" : "no-quirks";
    this.mode = BEFORE_HTML;
  }

  onStartTag(token: TagToken): void {
    this.skipNewline = false;
    if (startTagInForeignContent(this, token)) foreignStartTag(this, token);
    else this.startTag(this.mode, token);
  }

  onEndTag(token: TagToken): void {
    this.skipNewline = false;
    // https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher — end tags go to foreign content whenever the current node is foreign.
    if (this.currentNotInHTML) foreignEndTag(this, token);
    else this.endTag(this.mode, token);
  }

  onEof(): void {
    this.eof(this.mode);
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
    if (charactersInForeignContent(this)) foreignCharacters(this, type, chars);
    else this.charactersIn(this.mode, type, chars);
  }

  // --- The dispatch by insertion mode ----------------------------------------------------

  charactersIn(mode: number, type: number, chars: string | null): void {
    switch (mode) {
      case IN_BODY:
      case IN_CAPTION:
      case IN_CELL:
      case IN_TEMPLATE:
        return charactersInBody(this, type, chars);
      case INITIAL:
        if (type === WHITESPACE) return;
        initialAnythingElse(this);
        return this.charactersIn(this.mode, type, chars);
      case BEFORE_HTML:
        if (type === WHITESPACE) return;
        beforeHTMLAnythingElse(this);
        return this.charactersIn(this.mode, type, chars);
      case BEFORE_HEAD:
        if (type === WHITESPACE) return;
        beforeHeadAnythingElse(this);
        return this.charactersIn(this.mode, type, chars);
      case IN_HEAD:
        if (type === WHITESPACE) return this.insertCharacters(chars);
        inHeadAnythingElse(this);
        return this.charactersIn(this.mode, type, chars);
      case IN_HEAD_NOSCRIPT:
        if (type === WHITESPACE) return this.charactersIn(IN_HEAD, type, chars);
        inHeadNoscriptAnythingElse(this);
        return this.charactersIn(this.mode, type, chars);
      case AFTER_HEAD:
        if (type === WHITESPACE) return this.insertCharacters(chars);
        afterHeadAnythingElse(this);
        return this.charactersIn(this.mode, type, chars);
      case TEXT:
        // Optimisation: the element of text mode (script, style, title, textarea, …) is an HTML element, which keeps no text.
        return;
      case IN_TABLE:
      case IN_TABLE_BODY:
      case IN_ROW:
        return charactersInTable(this, type, chars);
      case IN_TABLE_TEXT:
        return charactersInTableText(this, type);
      case IN_COLUMN_GROUP:
        if (type === WHITESPACE) return this.insertCharacters(chars);
        if (!columnGroupAnythingElse(this)) return;
        return this.charactersIn(this.mode, type, chars);
      case IN_SELECT:
      case IN_SELECT_IN_TABLE:
        if (type === NULL) return;
        return this.insertCharacters(chars);
      case AFTER_BODY:
      case AFTER_AFTER_BODY:
        if (type === WHITESPACE) return charactersInBody(this, type, chars);
        this.mode = IN_BODY;
        return this.charactersIn(this.mode, type, chars);
      case IN_FRAMESET:
      case AFTER_FRAMESET:
        if (type === WHITESPACE) this.insertCharacters(chars);
        return;
      case AFTER_AFTER_FRAMESET:
        if (type === WHITESPACE) charactersInBody(this, type, chars);
        return;
    }
  }

  startTag(mode: number, token: TagToken): void {
    const id = token.tagID;
    switch (mode) {
      case IN_BODY:
        return startTagInBody(this, token);
      case IN_TABLE_TEXT:
        flushTableText(this);
        return this.startTag(this.mode, token);
      case INITIAL:
        initialAnythingElse(this);
        return this.startTag(this.mode, token);
      case BEFORE_HTML:
        return startTagBeforeHTML(this, token);
      case BEFORE_HEAD:
        return startTagBeforeHead(this, token);
      case IN_HEAD:
        return startTagInHead(this, token);
      case IN_HEAD_NOSCRIPT:
        return startTagInHeadNoscript(this, token);
      case AFTER_HEAD:
        return startTagAfterHead(this, token);
      case TEXT:
        return;
      case IN_TABLE:
        return startTagInTable(this, token);
      case IN_CAPTION:
        return startTagInCaption(this, token);
      case IN_COLUMN_GROUP:
        return startTagInColumnGroup(this, token);
      case IN_TABLE_BODY:
        return startTagInTableBody(this, token);
      case IN_ROW:
        return startTagInRow(this, token);
      case IN_CELL:
        return startTagInCell(this, token);
      case IN_SELECT:
        return this.startTagInSelect(token);
      case IN_SELECT_IN_TABLE:
        if (id === TAG.CAPTION || id === TAG.TABLE || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD || id === TAG.TR || id === TAG.TD || id === TAG.TH) {
          this.open.popUntil(TAG.SELECT);
          this.resetInsertionMode();
          return this.startTag(this.mode, token);
        }
        return this.startTagInSelect(token);
      case IN_TEMPLATE:
        return this.startTagInTemplate(token);
      case AFTER_BODY:
      case AFTER_AFTER_BODY:
        if (id === TAG.HTML) return startTagInBody(this, token);
        this.mode = IN_BODY;
        return this.startTag(this.mode, token);
      case IN_FRAMESET:
        if (id === TAG.HTML) return startTagInBody(this, token);
        if (id === TAG.FRAMESET) {
          this.insertHTMLElement(token);
          return;
        }
        if (id === TAG.FRAME) {
          this.insertVoid(token);
          return;
        }
        if (id === TAG.NOFRAMES) return startTagInHead(this, token);
        return;
      case AFTER_FRAMESET:
      case AFTER_AFTER_FRAMESET:
        if (id === TAG.HTML) return startTagInBody(this, token);
        if (id === TAG.NOFRAMES) return startTagInHead(this, token);
        return;
    }
  }

  endTag(mode: number, token: TagToken): void {
    const id = token.tagID;
    switch (mode) {
      case IN_BODY:
        return endTagInBody(this, token);
      case IN_TABLE_TEXT:
        flushTableText(this);
        return this.endTag(this.mode, token);
      case INITIAL:
        initialAnythingElse(this);
        return this.endTag(this.mode, token);
      case BEFORE_HTML:
        if (!endTagBeforeHead(token)) return;
        beforeHTMLAnythingElse(this);
        return this.endTag(this.mode, token);
      case BEFORE_HEAD:
        if (!endTagBeforeHead(token)) return;
        beforeHeadAnythingElse(this);
        return this.endTag(this.mode, token);
      case IN_HEAD:
        return endTagInHead(this, token);
      case IN_HEAD_NOSCRIPT:
        return endTagInHeadNoscript(this, token);
      case AFTER_HEAD:
        return endTagAfterHead(this, token);
      case TEXT:
        this.open.pop();
        this.mode = this.originalMode;
        return;
      case IN_TABLE:
        return endTagInTable(this, token);
      case IN_CAPTION:
        return endTagInCaption(this, token);
      case IN_COLUMN_GROUP:
        return endTagInColumnGroup(this, token);
      case IN_TABLE_BODY:
        return endTagInTableBody(this, token);
      case IN_ROW:
        return endTagInRow(this, token);
      case IN_CELL:
        return endTagInCell(this, token);
      case IN_SELECT:
        return this.endTagInSelect(token);
      case IN_SELECT_IN_TABLE:
        if (id === TAG.CAPTION || id === TAG.TABLE || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD || id === TAG.TR || id === TAG.TD || id === TAG.TH) {
          if (!this.open.hasInTableScope(id)) return;
          this.open.popUntil(TAG.SELECT);
          this.resetInsertionMode();
          return this.endTag(this.mode, token);
        }
        return this.endTagInSelect(token);
      case IN_TEMPLATE:
        if (id === TAG.TEMPLATE) return templateEndTag(this);
        return;
      case AFTER_BODY:
        if (id === TAG.HTML) {
          this.mode = AFTER_AFTER_BODY;
          return;
        }
        this.mode = IN_BODY;
        return this.endTag(this.mode, token);
      case IN_FRAMESET:
        if (id === TAG.FRAMESET && this.open.length > 1) {
          this.open.pop();
          if (!this.open.isCurrent(TAG.FRAMESET)) this.mode = AFTER_FRAMESET;
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

  private eof(mode: number): void {
    switch (mode) {
      case INITIAL:
        initialAnythingElse(this);
        return this.eof(this.mode);
      case BEFORE_HTML:
        beforeHTMLAnythingElse(this);
        return this.eof(this.mode);
      case BEFORE_HEAD:
        beforeHeadAnythingElse(this);
        return this.eof(this.mode);
      case IN_HEAD:
        inHeadAnythingElse(this);
        return this.eof(this.mode);
      case IN_HEAD_NOSCRIPT:
        inHeadNoscriptAnythingElse(this);
        return this.eof(this.mode);
      case AFTER_HEAD:
        afterHeadAnythingElse(this);
        return this.eof(this.mode);
      case TEXT:
        this.open.pop();
        this.mode = this.originalMode;
        return this.eof(this.mode);
      case IN_TABLE_TEXT:
        flushTableText(this);
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
        if (this.templateModes.length === 0 || !this.open.has(TAG.TEMPLATE)) return;
        this.open.popUntil(TAG.TEMPLATE);
        this.formatting.clearToLastMarker();
        this.templateModes.pop();
        this.resetInsertionMode();
        return this.eof(this.mode);
    }
  }

  // --- In select ----------------------------------------------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inselect — start tags. */
  private startTagInSelect(token: TagToken): void {
    const open = this.open;
    switch (token.tagID) {
      case TAG.HTML:
        return startTagInBody(this, token);
      case TAG.OPTION:
        if (open.isCurrent(TAG.OPTION)) open.pop();
        this.insertHTMLElement(token);
        return;
      case TAG.OPTGROUP:
        if (open.isCurrent(TAG.OPTION)) open.pop();
        if (open.isCurrent(TAG.OPTGROUP)) open.pop();
        this.insertHTMLElement(token);
        return;
      case TAG.HR:
        if (open.isCurrent(TAG.OPTION)) open.pop();
        if (open.isCurrent(TAG.OPTGROUP)) open.pop();
        this.insertVoid(token);
        return;
      case TAG.SELECT:
        if (!open.hasInSelectScope(TAG.SELECT)) return;
        open.popUntil(TAG.SELECT);
        this.resetInsertionMode();
        return;
      case TAG.INPUT:
      case TAG.KEYGEN:
      case TAG.TEXTAREA:
        if (!open.hasInSelectScope(TAG.SELECT)) return;
        open.popUntil(TAG.SELECT);
        this.resetInsertionMode();
        return this.startTag(this.mode, token);
      case TAG.SCRIPT:
      case TAG.TEMPLATE:
        return startTagInHead(this, token);
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inselect — end tags. */
  private endTagInSelect(token: TagToken): void {
    const open = this.open;
    switch (token.tagID) {
      case TAG.OPTGROUP: {
        const below = open.items[open.length - 2];
        if (open.isCurrent(TAG.OPTION) && below !== undefined && below.ns === HTML && below.id === TAG.OPTGROUP) open.pop();
        if (open.isCurrent(TAG.OPTGROUP)) open.pop();
        return;
      }
      case TAG.OPTION:
        if (open.isCurrent(TAG.OPTION)) open.pop();
        return;
      case TAG.SELECT:
        if (!open.hasInSelectScope(TAG.SELECT)) return;
        open.popUntil(TAG.SELECT);
        this.resetInsertionMode();
        return;
      case TAG.TEMPLATE:
        return templateEndTag(this);
    }
  }

  // --- In template ----------------------------------------------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intemplate — start tags. */
  private startTagInTemplate(token: TagToken): void {
    const id = token.tagID;
    if ((kindOf(HTML, id) & IN_HEAD_START) !== 0) return startTagInHead(this, token);
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
}

/**
 * Parses `html` as a whole document with the tree construction above (see
 * the module's comment). Null when two base elements with an href are in
 * the document's tree: which comes first in tree order is not known
 * without the tree (html-source.ts parses again, keeping it); with
 * `everyBase`, also when a base element with an href is in template
 * contents (see TreeConstruction.result).
 *
 * @example
 * ```ts
 * parseTreeless("<p><a href=x>t</a>").tags.map((t) => t.element.tagName); // ["a"]
 * ```
 */
export function parseTreeless(html: string, scripting = true, trace: ConstructionTrace | null = null, everyBase = false): ParsedSource | null {
  const construction = new TreeConstruction(scripting, trace);
  construction.tokenizer.run(html);
  return construction.result(everyBase);
}
