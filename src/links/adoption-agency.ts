/**
 * The adoption agency algorithm: how an end tag of a formatting element
 * (or an `a` or `nobr` start tag that closes one first) closes it when
 * other elements opened after it are still open.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#adoption-agency-algorithm
 *
 * Deviation: the children of the furthest block stay its children (the
 * standard moves them into the new formatting element), since no element
 * lists its children here; this changes no element's namespace, template
 * contents, or whether it is in the document's tree.
 *
 * @module
 */

import type { ConstructedElement } from "./constructed-element.ts";
import { HTML, SPECIAL } from "./element-kinds.ts";
import type { ParseState, TagToken } from "./parse-state.ts";

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#adoption-agency-algorithm —
 * for `token`, whose tag name is the subject (a formatting element's).
 * False where the standard says to "act as described in the "any other end
 * tag" entry" instead (in-body-mode.ts does).
 *
 * @example
 * ```ts
 * if (!adoptionAgency(state, token)) anyOtherEndTag(state, token);
 * ```
 */
export function adoptionAgency(state: ParseState, token: TagToken): boolean {
  const subject = token.tagID;
  const open = state.open;
  const list = state.formatting;
  const items = open.items;
  // "If the current node is an HTML element whose tag name is subject, and the current node is not in the list of
  // active formatting elements, then pop the current node off the stack of open elements and return."
  const current = open.current;
  if (current.ns === HTML && current.id === subject) {
    const entries = list.entries;
    // Optimisation: when the current node is also the last entry of the list, the steps below find it as the
    // formatting element, with no furthest block: it is popped and taken off the list.
    if (entries[entries.length - 1] === current) {
      open.pop();
      entries.pop();
      return true;
    }
    if (list.indexOf(current) === -1) {
      open.pop();
      return true;
    }
  }
  for (let outer = 0; outer < 8; outer++) {
    const f = list.lastNamed(subject);
    // "If there is no such element, then return and instead act as described in the "any other end tag" entry."
    if (f === -1) return false;
    const formattingElement = list.entries[f]!;
    const at = formattingElement.index;
    if (at === -1) {
      list.removeAt(f);
      return true;
    }
    if (!open.elementInScope(formattingElement)) return true;
    let furthest = -1;
    for (let i = at + 1; i < items.length; i++) {
      if ((items[i]!.kind & SPECIAL) !== 0) {
        furthest = i;
        break;
      }
    }
    if (furthest === -1) {
      while (items.length > at) open.pop();
      list.removeAt(f);
      return true;
    }
    const furthestBlock = items[furthest]!;
    const commonAncestor = items[at - 1]!;
    // The bookmark: the entry the new formatting element goes after (null: in the formatting element's place).
    let bookmark: ConstructedElement | null = null;
    let lastNode = furthestBlock;
    let index = furthest;
    // The inner loop removes and replaces elements between the formatting element and the furthest block.
    open.unrecordFrom(at);
    for (let inner = 1; ; inner++) {
      index--;
      let node = items[index]!;
      if (node === formattingElement) break;
      const entry = list.indexOf(node);
      if (inner > 3 && entry !== -1) list.removeAt(entry);
      if (inner > 3 || entry === -1) {
        items.splice(index, 1);
        continue;
      }
      const clone = state.cloneElement(node);
      list.replaceAt(entry, clone);
      items[index] = clone;
      node = clone;
      if (lastNode === furthestBlock) bookmark = clone;
      lastNode.parentNode = node;
      lastNode = node;
    }
    open.recordFrom(at);
    // Insert lastNode at the appropriate place for inserting a node, with commonAncestor as the override target.
    state.placeAgain(lastNode, state.appropriateParent(commonAncestor));
    const replacement = state.cloneElement(formattingElement);
    replacement.parentNode = furthestBlock;
    // The new element takes the formatting element's entry: at the bookmark, or in its place.
    if (bookmark === null) {
      list.replaceAt(list.indexOf(formattingElement), replacement);
    } else {
      list.removeAt(list.indexOf(formattingElement));
      list.insertAfter(list.indexOf(bookmark), replacement);
    }
    // "Remove formatting element from the stack of open elements, and insert the new element into the stack of open
    // elements immediately below the position of furthest block in that stack."
    const block = furthestBlock.index;
    open.unrecordFrom(at);
    items.splice(at, 1);
    items.splice(block, 0, replacement);
    open.recordFrom(at);
  }
  return true;
}
