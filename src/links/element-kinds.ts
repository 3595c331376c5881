/**
 * The element categories and name tables the HTML Standard's tree
 * construction reads (special elements, the boundaries of each kind of
 * scope, implied end tags, formatting elements, the SVG and MathML
 * adjustments, the tags that leave foreign content), keyed by namespace
 * and tag id, for tree-construction.ts.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#tree-construction
 *
 * @module
 */

import { html as htmlSpec } from "parse5";
import { HTML_NAMESPACE, MATHML_NAMESPACE, SVG_NAMESPACE, XLINK_NAMESPACE, XML_NAMESPACE, XMLNS_NAMESPACE } from "../html/index.ts";

/**
 * The tag ids the tokenizer gives each tag token (parse5's numbering: 0 for
 * a name it does not know).
 *
 * @example
 * ```ts
 * TAG.TABLE; // the id of "table"
 * ```
 */
export const TAG = htmlSpec.TAG_ID;

/**
 * The id of a lowercase tag name (0 for one not known).
 *
 * @example
 * ```ts
 * tagID("td") === TAG.TD; // true
 * ```
 */
export const tagID: (tagName: string) => number = htmlSpec.getTagID;

/**
 * The three namespaces of the tree construction, as small numbers.
 *
 * @example
 * ```ts
 * NS_URIS[SVG]; // "http://www.w3.org/2000/svg"
 * ```
 */
export const HTML = 0;
export const SVG = 1;
export const MATHML = 2;

// Element kinds, one bit each (see kindOf).
/** https://html.spec.whatwg.org/multipage/parsing.html#special */
export const SPECIAL = 1;
/** A special element other than address, div and p (where the search for an li, dd or dt to close stops). */
export const LIST_ITEM_BOUNDARY = 2;
/** https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-scope — the elements that bound a scope. */
export const SCOPE = 4;
/** …in list item scope (adds ol, ul). */
export const LIST_SCOPE = 8;
/** …in button scope (adds button). */
export const BUTTON_SCOPE = 16;
/** …in table scope (html, table, template only). */
export const TABLE_SCOPE = 32;
/** https://html.spec.whatwg.org/multipage/parsing.html#generate-implied-end-tags */
export const IMPLIED_END = 64;
/** …thoroughly (adds the table parts). */
export const IMPLIED_END_THOROUGH = 128;
/** table, tbody, tfoot, thead, tr: an insertion there is foster-parented when foster parenting is on. */
export const FOSTER_TARGET = 256;
/** https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point */
export const MATHML_TEXT_INTEGRATION = 512;
/** https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point (annotation-xml's depends on its encoding: see tree-construction.ts). */
export const HTML_INTEGRATION = 1024;
/** https://html.spec.whatwg.org/multipage/parsing.html#formatting */
export const FORMATTING = 2048;
/** In body, the start tags that close a p in button scope and insert an element ("address", "article", …, "ul"). */
export const BLOCK_START = 4096;
/** In body, the end tags that close the element of their name in scope ("address", "article", …, "ul", with button, listing and pre). */
export const BLOCK_END = 8192;
/** The start tags "in body", "after head" and "in template" process using the rules for "in head" (base, basefont, bgsound, link, meta, noframes, script, style, template, title). */
export const IN_HEAD_START = 16384;

const KEYS_PER_NAMESPACE = 128;

/** The kinds of each (namespace, tag id), indexed by `namespace * 128 + id`. */
const kinds = new Uint16Array(3 * KEYS_PER_NAMESPACE);

function mark(ns: number, ids: readonly number[], bits: number): void {
  for (const id of ids) kinds[ns * KEYS_PER_NAMESPACE + id]! |= bits;
}

const specialHTML = [
  TAG.ADDRESS, TAG.APPLET, TAG.AREA, TAG.ARTICLE, TAG.ASIDE, TAG.BASE, TAG.BASEFONT, TAG.BGSOUND, TAG.BLOCKQUOTE, TAG.BODY, TAG.BR, TAG.BUTTON,
  TAG.CAPTION, TAG.CENTER, TAG.COL, TAG.COLGROUP, TAG.DD, TAG.DETAILS, TAG.DIR, TAG.DIV, TAG.DL, TAG.DT, TAG.EMBED, TAG.FIELDSET, TAG.FIGCAPTION,
  TAG.FIGURE, TAG.FOOTER, TAG.FORM, TAG.FRAME, TAG.FRAMESET, TAG.H1, TAG.H2, TAG.H3, TAG.H4, TAG.H5, TAG.H6, TAG.HEAD, TAG.HEADER, TAG.HGROUP,
  TAG.HR, TAG.HTML, TAG.IFRAME, TAG.IMG, TAG.INPUT, TAG.KEYGEN, TAG.LI, TAG.LINK, TAG.LISTING, TAG.MAIN, TAG.MARQUEE, TAG.MENU, TAG.META, TAG.NAV,
  TAG.NOEMBED, TAG.NOFRAMES, TAG.NOSCRIPT, TAG.OBJECT, TAG.OL, TAG.P, TAG.PARAM, TAG.PLAINTEXT, TAG.PRE, TAG.SCRIPT, TAG.SEARCH, TAG.SECTION,
  TAG.SELECT, TAG.SOURCE, TAG.STYLE, TAG.SUMMARY, TAG.TABLE, TAG.TBODY, TAG.TD, TAG.TEMPLATE, TAG.TEXTAREA, TAG.TFOOT, TAG.TH, TAG.THEAD,
  TAG.TITLE, TAG.TR, TAG.TRACK, TAG.UL, TAG.WBR, TAG.XMP,
]; // prettier-ignore
mark(HTML, specialHTML, SPECIAL | LIST_ITEM_BOUNDARY);
kinds[HTML * KEYS_PER_NAMESPACE + TAG.ADDRESS] = SPECIAL;
kinds[HTML * KEYS_PER_NAMESPACE + TAG.DIV] = SPECIAL;
kinds[HTML * KEYS_PER_NAMESPACE + TAG.P] = SPECIAL;
const mathmlTextIntegration = [TAG.MI, TAG.MO, TAG.MN, TAG.MS, TAG.MTEXT];
mark(MATHML, [...mathmlTextIntegration, TAG.ANNOTATION_XML], SPECIAL | LIST_ITEM_BOUNDARY | SCOPE | LIST_SCOPE | BUTTON_SCOPE);
mark(MATHML, mathmlTextIntegration, MATHML_TEXT_INTEGRATION);
mark(SVG, [TAG.FOREIGN_OBJECT, TAG.DESC, TAG.TITLE], SPECIAL | LIST_ITEM_BOUNDARY | SCOPE | LIST_SCOPE | BUTTON_SCOPE | HTML_INTEGRATION);
mark(HTML, [TAG.APPLET, TAG.CAPTION, TAG.HTML, TAG.TABLE, TAG.TD, TAG.TH, TAG.MARQUEE, TAG.OBJECT, TAG.TEMPLATE], SCOPE | LIST_SCOPE | BUTTON_SCOPE);
mark(HTML, [TAG.OL, TAG.UL], LIST_SCOPE);
mark(HTML, [TAG.BUTTON], BUTTON_SCOPE);
mark(HTML, [TAG.HTML, TAG.TABLE, TAG.TEMPLATE], TABLE_SCOPE);
const impliedEnd = [TAG.DD, TAG.DT, TAG.LI, TAG.OPTGROUP, TAG.OPTION, TAG.P, TAG.RB, TAG.RP, TAG.RT, TAG.RTC];
mark(HTML, impliedEnd, IMPLIED_END | IMPLIED_END_THOROUGH);
mark(HTML, [TAG.CAPTION, TAG.COLGROUP, TAG.TBODY, TAG.TD, TAG.TFOOT, TAG.TH, TAG.THEAD, TAG.TR], IMPLIED_END_THOROUGH);
mark(HTML, [TAG.TABLE, TAG.TBODY, TAG.TFOOT, TAG.THEAD, TAG.TR], FOSTER_TARGET);
mark(HTML, [TAG.A, TAG.B, TAG.BIG, TAG.CODE, TAG.EM, TAG.FONT, TAG.I, TAG.NOBR, TAG.S, TAG.SMALL, TAG.STRIKE, TAG.STRONG, TAG.TT, TAG.U], FORMATTING);
const blocks = [
  TAG.ADDRESS, TAG.ARTICLE, TAG.ASIDE, TAG.BLOCKQUOTE, TAG.CENTER, TAG.DETAILS, TAG.DIALOG, TAG.DIR, TAG.DIV, TAG.DL, TAG.FIELDSET, TAG.FIGCAPTION,
  TAG.FIGURE, TAG.FOOTER, TAG.HEADER, TAG.HGROUP, TAG.MAIN, TAG.MENU, TAG.NAV, TAG.OL, TAG.SEARCH, TAG.SECTION, TAG.SUMMARY, TAG.UL,
]; // prettier-ignore
mark(HTML, [...blocks, TAG.P], BLOCK_START);
mark(HTML, [...blocks, TAG.BUTTON, TAG.LISTING, TAG.PRE], BLOCK_END);
mark(HTML, [TAG.BASE, TAG.BASEFONT, TAG.BGSOUND, TAG.LINK, TAG.META, TAG.NOFRAMES, TAG.SCRIPT, TAG.STYLE, TAG.TEMPLATE, TAG.TITLE], IN_HEAD_START);

/**
 * The kinds (the bits above) of an element of namespace `ns` (HTML, SVG,
 * MATHML) whose tag id is `id`.
 *
 * @example
 * ```ts
 * (kindOf(HTML, TAG.TABLE) & SCOPE) !== 0; // true
 * ```
 */
export function kindOf(ns: number, id: number): number {
  return id === 0 ? 0 : kinds[ns * KEYS_PER_NAMESPACE + id]!;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign —
 * the start tags that leave foreign content (and `font` with a `color`,
 * `face` or `size` attribute).
 *
 * @example
 * ```ts
 * leavesForeignContent.has(TAG.P); // true
 * ```
 */
export const leavesForeignContent: ReadonlySet<number> = new Set([
  TAG.B, TAG.BIG, TAG.BLOCKQUOTE, TAG.BODY, TAG.BR, TAG.CENTER, TAG.CODE, TAG.DD, TAG.DIV, TAG.DL, TAG.DT, TAG.EM, TAG.EMBED, TAG.H1, TAG.H2,
  TAG.H3, TAG.H4, TAG.H5, TAG.H6, TAG.HEAD, TAG.HR, TAG.I, TAG.IMG, TAG.LI, TAG.LISTING, TAG.MENU, TAG.META, TAG.NOBR, TAG.OL, TAG.P, TAG.PRE,
  TAG.RUBY, TAG.S, TAG.SMALL, TAG.SPAN, TAG.STRONG, TAG.STRIKE, TAG.SUB, TAG.SUP, TAG.TABLE, TAG.TT, TAG.U, TAG.UL, TAG.VAR,
]); // prettier-ignore

/** A map from each name's ASCII lowercase to the name. */
function byLowercase(names: readonly string[]): ReadonlyMap<string, string> {
  return new Map(names.map((name) => [name.toLowerCase(), name]));
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#adjust-svg-attributes —
 * the tag names the tree construction gives SVG elements (the token's
 * lowercase name, mapped).
 *
 * @example
 * ```ts
 * svgTagNames.get("foreignobject"); // "foreignObject"
 * ```
 */
export const svgTagNames: ReadonlyMap<string, string> = byLowercase([
  "altGlyph", "altGlyphDef", "altGlyphItem", "animateColor", "animateMotion", "animateTransform", "clipPath", "feBlend", "feColorMatrix",
  "feComponentTransfer", "feComposite", "feConvolveMatrix", "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow",
  "feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset",
  "fePointLight", "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence", "foreignObject", "glyphRef", "linearGradient",
  "radialGradient", "textPath",
]); // prettier-ignore

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#adjust-svg-attributes —
 * the SVG attribute names, by their lowercase.
 *
 * @example
 * ```ts
 * svgAttributeNames.get("viewbox"); // "viewBox"
 * ```
 */
export const svgAttributeNames: ReadonlyMap<string, string> = byLowercase([
  "attributeName", "attributeType", "baseFrequency", "baseProfile", "calcMode", "clipPathUnits", "diffuseConstant", "edgeMode",
  "filterUnits", "glyphRef", "gradientTransform", "gradientUnits", "kernelMatrix", "kernelUnitLength", "keyPoints", "keySplines",
  "keyTimes", "lengthAdjust", "limitingConeAngle", "markerHeight", "markerUnits", "markerWidth", "maskContentUnits", "maskUnits",
  "numOctaves", "pathLength", "patternContentUnits", "patternTransform", "patternUnits", "pointsAtX", "pointsAtY", "pointsAtZ",
  "preserveAlpha", "preserveAspectRatio", "primitiveUnits", "refX", "refY", "repeatCount", "repeatDur", "requiredExtensions",
  "requiredFeatures", "specularConstant", "specularExponent", "spreadMethod", "startOffset", "stdDeviation", "stitchTiles",
  "surfaceScale", "systemLanguage", "tableValues", "targetX", "targetY", "textLength", "viewBox", "viewTarget", "xChannelSelector",
  "yChannelSelector", "zoomAndPan",
]); // prettier-ignore

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#adjust-foreign-attributes —
 * each attribute name that gets a namespace: its prefix, local name and namespace.
 *
 * @example
 * ```ts
 * foreignAttributes.get("xlink:href"); // ["xlink", "href", XLINK_NAMESPACE]
 * ```
 */
export const foreignAttributes: ReadonlyMap<string, readonly [string, string, string]> = new Map<string, readonly [string, string, string]>([
  ...["actuate", "arcrole", "href", "role", "show", "title", "type"].map((name) => [`xlink:${name}`, ["xlink", name, XLINK_NAMESPACE]] as const),
  ["xml:lang", ["xml", "lang", XML_NAMESPACE]],
  ["xml:space", ["xml", "space", XML_NAMESPACE]],
  ["xmlns", ["", "xmlns", XMLNS_NAMESPACE]],
  ["xmlns:xlink", ["xmlns", "xlink", XMLNS_NAMESPACE]],
]);

/**
 * The namespace URIs, by the numbers above.
 *
 * @example
 * ```ts
 * NS_URIS[MATHML]; // "http://www.w3.org/1998/Math/MathML"
 * ```
 */
export const NS_URIS: readonly string[] = [HTML_NAMESPACE, SVG_NAMESPACE, MATHML_NAMESPACE];
