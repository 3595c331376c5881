/**
 * The "in body" insertion mode: the rules for the tokens of a document's
 * body, which most of a page's tags meet (the table modes hand what they do
 * not handle themselves to it too).
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody
 *
 * @module
 */

import { TokenizerMode } from "parse5";
import { asciiLowercase } from "../core/infra.ts";
import { adoptionAgency } from "./adoption-agency.ts";
import type { ConstructedElement } from "./constructed-element.ts";
import { BLOCK_END, BLOCK_START, FORMATTING, HTML, IN_HEAD_START, kindOf, MATHML, SVG, TAG } from "./element-kinds.ts";
import { adjustAttributes } from "./foreign-content.ts";
import { startTagInHead, templateEndTag } from "./in-head-modes.ts";
import {
  AFTER_BODY,
  CHARACTER,
  IN_CAPTION,
  IN_CELL,
  IN_FRAMESET,
  IN_ROW,
  IN_SELECT,
  IN_SELECT_IN_TABLE,
  IN_TABLE,
  IN_TABLE_BODY,
  NULL,
  type ParseState,
  TEXT,
  type TagToken,
} from "./parse-state.ts";
import { type Attribute, mayBeTarget } from "./parsed-source.ts";

type Element = ConstructedElement;

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody — character tokens.
 *
 * @example
 * ```ts
 * charactersInBody(state, CHARACTER, null); // the formatting elements reconstructed; frameset not ok
 * ```
 */
export function charactersInBody(state: ParseState, type: number, chars: string | null): void {
  if (type === NULL) return;
  state.reconstructFormatting();
  // Optimisation: without foster parenting, text goes into the current node, and an HTML element keeps none.
  if (state.fosterParenting || state.open.current.ns !== HTML) state.insertCharacters(chars);
  if (type === CHARACTER) state.framesetOk = false;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody — start tags.
 *
 * @example
 * ```ts
 * startTagInBody(state, token);
 * ```
 */
export function startTagInBody(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  const kind = kindOf(HTML, id);
  if ((kind & IN_HEAD_START) !== 0) return startTagInHead(state, token);
  const open = state.open;
  if ((kind & BLOCK_START) !== 0) {
    closePInButtonScope(state);
    state.insertHTMLElement(token);
    return;
  }
  if ((kind & FORMATTING) !== 0 && id !== TAG.A && id !== TAG.NOBR) {
    state.reconstructFormatting();
    state.formatting.push(state.insertHTMLElement(token));
    return;
  }
  switch (id) {
    case TAG.HTML:
      if (open.has(TAG.TEMPLATE)) return;
      adoptAttributes(state, open.items[0]!, token.attrs);
      return;
    case TAG.BODY: {
      const body = open.items[1];
      if (body === undefined || body.id !== TAG.BODY || body.ns !== HTML || open.has(TAG.TEMPLATE)) return;
      state.framesetOk = false;
      adoptAttributes(state, body, token.attrs);
      return;
    }
    case TAG.FRAMESET: {
      const body = open.items[1];
      if (body === undefined || body.id !== TAG.BODY || body.ns !== HTML) return;
      if (!state.framesetOk) return;
      // "Remove the second element on the stack of open elements from its parent node, if it has one."
      body.parentNode = null;
      while (open.length > 1) open.pop();
      state.insertHTMLElement(token);
      state.mode = IN_FRAMESET;
      return;
    }
    case TAG.H1:
    case TAG.H2:
    case TAG.H3:
    case TAG.H4:
    case TAG.H5:
    case TAG.H6: {
      closePInButtonScope(state);
      const current = open.current;
      if (current.ns === HTML && isHeading(current.id)) open.pop();
      state.insertHTMLElement(token);
      return;
    }
    case TAG.PRE:
    case TAG.LISTING:
      closePInButtonScope(state);
      state.insertHTMLElement(token);
      state.skipNewline = true;
      state.framesetOk = false;
      return;
    case TAG.FORM: {
      const inTemplate = open.has(TAG.TEMPLATE);
      if (state.formElement !== null && !inTemplate) return;
      closePInButtonScope(state);
      const form = state.insertHTMLElement(token);
      if (!inTemplate) state.formElement = form;
      return;
    }
    case TAG.LI:
    case TAG.DD:
    case TAG.DT:
      return listItemStart(state, token);
    case TAG.PLAINTEXT:
      closePInButtonScope(state);
      state.insertHTMLElement(token);
      state.tokenizer.state = TokenizerMode.PLAINTEXT;
      return;
    case TAG.BUTTON:
      if (open.hasInScope(TAG.BUTTON)) {
        open.generateImpliedEndTags();
        open.popUntil(TAG.BUTTON);
      }
      state.reconstructFormatting();
      state.insertHTMLElement(token);
      state.framesetOk = false;
      return;
    case TAG.A: {
      // "If the list of active formatting elements contains an a element between the end of the list and the last
      // marker on the list (or the start of the list if there is no marker on the list)".
      const a = state.formatting.lastNamed(TAG.A);
      if (a !== -1) {
        const element = state.formatting.entries[a]!;
        if (!adoptionAgency(state, token)) anyOtherEndTag(state, token);
        state.formatting.remove(element);
        open.remove(element);
      }
      state.reconstructFormatting();
      state.formatting.push(state.insertHTMLElement(token));
      return;
    }
    case TAG.NOBR:
      state.reconstructFormatting();
      if (open.hasInScope(TAG.NOBR)) {
        if (!adoptionAgency(state, token)) anyOtherEndTag(state, token);
        state.reconstructFormatting();
      }
      state.formatting.push(state.insertHTMLElement(token));
      return;
    case TAG.APPLET:
    case TAG.MARQUEE:
    case TAG.OBJECT:
      state.reconstructFormatting();
      state.insertHTMLElement(token);
      state.formatting.insertMarker();
      state.framesetOk = false;
      return;
    case TAG.TABLE:
      if (!state.quirks) closePInButtonScope(state);
      state.insertHTMLElement(token);
      state.framesetOk = false;
      state.mode = IN_TABLE;
      return;
    case TAG.AREA:
    case TAG.BR:
    case TAG.EMBED:
    case TAG.IMG:
    case TAG.KEYGEN:
    case TAG.WBR:
      state.reconstructFormatting();
      state.insertVoid(token);
      state.framesetOk = false;
      return;
    case TAG.INPUT:
      state.reconstructFormatting();
      state.insertVoid(token);
      if (!isHiddenInput(token)) state.framesetOk = false;
      return;
    case TAG.PARAM:
    case TAG.SOURCE:
    case TAG.TRACK:
      state.insertVoid(token);
      return;
    case TAG.HR:
      closePInButtonScope(state);
      state.insertVoid(token);
      state.framesetOk = false;
      return;
    case TAG.IMAGE:
      // "Parse error. Change the token's tag name to "img" and reprocess it. (Don't ask.)"
      token.tagName = "img";
      token.tagID = TAG.IMG;
      return startTagInBody(state, token);
    case TAG.TEXTAREA:
      state.insertHTMLElement(token);
      state.skipNewline = true;
      state.tokenizer.state = TokenizerMode.RCDATA;
      state.originalMode = state.mode;
      state.framesetOk = false;
      state.mode = TEXT;
      return;
    case TAG.XMP:
      closePInButtonScope(state);
      state.reconstructFormatting();
      state.framesetOk = false;
      return state.textElement(token, TokenizerMode.RAWTEXT);
    case TAG.IFRAME:
      state.framesetOk = false;
      return state.textElement(token, TokenizerMode.RAWTEXT);
    case TAG.NOEMBED:
      return state.textElement(token, TokenizerMode.RAWTEXT);
    case TAG.NOSCRIPT:
      if (state.scripting) return state.textElement(token, TokenizerMode.RAWTEXT);
      break;
    case TAG.SELECT: {
      state.reconstructFormatting();
      state.insertHTMLElement(token);
      state.framesetOk = false;
      const mode = state.mode;
      state.mode = mode === IN_TABLE || mode === IN_CAPTION || mode === IN_TABLE_BODY || mode === IN_ROW || mode === IN_CELL ? IN_SELECT_IN_TABLE : IN_SELECT;
      return;
    }
    case TAG.OPTGROUP:
    case TAG.OPTION:
      if (open.isCurrent(TAG.OPTION)) open.pop();
      state.reconstructFormatting();
      state.insertHTMLElement(token);
      return;
    case TAG.RB:
    case TAG.RTC:
      if (open.hasInScope(TAG.RUBY)) open.generateImpliedEndTags();
      state.insertHTMLElement(token);
      return;
    case TAG.RP:
    case TAG.RT:
      if (open.hasInScope(TAG.RUBY)) open.generateImpliedEndTags(TAG.RTC);
      state.insertHTMLElement(token);
      return;
    case TAG.MATH:
    case TAG.SVG: {
      state.reconstructFormatting();
      const ns = id === TAG.MATH ? MATHML : SVG;
      adjustAttributes(token, ns);
      state.insert(state.elementFor(token, ns));
      if (token.selfClosing) open.pop();
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
  state.reconstructFormatting();
  state.insertHTMLElement(token);
}

/** https://html.spec.whatwg.org/multipage/parsing.html#close-a-p-element */
function closeP(state: ParseState): void {
  state.open.generateImpliedEndTags(TAG.P);
  state.open.popUntil(TAG.P);
}

/** "If the stack of open elements has a p element in button scope, then close a p element." */
function closePInButtonScope(state: ParseState): void {
  if (state.open.hasInButtonScope(TAG.P)) closeP(state);
}

/** In body, a start tag li, dd or dt. */
function listItemStart(state: ParseState, token: TagToken): void {
  state.framesetOk = false;
  const open = state.open;
  const node = open.listItemToClose(token.tagID);
  if (node !== null) {
    open.generateImpliedEndTags(node.id);
    open.popUntil(node.id);
  }
  closePInButtonScope(state);
  state.insertHTMLElement(token);
}

/**
 * A second `html` or `body` start tag: "for each attribute on the token,
 * check to see if the attribute is already present on the top element
 * … If it is not, add the attribute". Recorded when it adds one.
 */
function adoptAttributes(state: ParseState, element: Element, attrs: Attribute[]): void {
  let adopted: Set<Attribute> | null = null;
  const own = element.attrs;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    if (own.some((present) => present.name === attr.name)) continue;
    own.push(attr);
    (adopted ??= new Set()).add(attr);
  }
  if (adopted === null) return;
  state.tags.push(state.tagRecord(element, attrs, adopted, 0));
  if (state.templateKind() === 0 && state.noteTargets && mayBeTarget([...adopted])) state.targetCandidates.push(element);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody — end tags.
 *
 * @example
 * ```ts
 * endTagInBody(state, token);
 * ```
 */
export function endTagInBody(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  const open = state.open;
  const kind = kindOf(HTML, id);
  if ((kind & BLOCK_END) !== 0) {
    if (!open.hasInScope(id)) return;
    open.generateImpliedEndTags();
    open.popUntil(id);
    return;
  }
  if ((kind & FORMATTING) !== 0) {
    if (!adoptionAgency(state, token)) anyOtherEndTag(state, token);
    return;
  }
  switch (id) {
    case TAG.TEMPLATE:
      return templateEndTag(state);
    case TAG.BODY:
      if (!open.hasInScope(TAG.BODY)) return;
      state.mode = AFTER_BODY;
      return;
    case TAG.HTML:
      if (!open.hasInScope(TAG.BODY)) return;
      state.mode = AFTER_BODY;
      return state.endTag(AFTER_BODY, token);
    case TAG.FORM: {
      if (open.has(TAG.TEMPLATE)) {
        if (!open.hasInScope(TAG.FORM)) return;
        open.generateImpliedEndTags();
        open.popUntil(TAG.FORM);
        return;
      }
      const node = state.formElement;
      state.formElement = null;
      if (node === null || !open.elementInScope(node)) return;
      open.generateImpliedEndTags();
      open.remove(node);
      return;
    }
    case TAG.P:
      if (!open.hasInButtonScope(TAG.P)) state.insertHTMLElement(pStartTag());
      closeP(state);
      return;
    case TAG.LI:
      if (!open.hasInListItemScope(TAG.LI)) return;
      open.generateImpliedEndTags(TAG.LI);
      open.popUntil(TAG.LI);
      return;
    case TAG.DD:
    case TAG.DT:
      if (!open.hasInScope(id)) return;
      open.generateImpliedEndTags(id);
      open.popUntil(id);
      return;
    case TAG.H1:
    case TAG.H2:
    case TAG.H3:
    case TAG.H4:
    case TAG.H5:
    case TAG.H6:
      if (!open.headingInScope()) return;
      open.generateImpliedEndTags();
      popUntilHeading(state);
      return;
    case TAG.APPLET:
    case TAG.MARQUEE:
    case TAG.OBJECT:
      if (!open.hasInScope(id)) return;
      open.generateImpliedEndTags();
      open.popUntil(id);
      state.formatting.clearToLastMarker();
      return;
    case TAG.BR:
      // "Parse error. Drop the attributes from the token, and act as described in the next entry; i.e. act as if
      // this was a "br" start tag token with no attributes, rather than the end tag token that it actually is."
      state.reconstructFormatting();
      state.insert(state.impliedElement("br", TAG.BR));
      open.pop();
      state.framesetOk = false;
      return;
  }
  anyOtherEndTag(state, token);
}

/**
 * In body, "any other end tag": the topmost HTML element of the token's
 * name is closed, unless a special element is open above it.
 *
 * @example
 * ```ts
 * anyOtherEndTag(state, token);
 * ```
 */
export function anyOtherEndTag(state: ParseState, token: TagToken): void {
  const open = state.open;
  // "Loop: If node is an HTML element with the same tag name as the token, then: … Otherwise, if node is in the
  // special category, then this is a parse error; ignore the token, and return." (The records give the topmost of
  // each, so no walk.)
  const at = open.indexOfNamed(token.tagName, token.tagID);
  if (at === -1 || at < open.topmostSpecial) return;
  const node = open.items[at]!;
  open.generateImpliedEndTags(node.id === 0 ? -2 : node.id);
  // Generating implied end tags never pops node: it is an HTML element named as the token.
  open.popUntilElement(node);
}

/** Pops elements until one of the HTML h1–h6 has been popped. */
function popUntilHeading(state: ParseState): void {
  const open = state.open;
  while (open.length > 0) {
    const element = open.pop();
    if (element.ns === HTML && isHeading(element.id)) return;
  }
}

function isHeading(id: number): boolean {
  return id === TAG.H1 || id === TAG.H2 || id === TAG.H3 || id === TAG.H4 || id === TAG.H5 || id === TAG.H6;
}

/**
 * "If the token does not have an attribute with the name "type", or if it
 * does, but that attribute's value is not an ASCII case-insensitive match
 * for the string "hidden"" — whether it is a hidden input.
 *
 * @example
 * ```ts
 * isHiddenInput(token); // true for <input type=HIDDEN>
 * ```
 */
export function isHiddenInput(token: TagToken): boolean {
  for (const attr of token.attrs) if (attr.name === "type") return asciiLowercase(attr.value) === "hidden";
  return false;
}

/** A `p` start tag with no attributes (an `</p>` with no p open inserts one). */
function pStartTag(): TagToken {
  return { type: 2 as TagToken["type"], tagName: "p", tagID: TAG.P, selfClosing: false, ackSelfClosing: false, attrs: [], location: null };
}
