/**
 * The table insertion modes: "in table", "in table text", "in caption",
 * "in column group", "in table body", "in row" and "in cell" — and the
 * foster parenting of what a table may not hold, by way of "in body".
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable
 *
 * @module
 */

import { FOSTER_TARGET, HTML, TAG } from "./element-kinds.ts";
import { charactersInBody, endTagInBody, isHiddenInput, startTagInBody } from "./in-body-mode.ts";
import { startTagInHead, templateEndTag } from "./in-head-modes.ts";
import { CHARACTER, IN_CELL, IN_COLUMN_GROUP, IN_ROW, IN_TABLE, IN_TABLE_BODY, IN_TABLE_TEXT, IN_CAPTION, type ParseState, type TagToken } from "./parse-state.ts";

const TABLE_CONTEXT = [TAG.TABLE, TAG.TEMPLATE];
const TABLE_BODY_CONTEXT = [TAG.TBODY, TAG.TFOOT, TAG.THEAD, TAG.TEMPLATE];
const TABLE_ROW_CONTEXT = [TAG.TR, TAG.TEMPLATE];

// --- In table ------------------------------------------------------------------------------

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable — character tokens.
 *
 * @example
 * ```ts
 * charactersInTable(state, WHITESPACE, null); // pending table character tokens
 * ```
 */
export function charactersInTable(state: ParseState, type: number, chars: string | null): void {
  const current = state.open.current;
  // "A character token, if the current node is table, tbody, template, tfoot, thead, or tr element".
  if (current.ns === HTML && ((current.kind & FOSTER_TARGET) !== 0 || current.id === TAG.TEMPLATE)) {
    state.pendingTableNonWhitespace = false;
    state.originalMode = state.mode;
    state.mode = IN_TABLE_TEXT;
    return charactersInTableText(state, type);
  }
  state.fosterParenting = true;
  charactersInBody(state, type, chars);
  state.fosterParenting = false;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable — start tags.
 *
 * @example
 * ```ts
 * startTagInTable(state, token);
 * ```
 */
export function startTagInTable(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  const open = state.open;
  switch (id) {
    case TAG.CAPTION:
      open.clearBackTo(TABLE_CONTEXT);
      state.formatting.insertMarker();
      state.insertHTMLElement(token);
      state.mode = IN_CAPTION;
      return;
    case TAG.COLGROUP:
      open.clearBackTo(TABLE_CONTEXT);
      state.insertHTMLElement(token);
      state.mode = IN_COLUMN_GROUP;
      return;
    case TAG.COL:
      open.clearBackTo(TABLE_CONTEXT);
      state.insert(state.impliedElement("colgroup", TAG.COLGROUP));
      state.mode = IN_COLUMN_GROUP;
      return state.startTag(state.mode, token);
    case TAG.TBODY:
    case TAG.TFOOT:
    case TAG.THEAD:
      open.clearBackTo(TABLE_CONTEXT);
      state.insertHTMLElement(token);
      state.mode = IN_TABLE_BODY;
      return;
    case TAG.TD:
    case TAG.TH:
    case TAG.TR:
      open.clearBackTo(TABLE_CONTEXT);
      state.insert(state.impliedElement("tbody", TAG.TBODY));
      state.mode = IN_TABLE_BODY;
      return state.startTag(state.mode, token);
    case TAG.TABLE:
      if (!open.hasInTableScope(TAG.TABLE)) return;
      open.popUntil(TAG.TABLE);
      state.resetInsertionMode();
      return state.startTag(state.mode, token);
    case TAG.STYLE:
    case TAG.SCRIPT:
    case TAG.TEMPLATE:
      return startTagInHead(state, token);
    case TAG.INPUT:
      if (!isHiddenInput(token)) break;
      state.insertVoid(token);
      return;
    case TAG.FORM:
      if (open.has(TAG.TEMPLATE) || state.formElement !== null) return;
      state.formElement = state.insertHTMLElement(token);
      open.pop();
      return;
  }
  state.fosterParenting = true;
  startTagInBody(state, token);
  state.fosterParenting = false;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable — end tags.
 *
 * @example
 * ```ts
 * endTagInTable(state, token);
 * ```
 */
export function endTagInTable(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.TABLE) {
    if (!state.open.hasInTableScope(TAG.TABLE)) return;
    state.open.popUntil(TAG.TABLE);
    state.resetInsertionMode();
    return;
  }
  if (id === TAG.TEMPLATE) return templateEndTag(state);
  if (id === TAG.BODY || id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML || id === TAG.TBODY || id === TAG.TD || id === TAG.TFOOT || id === TAG.TH || id === TAG.THEAD || id === TAG.TR) return;
  state.fosterParenting = true;
  endTagInBody(state, token);
  state.fosterParenting = false;
}

// --- In table text ---------------------------------------------------------------------------

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intabletext — character tokens: only whether
 * they hold more than whitespace is kept.
 *
 * @example
 * ```ts
 * charactersInTableText(state, CHARACTER);
 * ```
 */
export function charactersInTableText(state: ParseState, type: number): void {
  if (type === CHARACTER) state.pendingTableNonWhitespace = true;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intabletext — anything else: the pending character tokens.
 *
 * @example
 * ```ts
 * flushTableText(state); // back to the original insertion mode
 * ```
 */
export function flushTableText(state: ParseState): void {
  if (state.pendingTableNonWhitespace) {
    // "Reprocess the character tokens … using the rules given in the "anything else" entry in the "in table" insertion mode."
    state.fosterParenting = true;
    state.reconstructFormatting();
    state.framesetOk = false;
    state.fosterParenting = false;
  }
  state.pendingTableNonWhitespace = false;
  state.mode = state.originalMode;
}

// --- In caption ------------------------------------------------------------------------------

/** The start tags that close a caption or a cell first (in caption, in cell). */
function isTableStructureStart(id: number): boolean {
  return id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.TBODY || id === TAG.TD || id === TAG.TFOOT || id === TAG.TH || id === TAG.THEAD || id === TAG.TR;
}

function closeCaption(state: ParseState): void {
  state.open.generateImpliedEndTags();
  state.open.popUntil(TAG.CAPTION);
  state.formatting.clearToLastMarker();
  state.mode = IN_TABLE;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incaption — start tags.
 *
 * @example
 * ```ts
 * startTagInCaption(state, token);
 * ```
 */
export function startTagInCaption(state: ParseState, token: TagToken): void {
  if (!isTableStructureStart(token.tagID)) return startTagInBody(state, token);
  if (!state.open.hasInTableScope(TAG.CAPTION)) return;
  closeCaption(state);
  state.startTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incaption — end tags.
 *
 * @example
 * ```ts
 * endTagInCaption(state, token);
 * ```
 */
export function endTagInCaption(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.CAPTION || id === TAG.TABLE) {
    if (!state.open.hasInTableScope(TAG.CAPTION)) return;
    closeCaption(state);
    if (id === TAG.TABLE) state.endTag(state.mode, token);
    return;
  }
  if (id === TAG.BODY || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML || id === TAG.TBODY || id === TAG.TD || id === TAG.TFOOT || id === TAG.TH || id === TAG.THEAD || id === TAG.TR) return;
  endTagInBody(state, token);
}

// --- In column group -------------------------------------------------------------------------

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incolgroup — anything else: false when the
 * token is ignored (the current node is not a colgroup); else the colgroup is popped, to process the token "in table".
 *
 * @example
 * ```ts
 * if (columnGroupAnythingElse(state)) state.startTag(state.mode, token);
 * ```
 */
export function columnGroupAnythingElse(state: ParseState): boolean {
  if (!state.open.isCurrent(TAG.COLGROUP)) return false;
  state.open.pop();
  state.mode = IN_TABLE;
  return true;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incolgroup — start tags.
 *
 * @example
 * ```ts
 * startTagInColumnGroup(state, token);
 * ```
 */
export function startTagInColumnGroup(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.HTML) return startTagInBody(state, token);
  if (id === TAG.COL) {
    state.insertVoid(token);
    return;
  }
  if (id === TAG.TEMPLATE) return startTagInHead(state, token);
  if (columnGroupAnythingElse(state)) state.startTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incolgroup — end tags.
 *
 * @example
 * ```ts
 * endTagInColumnGroup(state, token);
 * ```
 */
export function endTagInColumnGroup(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.COLGROUP) {
    columnGroupAnythingElse(state);
    return;
  }
  if (id === TAG.COL) return;
  if (id === TAG.TEMPLATE) return templateEndTag(state);
  if (columnGroupAnythingElse(state)) state.endTag(state.mode, token);
}

// --- In table body ---------------------------------------------------------------------------

/** Whether a tbody, thead or tfoot is in table scope. */
function tableBodyInTableScope(state: ParseState): boolean {
  const open = state.open;
  return open.hasInTableScope(TAG.TBODY) || open.hasInTableScope(TAG.THEAD) || open.hasInTableScope(TAG.TFOOT);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intbody — start tags.
 *
 * @example
 * ```ts
 * startTagInTableBody(state, token);
 * ```
 */
export function startTagInTableBody(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  const open = state.open;
  if (id === TAG.TR) {
    open.clearBackTo(TABLE_BODY_CONTEXT);
    state.insertHTMLElement(token);
    state.mode = IN_ROW;
    return;
  }
  if (id === TAG.TH || id === TAG.TD) {
    open.clearBackTo(TABLE_BODY_CONTEXT);
    state.insert(state.impliedElement("tr", TAG.TR));
    state.mode = IN_ROW;
    return state.startTag(state.mode, token);
  }
  if (id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD) {
    if (!tableBodyInTableScope(state)) return;
    open.clearBackTo(TABLE_BODY_CONTEXT);
    open.pop();
    state.mode = IN_TABLE;
    return state.startTag(state.mode, token);
  }
  startTagInTable(state, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intbody — end tags.
 *
 * @example
 * ```ts
 * endTagInTableBody(state, token);
 * ```
 */
export function endTagInTableBody(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  const open = state.open;
  if (id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD) {
    if (!open.hasInTableScope(id)) return;
    open.clearBackTo(TABLE_BODY_CONTEXT);
    open.pop();
    state.mode = IN_TABLE;
    return;
  }
  if (id === TAG.TABLE) {
    if (!tableBodyInTableScope(state)) return;
    open.clearBackTo(TABLE_BODY_CONTEXT);
    open.pop();
    state.mode = IN_TABLE;
    return state.endTag(state.mode, token);
  }
  if (id === TAG.BODY || id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML || id === TAG.TD || id === TAG.TH || id === TAG.TR) return;
  endTagInTable(state, token);
}

// --- In row ----------------------------------------------------------------------------------

function closeRow(state: ParseState): void {
  state.open.clearBackTo(TABLE_ROW_CONTEXT);
  state.open.pop();
  state.mode = IN_TABLE_BODY;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intr — start tags.
 *
 * @example
 * ```ts
 * startTagInRow(state, token);
 * ```
 */
export function startTagInRow(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.TH || id === TAG.TD) {
    state.open.clearBackTo(TABLE_ROW_CONTEXT);
    state.insertHTMLElement(token);
    state.mode = IN_CELL;
    state.formatting.insertMarker();
    return;
  }
  if (id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD || id === TAG.TR) {
    if (!state.open.hasInTableScope(TAG.TR)) return;
    closeRow(state);
    return state.startTag(state.mode, token);
  }
  startTagInTable(state, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intr — end tags.
 *
 * @example
 * ```ts
 * endTagInRow(state, token);
 * ```
 */
export function endTagInRow(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  const open = state.open;
  if (id === TAG.TR) {
    if (!open.hasInTableScope(TAG.TR)) return;
    closeRow(state);
    return;
  }
  if (id === TAG.TABLE) {
    if (!open.hasInTableScope(TAG.TR)) return;
    closeRow(state);
    return state.endTag(state.mode, token);
  }
  if (id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD) {
    if (!open.hasInTableScope(id)) return;
    if (!open.hasInTableScope(TAG.TR)) return;
    closeRow(state);
    return state.endTag(state.mode, token);
  }
  if (id === TAG.BODY || id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML || id === TAG.TD || id === TAG.TH) return;
  endTagInTable(state, token);
}

// --- In cell ---------------------------------------------------------------------------------

/** https://html.spec.whatwg.org/multipage/parsing.html#close-the-cell */
function closeCell(state: ParseState): void {
  const open = state.open;
  open.generateImpliedEndTags();
  while (open.length > 0) {
    const element = open.pop();
    if (element.ns === HTML && (element.id === TAG.TD || element.id === TAG.TH)) break;
  }
  state.formatting.clearToLastMarker();
  state.mode = IN_ROW;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd — start tags.
 *
 * @example
 * ```ts
 * startTagInCell(state, token);
 * ```
 */
export function startTagInCell(state: ParseState, token: TagToken): void {
  if (!isTableStructureStart(token.tagID)) return startTagInBody(state, token);
  const open = state.open;
  if (!open.hasInTableScope(TAG.TD) && !open.hasInTableScope(TAG.TH)) return;
  closeCell(state);
  state.startTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd — end tags.
 *
 * @example
 * ```ts
 * endTagInCell(state, token);
 * ```
 */
export function endTagInCell(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  const open = state.open;
  if (id === TAG.TD || id === TAG.TH) {
    if (!open.hasInTableScope(id)) return;
    open.generateImpliedEndTags();
    open.popUntil(id);
    state.formatting.clearToLastMarker();
    state.mode = IN_ROW;
    return;
  }
  if (id === TAG.BODY || id === TAG.CAPTION || id === TAG.COL || id === TAG.COLGROUP || id === TAG.HTML) return;
  if (id === TAG.TABLE || id === TAG.TBODY || id === TAG.TFOOT || id === TAG.THEAD || id === TAG.TR) {
    if (!open.hasInTableScope(id)) return;
    closeCell(state);
    return state.endTag(state.mode, token);
  }
  endTagInBody(state, token);
}
