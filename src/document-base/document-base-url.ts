/**
 * The HTML Standard's base-URL algorithms, over a {@link DocumentContext}:
 * fallback base URL, frozen base URL, document base URL, the `base` element's
 * href getter, the element base URL (with opt-in xml:base), `Node.baseURI`,
 * and encoding-parsing a URL relative to a document or an element.
 *
 * Every function first applies the mutations an observing context has
 * queued. The URL records returned are the caches: frozen and shared.
 *
 * @module
 */

import { basicURLParse, type OutputEncodingName, serializeURL, type URLRecord } from "../core/index.ts";
import { serializeFast } from "../core/fast-path.ts";
import type { Context } from "./context.ts";
import { contextImpl } from "./document-context.ts";
import type { DocumentContext } from "./document-context-types.ts";
import type { TreeAdapterTypeMap } from "./tree-adapter.ts";

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url —
 * the about base URL for an iframe srcdoc document (URL about:srcdoc) and
 * for a document whose URL matches about:blank when it has one; else the
 * document's URL.
 *
 * @example
 * ```ts
 * const parent = createDocumentContext(parse5TreeAdapter, parse("<base href=/docs/>"), { url: "https://example.com/" });
 * const blank = createDocumentContext(parse5TreeAdapter, parse(""), { url: "about:blank", aboutBaseURL: parent });
 * serializeURL(fallbackBaseURL(blank)); // "https://example.com/docs/"
 * ```
 */
export function fallbackBaseURL<T extends TreeAdapterTypeMap>(document: DocumentContext<T>): Readonly<URLRecord> {
  const context = contextImpl(document);
  context.sync();
  return context.fallbackBaseURL();
}

/**
 * https://html.spec.whatwg.org/multipage/semantics.html#frozen-base-url —
 * the frozen base URL of `element` when it is the first `base` element with
 * an href in its document, else null. A later change of the document URL
 * does not move it.
 *
 * @example
 * ```ts
 * const document = parse('<base href="../up/"><base href="/ignored/">');
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/a/b/" });
 * const [first, second] = findBases(document); // your own lookup
 * serializeURL(frozenBaseURL(context, first)!); // "https://example.com/a/up/"
 * frozenBaseURL(context, second); // null
 * ```
 */
export function frozenBaseURL<T extends TreeAdapterTypeMap>(document: DocumentContext<T>, element: T["element"]): Readonly<URLRecord> | null {
  const context = contextImpl(document);
  context.sync();
  return context.contextOfNode(element as object).frozenBaseURLOf(element as object);
}

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url —
 * the frozen base URL of the first `base` element with an href in tree
 * order, or the fallback base URL when there is none.
 *
 * @example
 * ```ts
 * const context = createDocumentContext(parse5TreeAdapter, parse('<base href="data:/,x"><base href="/y/">'), {
 *   url: "https://example.com/",
 * });
 * serializeURL(documentBaseURL(context)); // "https://example.com/" (a data: base is unusable, and still first)
 * ```
 */
export function documentBaseURL<T extends TreeAdapterTypeMap>(document: DocumentContext<T>): Readonly<URLRecord> {
  const context = contextImpl(document);
  context.sync();
  return context.root.url;
}

/**
 * https://html.spec.whatwg.org/multipage/semantics.html#dom-base-href — the
 * `base` element's `href` getter: its href parsed against the fallback base
 * URL (never against a `base` element), serialized, or the value itself when
 * it does not parse.
 * @example
 * ```ts
 * // In a document at https://example.com/dir/page:
 * baseElementHref(context, baseWithHref("sub/")); // "https://example.com/dir/sub/"
 * baseElementHref(context, baseWithHref("//test:test")); // "//test:test" (the port does not parse)
 * baseElementHref(context, baseWithHref("data:/,x")); // "data:/,x" (the getter does not care)
 * ```
 */
export function baseElementHref<T extends TreeAdapterTypeMap>(document: DocumentContext<T>, element: T["element"]): string {
  const context = contextImpl(document);
  context.sync();
  const owner = context.contextOfNode(element as object);
  // 2. Let url be the value of the href attribute of this element, if it has one, and the empty string otherwise.
  const url = context.adapter.getAttribute(element as object, null, "href") ?? "";
  // 3. Let urlRecord be the result of parsing url with document's fallback base URL, and document's character encoding.
  const urlRecord = basicURLParse(url, { base: owner.fallbackBaseURL(), encoding: owner.outputEncoding });
  if (urlRecord === null) return url;
  return serializeURL(urlRecord);
}

/**
 * The base URL of `element`: its node document's document base URL; with the
 * `xmlBase` option, as HTML 5 defined it
 * (https://www.w3.org/TR/2014/REC-html5-20141028/infrastructure.html#base-urls),
 * its xml:base resolved against its parent's base URL (a value that does not
 * resolve is ignored).
 *
 * @example
 * ```ts
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/", xmlBase: true });
 * parse5TreeAdapter.setAttribute(div, XML_NAMESPACE, "base", "/feeds/", "xml");
 * context.attributeChanged(div, XML_NAMESPACE, "base", null);
 * serializeURL(elementBaseURL(context, linkInsideDiv)); // "https://example.com/feeds/"
 * ```
 */
export function elementBaseURL<T extends TreeAdapterTypeMap>(document: DocumentContext<T>, element: T["element"]): Readonly<URLRecord> {
  const context = contextImpl(document);
  context.sync();
  return context.scopeURL(context.elementScope(element as object));
}

/**
 * https://dom.spec.whatwg.org/#dom-node-baseuri — `node.baseURI`: its node
 * document's document base URL, serialized, connected or not (template
 * contents: about:blank, see {@link nodeDocumentURL}). With `xmlBase`, an
 * element's own base URL, and a child node's parent element's.
 *
 * @example
 * ```ts
 * const { document } = new JSDOM('<base href="/docs/">', { url: "https://example.com/" }).window;
 * const context = createDocumentContext(domTreeAdapter, document);
 * baseURI(context, document.createElement("a")); // "https://example.com/docs/" (detached, same document)
 * ```
 */
export function baseURI<T extends TreeAdapterTypeMap>(document: DocumentContext<T>, node: T["node"]): string {
  const context = contextImpl(document);
  context.sync();
  return context.nodeBaseHref(node as object);
}

/**
 * https://dom.spec.whatwg.org/#concept-document-url of `node`'s node
 * document, serialized: about:blank for template contents, whose node
 * document is an inert document
 * (https://html.spec.whatwg.org/multipage/scripting.html#appropriate-template-contents-owner-document),
 * but not for a template that stands for a declarative shadow root; for a
 * detached node of a tree without node documents (parse5, domhandler), the
 * context's. A form's `action` getter returns it for a missing action.
 *
 * @example
 * ```ts
 * const document = parse('<div><template shadowrootmode="open"><form id="f"></form></template></div><template><form id="g"></form></template>');
 * const context = createDocumentContext(parse5TreeAdapter, document, { url: "https://example.com/page" });
 * nodeDocumentURL(context, findById(document, "f")); // "https://example.com/page" (a declarative shadow root)
 * nodeDocumentURL(context, findById(document, "g")); // "about:blank" (template contents)
 * ```
 */
export function nodeDocumentURL<T extends TreeAdapterTypeMap>(document: DocumentContext<T>, node: T["node"]): string {
  const context = contextImpl(document);
  context.sync();
  return context.contextOfNode(node as object).url;
}

function baseScope(context: Context, relativeTo: object | undefined) {
  return relativeTo === undefined ? context.root : context.nodeScope(relativeTo);
}

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url —
 * parses `url` against the document base URL (given a node: its base URL,
 * the same unless xml:base is on) with the document's encoding for the
 * query. Returns a new record, or null on failure.
 *
 * @example
 * ```ts
 * const context = createDocumentContext(parse5TreeAdapter, document, {
 *   url: "https://example.com/dir/", encoding: "windows-1252",
 * });
 * serializeURL(encodingParseURL(context, "search?q=å")!); // "https://example.com/dir/search?q=%E5"
 * encodingParseURL(context, "http://[::1"); // null
 * ```
 */
export function encodingParseURL<T extends TreeAdapterTypeMap>(
  document: DocumentContext<T>,
  url: string,
  relativeTo?: T["node"],
): URLRecord | null {
  return basicURLParse(url, parseEnvironment(document, relativeTo));
}

/**
 * Steps 1–4 of https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url:
 * the base URL and the encoding to parse with, as basicURLParse's options.
 */
function parseEnvironment<T extends TreeAdapterTypeMap>(document: DocumentContext<T>, relativeTo: T["node"] | undefined): { base: URLRecord; encoding: OutputEncodingName } {
  const context = contextImpl(document);
  context.sync();
  const scope = baseScope(context, relativeTo as object | undefined);
  // 1–3. The document's character encoding (UTF-8 for UTF-16 and replacement). 4. Its base URL.
  return { base: context.scopeURL(scope) as URLRecord, encoding: scope.owner.outputEncoding };
}

/**
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-and-serializing-a-url —
 * {@link encodingParseURL}, serialized; null on failure: what `a.href` or
 * `img.src` returns for a valid value.
 *
 * @example
 * ```ts
 * encodingParseAndSerializeURL(context, "../img/logo.png", img); // "https://example.com/img/logo.png"
 * encodingParseAndSerializeURL(context, "http://test:test/"); // null
 * ```
 */
export function encodingParseAndSerializeURL<T extends TreeAdapterTypeMap>(
  document: DocumentContext<T>,
  url: string,
  relativeTo?: T["node"],
): string | null {
  const environment = parseEnvironment(document, relativeTo);
  // Optimisation: the common shapes are serialized without a record (see serializeFast).
  const fast = serializeFast(url, environment.base);
  if (fast !== undefined) return fast;
  const record = basicURLParse(url, environment);
  if (record === null) return null;
  return serializeURL(record);
}
