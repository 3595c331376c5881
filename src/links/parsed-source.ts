/**
 * What the read stage's tree construction gives the document reader: the
 * records of the start tags that may carry links, where they are in the
 * source, and the elements they refer to ({@link ParsedSource}), with the
 * small rules every construction shares for what to record.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#tree-construction
 *
 * @module
 */

import type { Token } from "parse5";
import { HTML_NAMESPACE, isValidShadowHostName, shadowRootModeState } from "../html/index.ts";
import { cssAttributeNames, urlAttributeNames } from "./catalogue.ts";
import { mayContainCSSURL } from "./css-urls.ts";
import { IGNORE_MARK_LENGTH, IGNORE_MARKS } from "./ignore-marks.ts";
import { type HTMLTokenizer, POSITION_FIELDS } from "./html-tokenizer.ts";

/**
 * A parse5 attribute (`name`, `value`, and `namespace`/`prefix` for adjusted foreign attributes).
 *
 * @example
 * ```ts
 * const attribute: Attribute = { name: "href", value: "/docs/" };
 * ```
 */
export type Attribute = Token.Attribute;

/**
 * An element of the lean tree (parse5's default element shape, without source locations).
 *
 * @example
 * ```ts
 * parseWithPositions("<a href=x>").tags[0].element.tagName; // "a"
 * ```
 */
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

/**
 * A text node, kept only inside an SVG `style` element.
 *
 * @example
 * ```ts
 * const text: LeanText = { nodeName: "#text", value: "rect{fill:url(#g)}", parentNode: null };
 * ```
 */
export interface LeanText {
  nodeName: "#text";
  value: string;
  parentNode: LeanParent | null;
}

/**
 * The document of the lean tree.
 *
 * @example
 * ```ts
 * parseWithPositions("<p>").document.childNodes[0].tagName; // "html"
 * ```
 */
export interface LeanDocument {
  nodeName: "#document";
  mode: string;
  childNodes: LeanChild[];
}

/**
 * A document fragment (template contents).
 *
 * @example
 * ```ts
 * const contents: LeanFragment = { nodeName: "#document-fragment", childNodes: [] };
 * ```
 */
export interface LeanFragment {
  nodeName: "#document-fragment";
  childNodes: LeanChild[];
  parentNode?: null;
}

/**
 * A node of the lean tree that has children.
 *
 * @example
 * ```ts
 * const parent: LeanParent = parseWithPositions("<p>").document;
 * ```
 */
export type LeanParent = LeanDocument | LeanFragment | LeanElement;

/**
 * A node of the lean tree that is a child.
 *
 * @example
 * ```ts
 * const html: LeanChild = parseWithPositions("<p>").document.childNodes[0];
 * ```
 */
export type LeanChild = LeanElement | LeanText;

/**
 * One start tag the parser turned into an element (or whose attributes it
 * added to an existing `html` or `body` element), in source order.
  *
  * @example
  * ```ts
  * parseWithPositions("<p><a href=x>").tags[0].tagEnd; // 13
  * ```
 */
export interface TagRecord {
  readonly element: LeanElement;
  /**
   * Where the text the positions below count from starts in the whole
   * input: 0 for a whole document; for a streamed one, where the piece of
   * input the tokenizer read this tag from starts (see streaming-source.ts).
   */
  readonly origin: number;
  /** Where the tag is in the source: the end of its name, and just after its `>`. */
  readonly tagNameEnd: number;
  readonly tagEnd: number;
  /** Where the positions of its attributes start in {@link ParsedSource.positions} (see {@link StartTagSource}). */
  readonly positionsAt: number;
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
  /**
   * Whether the element is in the contents of a template (an inert
   * document's, at some depth), not counting the templates the parser made
   * declarative shadow roots.
   */
  readonly inTemplate: boolean;
  /**
   * Whether the element is in a declarative shadow root (a
   * `<template shadowrootmode>` the standard's parser attaches as a shadow
   * root, see {@link noteDeclarativeShadowRoot}) and not in an inert
   * template: its node document is the document, but it is not in the
   * document's tree.
   */
  readonly inShadowTree: boolean;
}

/**
 * What a tree construction gives the rest of the read stage for one
 * document (the result of {@link parseWithPositions}): the records of its
 * start tags, which the document reader reads, and the tree that the facts
 * beyond links are read from — the first base element with an href in
 * tree order (base-url.ts), every base element (base-elements.ts), the
 * fragment targets (fragment-targets.ts). A construction that keeps no
 * tree gives a `document` holding what those need (as the stream gives
 * its first base element alone, see link-stream.ts).
  *
  * @example
  * ```ts
  * parseWithPositions("<base href=/d/>").hasBaseWithHref; // true
  * ```
 */
export interface ParsedSource {
  /**
   * The document's tree: the whole tree when it was kept (`keepTree`);
   * else a document whose one child is the first `base` element with an
   * `href` in tree order (a copy without children or parent), or none.
   */
  readonly document: LeanDocument;
  /**
   * The elements that may be fragment targets, in the order made: each
   * element made in no template contents with an `id` or a `name` (see
   * fragment-targets.ts, which keeps those in the document's tree).
   * Absent: the construction noted none (a stream's).
   */
  readonly targetCandidates?: readonly LeanElement[];
  /** Every start tag with attributes, every `form` and every `style`, in source order. */
  readonly tags: readonly TagRecord[];
  /** Whether the parser made an HTML `base` element with an `href` (wherever it is). */
  readonly hasBaseWithHref: boolean;
  /**
   * From a parse that kept no tree but was asked for every base element
   * (`"bases"`, see parseWithPositions): its HTML base elements with an
   * `href` were all made outside template contents and at most one is in
   * the document's tree, so the order the reader reads them in is tree
   * order (with more, or one in template contents, the tree is kept).
   * Absent otherwise (walk `document`).
   */
  readonly basesInOrder?: true;
  /** The positions of the recorded tags' attributes (read them with a {@link StartTagSource}). */
  readonly positions: Int32Array;
}


/**
 * Whether an element needs a record: it has an attribute that may hold a
 * URL (by name; the catalogue decides later), or it is a `form` (whose
 * missing action is a link), a `style` (its text), or a `meta` (a charset
 * declaration can change a byte document's encoding); or it carries an
 * ignore mark (see ignore-marks.ts), which the checker reads from its record.
 *
 * @example
 * ```ts
 * mayHaveLinks("a", [{ name: "href", value: "x" }]); // true
 * mayHaveLinks("p", [{ name: "class", value: "x" }]); // false
 * ```
 */
export function mayHaveLinks(tagName: string, attrs: readonly Attribute[]): boolean {
  if (tagName === "form" || tagName === "style" || tagName === "meta") return true;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    if (!urlAttributeNames.has(attr.name)) {
      if (attr.name.length === IGNORE_MARK_LENGTH && IGNORE_MARKS.has(attr.name)) return true;
      continue;
    }
    // A style or presentation attribute without a URL is no link (the common case).
    if (cssAttributeNames.has(attr.name) && !mayContainCSSURL(attr.value)) continue;
    return true;
  }
  return false;
}

/**
 * Whether an element's attributes name it as a fragment target, maybe (fragment-targets.ts decides).
 *
 * @example
 * ```ts
 * mayBeTarget([{ name: "id", value: "top" }]); // true
 * ```
 */
export function mayBeTarget(attrs: readonly Attribute[]): boolean {
  for (let i = 0; i < attrs.length; i++) {
    const name = attrs[i]!.name;
    if (name === "id" || name === "name") return true;
  }
  return false;
}

/**
 * Copies the positions of the first `count` attributes of the tag being
 * handled (`from`, the tokenizer's) to the end of `store`'s positions;
 * returns where they start.
 *
 * @example
 * ```ts
 * const store = { positions: new Int32Array(8), positionsLength: 0 };
 * appendPositions(store, tokenizer.attributePositions, 1); // 0; store.positionsLength is now 5
 * ```
 */
export function appendPositions(store: { positions: Int32Array; positionsLength: number }, from: Int32Array, count: number): number {
  const at = store.positionsLength;
  const length = count * POSITION_FIELDS;
  if (at + length > store.positions.length) {
    const grown = new Int32Array(Math.max(store.positions.length * 2, at + length));
    grown.set(store.positions.subarray(0, at));
    store.positions = grown;
  }
  // Optimisation: a loop, not `set` of a `subarray` (a new view object for a few numbers).
  const positions = store.positions;
  for (let k = 0; k < length; k++) positions[at + k] = from[k]!;
  store.positionsLength = at + length;
  return at;
}

/**
 * Whether `element` is in the document's tree: its parents lead to the
 * document (not to template contents, nor nowhere: a `frameset` takes the
 * body out of the tree). Both trees keep every element's parent.
 *
 * @example
 * ```ts
 * const { targetCandidates } = parseWithPositions("<p id=a><template><p id=b></template>");
 * targetCandidates.map(isInDocumentTree); // [true]: b, in template contents, is no candidate
 * ```
 */
export function isInDocumentTree(element: LeanElement): boolean {
  let node: LeanParent | null | undefined = element.parentNode;
  while (node !== null && node !== undefined && node.nodeName !== "#document") node = (node as LeanElement).parentNode;
  return node !== null && node !== undefined;
}

/**
 * The document of a treeless parse (see {@link ParsedSource.document}): the first base element with an href, a copy, or nothing.
 *
 * @example
 * ```ts
 * baseDocument(null).childNodes.length; // 0
 * ```
 */
export function baseDocument(base: LeanElement | null): LeanDocument {
  const document: LeanDocument = { nodeName: "#document", mode: "no-quirks", childNodes: [] };
  if (base !== null) document.childNodes.push({ nodeName: base.nodeName, tagName: base.tagName, attrs: base.attrs, namespaceURI: base.namespaceURI, childNodes: [], parentNode: document });
  return document;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead —
 * a start tag whose tag name is "template": whether the template made for
 * it (with `attrs`, while `host` is the current node; `topmost`: host is
 * the topmost element of the stack of open elements) is a declarative
 * shadow root, which the standard's parser attaches to `host`; `hosts`
 * holds the shadow hosts so far, and gets `host` when it is.
 * parse5 8.1 has no declarative shadow roots: it makes a template, whose
 * contents are here the shadow root's.
 *
 * "If any of the following are false: template start tag's shadowrootmode
 * is not in the none state; document's allow declarative shadow roots is
 * true; or the adjusted current node is not the topmost element in the
 * stack of open elements, then insert an HTML element for the token."
 * Documents parsed here are documents a navigation would make (the page,
 * its srcdoc documents), whose allow declarative shadow roots is true; and,
 * as browsers do (WPT's "template containing declarative shadow root"),
 * so is that of template contents' inert document (see the document-base
 * layer's document-context.ts). Otherwise "let declarative shadow host
 * element be adjusted current node" (the current node: this parse is no
 * fragment parse); "if declarative shadow host element is a shadow host,
 * then insert an element … with template", and attaching the shadow root
 * (https://dom.spec.whatwg.org/#concept-attach-a-shadow-root) throws, so
 * that the template is inserted, for a host not in the HTML namespace or
 * whose local name is not a valid shadow host name. Deviation: nor for a
 * custom element whose definition disables shadows (no definitions here).
 *
 * @example
 * ```ts
 * attachesDeclarativeShadowRoot([{ name: "shadowrootmode", value: "open" }], div, false, new Set()); // true
 * ```
 */
export function attachesDeclarativeShadowRoot(attrs: readonly Attribute[], host: LeanElement, topmost: boolean, hosts: Set<LeanElement>): boolean {
  let mode: string | null = null;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    if (attr.name === "shadowrootmode" && attr.namespace === undefined) mode = attr.value;
  }
  if (shadowRootModeState(mode) === "none" || topmost) return false;
  if (host.namespaceURI !== HTML_NAMESPACE || !isValidShadowHostName(host.tagName)) return false;
  if (hosts.has(host)) return false;
  hosts.add(host);
  return true;
}

/**
 * The record of the start tag the tokenizer is handling, made into
 * `element` (`attrs`: the token's attributes; `adopted`: those a second
 * `html` or `body` tag added; `where`: see templateDepthKind in
 * html-source.ts), its attribute positions copied to `store`.
 *
 * @example
 * ```ts
 * startTagRecord(element, tokenizer, store, 0, element.attrs, null, 0).tagEnd; // just after the tag's ">"
 * ```
 */
export function startTagRecord(
  element: LeanElement,
  tokenizer: HTMLTokenizer,
  store: { positions: Int32Array; positionsLength: number },
  origin: number,
  attrs: Attribute[],
  adopted: ReadonlySet<Attribute> | null,
  where: 0 | 1 | 2,
): TagRecord {
  return {
    element,
    origin,
    tagNameEnd: tokenizer.tagNameEnd,
    tagEnd: tokenizer.tagEnd,
    positionsAt: appendPositions(store, tokenizer.attributePositions, attrs.length),
    tokenAttrs: attrs,
    attrCount: attrs.length,
    adopted,
    inTemplate: where === 1,
    inShadowTree: where === 2,
  };
}
