/**
 * The URL of an element's node document, which the `action` and
 * `formAction` getters return when their attribute is missing or empty.
 *
 * Interim: the document-base layer knows every node's document (it keeps
 * the contexts of other documents and of template contents), but does not
 * yet export a way to ask for that document's URL. Until it does, this
 * module finds the node document the way that layer does (the tree's own
 * link when it records one, else the root of the node's tree) and asks its
 * context. Internal module: not part of the public face.
 *
 * @module
 */

import { documentContextOf } from "../document-base/index.ts";
import type { LooseAdapter, LooseContext } from "./content-attribute.ts";

/** The URL of a document that is not the context's own: its context's, or what the tree records. */
function otherDocumentURL(adapter: LooseAdapter, document: object): string {
  return documentContextOf(document)?.url ?? adapter.getDocumentURL?.(document) ?? "about:blank";
}

/** Whether `fragment` is the contents of a template in `root`'s tree (nested template contents included). */
function isTemplateContentIn(adapter: LooseAdapter, root: object, fragment: object): boolean {
  const pending: object[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const content = adapter.getTemplateContent(node);
    if (content === fragment) return true;
    if (content !== null) pending.push(content);
    const children = adapter.getChildNodes(node);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return false;
}

/**
 * https://dom.spec.whatwg.org/#concept-document-url of `element`'s node
 * document (https://dom.spec.whatwg.org/#concept-node-document), serialized:
 * - the context's document: the context's URL;
 * - another document: its context's URL, or the URL the tree records, or
 *   about:blank;
 * - template contents: their inert document's, about:blank
 *   (https://html.spec.whatwg.org/multipage/scripting.html#appropriate-template-contents-owner-document);
 * - a detached node in a tree that does not record node documents: the
 *   context's URL (the caller asked this context about it), as the
 *   document-base layer assumes too.
 */
export function nodeDocumentURL(context: LooseContext, element: object): string {
  const adapter = context.adapter;
  const owner = adapter.getOwnerDocument(element);
  if (owner !== null) return owner === context.document ? context.url : otherDocumentURL(adapter, owner);
  let root = element;
  for (let parent = adapter.getParentNode(root); parent !== null; parent = adapter.getParentNode(root)) root = parent;
  if (root === context.document) return context.url;
  if (adapter.isDocumentNode(root)) return otherDocumentURL(adapter, root);
  if (adapter.isDocumentFragmentNode(root)) {
    const known = adapter.isTemplateContent?.(root);
    if (known === true || (known === undefined && isTemplateContentIn(adapter, context.document, root))) return "about:blank";
  }
  return context.url;
}
