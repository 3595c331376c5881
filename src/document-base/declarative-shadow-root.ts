/**
 * Declarative shadow roots in trees whose parser keeps them as templates
 * (parse5 8.1, jsdom 31): which `template` elements stand where the HTML
 * Standard's parser attaches a shadow root. Their contents resolve against
 * the document base URL, not about:blank (see node-document.ts).
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
 * Whether the HTML parser would have attached a declarative shadow root for
 * `template` (https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead,
 * a start tag "template"): its `shadowrootmode` is open or closed and its
 * parent, "the adjusted current node", can be a host (an HTML element with
 * a valid shadow host name, https://dom.spec.whatwg.org/#concept-attach-a-shadow-root)
 * that is not one already ("If declarative shadow host element is a shadow
 * host, then insert an element"). The caller answers for the document's
 * "allow declarative shadow roots".
 *
 * Deviation: custom element definitions that disable shadows are not known.
 * Deviation: a template the adoption agency algorithm moved to a new parent
 * is judged by that parent, where a browser attached to the first.
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
 * The child of `host` the parser made its declarative shadow root, or null:
 * its first HTML `template` child whose `shadowrootmode` is open or closed
 * (the later ones stay templates).
 *
 * @example
 * ```ts
 * const document = parse('<div><template shadowrootmode="x"></template><template shadowrootmode="open"></template></div>');
 * declarativeShadowRootTemplateOf(parse5TreeAdapter, div); // the second template (the first has no valid mode)
 * ```
 */
export function declarativeShadowRootTemplateOf(adapter: DocumentBaseTreeAdapter, host: unknown): unknown {
  if (!adapter.isElementNode(host) || adapter.getNamespaceURI(host) !== HTML_NAMESPACE || !isValidShadowHostName(adapter.getLocalName(host))) return null;
    // By index: parse5's default tree has no sibling links.
  const children = adapter.getChildNodes(host);
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (isHTMLTemplate(adapter, child) && hasShadowRootMode(adapter, child)) return child;
  }
  return null;
}
