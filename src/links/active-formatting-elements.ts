/**
 * The list of active formatting elements: its markers, the Noah's Ark
 * clause, and the reconstruction of the elements the stack of open
 * elements has lost.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#the-list-of-active-formatting-elements
 *
 * @module
 */

import type { ConstructedElement } from "./constructed-element.ts";
import { objectList } from "./object-list.ts";
import type { Attribute } from "./parsed-source.ts";

type Element = ConstructedElement;

/**
 * An entry of the list of active formatting elements: an element, or a
 * marker (null).
 *
 * @example
 * ```ts
 * const entry: FormattingEntry = MARKER;
 * ```
 */
export type FormattingEntry = Element | null;

/**
 * A marker (the list's entries between two markers belong to one applet,
 * object, marquee, template, td, th or caption).
 *
 * @example
 * ```ts
 * list.entries.includes(MARKER); // whether a marker is on the list
 * ```
 */
export const MARKER = null;

/**
 * What the reconstruction asks of the tree construction: "create an element
 * for the token for which the element entry was created … insert it"
 * (as an HTML element, at the appropriate place, onto the stack of open
 * elements), and give it back.
 *
 * @example
 * ```ts
 * const inserter: FormattingInserter = { insertCloneOf: (element) => construction.insertClone(element) };
 * ```
 */
export interface FormattingInserter {
  insertCloneOf(element: Element): Element;
}

/**
 * The list of active formatting elements ({@link entries}, the last entry
 * added last).
 *
 * @example
 * ```ts
 * const list = new ActiveFormattingElements();
 * list.insertMarker();
 * list.lastNamed(TAG.B); // -1: nothing after the marker
 * ```
 */
export class ActiveFormattingElements {
  readonly entries: FormattingEntry[] = objectList();

  /** https://html.spec.whatwg.org/multipage/parsing.html#push-onto-the-list-of-active-formatting-elements */
  push(element: Element): void {
    const list = this.entries;
    // The Noah's Ark clause: "If there are already three elements in the list of active formatting elements after the
    // last marker, if any, or anywhere in the list if there are no markers, that have the same tag name, namespace,
    // and attributes as element, then remove the earliest such element from the list".
    let same = 0;
    let earliest = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      const entry = list[i]!;
      if (entry === MARKER) break;
      if (entry.id === element.id && entry.tagName === element.tagName && sameAttributes(entry.attrs, element.attrs)) {
        same++;
        earliest = i;
      }
    }
    if (same >= 3) list.splice(earliest, 1);
    list.push(element);
  }

  insertMarker(): void {
    this.entries.push(MARKER);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#clear-the-list-of-active-formatting-elements-up-to-the-last-marker */
  clearToLastMarker(): void {
    const list = this.entries;
    while (list.length > 0 && list.pop() !== MARKER);
  }

  /** The position of the last element after the last marker with tag id `id` (a formatting element's: an HTML one), or -1. */
  lastNamed(id: number): number {
    const list = this.entries;
    for (let i = list.length - 1; i >= 0; i--) {
      const entry = list[i]!;
      if (entry === MARKER) return -1;
      if (entry.id === id) return i;
    }
    return -1;
  }

  /** The position of `element` on the list, or -1. */
  indexOf(element: Element): number {
    return this.entries.lastIndexOf(element);
  }

  /** Removes the entry at `position` (an element). */
  removeAt(position: number): void {
    const list = this.entries;
    if (position === list.length - 1) list.pop();
    else list.splice(position, 1);
  }

  /** Removes `element` from the list, if it is on it. */
  remove(element: Element): void {
    const at = this.indexOf(element);
    if (at !== -1) this.removeAt(at);
  }

  /** Puts `replacement` in the entry at `position`. */
  replaceAt(position: number, replacement: Element): void {
    this.entries[position] = replacement;
  }

  /** Inserts `element` just after the entry at `position`. */
  insertAfter(position: number, element: Element): void {
    this.entries.splice(position + 1, 0, element);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#reconstruct-the-active-formatting-elements */
  reconstruct(inserter: FormattingInserter): void {
    const list = this.entries;
    if (list.length === 0) return;
    const last = list[list.length - 1]!;
    // "If the last (most recently added) entry in the list of active formatting elements is a marker, or if it is an
    // element that is in the stack of open elements, then there is nothing to reconstruct; stop this algorithm."
    if (last === MARKER || last.index !== -1) return;
    // Rewind to the entry after the last marker or open element, then create forward.
    let i = list.length - 1;
    while (i > 0) {
      const entry = list[i - 1]!;
      if (entry === MARKER || entry.index !== -1) break;
      i--;
    }
    for (; i < list.length; i++) this.replaceAt(i, inserter.insertCloneOf(list[i]!));
  }
}

/** Whether two attribute lists have the same names with the same values (in any order). */
function sameAttributes(a: readonly Attribute[], b: readonly Attribute[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  outer: for (const attr of a) {
    for (const other of b) if (other.name === attr.name && other.value === attr.value && other.namespace === attr.namespace) continue outer;
    return false;
  }
  return true;
}
