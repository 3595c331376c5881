/**
 * SVG and MathML in HTML: when a token goes to the rules for parsing tokens
 * in foreign content (the integration points), those rules, and the
 * adjustments of a foreign element's tag name and attributes.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign
 *
 * @module
 */

import { asciiLowercase } from "../core/infra.ts";
import type { ConstructedElement } from "./constructed-element.ts";
import { foreignAttributes, HTML, HTML_INTEGRATION, leavesForeignContent, MATHML, MATHML_TEXT_INTEGRATION, SVG, svgAttributeNames, svgTagNames, TAG, tagID } from "./element-kinds.ts";
import { CHARACTER, NULL, type ParseState, type TagToken } from "./parse-state.ts";
import type { Attribute } from "./parsed-source.ts";

type Element = ConstructedElement;

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point
 *
 * @example
 * ```ts
 * isHTMLIntegrationPoint(foreignObject); // true
 * ```
 */
export function isHTMLIntegrationPoint(element: Element): boolean {
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

/** Whether `element` is a MathML text integration point or an HTML integration point. */
function isIntegrationPoint(element: Element): boolean {
  return (element.kind & (MATHML_TEXT_INTEGRATION | HTML_INTEGRATION)) !== 0 || isHTMLIntegrationPoint(element);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher —
 * whether a character token goes to the rules for foreign content (the
 * adjusted current node is the current node: no fragment parsing here).
 *
 * @example
 * ```ts
 * if (charactersInForeignContent(state)) foreignCharacters(state, type, chars);
 * ```
 */
export function charactersInForeignContent(state: ParseState): boolean {
  if (state.open.length === 0) return false;
  const current = state.open.current;
  return current.ns !== HTML && !isIntegrationPoint(current);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher —
 * whether a start tag goes to the rules for foreign content.
 *
 * @example
 * ```ts
 * if (startTagInForeignContent(state, token)) foreignStartTag(state, token);
 * ```
 */
export function startTagInForeignContent(state: ParseState, token: TagToken): boolean {
  if (state.open.length === 0) return false;
  const current = state.open.current;
  if (current.ns === HTML) return false;
  const id = token.tagID;
  if ((current.kind & MATHML_TEXT_INTEGRATION) !== 0 && id !== TAG.MGLYPH && id !== TAG.MALIGNMARK) return false;
  if (current.ns === MATHML && current.id === TAG.ANNOTATION_XML && id === TAG.SVG) return false;
  return !isHTMLIntegrationPoint(current);
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign — character tokens.
 *
 * @example
 * ```ts
 * foreignCharacters(state, CHARACTER, "x");
 * ```
 */
export function foreignCharacters(state: ParseState, type: number, chars: string | null): void {
  if (type === NULL) {
    // "Insert a U+FFFD REPLACEMENT CHARACTER character." (One for the token, as parse5 does.)
    state.insertCharacters("\uFFFD");
    return;
  }
  state.insertCharacters(chars);
  if (type === CHARACTER) state.framesetOk = false;
}

/** Pops until the current node is an HTML element or an integration point. */
function popToHTMLOrIntegrationPoint(state: ParseState): void {
  const open = state.open;
  for (;;) {
    const current = open.current;
    if (current.ns === HTML || isIntegrationPoint(current)) return;
    open.pop();
  }
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign — start tags.
 *
 * @example
 * ```ts
 * foreignStartTag(state, token); // a foreign element, or the tag reprocessed after leaving foreign content
 * ```
 */
export function foreignStartTag(state: ParseState, token: TagToken): void {
  if (leavesForeignContent.has(token.tagID) || (token.tagID === TAG.FONT && hasFontAttribute(token.attrs))) {
    popToHTMLOrIntegrationPoint(state);
    return state.startTag(state.mode, token);
  }
  const ns = state.open.current.ns;
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
  const element = state.elementFor(token, ns, tagName, id);
  state.insert(element);
  if (token.selfClosing) state.open.pop();
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign — end tags.
 *
 * @example
 * ```ts
 * foreignEndTag(state, token);
 * ```
 */
export function foreignEndTag(state: ParseState, token: TagToken): void {
  const id = token.tagID;
  if (id === TAG.P || id === TAG.BR) {
    popToHTMLOrIntegrationPoint(state);
    return state.endTag(state.mode, token);
  }
  const open = state.open;
  const items = open.items;
  const name = token.tagName;
  for (let i = items.length - 1; i > 0; i--) {
    const node = items[i]!;
    if (node.ns === HTML) return state.endTag(state.mode, token);
    if (node.tagName === name || (node.ns === SVG && asciiLowercase(node.tagName) === name)) {
      while (items.length > i) open.pop();
      return;
    }
  }
}

function hasFontAttribute(attrs: readonly Attribute[]): boolean {
  for (const attr of attrs) if (attr.name === "color" || attr.name === "face" || attr.name === "size") return true;
  return false;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#adjust-mathml-attributes,
 * #adjust-svg-attributes and #adjust-foreign-attributes: the token's
 * attributes for a foreign element of namespace `ns`, adjusted in place.
 *
 * @example
 * ```ts
 * adjustAttributes(token, SVG); // viewbox → viewBox, xlink:href → href in the XLink namespace
 * ```
 */
export function adjustAttributes(token: TagToken, ns: number): void {
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
