/**
 * The about base URL of a frame created by the HTML parser: the container
 * document's base URL at the moment the parser inserted the frame.
 *
 * https://html.spec.whatwg.org/multipage/document-sequences.html#creating-a-new-browsing-context
 * (the about base URL is "creator's document base URL", taken when the frame's
 * document is created)
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
 * The base URL a frame at `frame`'s position took from its container
 * document when the parser created it — the about base URL of an
 * about:blank or about:srcdoc frame of a parsed document.
 *
 * The parser inserts elements in tree order, so at the frame's creation the
 * document's first `<base href>` counted only if it comes before the frame:
 * the result is the document base URL when the first base element with an
 * href precedes `frame` in tree order, and the fallback base URL otherwise.
 *
 * Deviation: a tree changed after parsing (a `<base>` inserted by script
 * before a frame that already existed) is read as if the parser had built
 * it; a live DOM should snapshot the base URL when the frame appears instead.
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
