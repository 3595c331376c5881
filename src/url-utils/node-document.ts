/**
 * The URL of an element's node document, which the `action` and
 * `formAction` getters return when their attribute is missing or empty.
 *
 * The document-base layer knows every node's document (the context's own,
 * other documents', the inert document of template contents, and the
 * document of a declarative shadow root kept as a template's contents), and
 * answers with `nodeDocumentURL`. Internal module: not part of the public
 * face.
 *
 * @module
 */

import { nodeDocumentURL as documentURLOfNode } from "../document-base/index.ts";
import type { LooseContext } from "./content-attribute.ts";

/**
 * https://dom.spec.whatwg.org/#concept-document-url of `element`'s node
 * document (https://dom.spec.whatwg.org/#concept-node-document), serialized:
 * see the document-base layer's `nodeDocumentURL`.
 */
export function nodeDocumentURL(context: LooseContext, element: object): string {
  return documentURLOfNode(context, element);
}
