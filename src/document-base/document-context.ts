/**
 * Making a document's context and finding it again: `createDocumentContext`,
 * `documentContextOf`, and `contextImpl`, the implementation behind a
 * `DocumentContext` (for this package's other layers, through internal.ts).
 *
 * @module
 */

import { Context, registry } from "./context.ts";
import type { DocumentContext, DocumentContextOptions } from "./document-context-types.ts";
import { DocumentContextError } from "./errors.ts";
import type { DocumentBaseTreeAdapter, TreeAdapterTypeMap } from "./tree-adapter.ts";
import type { LooseAdapter } from "./tree-walk.ts";

/**
 * Turns the public `DocumentContext` back into the implementation, or throws
 * a {@link DocumentContextError}.
 *
 * @example
 * ```ts
 * const context = contextImpl(createDocumentContext(domTreeAdapter, document));
 * context.declarativeShadowRootDocument(node); // document, or null
 * ```
 */
export function contextImpl(context: unknown): Context {
  if (context instanceof Context) return context;
  throw new DocumentContextError(`Not a DocumentContext (made by createDocumentContext): ${String(context)}`);
}

/**
 * Creates the context of `document`, a tree read through `adapter`.
 * https://dom.spec.whatwg.org/#concept-document — the URL, the encoding and
 * the about base URL are the Document's own; see
 * {@link DocumentContextOptions}. A document has at most one context:
 * another, before the first is disposed, is a {@link DocumentContextError}.
 *
 * `document` is a document node, or the root fragment of a tree that has
 * none (a parse5 `parseFragment()` result, a tree from htmlparser2's own
 * parser), which then plays the document: its `base` elements count.
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import { baseURI, createDocumentContext, parse5TreeAdapter } from "docbase/document-base";
 * const parent = createDocumentContext(parse5TreeAdapter, parse('<base href="/docs/">'), {
 *   url: "https://example.com/",
 * });
 * // An iframe srcdoc document: its base URL is its container's, taken now.
 * const srcdoc = parse("<base href='sub/'>");
 * const child = createDocumentContext(parse5TreeAdapter, srcdoc, { url: "about:srcdoc", aboutBaseURL: parent });
 * baseURI(child, srcdoc); // "https://example.com/docs/sub/"
 * ```
 */
export function createDocumentContext<T extends TreeAdapterTypeMap>(
  adapter: DocumentBaseTreeAdapter<T>,
  document: T["document"],
  options: DocumentContextOptions = {},
): DocumentContext<T> {
  const loose = adapter as unknown as LooseAdapter;
  const node = document as object;
  if (!loose.isDocumentNode(node) && !(loose.isDocumentFragmentNode(node) && loose.getParentNode(node) === null)) {
    throw new DocumentContextError(`Not a document (or root fragment) for the ${adapter.name} tree adapter: ${String(document)}`);
  }
  const existing = registry.get(node);
  if (existing !== undefined && !existing.implicit) {
    throw new DocumentContextError("This document already has a DocumentContext; dispose() it before creating another");
  }
  // A context made implicitly (by a lookup from another document) gives way to this one.
  existing?.dispose();
  const context = new Context(loose, node, options, false, null);
  registry.set(node, context);
  if (options.observe === true) {
    try {
      context.startObserving();
    } catch (error) {
      registry.delete(node);
      throw error;
    }
  }
  return context as unknown as DocumentContext<T>;
}

/**
 * The context of `document`, if it has one: made by
 * {@link createDocumentContext}, or implicitly when a node of that document
 * was asked about through another document's context.
 *
 * @example
 * ```ts
 * const context = createDocumentContext(domTreeAdapter, document);
 * documentContextOf(document) === context; // true
 * ```
 */
export function documentContextOf<T extends TreeAdapterTypeMap>(document: T["document"]): DocumentContext<T> | undefined {
  return registry.get(document as object) as unknown as DocumentContext<T> | undefined;
}
