/**
 * The element the tree construction of link work makes (tree-construction.ts):
 * a {@link LeanElement} that knows its parent and, but for an SVG `style`,
 * no children — with its namespace, tag id and kinds as small numbers, and
 * its place in the stack of open elements.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#create-an-element-for-the-token
 *
 * @module
 */

import { NS_URIS } from "./element-kinds.ts";
import type { Attribute, LeanChild, LeanElement, LeanFragment, LeanParent } from "./parsed-source.ts";

/**
 * The children of a node whose children are not kept (all but an SVG
 * `style`'s): one frozen, empty list.
 *
 * @example
 * ```ts
 * new ConstructedElement("p", HTML, TAG.P, [], 0).childNodes === NO_CHILDREN; // true
 * ```
 */
export const NO_CHILDREN: LeanChild[] = Object.freeze([]) as unknown as LeanChild[];

/**
 * The contents of an HTML `template` the tree construction made, and where
 * its descendants go: 1, inert template contents; 2, a declarative shadow
 * root.
 *
 * @example
 * ```ts
 * const contents: TemplateContents = { nodeName: "#document-fragment", childNodes: NO_CHILDREN, kind: 1, host: template };
 * ```
 */
export interface TemplateContents extends LeanFragment {
  readonly kind: 1 | 2;
  /** The template whose contents these are (the place of what is in them in the tree: see base-elements.ts). */
  readonly host: ConstructedElement;
}

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
  /** Kept only for an SVG `style` (its text is read for links); else {@link NO_CHILDREN}. */
  childNodes: LeanChild[];
  parentNode: LeanParent | null = null;
  content?: TemplateContents;
  /** HTML, SVG or MATHML. */
  readonly ns: number;
  /** The tag id of the token it was made for (element-kinds.ts's TAG). */
  readonly id: number;
  /** Its kinds (element-kinds.ts), for scope and category tests. */
  readonly kind: number;
  /** Its position in the stack of open elements (open-elements.ts), or -1 when it is not on it. */
  index = -1;

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

/**
 * Where a node inserted into `element` goes: its template contents for a
 * `template`, else the element itself.
 *
 * @example
 * ```ts
 * contentsOr(template) === template.content; // true
 * ```
 */
export function contentsOr(element: ConstructedElement): LeanParent {
  return element.content ?? element;
}
