/**
 * docbase/document-base — the HTML Standard's base-URL machinery for any tree
 * (fallback, frozen, document and element base URL, `Node.baseURI`,
 * encoding-parsing a URL, caching and change propagation), read through a
 * {@link DocumentBaseTreeAdapter}: parse5, domhandler (cheerio), the DOM (jsdom).
 *
 * @example
 * ```ts
 * import { parse } from "parse5";
 * import {
 *   createDocumentContext, encodingParseAndSerializeURL, parse5TreeAdapter,
 * } from "docbase/document-base";
 * const document = parse('<head><base href="/docs/"></head><a href="intro">');
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/a/b" });
 * encodingParseAndSerializeURL(context, "intro"); // "https://example.com/docs/intro"
 * ```
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "../core/require-supported-runtime.ts";

export { HTML_NAMESPACE, SVG_NAMESPACE, MATHML_NAMESPACE, XML_NAMESPACE } from "../html/index.ts";
// (Type-only modules are re-exported with `export type`, so that nothing loads them at run time.)
export type { DocumentBaseTreeAdapter, TreeAdapterTypeMap, MutationRecordLike, MutationObserverHandle, ObserveOptions } from "./tree-adapter.ts";
export { parse5TreeAdapter, type Parse5TreeAdapterMap } from "./parse5-tree-adapter.ts";
export { htmlparser2TreeAdapter, type Htmlparser2TreeAdapterMap } from "./htmlparser2-tree-adapter.ts";
export { domTreeAdapter, type DOMTreeAdapterMap, type DOMNode, type DOMElement, type DOMDocument } from "./dom-tree-adapter.ts";
export { matchesAboutBlank, matchesAboutSrcdoc } from "./about-url.ts";
export { DocumentContextError, isDocumentContextError } from "./errors.ts";
export { createDocumentContext, documentContextOf } from "./document-context.ts";
export type {
  DocumentContext,
  DocumentContextOptions,
  AboutBaseURLSource,
  ChildrenChange,
  URLChangeOptions,
  BaseURLChange,
  BaseURLChangeListener,
  BaseURLChangeReason,
} from "./document-context-types.ts";
export {
  fallbackBaseURL,
  frozenBaseURL,
  documentBaseURL,
  baseElementHref,
  elementBaseURL,
  baseURI,
  encodingParseURL,
  encodingParseAndSerializeURL,
  nodeDocumentURL,
} from "./document-base-url.ts";
export { attachesDeclarativeShadowRoot } from "./declarative-shadow-root.ts";
export { isValidCustomElementName, isValidShadowHostName, shadowRootModeState, type ShadowRootModeState } from "../html/index.ts";
export { frameCreationBaseURL } from "./frame-base-url.ts";
