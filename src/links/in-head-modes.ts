/**
 * The insertion modes of a document's start, up to its body: "initial",
 * "before html", "before head", "in head", "in head noscript" and "after
 * head" (and the `template` end tag, which the later modes process using
 * the rules for "in head").
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode
 *
 * @module
 */

import { TokenizerMode } from "parse5";
import { HTML, IN_HEAD_START, kindOf, TAG } from "./element-kinds.ts";
import { AFTER_HEAD, BEFORE_HEAD, BEFORE_HTML, IN_BODY, IN_FRAMESET, IN_HEAD, IN_HEAD_NOSCRIPT, IN_TEMPLATE, type ParseState, type TagToken } from "./parse-state.ts";

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode — anything else.
 *
 * @example
 * ```ts
 * initialAnythingElse(state); // quirks mode, then "before html"
 * ```
 */
export function initialAnythingElse(state: ParseState): void {
  // "If the document is not an iframe srcdoc document, then this is a parse error; if the parser cannot change the
  // mode flag is false, set the Document to quirks mode." (srcdoc documents too, as parse5 does.)
  state.quirks = true;
  state.document.mode = "quirks";
  state.mode = BEFORE_HTML;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-before-html-insertion-mode — anything else: an `html` element of no token.
 *
 * @example
 * ```ts
 * beforeHTMLAnythingElse(state); // then "before head"
 * ```
 */
export function beforeHTMLAnythingElse(state: ParseState): void {
  const html = state.impliedElement("html", TAG.HTML);
  state.place(html, state.document);
  state.open.push(html);
  state.mode = BEFORE_HEAD;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-before-html-insertion-mode — start tags.
 *
 * @example
 * ```ts
 * startTagBeforeHTML(state, token);
 * ```
 */
export function startTagBeforeHTML(state: ParseState, token: TagToken): void {
  if (token.tagID === TAG.HTML) {
    const html = state.elementFor(token, HTML);
    state.place(html, state.document);
    state.open.push(html);
    state.mode = BEFORE_HEAD;
    return;
  }
  beforeHTMLAnythingElse(state);
  state.startTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-before-head-insertion-mode — anything else: a `head` element of no token.
 *
 * @example
 * ```ts
 * beforeHeadAnythingElse(state); // then "in head"
 * ```
 */
export function beforeHeadAnythingElse(state: ParseState): void {
  const head = state.impliedElement("head", TAG.HEAD);
  state.insert(head);
  state.headElement = head;
  state.mode = IN_HEAD;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-before-head-insertion-mode — start tags.
 *
 * @example
 * ```ts
 * startTagBeforeHead(state, token);
 * ```
 */
export function startTagBeforeHead(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.HTML) return state.startTag(IN_BODY, token);
  if (id === TAG.HEAD) {
    state.headElement = state.insertHTMLElement(token);
    state.mode = IN_HEAD;
    return;
  }
  beforeHeadAnythingElse(state);
  state.startTag(state.mode, token);
}

/**
 * An end tag "before html" or "before head": false for one the mode
 * ignores ("any other end tag"); else, after "anything else", it is
 * processed again.
 *
 * @example
 * ```ts
 * if (endTagBeforeHead(token)) … // head, body, html, br
 * ```
 */
export function endTagBeforeHead(token: TagToken): boolean {
  const id = token.tagID;
  return id === TAG.HEAD || id === TAG.BODY || id === TAG.HTML || id === TAG.BR;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — anything else: the head is popped.
 *
 * @example
 * ```ts
 * inHeadAnythingElse(state); // then "after head"
 * ```
 */
export function inHeadAnythingElse(state: ParseState): void {
  state.open.pop();
  state.mode = AFTER_HEAD;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — start tags.
 *
 * @example
 * ```ts
 * startTagInHead(state, token);
 * ```
 */
export function startTagInHead(state: ParseState, token: TagToken): void {
  switch (token.tagID) {
    case TAG.HTML:
      return state.startTag(IN_BODY, token);
    case TAG.BASE:
    case TAG.BASEFONT:
    case TAG.BGSOUND:
    case TAG.LINK:
    case TAG.META:
      state.insertVoid(token);
      return;
    case TAG.TITLE:
      return state.textElement(token, TokenizerMode.RCDATA);
    case TAG.NOSCRIPT:
      if (state.scripting) return state.textElement(token, TokenizerMode.RAWTEXT);
      state.insertHTMLElement(token);
      state.mode = IN_HEAD_NOSCRIPT;
      return;
    case TAG.NOFRAMES:
    case TAG.STYLE:
      return state.textElement(token, TokenizerMode.RAWTEXT);
    case TAG.SCRIPT:
      return state.textElement(token, TokenizerMode.SCRIPT_DATA);
    case TAG.TEMPLATE:
      state.insertHTMLElement(token);
      state.formatting.insertMarker();
      state.framesetOk = false;
      state.mode = IN_TEMPLATE;
      state.templateModes.push(IN_TEMPLATE);
      return;
    case TAG.HEAD:
      return;
  }
  inHeadAnythingElse(state);
  state.startTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — end tags.
 *
 * @example
 * ```ts
 * endTagInHead(state, token);
 * ```
 */
export function endTagInHead(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.HEAD) {
    state.open.pop();
    state.mode = AFTER_HEAD;
    return;
  }
  if (id === TAG.TEMPLATE) return templateEndTag(state);
  if (id !== TAG.BODY && id !== TAG.HTML && id !== TAG.BR) return;
  inHeadAnythingElse(state);
  state.endTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — an end tag "template".
 *
 * @example
 * ```ts
 * templateEndTag(state); // the template's contents closed, the mode reset
 * ```
 */
export function templateEndTag(state: ParseState): void {
  const open = state.open;
  if (!open.has(TAG.TEMPLATE)) return;
  open.generateImpliedEndTagsThoroughly();
  open.popUntil(TAG.TEMPLATE);
  state.formatting.clearToLastMarker();
  state.templateModes.pop();
  state.resetInsertionMode();
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inheadnoscript — start tags.
 *
 * @example
 * ```ts
 * startTagInHeadNoscript(state, token);
 * ```
 */
export function startTagInHeadNoscript(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.HTML) return state.startTag(IN_BODY, token);
  if (id === TAG.BASEFONT || id === TAG.BGSOUND || id === TAG.LINK || id === TAG.META || id === TAG.NOFRAMES || id === TAG.STYLE) return startTagInHead(state, token);
  if (id === TAG.HEAD || id === TAG.NOSCRIPT) return;
  inHeadNoscriptAnythingElse(state);
  state.startTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inheadnoscript — end tags.
 *
 * @example
 * ```ts
 * endTagInHeadNoscript(state, token);
 * ```
 */
export function endTagInHeadNoscript(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.NOSCRIPT) {
    inHeadNoscriptAnythingElse(state);
    return;
  }
  if (id !== TAG.BR) return;
  inHeadNoscriptAnythingElse(state);
  state.endTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inheadnoscript — anything else: the noscript is popped.
 *
 * @example
 * ```ts
 * inHeadNoscriptAnythingElse(state); // then "in head"
 * ```
 */
export function inHeadNoscriptAnythingElse(state: ParseState): void {
  state.open.pop();
  state.mode = IN_HEAD;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode — anything else: a `body` element of no token.
 *
 * @example
 * ```ts
 * afterHeadAnythingElse(state); // then "in body"
 * ```
 */
export function afterHeadAnythingElse(state: ParseState): void {
  state.insert(state.impliedElement("body", TAG.BODY));
  state.mode = IN_BODY;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode — start tags.
 *
 * @example
 * ```ts
 * startTagAfterHead(state, token);
 * ```
 */
export function startTagAfterHead(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  switch (id) {
    case TAG.HTML:
      return state.startTag(IN_BODY, token);
    case TAG.BODY:
      state.insertHTMLElement(token);
      state.framesetOk = false;
      state.mode = IN_BODY;
      return;
    case TAG.FRAMESET:
      state.insertHTMLElement(token);
      state.mode = IN_FRAMESET;
      return;
    case TAG.HEAD:
      return;
    default: {
      if ((kindOf(HTML, id) & IN_HEAD_START) === 0) break;
      // "Push the node pointed to by the head element pointer onto the stack of open elements. Process the token
      // using the rules for the "in head" insertion mode. Remove the node pointed to by the head element pointer
      // from the stack of open elements. (It might not be the current node at this point.)"
      const head = state.headElement!;
      state.open.push(head);
      startTagInHead(state, token);
      state.open.remove(head);
      return;
    }
  }
  afterHeadAnythingElse(state);
  state.startTag(state.mode, token);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode — end tags.
 *
 * @example
 * ```ts
 * endTagAfterHead(state, token);
 * ```
 */
export function endTagAfterHead(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.TEMPLATE) return templateEndTag(state);
  if (id !== TAG.BODY && id !== TAG.HTML && id !== TAG.BR) return;
  afterHeadAnythingElse(state);
  state.endTag(state.mode, token);
}
