/**
 * The stack of open elements, with records kept on every push and pop that
 * answer "has an element in scope" and its variants, and which element of a
 * name is the topmost, in constant time (the tree construction asks one of
 * them for most tags it sees).
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#the-stack-of-open-elements
 *
 * Optimisation: the standard walks the stack from the current node down to
 * the target or a boundary. Here each (namespace, tag id) — each name, for
 * HTML elements whose name has no tag id — keeps the position of its
 * topmost open element (and each position the next one below of the same
 * name), and each kind of boundary a stack of the positions of its open
 * boundaries; an element is in a scope when its topmost position is at or
 * above the topmost boundary. A push or pop updates the records of the one
 * element; an edit below the current node (the adoption agency, a removal)
 * records the elements above it again, as the edit itself moves them.
 *
 * @module
 */

import type { ConstructedElement } from "./constructed-element.ts";
import { BUTTON_SCOPE, HTML, IMPLIED_END, IMPLIED_END_THOROUGH, LIST_ITEM_BOUNDARY, LIST_SCOPE, SCOPE, SPECIAL, TABLE_SCOPE, TAG } from "./element-kinds.ts";
import { objectList } from "./object-list.ts";

type Element = ConstructedElement;

/** The kinds that bound something a walk of the stack looks for (see {@link Boundaries}). */
const BOUNDARY_KINDS = SCOPE | LIST_SCOPE | BUTTON_SCOPE | TABLE_SCOPE | SPECIAL | LIST_ITEM_BOUNDARY;

/** The records' key of an element with no name of its own among them: `namespace * 128 + id`. */
const KEYS_PER_NAMESPACE = 128;

/** The positions of the open elements of one kind of boundary, bottom first, over a sentinel -1. */
class Boundaries {
  private positions = new Int32Array(64).fill(-1);
  private length = 1;

  /** The position of the topmost open boundary, or -1. */
  get top(): number {
    return this.positions[this.length - 1]!;
  }

  push(position: number): void {
    if (this.length === this.positions.length) {
      const grown = new Int32Array(this.length * 2);
      grown.set(this.positions);
      this.positions = grown;
    }
    this.positions[this.length++] = position;
  }

  pop(): void {
    this.length--;
  }
}

/**
 * The stack of open elements: {@link items} bottom (the `html` element)
 * first, the current node last. Change it only through its methods (or
 * between {@link unrecordFrom} and {@link recordFrom}).
 *
 * @example
 * ```ts
 * const open = new OpenElements();
 * open.push(new ConstructedElement("html", HTML, TAG.HTML, [], kindOf(HTML, TAG.HTML)));
 * open.push(new ConstructedElement("p", HTML, TAG.P, [], kindOf(HTML, TAG.P)));
 * open.hasInButtonScope(TAG.P); // true
 * ```
 */
export class OpenElements {
  readonly items: Element[] = objectList();
  /** Per key (`namespace * 128 + id`): the position of the topmost open element, or -1. */
  private readonly topmost = new Int32Array(3 * KEYS_PER_NAMESPACE).fill(-1);
  /** Per name of an HTML element without a tag id: the position of the topmost open one. */
  private readonly topmostNamed = new Map<string, number>();
  /** Per position: the position of the next open element below with the same key (or name), or -1. */
  private sameBelow = new Int32Array(256);
  /** Per position: the nearest position at or below it of an element that is not an HTML option or optgroup (select scope's boundaries). */
  private notOption = new Int32Array(256);
  private readonly scope = new Boundaries();
  private readonly listItemScope = new Boundaries();
  private readonly buttonScope = new Boundaries();
  private readonly tableScope = new Boundaries();
  private readonly special = new Boundaries();
  /** Where the search for an li, dd or dt to close stops: special elements but address, div and p. */
  private readonly listItemBoundary = new Boundaries();

  /** https://html.spec.whatwg.org/multipage/parsing.html#current-node */
  get current(): Element {
    return this.items[this.items.length - 1]!;
  }

  get length(): number {
    return this.items.length;
  }

  push(element: Element): void {
    const position = this.items.length;
    this.items.push(element);
    this.record(element, position);
  }

  pop(): Element {
    const element = this.items.pop()!;
    this.unrecord(element, this.items.length);
    return element;
  }

  /** Pops elements until an HTML element with tag id `id` has been popped. */
  popUntil(id: number): void {
    while (this.items.length > 0) {
      const element = this.pop();
      if (element.id === id && element.ns === HTML) return;
    }
  }

  /** Pops elements until `element` has been popped. */
  popUntilElement(element: Element): void {
    while (this.items.length > 0 && this.pop() !== element);
  }

  /** Whether the current node is an HTML element with tag id `id`. */
  isCurrent(id: number): boolean {
    const current = this.current;
    return current.id === id && current.ns === HTML;
  }

  /** Whether an HTML element with tag id `id` is open. */
  has(id: number): boolean {
    return this.topmost[id] !== -1;
  }

  /** The position of the topmost open HTML element with tag id `id`, or -1. */
  indexOf(id: number): number {
    return this.topmost[id]!;
  }

  /** The position of the topmost open HTML element named `tagName` (tag id `id`), or -1. */
  indexOfNamed(tagName: string, id: number): number {
    return id !== 0 ? this.topmost[id]! : (this.topmostNamed.get(tagName) ?? -1);
  }

  /** How many HTML `template` elements are open. */
  get templateCount(): number {
    let count = 0;
    for (let at = this.topmost[TAG.TEMPLATE]!; at !== -1; at = this.sameBelow[at]!) count++;
    return count;
  }

  /** The position of the topmost open special element (https://html.spec.whatwg.org/multipage/parsing.html#special), or -1. */
  get topmostSpecial(): number {
    return this.special.top;
  }

  /**
   * In body, a start tag li, dd or dt: the element the standard's loop
   * closes — "if node is an li element" (for an li; a dd or dt element for
   * a dd or dt) before it meets "an element in the special category, but
   * not an address, div, or p element" — or null.
   */
  listItemToClose(id: number): Element | null {
    const topmost = this.topmost;
    const at = id === TAG.LI ? topmost[TAG.LI]! : Math.max(topmost[TAG.DD]!, topmost[TAG.DT]!);
    return at !== -1 && at >= this.listItemBoundary.top ? this.items[at]! : null;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-scope — for the HTML element with tag id `id`. */
  hasInScope(id: number): boolean {
    const at = this.topmost[id]!;
    return at !== -1 && at >= this.scope.top;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-list-item-scope */
  hasInListItemScope(id: number): boolean {
    const at = this.topmost[id]!;
    return at !== -1 && at >= this.listItemScope.top;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-button-scope */
  hasInButtonScope(id: number): boolean {
    const at = this.topmost[id]!;
    return at !== -1 && at >= this.buttonScope.top;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-table-scope */
  hasInTableScope(id: number): boolean {
    const at = this.topmost[id]!;
    return at !== -1 && at >= this.tableScope.top;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-select-scope — "all element types except … optgroup … option" bound it. */
  hasInSelectScope(id: number): boolean {
    const at = this.topmost[id]!;
    return at !== -1 && at >= this.notOption[this.items.length - 1]!;
  }

  /** Whether `element` itself is in scope (the target node of the standard's algorithm is an element, not a name). */
  elementInScope(element: Element): boolean {
    return element.index !== -1 && element.index >= this.scope.top;
  }

  /** Whether one of the HTML h1–h6 elements is in scope. */
  headingInScope(): boolean {
    const topmost = this.topmost;
    const at = Math.max(topmost[TAG.H1]!, topmost[TAG.H2]!, topmost[TAG.H3]!, topmost[TAG.H4]!, topmost[TAG.H5]!, topmost[TAG.H6]!);
    return at !== -1 && at >= this.scope.top;
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#generate-implied-end-tags — except for HTML elements with tag id `except`. */
  generateImpliedEndTags(except = -1): void {
    for (;;) {
      const current = this.current;
      if ((current.kind & IMPLIED_END) === 0 || current.id === except) return;
      this.pop();
    }
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#generate-all-implied-end-tags-thoroughly */
  generateImpliedEndTagsThoroughly(): void {
    while ((this.current.kind & IMPLIED_END_THOROUGH) !== 0) this.pop();
  }

  /** Pops elements until the current node is an HTML element with one of `ids` (or html): "clear the stack back to a … context". */
  clearBackTo(ids: readonly number[]): void {
    for (;;) {
      const current = this.current;
      if (current.ns === HTML && (current.id === TAG.HTML || ids.includes(current.id))) return;
      this.pop();
    }
  }

  /** Removes `element` from the stack, wherever it is. */
  remove(element: Element): void {
    const at = element.index;
    if (at === -1) return;
    this.unrecordFrom(at);
    this.items.splice(at, 1);
    this.recordFrom(at);
  }

  /** Puts `replacement` (of the same name and namespace) in the place of `element`. */
  replace(element: Element, replacement: Element): void {
    const at = element.index;
    this.items[at] = replacement;
    replacement.index = at;
    element.index = -1;
  }

  /**
   * Drops the records of the elements at `from` and above, so that
   * {@link items} may be edited there; {@link recordFrom} (with a `from`
   * no higher) records them again.
   */
  unrecordFrom(from: number): void {
    const items = this.items;
    for (let i = items.length - 1; i >= from; i--) this.unrecord(items[i]!, i);
  }

  /** Records the elements at `from` and above (see {@link unrecordFrom}). */
  recordFrom(from: number): void {
    const items = this.items;
    for (let i = from; i < items.length; i++) this.record(items[i]!, i);
  }

  private record(element: Element, position: number): void {
    element.index = position;
    if (position === this.sameBelow.length) this.grow();
    const ns = element.ns;
    const id = element.id;
    if (id === 0 && ns === HTML) {
      const named = this.topmostNamed;
      this.sameBelow[position] = named.get(element.tagName) ?? -1;
      named.set(element.tagName, position);
    } else {
      const key = ns * KEYS_PER_NAMESPACE + id;
      this.sameBelow[position] = this.topmost[key]!;
      this.topmost[key] = position;
    }
    const option = ns === HTML && (id === TAG.OPTION || id === TAG.OPTGROUP);
    this.notOption[position] = !option ? position : position === 0 ? -1 : this.notOption[position - 1]!;
    const kind = element.kind & BOUNDARY_KINDS;
    if (kind !== 0) this.recordBoundaries(kind, position);
  }

  /** Drops the records of `element`, the topmost recorded, at `position`. */
  private unrecord(element: Element, position: number): void {
    element.index = -1;
    const below = this.sameBelow[position]!;
    if (element.id === 0 && element.ns === HTML) {
      if (below === -1) this.topmostNamed.delete(element.tagName);
      else this.topmostNamed.set(element.tagName, below);
    } else {
      this.topmost[element.ns * KEYS_PER_NAMESPACE + element.id] = below;
    }
    const kind = element.kind & BOUNDARY_KINDS;
    if (kind !== 0) this.unrecordBoundaries(kind);
  }

  private recordBoundaries(kind: number, position: number): void {
    if ((kind & SCOPE) !== 0) this.scope.push(position);
    if ((kind & LIST_SCOPE) !== 0) this.listItemScope.push(position);
    if ((kind & BUTTON_SCOPE) !== 0) this.buttonScope.push(position);
    if ((kind & TABLE_SCOPE) !== 0) this.tableScope.push(position);
    if ((kind & SPECIAL) !== 0) this.special.push(position);
    if ((kind & LIST_ITEM_BOUNDARY) !== 0) this.listItemBoundary.push(position);
  }

  private unrecordBoundaries(kind: number): void {
    if ((kind & SCOPE) !== 0) this.scope.pop();
    if ((kind & LIST_SCOPE) !== 0) this.listItemScope.pop();
    if ((kind & BUTTON_SCOPE) !== 0) this.buttonScope.pop();
    if ((kind & TABLE_SCOPE) !== 0) this.tableScope.pop();
    if ((kind & SPECIAL) !== 0) this.special.pop();
    if ((kind & LIST_ITEM_BOUNDARY) !== 0) this.listItemBoundary.pop();
  }

  private grow(): void {
    const size = this.sameBelow.length * 2;
    const sameBelow = new Int32Array(size);
    sameBelow.set(this.sameBelow);
    this.sameBelow = sameBelow;
    const notOption = new Int32Array(size);
    notOption.set(this.notOption);
    this.notOption = notOption;
  }
}
