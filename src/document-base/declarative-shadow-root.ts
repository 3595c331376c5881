/**
 * Declarative shadow roots in trees whose parser keeps them as templates:
 * which `template` elements a parser such as parse5 8.1 (and so jsdom 31)
 * left where the HTML Standard's parser attaches a shadow root
 * (https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead).
 * The URLs in their contents resolve against the document base URL, not
 * about:blank as an ordinary template's do (see node-document.ts).
 *
 * @module
 */

import { HTML_NAMESPACE, isValidShadowHostName, shadowRootModeState } from "../html/index.ts";
import type { DocumentBaseTreeAdapter, TreeAdapterTypeMap } from "./tree-adapter.ts";

function isHTMLTemplate(adapter: DocumentBaseTreeAdapter, node: unknown): boolean {
  return adapter.isElementNode(node) && adapter.getLocalName(node) === "template" && adapter.getNamespaceURI(node) === HTML_NAMESPACE;
}

/** Whether the template's `shadowrootmode` is in the open or closed state. */
function hasShadowRootMode(adapter: DocumentBaseTreeAdapter, template: unknown): boolean {
  return shadowRootModeState(adapter.getAttribute(template, null, "shadowrootmode")) !== "none";
}

/**
 * Whether the HTML parser of a document would have attached a declarative
 * shadow root for `template`, a `template` element as a parser that keeps
 * such templates (parse5, jsdom) left it in the tree: the start tag's
 * `shadowrootmode` is open or closed, and its parent is the host, an
 * element that can have a shadow root and does not have one yet.
 *
 * From https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead,
 * a start tag whose tag name is "template":
 *
 * "If any of the following are false: template start tag's shadowrootmode is
 * not in the none state; document's allow declarative shadow roots is true;
 * or the adjusted current node is not the topmost element in the stack of
 * open elements, then insert an HTML element for the token." Otherwise "let
 * declarative shadow host element be adjusted current node", and: "If
 * declarative shadow host element is a shadow host, then insert an element
 * at the adjusted insertion location with template"; else "attach a shadow
 * root with declarative shadow host element, …. If an exception is thrown,
 * then catch it and insert an element at the adjusted insertion location
 * with template".
 *
 * The caller answers for "allow declarative shadow roots": true for a
 * document its parser made for a navigation (parse5's `parse()`, jsdom's
 * `new JSDOM()`), false for fragment parsing (`parseFragment()`,
 * `innerHTML`) and DOMParser. Here:
 * - The adjusted current node is the template's parent: a template is
 *   inserted at "the appropriate place for inserting a node" with foster
 *   parenting off, which is inside the current node, or inside its
 *   template contents when it is a template (then the parent is a fragment,
 *   and the host, a template, cannot have a shadow root anyway). The topmost
 *   element, `html` (or a fragment's root), is no valid host either.
 * - "Attach a shadow root" (https://dom.spec.whatwg.org/#concept-attach-a-shadow-root)
 *   throws when the host's namespace is not the HTML namespace or its local
 *   name is not a valid shadow host name.
 * - The host "is a shadow host" when an earlier template child of it
 *   attached one: a second declarative template in the same host stays a
 *   template.
 *
 * Deviation: attaching also throws for a custom element whose definition
 * disables shadows; a tree has no custom element definitions, so that case
 * is not seen. Deviation: the adoption agency algorithm can move a
 * template, which the parser inserted as an element, to a new parent (in
 * `<a><div><template shadowrootmode=open></a>`, into a clone of the `a`),
 * where a browser had attached the shadow root to the first parent: the
 * tree no longer shows the host, and the template is taken as an ordinary
 * one; and a later declarative template in that host, which a browser
 * keeps a template (the host is a shadow host), is taken as its shadow root.
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * const document = parse('<div><template shadowrootmode="open"><a href="x">x</a></template></div>');
 * const template = findTemplate(document); // your own lookup
 * attachesDeclarativeShadowRoot(parse5TreeAdapter, template); // true
 * ```
 */
export function attachesDeclarativeShadowRoot<T extends TreeAdapterTypeMap>(adapter: DocumentBaseTreeAdapter<T>, template: T["element"]): boolean {
  const loose = adapter as DocumentBaseTreeAdapter;
  if (!isHTMLTemplate(loose, template) || !hasShadowRootMode(loose, template)) return false;
  const host = loose.getParentNode(template);
  return host !== null && declarativeShadowRootTemplateOf(loose, host) === template;
}

/**
 * The child of `host` that the parser made its declarative shadow root
 * (see {@link attachesDeclarativeShadowRoot}), or null: when `host` is an
 * element that can have a shadow root, its first HTML `template` child
 * whose `shadowrootmode` is open or closed ("if declarative shadow host
 * element is a shadow host", the later ones stay templates). Internal: the
 * document context asks it once per host.
 *
 * @example
 * ```ts
 * const document = parse('<div><template shadowrootmode="x"></template><template shadowrootmode="open"></template></div>');
 * declarativeShadowRootTemplateOf(parse5TreeAdapter, div); // the second template (the first has no valid mode)
 * ```
 */
export function declarativeShadowRootTemplateOf(adapter: DocumentBaseTreeAdapter, host: unknown): unknown {
  if (!adapter.isElementNode(host) || adapter.getNamespaceURI(host) !== HTML_NAMESPACE || !isValidShadowHostName(adapter.getLocalName(host))) return null;
  // (The children by index: parse5's default tree has no sibling links.)
  const children = adapter.getChildNodes(host);
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (isHTMLTemplate(adapter, child) && hasShadowRootMode(adapter, child)) return child;
  }
  return null;
}
