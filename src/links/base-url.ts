/**
 * The one seam between link extraction and the document-base layer: every
 * base-URL decision (fallback base URL, frozen base URL, document base URL,
 * about:srcdoc documents taking their container's base URL) is that
 * layer's, asked through its public face.
 *
 * @module
 */

import type { OutputEncodingName, URLRecord } from "../core/index.ts";
import { getOutputEncoding, type EncodingName } from "../core/index.ts";
import {
  createDocumentContext,
  documentBaseURL,
  fallbackBaseURL,
  parse5TreeAdapter,
} from "../document-base/index.ts";
import type { LeanDocument } from "./html-source.ts";

function emptyDocument(): LeanDocument {
  return { nodeName: "#document", mode: "no-quirks", childNodes: [] };
}

/**
 * The URLs and encoding that links in one document resolve with.
 *
 * @example
 * ```ts
 * documentURLs(tree, parseURL("https://example.com/a")!, "UTF-8", null, false).outputEncoding; // "UTF-8"
 * ```
 */
export interface DocumentURLs {
  /** https://dom.spec.whatwg.org/#concept-document-url */
  readonly documentURL: Readonly<URLRecord>;
  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url (what `<base href>` resolves against). */
  readonly fallbackBaseURL: Readonly<URLRecord>;
  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url */
  readonly documentBaseURL: Readonly<URLRecord>;
  /** The encoding URL queries are encoded with (UTF-8 for UTF-16 and replacement). */
  readonly outputEncoding: OutputEncodingName;
}

/**
 * The base URLs of `document` (a lean tree, whose shapes are parse5's
 * default tree's, so the parse5 adapter reads it), at URL `url`, in
 * `encoding`. `aboutBaseURL` is the about base URL of an about:srcdoc (or
 * about:blank) document: its container's document base URL, taken when it
 * was created (https://html.spec.whatwg.org/multipage/dom.html#concept-document-about-base-url).
 *
 * @example
 * ```ts
 * const { document } = parseWithPositions('<base href="/docs/">');
 * serializeURL(documentURLs(document, parseURL("https://example.com/a")!, "UTF-8", null, true).documentBaseURL as URLRecord);
 * // "https://example.com/docs/"
 * ```
 */
export function documentURLs(
  document: LeanDocument,
  url: Readonly<URLRecord>,
  encoding: EncodingName,
  aboutBaseURL: Readonly<URLRecord> | null,
  hasBaseElement: boolean,
): DocumentURLs {
  // Optimisation: the document base URL looks for the first base element
  // with an href, in a walk of the whole tree. When the parser made none
  // (the caller knows: it saw every element made), an empty document has
  // the same answer, and the walk costs nothing.
  const tree = hasBaseElement ? document : emptyDocument();
  const context = createDocumentContext(parse5TreeAdapter, tree as never, { url, encoding, aboutBaseURL });

  try {
    return {
      documentURL: url,
      fallbackBaseURL: fallbackBaseURL(context),
      documentBaseURL: documentBaseURL(context),
      outputEncoding: getOutputEncoding(encoding),
    };
  } finally {
    context.dispose();
  }
}
