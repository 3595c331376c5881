/**
 * Every `<base href>` of a read document, in tree order, and what it does
 * to the document base URL: the one that sets it, the ones ignored and
 * why — from the tree and the links of the one reading.
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url
 *
 * @module
 */

import { type EncodingName, parseURL } from "../core/index.ts";
import { attachesDeclarativeShadowRoot, parse5TreeAdapter } from "../document-base/index.ts";
import { isParsedBaseElementWithHref } from "../html/index.ts";
import type { DocumentURLs } from "./base-url.ts";
import type { TemplateContents } from "./constructed-element.ts";
import type { LeanChild, LeanDocument, LeanElement, LeanFragment, LeanParent, ParsedSource } from "./html-source.ts";
import type { Link } from "./link-types.ts";

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
 * const base: BaseElement = {
 *   line: 6, column: 15, start: 120, href: "javascript:void(0)", raw: " javascript:void(0)", url: "javascript:void(0)",
 *   status: "unusable", reason: "is a javascript: URL", inBody: false,
 * };
 * ```
 */
export interface BaseElement {
  /** Where its href value starts (its link's `line`, `column` and `start`). */
  readonly line: number;
  readonly column: number;
  readonly start: number;
  /** The href value as its link has it (decoded, without leading and trailing ASCII whitespace). */
  readonly href: string;
  /** The href attribute's whole value, decoded (its link's `raw`). */
  readonly raw: string;
  /** The href parsed against the fallback base URL, serialized, or null when it does not parse. */
  readonly url: string | null;
  readonly status: BaseElementStatus;
  /** For `"unusable"`: why ("does not parse", "is a data: URL", "is a javascript: URL"); else null. */
  readonly reason: string | null;
  /** True for a `<base>` in the document whose parent is not `<head>` (it still counts, but should be in the head). */
  readonly inBody: boolean;
}

/** Where a `<base href>` is: in the document, in template contents, or in a declarative shadow root. */
type BasePlace = "document" | "template" | "shadow-root";

/**
 * Why `href`, the first `<base>`'s, cannot be the document's base URL
 * (https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url:
 * "If urlRecord is failure, or running Is base allowed for Document? on
 * the resulting URL record and document returns "Blocked"", a data: or
 * javascript: URL), or null when it can.
 */
function unusableReason(href: string, urls: DocumentURLs, encoding: EncodingName): string | null {
  const record = parseURL(href, { base: urls.fallbackBaseURL, encoding });
  if (record === null) return "does not parse";
  if (record.scheme === "data") return "is a data: URL";
  if (record.scheme === "javascript") return "is a javascript: URL";
  return null;
}

/** The record of `element`, a base element with an href whose link is `link`, in `place`; `first`: the first in the document. */
function baseElement(element: LeanElement, link: Link, place: BasePlace, first: boolean, urls: DocumentURLs, encoding: EncodingName): BaseElement {
  let status: BaseElementStatus;
  let reason: string | null = null;
  if (place === "template") status = "in-template";
  else if (place === "shadow-root") status = "in-shadow-root";
  else if (!first) status = "not-first";
  else {
    reason = unusableReason(link.value, urls, encoding);
    status = reason === null ? "used" : "unusable";
  }
  const parent = element.parentNode;
  const inHead = parent !== null && parent.nodeName !== "#document" && parent.nodeName !== "#document-fragment" && (parent as LeanElement).tagName === "head";
  return { line: link.line, column: link.column, start: link.start, href: link.value, raw: link.raw, url: link.url, status, reason, inBody: place === "document" && !inHead };
}

/**
 * Where `element`, made by a tree construction that keeps no tree, is in
 * the tree: the innermost template contents or declarative shadow root it
 * is in, the document itself, or null when it is in no document (a
 * frameset took the body out, with what was in it).
 */
function placeInTree(element: LeanElement): BasePlace | null {
  let place: BasePlace | null = null;
  for (let node: LeanParent | LeanElement | null | undefined = element.parentNode; node !== null && node !== undefined; ) {
    if (node.nodeName === "#document") return place ?? "document";
    if (node.nodeName === "#document-fragment") {
      const contents = node as TemplateContents;
      place ??= contents.kind === 2 ? "shadow-root" : "template";
      node = contents.host;
    } else node = (node as LeanElement).parentNode;
  }
  return null;
}

/**
 * Every HTML `base` element with an href of a document parsed by a tree
 * construction that keeps no tree (a stream's, see link-stream.ts, or a
 * whole document's: ParsedSource.basesInOrder), as {@link baseElements}
 * lists them: `baseLinks`,
 * each element made by the stream's tree construction with its link, in
 * the order read. The first made in the document is the first in tree
 * order unless something was foster-parented before a table that holds
 * it (the stream then says it cannot tell: see StreamingSource.ambiguous).
 *
 * @example
 * ```ts
 * streamedBaseElements(baseLinks, urls, "UTF-8").map((b) => b.status); // ["used", "in-template"]
 * ```
 */
export function streamedBaseElements(baseLinks: ReadonlyMap<LeanElement, Link>, urls: DocumentURLs, encoding: EncodingName): BaseElement[] {
  const bases: BaseElement[] = [];
  let first = true;
  for (const [element, link] of baseLinks) {
    const place = placeInTree(element);
    if (place === null) continue;
    bases.push(baseElement(element, link, place, first && place === "document", urls, encoding));
    if (place === "document") first = false;
  }
  return bases;
}

/**
 * Every HTML `base` element with an href of the parsed document, in tree
 * order, template contents and declarative shadow roots included (where
 * the innermost of them decides the place), each with its link from
 * `baseLinks` (settled: its line and column counted) and its status; the
 * first in the document itself is checked against the fallback base URL
 * of `urls`, in `encoding`. In the order read when the parse says it is
 * tree order (`parsed.basesInOrder`, see {@link streamedBaseElements}),
 * else from a walk of its tree.
 *
 * @example
 * ```ts
 * const bases = baseElements(parsed, baseLinks, urls, "UTF-8"); // for '<base href="/v2/"><base href="/v3/">'
 * bases.map((b) => b.status); // ["used", "not-first"]
 * ```
 */
export function baseElements(parsed: ParsedSource, baseLinks: ReadonlyMap<LeanElement, Link>, urls: DocumentURLs, encoding: EncodingName): BaseElement[] {
  // Every base element with an href is a recorded tag whose href the reader read.
  if (parsed.basesInOrder === true) return streamedBaseElements(baseLinks, urls, encoding);
  const bases: BaseElement[] = [];
  let first = true;
  // A work list, not recursion: trees nest as deep as the input lets them. An element's
  // children come before its template contents, as in tree order with the contents inline.
  const stack: { node: LeanDocument | LeanFragment | LeanChild; place: BasePlace }[] = [{ node: parsed.document, place: "document" }];
  while (stack.length > 0) {
    const { node, place } = stack.pop()!;
    if (node.nodeName === "#text") continue;
    if (node.nodeName !== "#document" && node.nodeName !== "#document-fragment") {
      const element = node as LeanElement;
      if (isParsedBaseElementWithHref(element)) {
        bases.push(baseElement(element, baseLinks.get(element)!, place, first && place === "document", urls, encoding));
        if (place === "document") first = false;
      }
      if (element.content !== undefined) {
        // Template contents are inert: a template in them attaches no shadow root (as the parse reads it: see parse-state.ts).
        const attaches = place !== "template" && attachesDeclarativeShadowRoot(parse5TreeAdapter, element as never);
        stack.push({ node: element.content, place: attaches ? "shadow-root" : "template" });
      }
    }
    const children = (node as LeanElement).childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, place });
  }
  return bases;
}
