/**
 * The about base URL of a frame the HTML parser created: the container
 * document's base URL when the parser inserted the frame
 * (https://html.spec.whatwg.org/multipage/document-sequences.html#creating-a-new-browsing-context:
 * "creator's document base URL").
 *
 * @module
 */

import type { URLRecord } from "../core/index.ts";
import { isBaseElementWithHref } from "../html/index.ts";
import { documentBaseURL, fallbackBaseURL } from "./document-base-url.ts";
import type { DocumentContext } from "./document-context-types.ts";
import { findInclusiveDescendant } from "./tree-walk.ts";
import type { TreeAdapterTypeMap } from "./tree-adapter.ts";
import type { LooseAdapter } from "./tree-walk.ts";

/**
 * The base URL a frame at `frame`'s position took from its container when the
 * parser created it: the document base URL when the first base element with
 * an href precedes `frame` in tree order (the parser inserts in tree order),
 * else the fallback base URL.
 *
 * Deviation: a tree changed after parsing is read as if the parser had built
 * it; a live DOM should snapshot the base URL when the frame appears.
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * const document = parse(`<iframe srcdoc="<a href=x>"></iframe><base href="/later/">`);
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/dir/page" });
 * serializeURL(frameCreationBaseURL(context, iframe)); // "https://example.com/dir/page" (the base came later)
 * ```
 */
export function frameCreationBaseURL<T extends TreeAdapterTypeMap>(
  context: DocumentContext<T>,
  frame: T["element"],
): Readonly<URLRecord> {
  const adapter = context.adapter as unknown as LooseAdapter;
  const target = frame as object;
  const first = findInclusiveDescendant(
    adapter,
    context.document as object,
    (node) => node === target || isBaseElementWithHref(adapter, node),
    false,
  );
  return first !== null && first !== target ? documentBaseURL(context) : fallbackBaseURL(context);
}
