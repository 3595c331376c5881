/**
 * Iterative tree walks over any {@link DocumentBaseTreeAdapter}: nothing
 * recurses, so a tree 100,000 levels deep is walked with a constant stack.
 * Internal.
 *
 * @module
 */

import type { DocumentBaseTreeAdapter, TreeAdapterTypeMap } from "./tree-adapter.ts";

/**
 * The type map of the implementation: every node an opaque object the adapter knows.
 *
 * @example
 * ```ts
 * const adapter = parse5TreeAdapter as unknown as DocumentBaseTreeAdapter<LooseMap>;
 * ```
 */
export type LooseMap = TreeAdapterTypeMap<object, object, object, object, object, object>;
/**
 * An adapter seen through {@link LooseMap}.
 *
 * @example
 * ```ts
 * const adapter = parse5TreeAdapter as unknown as LooseAdapter;
 * ```
 */
export type LooseAdapter = DocumentBaseTreeAdapter<LooseMap>;

/**
 * https://dom.spec.whatwg.org/#concept-tree-root — the node's root: itself
 * when it has no parent.
 *
 * @example
 * ```ts
 * rootOf(adapter, linkInBody) === document; // true
 * rootOf(adapter, detached) === detached; // true
 * ```
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
 * true; returns that node, or null. With `templateContents`, every template's
 * contents are walked too (after the tree, in no particular order); without,
 * never, as the HTML Standard's "in tree order" never enters them.
 *
 * @example
 * ```ts
 * findInclusiveDescendant(adapter, document, (node) => adapter.isElementNode(node) && adapter.getLocalName(node) === "base", false); // the first base, or null
 * ```
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

/**
 * Calls `visit` for `root` and each of its descendants (template contents included).
 *
 * @example
 * ```ts
 * let count = 0;
 * forEachInclusiveDescendant(adapter, document, () => count++); // count: every node, template contents too
 * ```
 */
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
