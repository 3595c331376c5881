/**
 * Finding an element by id in any tree the document-base adapters read,
 * template contents included: what the document-base and url-utils suites
 * both need from their tree kits.
 *
 * @module
 */

import type { DocumentBaseTreeAdapter, TreeAdapterTypeMap } from "../src/document-base/index.ts";

type LooseMap = TreeAdapterTypeMap<object, object, object, object, object, object>;

/**
 * The first element (in tree order, template contents after their
 * template's attributes and before its children) whose `id` is `id`, or
 * null. Iterative: the hostile suites build 100,000-deep trees.
 *
 * @example
 * ```ts
 * findById(parse5TreeAdapter, parse('<p id="x">'), "x"); // the p element
 * ```
 */
export function findById<N extends object>(adapter: DocumentBaseTreeAdapter<never>, root: N, id: string): N | null {
  const a = adapter as unknown as DocumentBaseTreeAdapter<LooseMap>;
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (a.isElementNode(node) && a.getAttribute(node, null, "id") === id) return node as N;
    const content = a.getTemplateContent(node);
    if (content !== null) stack.push(content);
    const children = Array.from(a.getChildNodes(node));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}

/**
 * Like {@link findById}, but throws when there is no such element (a test's
 * fixture is wrong then).
 *
 * @example
 * ```ts
 * const p = getById(parse5TreeAdapter, parse('<p id="x">'), "x");
 * ```
 */
export function getById<N extends object>(adapter: DocumentBaseTreeAdapter<never>, root: N, id: string): N {
  const found = findById(adapter, root, id);
  if (found === null) throw new Error(`no element with id ${JSON.stringify(id)}`);
  return found;
}
