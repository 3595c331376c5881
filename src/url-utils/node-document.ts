/**
 * The URL of an element's node document, which `action` and `formAction`
 * return when their attribute is missing or empty. Internal.
 *
 * @module
 */

import { nodeDocumentURL as documentURLOfNode } from "../document-base/index.ts";
import type { LooseContext } from "./content-attribute.ts";

/**
 * https://dom.spec.whatwg.org/#concept-document-url of `element`'s node document, serialized (document-base's `nodeDocumentURL`).
 *
 * @example
 * ```ts
 * nodeDocumentURL(context, form); // "https://example.com/page": the document's URL
 * ```
 */
export function nodeDocumentURL(context: LooseContext, element: object): string {
  return documentURLOfNode(context, element);
}
