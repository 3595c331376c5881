/**
 * The mutation bookkeeping of a document context: what a reported mutation
 * (an attribute changed, children inserted or removed, a node adopted, a
 * DOM MutationRecord) changes in the context's caches, and which base-URL
 * changes it reports, each with its old and new value.
 *
 * @module
 */

import { isBaseElement, XML_NAMESPACE } from "../html/index.ts";
import type { BaseURLChangeReason, ChildrenChange } from "./document-context-types.ts";
import { type NodeDocuments, structureChanged } from "./node-document.ts";
import { isForeignElement, type Scope, type ScopeOwner, xmlBaseOf } from "./scopes.ts";
import type { MutationRecordLike } from "./tree-adapter.ts";
import type { LooseMap } from "./tree-walk.ts";

/**
 * The part of a document context the bookkeeping works on (context.ts's
 * `Context` has it).
 *
 * @example
 * ```ts
 * attributeChanged(contextImpl(context), base, null, "href", "/v1/");
 * ```
 */
export interface TrackedContext extends ScopeOwner {
  readonly nodeDocuments: NodeDocuments;
  /** The context of `node`'s node document. */
  contextOfNode(node: object): TrackedContext;
  elementScope(element: object): Scope;
  nodeScope(node: object): Scope;
  /** The serialized base URL of `node` now. */
  nodeBaseHref(node: object): string;
  /** The href attribute of a `base` element of this document changed. */
  baseHrefChanged(element: object): void;
  /**
   * Finds the first base element again when `added` (inserted into `parent`)
   * or `removed` may have changed it, and reports a change of the document
   * base URL; true when there was one.
   */
  updateFirstBase(parent: object, added: readonly object[], removed: readonly object[]): boolean;
  /** Reports one change to the listeners. */
  emit(reason: BaseURLChangeReason, roots: readonly object[], oldBaseURL: string, newBaseURL: string): void;
}

/** A pending old value, for the changes one mutation reports. */
interface PendingChange {
  readonly node: object;
  readonly reason: BaseURLChangeReason;
  readonly old: string;
}

function toArray<N>(nodes: ArrayLike<N> | Iterable<N> | undefined): readonly N[] {
  if (nodes === undefined) return [];
  return Array.isArray(nodes) ? nodes : Array.from(nodes as ArrayLike<N>);
}

/**
 * https://dom.spec.whatwg.org/#concept-element-attributes-change-ext — a
 * `base` element's href, or an xml:base attribute, changed.
 *
 * @example
 * ```ts
 * attributeChanged(context, base, null, "href", "/v1/"); // reports "document-base-url" if it is the first base
 * ```
 */
export function attributeChanged(context: TrackedContext, element: object, namespace: string | null, localName: string, oldValue?: string | null): void {
  const ns = namespace === "" ? null : namespace;
  const adapter = context.adapter;
  if (ns === null && localName === "href") {
    if (adapter.isElementNode(element) && isBaseElement(adapter.getLocalName(element), adapter.getNamespaceURI(element))) context.contextOfNode(element).baseHrefChanged(element);
  } else if ((ns === XML_NAMESPACE && localName === "base") || (ns === null && localName === "xml:base" && isForeignElement(adapter, element))) {
    xmlBaseChanged(context.contextOfNode(element), element, oldValue, ns === XML_NAMESPACE);
  }
}

/** An xml:base attribute changed (`context` is its node document's). */
function xmlBaseChanged(context: TrackedContext, element: object, changedValue: string | null | undefined, namespaced: boolean): void {
  if (!context.xmlBase) return;
  const adapter = context.adapter;
  const cache = context.scopes;
  const cached = cache.scopes.get(element);
  // The element's xml:base value before (see xmlBaseOf): the changed attribute's old value, but
  // the one in the XML namespace wins over the foreign element's "xml:base" in no namespace.
  let oldValue = changedValue;
  if (changedValue !== undefined) {
    if (namespaced) oldValue = changedValue ?? (isForeignElement(adapter, element) ? adapter.getAttribute(element, null, "xml:base") : null);
    else oldValue = adapter.getAttribute(element, XML_NAMESPACE, "base") ?? changedValue;
  }
  // The element's base URL before: from the old value and the parent's base URL (which this
  // change does not touch); when the old value is unknown, from the cache, if any.
  let old: string | null;
  if (oldValue !== undefined) {
    const parent = adapter.getParentNode(element);
    const parentScope = parent !== null && adapter.isElementNode(parent) ? context.elementScope(parent) : context.root;
    old = cache.hrefUnder(adapter, parentScope, oldValue, context.outputEncoding);
  } else {
    old = cached === undefined ? null : cache.scopeHref(adapter, cached);
  }
  if (cached !== undefined) {
    const hasOwnScope = cached.element === element;
    const hasAttribute = xmlBaseOf(adapter, element) !== null;
    if (hasOwnScope && hasAttribute) {
      // Only the value changed: the same scopes, one of them stale, and its descendants'
      // to be checked again (a new epoch).
      cached.parentVersion = -1;
      cache.epoch++;
    } else {
      // The attribute appeared or went away: the subtree's scopes change. (Nothing below an
      // element without a cached scope is cached, since scopes are cached along whole paths.)
      cache.forgetSubtree(adapter, element);
    }
  }
  if (old === null) return;
  const now = context.nodeBaseHref(element);
  if (now !== old) context.emit("xml-base", [element], old, now);
}

/**
 * https://dom.spec.whatwg.org/#concept-node-children-changed-ext — nodes
 * were inserted into and/or removed from `parent`.
 *
 * @example
 * ```ts
 * childrenChanged(context, head, { added: [base] }); // reports "document-base-url" if it is now the first base
 * ```
 */
export function childrenChanged(asking: TrackedContext, parent: object, change: ChildrenChange<LooseMap>): void {
  const added = toArray(change.added);
  const removed = toArray(change.removed);
  structureChanged();
  asking.nodeDocuments.inserted(added);
  // The rest is the business of the parent's node document.
  const context = asking.contextOfNode(parent);
  if (context.nodeDocuments !== asking.nodeDocuments) context.nodeDocuments.inserted(added);
  const adapter = context.adapter;
  const cache = context.scopes;
  const pending: PendingChange[] = [];

  // 1. The old base URLs, before anything is recomputed.
  if (context.xmlBase) {
    for (const node of removed) {
      if (!adapter.isElementNode(node)) continue;
      const cached = cache.scopes.get(node);
      let old: string;
      if (cached !== undefined) {
        old = cache.scopeHref(adapter, cached);
      } else {
        const parentScope = adapter.isElementNode(parent) ? context.elementScope(parent) : context.nodeScope(parent);
        old = cache.hrefUnder(adapter, parentScope, xmlBaseOf(adapter, node), context.outputEncoding);
      }
      pending.push({ node, reason: "removed", old });
    }
  }
  for (const node of added) {
    if (!adapter.isElementNode(node)) continue;
    const cached = cache.scopes.get(node);
    if (cached !== undefined) {
      pending.push({ node, reason: "inserted", old: cache.scopeHref(adapter, cached) });
    } else if (context.xmlBase) {
      // Not cached: it was the root of a detached subtree before (of this document, as far as
      // this context knows; report adoptions with adopted()).
      pending.push({ node, reason: "inserted", old: detachedBaseHref(context, node) });
    }
  }

  // 2. Drop the moved subtrees' scopes. (Without xml:base, a removal keeps the node
  //    document, so removed subtrees keep theirs.)
  if (context.xmlBase) for (const node of removed) cache.forgetSubtree(adapter, node);
  for (const node of added) cache.forgetSubtree(adapter, node);

  // 3. The first base element, and the document base URL: a change of it is the one change
  //    reported (every node of the document is affected).
  if (context.updateFirstBase(parent, added, removed)) return;

  // 4. Else the changes of the moved subtrees.
  reportPending(context, pending);
}

/** Reports the pending changes that happened, grouped by reason and values. */
function reportPending(context: TrackedContext, pending: readonly PendingChange[]): void {
  if (pending.length === 0) return;
  const groups = new Map<string, { reason: BaseURLChangeReason; old: string; new: string; roots: object[] }>();
  for (const { node, reason, old } of pending) {
    const now = context.nodeBaseHref(node);
    if (now === old) continue;
    const key = `${reason}\n${old}\n${now}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { reason, old, new: now, roots: [node] });
    else group.roots.push(node);
  }
  for (const group of groups.values()) context.emit(group.reason, group.roots, group.old, group.new);
}

/**
 * https://dom.spec.whatwg.org/#concept-node-adopt-ext — `node` moved to
 * `context`'s document from `from`'s (null: unknown).
 *
 * @example
 * ```ts
 * adopted(context, node, otherContext); // reports "adopted" when its base URL changed
 * ```
 */
export function adopted(context: TrackedContext, node: object, from: TrackedContext | null): void {
  const adapter = context.adapter;
  const cached = context.scopes.scopes.get(node);
  let old: string | null = null;
  if (from !== null && from !== context) old = detachedBaseHref(from, node);
  else if (cached !== undefined) old = context.scopes.scopeHref(adapter, cached);
  if (from !== null && from.scopes !== context.scopes) from.scopes.forgetSubtree(adapter, node);
  context.scopes.forgetSubtree(adapter, node);
  if (old === null) return;
  const now = context.nodeBaseHref(node);
  if (now !== old) context.emit("adopted", [node], old, now);
}

/** `node`'s base URL as the root of a detached subtree of `context`'s document, serialized. */
function detachedBaseHref(context: TrackedContext, node: object): string {
  const adapter = context.adapter;
  if (!context.xmlBase || !adapter.isElementNode(node)) return context.root.href;
  return context.scopes.hrefUnder(adapter, context.root, xmlBaseOf(adapter, node), context.outputEncoding);
}

/**
 * Applies mutations given as DOM MutationRecord-shaped objects; records of
 * other types are ignored.
 *
 * @example
 * ```ts
 * notifyMutation(context, observer.takeRecords());
 * ```
 */
export function notifyMutation(
  context: TrackedContext,
  records: MutationRecordLike<LooseMap> | ArrayLike<MutationRecordLike<LooseMap>> | Iterable<MutationRecordLike<LooseMap>>,
): void {
  const list = "type" in records && typeof records.type === "string" ? [records as MutationRecordLike<LooseMap>] : toArray(records as Iterable<MutationRecordLike<LooseMap>>);
  for (const record of list) {
    if (record.type === "attributes") {
      if (record.attributeName !== null && context.adapter.isElementNode(record.target)) {
        attributeChanged(context, record.target, record.attributeNamespace ?? null, record.attributeName, record.oldValue);
      }
    } else if (record.type === "childList") {
      childrenChanged(context, record.target, { added: record.addedNodes, removed: record.removedNodes });
    }
  }
}
