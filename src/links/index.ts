/**
 * docbase/links — every URL in an HTML document: the catalogue of
 * URL-bearing attributes, link extraction with source positions, and
 * byte-preserving link rewriting, resolved exactly as the WHATWG URL and
 * HTML standards resolve them (document base URL, srcdoc documents, legacy
 * encodings for queries).
 *
 * @example
 * ```ts
 * import { extractLinks, rewriteLinks, relativize } from "docbase/links";
 * extractLinks('<base href="/docs/"><a href="intro">', { url: "https://example.com/" })[1].url;
 * // "https://example.com/docs/intro"
 * rewriteLinks('<a href="https://example.com/docs/a">', { url: "https://example.com/docs/", rewrite: relativize() });
 * // '<a href="a">'
 * // The same over a stream, in bounded memory:
 * response.body.pipeThrough(createLinkRewriter({ url: "https://example.com/docs/", rewrite: relativize() }));
 * ```
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "../core/require-supported-runtime.ts";

export { catalogue, lookupAttribute, type AttributeKind, type CatalogueEntry } from "./catalogue.ts";
export { extractLinks } from "./extract-links.ts";
export { type Link, type LinkKind, type LinkValidationError, type SrcdocTooDeep, type StreamWarning } from "./link-types.ts";
export {
  DEFAULT_MAX_HOLD,
  DEFAULT_MAX_SRCDOC_DEPTH,
  MAX_ERRORS_PER_VALUE,
  type ExtractLinksOptions,
  type LinkRewriterOptions,
  type LinkStreamOptions,
  type RewriteLinksOptions,
  type SettledDocument,
} from "./options.ts";
export { settleDocument } from "./document-survey.ts";
export { sourcePosition, type SourceAnchor, type SourcePosition } from "./source-position.ts";
export { rewriteLinks } from "./rewrite-links.ts";
export { absolutize, relativize, rebase, mapURLs, relativeReference, type RelativizeOptions, type RewriteFilterOption } from "./rewrites.ts";
export { portableReference, referenceInFormOf, referenceForm, type ReferenceForm } from "./url-references.ts";
export { readURLMap, lookUpURL, type URLMap, type URLMapFormat, type ReadURLMap } from "./url-maps.ts";
export { parseRedirects, followRedirect, type RedirectRule, type RedirectNote } from "./redirects-file.ts";
export { linkLoad, linkFilter, compileURLPattern, type LinkFilterOptions } from "./link-filters.ts";
export { parseSrcset, type ImageCandidate } from "./srcset.ts";
export { parseRefresh, type RefreshValue } from "./refresh.ts";
export { findCSSURLs, type CSSURLReference } from "./css-urls.ts";
export { extractStylesheetLinks, rewriteStylesheetLinks, type StylesheetOptions, type RewriteStylesheetOptions } from "./stylesheet-links.ts";
export { LinksError, isLinksError } from "./errors.ts";
export { UnwritableValueError, isUnwritableValueError } from "./attribute-writer.ts";
export { LinkStream } from "./link-stream.ts";
export { createLinkRewriter, rewriteResponse, streamLinks, type StreamLinksOptions } from "./link-rewriter-stream.ts";
