/**
 * Iterative tree walks over any {@link DocumentBaseTreeAdapter}. Nothing
 * here recurses: a tree 100,000 levels deep (or 100,000 siblings wide) is
 * walked with a constant call stack.
 *
 * Internal module: the algorithms of this layer use it; it is not part of
 * the public face.
 *
 * @module
 */

import type { DocumentBaseTreeAdapter, TreeAdapterTypeMap } from "./tree-adapter.ts";

/**
 * The type map the implementation works with: every node is an opaque
 * object, and the adapter knows what it is. (The public functions are typed
 * with the caller's own map.)
 */
export type LooseMap = TreeAdapterTypeMap<object, object, object, object, object, object>;
/** An adapter seen through {@link LooseMap}. */
export type LooseAdapter = DocumentBaseTreeAdapter<LooseMap>;

/**
 * https://dom.spec.whatwg.org/#concept-tree-root — the node's root: itself
 * when it has no parent.
 */
export function rootOf(adapter: LooseAdapter, node: object): object {
  for (;;) {
    const parent = adapter.getParentNode(node);
    if (parent === null) return node;
    node = parent;
  }
}

/**
 * Visits `root` and its descendants in tree order
 * (https://dom.spec.whatwg.org/#concept-tree-order) until `visit` returns
 * true, and returns the node it stopped at, or null. With `templateContents`,
 * the contents of every template met are walked as well (after the tree
 * they hang from, in no particular order); without, they are not entered,
 * as the HTML Standard's "in tree order" never does.
 */
export function findInclusiveDescendant(
  adapter: LooseAdapter,
  root: object,
  visit: (node: object) => boolean,
  templateContents: boolean,
): object | null {
  const pending: object[] = [root];
  while (pending.length > 0) {
    const top = pending.pop()!;
    const found = adapter.siblingLinks
      ? walkLinked(adapter, top, visit, templateContents ? pending : null)
      : walkArrays(adapter, top, visit, templateContents ? pending : null);
    if (found !== null) return found;
  }
  return null;
}

/** Pre-order by first-child / next-sibling / parent links: no stack at all. */
function walkLinked(adapter: LooseAdapter, top: object, visit: (node: object) => boolean, contents: object[] | null): object | null {
  let node = top;
  for (;;) {
    if (visit(node)) return node;
    if (contents !== null) {
      const content = adapter.getTemplateContent(node);
      if (content !== null) contents.push(content);
    }
    const first = adapter.getFirstChild(node);
    if (first !== null) {
      node = first;
      continue;
    }
    // Climb until a node with a next sibling, without leaving top's subtree.
    for (;;) {
      if (node === top) return null;
      const next = adapter.getNextSibling(node);
      if (next !== null) {
        node = next;
        break;
      }
      const parent = adapter.getParentNode(node);
      if (parent === null) return null;
      node = parent;
    }
  }
}

/** Pre-order over child arrays, with an explicit stack of (array, index) pairs. */
function walkArrays(adapter: LooseAdapter, top: object, visit: (node: object) => boolean, contents: object[] | null): object | null {
  if (visit(top)) return top;
  if (contents !== null) {
    const content = adapter.getTemplateContent(top);
    if (content !== null) contents.push(content);
  }
  const lists: ArrayLike<object>[] = [adapter.getChildNodes(top)];
  const indexes: number[] = [0];
  while (lists.length > 0) {
    const k = lists.length - 1;
    const list = lists[k]!;
    const i = indexes[k]!;
    if (i >= list.length) {
      lists.pop();
      indexes.pop();
      continue;
    }
    indexes[k] = i + 1;
    const node = list[i]!;
    if (visit(node)) return node;
    if (contents !== null) {
      const content = adapter.getTemplateContent(node);
      if (content !== null) contents.push(content);
    }
    const children = adapter.getChildNodes(node);
    if (children.length > 0) {
      lists.push(children);
      indexes.push(0);
    }
  }
  return null;
}

/** Calls `visit` for `root` and each of its descendants (template contents included). */
export function forEachInclusiveDescendant(adapter: LooseAdapter, root: object, visit: (node: object) => void): void {
  findInclusiveDescendant(
    adapter,
    root,
    (node) => {
      visit(node);
      return false;
    },
    true,
  );
}
