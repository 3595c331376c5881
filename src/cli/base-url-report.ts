/**
 * How a document's base URL comes about: which `<base>` sets it, which are
 * ignored and why, and the links that resolve against a `<base>` that
 * comes after them — what `docbase base` prints and what `docbase check`
 * reports as base-URL surprises.
 *
 * The base URLs are the document-base layer's answers over a parse5 tree
 * of the document (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url);
 * positions are the links layer's (each `<base href>` is a link).
 *
 * @module
 */

import { parse, type DefaultTreeAdapterMap } from "parse5";
import { type EncodingName, parseURL, serializeURL } from "../core/index.ts";
import {
  attachesDeclarativeShadowRoot,
  createDocumentContext,
  documentBaseURL,
  fallbackBaseURL,
  frozenBaseURL,
  parse5TreeAdapter,
} from "../document-base/index.ts";
import { isParsedBaseElementWithHref } from "../html/index.ts";
import { type Link, sourcePosition, type SourcePosition } from "../links/index.ts";
import type { LinksRead } from "../links/internal.ts";
import { decodeText, documentEncoding } from "./document-text.ts";

type Element = DefaultTreeAdapterMap["element"];
type ParentNode = DefaultTreeAdapterMap["parentNode"];

/**
 * Why a `<base href>` does or does not set the document base URL:
 * - `"used"`: it is the first `<base>` with an href, and its URL is usable;
 * - `"unusable"`: it is the first, but its href does not parse, or is a
 *   data: or javascript: URL, so the frozen base URL is the fallback base
 *   URL (https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url);
 * - `"not-first"`: an earlier `<base href>` decides;
 * - `"in-template"`: it is in a `<template>`'s contents, not in the document;
 * - `"in-shadow-root"`: it is in a declarative shadow root (a `<template
 *   shadowrootmode>` the parser attaches to its parent), a shadow tree,
 *   which "the first base element in tree order" does not enter.
 *
 * @example
 * ```ts
 * const status: BaseElementStatus = "not-first"; // the second <base href> of a document
 * ```
 */
export type BaseElementStatus = "used" | "unusable" | "not-first" | "in-template" | "in-shadow-root";

/**
 * One `<base href>` of a document.
 *
 * @example
 * ```ts
 * const base: BaseElementReport = {
 *   line: 6, column: 15, href: "javascript:void(0)", url: "javascript:void(0)",
 *   status: "unusable", reason: "is a javascript: URL", inBody: false,
 * };
 * ```
 */
export interface BaseElementReport {
  /** Where its href value starts in the file. */
  readonly line: number;
  readonly column: number;
  /** The href value, as the links layer reports it (decoded, trimmed). */
  readonly href: string;
  /** The href parsed against the fallback base URL, or null when it does not parse. */
  readonly url: string | null;
  readonly status: BaseElementStatus;
  /** For `"unusable"`: why ("does not parse", "is a data: URL", "is a javascript: URL"). */
  readonly reason: string | null;
  /** True for a `<base>` that the parser put outside `<head>` (it still counts, but should be in the head). */
  readonly inBody: boolean;
}

/**
 * How a document's base URL is derived.
 *
 * @example
 * ```ts
 * // docbase base examples/site/docs/guide.html --url https://example.com/docs/guide.html --json
 * const report: BaseURLReport = {
 *   documentURL: "https://example.com/docs/guide.html", encoding: "UTF-8",
 *   fallbackBaseURL: "https://example.com/docs/guide.html", documentBaseURL: "https://example.com/docs/v2/",
 *   derivation: "base", bases: [{ line: 7, column: 15, href: "/docs/v2/", url: "https://example.com/docs/v2/", status: "used", reason: null, inBody: false }],
 *   linksBeforeBase: { count: 1, first: { line: 6, column: 32 } },
 * };
 * ```
 */
export interface BaseURLReport {
  /** https://dom.spec.whatwg.org/#concept-document-url */
  readonly documentURL: string;
  /** The document's character encoding (it encodes the queries of `<base href>` and links). */
  readonly encoding: EncodingName;
  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url */
  readonly fallbackBaseURL: string;
  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url */
  readonly documentBaseURL: string;
  /** "base" when a `<base href>` sets it, "fallback" when there is none, or the first is unusable. */
  readonly derivation: "base" | "fallback";
  /** Every `<base href>`, in tree order (template contents and declarative shadow roots included, marked). */
  readonly bases: readonly BaseElementReport[];
  /**
   * The relative links before the `<base>` that sets the base URL: they
   * resolve against it all the same (the base URL is the document's, not
   * the one in effect where the link is), which surprises readers and
   * tools that resolve as they go. Null when there are none.
   */
  readonly linksBeforeBase: { readonly count: number; readonly first: SourcePosition } | null;
}

/** Where a `<base href>` is: in the document, in template contents, or in a declarative shadow root. */
type BasePlace = "document" | "template" | "shadow-root";

/**
 * Every HTML `base` element with an href, in tree order, where it is (the
 * innermost of template contents and shadow roots decides), and whether
 * its parent is `head`.
 */
function findBases(root: ParentNode, place: BasePlace, found: { element: Element; place: BasePlace; inHead: boolean }[]): void {
  for (const child of root.childNodes) {
    if (!("tagName" in child)) continue;
    const element = child as Element;
    if (isParsedBaseElementWithHref(element)) {
      const parent = element.parentNode as Element | null;
      found.push({ element, place, inHead: parent !== null && "tagName" in parent && parent.tagName === "head" });
    }
    findBases(element, place, found);
    if (element.tagName === "template" && "content" in element) {
      const inside = attachesDeclarativeShadowRoot(parse5TreeAdapter, element) ? "shadow-root" : "template";
      findBases((element as DefaultTreeAdapterMap["template"]).content, inside, found);
    }
  }
}

/** Why an href cannot be a base URL, or null when it can. */
function unusableReason(href: string, fallback: string, encoding: EncodingName): string | null {
  const record = parseURL(href, { base: fallback, encoding });
  if (record === null) return "does not parse";
  if (record.scheme === "data") return "is a data: URL";
  if (record.scheme === "javascript") return "is a javascript: URL";
  return null;
}

/**
 * How the base URL of a document (given as bytes, with the links the
 * links layer found in it) comes about. `url` is the document's URL;
 * `label` an encoding label that overrides sniffing.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode('<link href=a.css><base href="/v2/"><base href="/v3/">');
 * const links = extractLinks(bytes, { url: "https://example.com/docs/" });
 * const report = baseURLReport(bytes, links, { url: "https://example.com/docs/" });
 * report.documentBaseURL; // "https://example.com/v2/"
 * report.bases.map((b) => b.status); // ["used", "not-first"]
 * report.linksBeforeBase; // { count: 1, first: { line: 1, column: 12 } }
 * ```
 */
export function baseURLReport(bytes: Uint8Array, links: readonly Link[], options: { readonly url: string; readonly encoding?: string | undefined }): BaseURLReport {
  const encoding = documentEncoding(bytes, options.encoding, links);
  const baseLinks = links.filter((l) => l.element === "base" && l.attribute === "href" && l.namespace === "html" && l.srcdoc === 0);
  let fallback: string;
  let documentBase: string;
  let firstBase: Element | null = null;
  let firstFrozen: string | null = null;
  const found: { element: Element; place: BasePlace; inHead: boolean }[] = [];
  let text = "";
  if (baseLinks.length === 0) {
    // Optimisation: without a <base href> the parse tree has nothing to say.
    const context = createDocumentContext(parse5TreeAdapter, parse(""), { url: options.url, encoding });
    fallback = serializeURL(fallbackBaseURL(context));
    documentBase = serializeURL(documentBaseURL(context));
    context.dispose();
  } else {
    text = decodeText(bytes, encoding);
    const document = parse(text, { sourceCodeLocationInfo: true });
    const context = createDocumentContext(parse5TreeAdapter, document, { url: options.url, encoding });
    fallback = serializeURL(fallbackBaseURL(context));
    documentBase = serializeURL(documentBaseURL(context));
    findBases(document, "document", found);
    const first = found.find((b) => b.place === "document");
    if (first !== undefined) {
      firstBase = first.element;
      const frozen = frozenBaseURL(context, first.element);
      firstFrozen = frozen === null ? null : serializeURL(frozen);
    }
    context.dispose();
  }
  const bases: BaseElementReport[] = [];
  let usedBaseStart: number | null = null;
  for (const { element, place, inHead } of found) {
    const location = element.sourceCodeLocation?.attrs?.["href"];
    const link =
      location === undefined ? undefined : baseLinks.find((l) => l.start >= location.startOffset && l.start <= location.endOffset);
    const position = link ?? (location === undefined ? { line: 0, column: 0 } : sourcePosition(text, location.startOffset));
    const href = link?.value ?? element.attrs.find((a) => a.name === "href")?.value ?? "";
    const url = link?.url ?? null;
    let status: BaseElementStatus;
    let reason: string | null = null;
    if (place === "template") status = "in-template";
    else if (place === "shadow-root") status = "in-shadow-root";
    else if (element !== firstBase) status = "not-first";
    else {
      reason = unusableReason(href, fallback, encoding);
      status = reason === null ? "used" : "unusable";
      if (status === "used" && link !== undefined) usedBaseStart = link.start;
    }
    bases.push({ line: position.line, column: position.column, href, url, status, reason, inBody: place === "document" && !inHead });
  }
  // The frozen base URL is the document-base layer's; "used" says the same thing from the href.
  const derivation = firstFrozen !== null && bases.some((b) => b.status === "used") ? "base" : "fallback";
  let linksBeforeBase: BaseURLReport["linksBeforeBase"] = null;
  if (usedBaseStart !== null && documentBase !== fallback) {
    let count = 0;
    let first: SourcePosition | null = null;
    for (const link of links) {
      if (link.start >= usedBaseStart) break;
      // Links that the base does not change: other bases, form actions without one, absolute URLs, itemtype.
      if (link.srcdoc !== 0 || link.element === "base" || link.missing === true || link.base !== documentBase) continue;
      if (parseURL(link.value) !== null) continue;
      count++;
      first ??= { line: link.line, column: link.column };
    }
    if (first !== null) linksBeforeBase = { count, first };
  }
  return { documentURL: options.url, encoding, fallbackBaseURL: fallback, documentBaseURL: documentBase, derivation, bases, linksBeforeBase };
}

/**
 * How the base URL of a document comes about, from one reading of it
 * (`readLinks` with `{ bases: true }`); `documentURL` is its URL.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode('<link href=a.css><base href="/v2/"><base href="/v3/">');
 * const report = baseURLReportOfRead(readLinks(bytes, { url: "https://example.com/docs/" }, { bases: true }), "https://example.com/docs/");
 * report.documentBaseURL; // "https://example.com/v2/"
 * report.bases.map((b) => b.status); // ["used", "not-first"]
 * report.linksBeforeBase; // { count: 1, first: { line: 1, column: 12 } }
 * ```
 */
export function baseURLReportOfRead(read: LinksRead, documentURL: string): BaseURLReport {
  if (read.bases === null) throw new TypeError("baseURLReport: the document was read without { bases: true }");
  const used = read.bases.find((b) => b.status === "used");
  let linksBeforeBase: BaseURLReport["linksBeforeBase"] = null;
  if (used !== undefined && read.documentBaseURL !== read.fallbackBaseURL) {
    let count = 0;
    let first: SourcePosition | null = null;
    for (const link of read.links) {
      if (link.start >= used.start) break;
      // Links that the base does not change: other bases, form actions without one, absolute URLs, itemtype.
      if (link.srcdoc !== 0 || link.element === "base" || link.missing === true || link.base !== read.documentBaseURL) continue;
      if (parseURL(link.value) !== null) continue;
      count++;
      first ??= { line: link.line, column: link.column };
    }
    if (first !== null) linksBeforeBase = { count, first };
  }
  return {
    documentURL,
    encoding: read.encoding,
    fallbackBaseURL: read.fallbackBaseURL,
    documentBaseURL: read.documentBaseURL,
    derivation: used === undefined ? "fallback" : "base",
    bases: read.bases.map(({ line, column, href, url, status, reason, inBody }) => ({ line, column, href, url, status, reason, inBody })),
    linksBeforeBase,
  };
}
