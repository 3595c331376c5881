/**
 * Fragments: which elements of a document a URL's fragment can indicate
 * (its ids, and the names of its `a` elements), read from the same parse
 * as its links, and whether a fragment indicates one of them, as the HTML
 * Standard scrolls to a fragment.
 *
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#scrolling-to-a-fragment
 *
 * @module
 */

import { percentDecodeString } from "../core/index.ts";
import { type ExtractLinksOptions, extractSites, type Link, prepareDocument } from "./extract-links.ts";
import type { LeanChild, LeanDocument, LeanElement, LeanParent } from "./html-source.ts";
import { sourcePosition } from "./source-position.ts";

const HTML_NS = "http://www.w3.org/1999/xhtml";

/**
 * What a fragment can indicate in one document: the IDs of its elements
 * and the `name`s of its `a` elements, in the document tree.
 *
 * @example
 * ```ts
 * const targets: FragmentTargets = { ids: new Set(["intro"]), names: new Set(["old-intro"]) };
 * ```
 */
export interface FragmentTargets {
  readonly ids: ReadonlySet<string>;
  readonly names: ReadonlySet<string>;
}

/**
 * The {@link FragmentTargets} of a parsed document: the `id` of every
 * element in the document tree (any namespace: an SVG element's too) and
 * the `name` of every HTML `a` element in it.
 *
 * "In the document tree": template contents are not (they belong to the
 * template's own inert document), and neither are shadow trees (tree order
 * does not enter them; a declarative shadow root's `<template
 * shadowrootmode>` keeps its elements in its content). The tree holds only
 * children, so walking children is exactly that. An empty `id` is no ID
 * (https://dom.spec.whatwg.org/#concept-id: "If ... value is the empty
 * string, then unset element's ID"), and the empty fragment never gets to
 * the lookup.
 *
 * @example
 * ```ts
 * const tree = prepareDocument('<h2 id="a">A</h2><a name="b"></a><template><p id="c"></template>', { url: "https://example.com/" }).parsed.document;
 * documentFragmentTargets(tree); // { ids: Set {"a"}, names: Set {"b"} }
 * ```
 */
export function documentFragmentTargets(tree: LeanDocument): FragmentTargets {
  const ids = new Set<string>();
  const names = new Set<string>();
  // A work list, not recursion: documents nest as deep as the input lets them. The order does not
  // matter: only whether some element has the ID (the first such in tree order is the one scrolled to).
  const stack: LeanParent[] = [tree];
  while (stack.length > 0) {
    const children: LeanChild[] = stack.pop()!.childNodes;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.nodeName === "#text") continue;
      const element = child as LeanElement;
      const attrs = element.attrs;
      for (let a = 0; a < attrs.length; a++) {
        const attr = attrs[a]!;
        if (attr.value === "" || (attr.namespace !== undefined && attr.namespace !== "")) continue;
        if (attr.name === "id") ids.add(attr.value);
        else if (attr.name === "name" && element.tagName === "a" && element.namespaceURI === HTML_NS) names.add(attr.value);
      }
      if (element.childNodes.length > 0) stack.push(element);
    }
  }
  return { ids, names };
}

/**
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#find-a-potential-indicated-element —
 * whether `fragment` names an element of `targets`: "an element in the
 * document tree ... that has an ID equal to fragment", else "an a element
 * ... that has a name attribute whose value is equal to fragment".
 * Exact, case-sensitive comparison.
 *
 * @example
 * ```ts
 * findPotentialIndicatedElement({ ids: new Set(["Intro"]), names: new Set() }, "Intro"); // "id"
 * findPotentialIndicatedElement({ ids: new Set(["Intro"]), names: new Set() }, "intro"); // null
 * ```
 */
export function findPotentialIndicatedElement(targets: FragmentTargets, fragment: string): "id" | "name" | null {
  if (targets.ids.has(fragment)) return "id";
  if (targets.names.has(fragment)) return "name";
  return null;
}

/** "UTF-8 decode without BOM" (https://encoding.spec.whatwg.org/#utf-8-decode-without-bom): a BOM stays, errors become U+FFFD. */
const utf8WithoutBOM = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#select-the-indicated-part —
 * what `fragment` (a URL's fragment, as serialized: percent-encoded)
 * indicates in a document with `targets`, once the URL is known to be the
 * document's own (the caller's step 1): "top" (the top of the document),
 * "id" or "name" (the element found, and how), or null (nothing: the
 * browser does not scroll).
 *
 * The order is the standard's: the fragment as it is, then
 * percent-decoded and UTF-8-decoded, then "top":
 * 3. "If fragment is the empty string, then return the special value top of the document."
 * 4–5. the potential indicated element for fragment;
 * 6–9. "Let decodedFragment be the result of running UTF-8 decode without
 *    BOM on fragmentBytes", and the potential indicated element for it;
 * 10. "If decodedFragment is an ASCII case-insensitive match for the string top, then return the top of the document."
 *
 * @example
 * ```ts
 * const targets = { ids: new Set(["café", "50%"]), names: new Set(["old"]) };
 * selectIndicatedPart(targets, "caf%C3%A9"); // "id"
 * selectIndicatedPart(targets, "50%"); // "id" (the fragment as it is comes first)
 * selectIndicatedPart(targets, "old"); // "name"
 * selectIndicatedPart(targets, "TOP"); // "top"
 * selectIndicatedPart(targets, ""); // "top"
 * selectIndicatedPart(targets, "nope"); // null
 * ```
 */
export function selectIndicatedPart(targets: FragmentTargets, fragment: string): "top" | "id" | "name" | null {
  if (fragment === "") return "top";
  const found = findPotentialIndicatedElement(targets, fragment);
  if (found !== null) return found;
  // Optimisation: an ASCII fragment without "%" (most are: a URL serializes its fragment so) decodes to
  // itself: no second lookup.
  const decodedFragment = /[%\u0080-\uffff]/.test(fragment) ? utf8WithoutBOM.decode(percentDecodeString(fragment)) : fragment;
  if (decodedFragment !== fragment) {
    const decodedFound = findPotentialIndicatedElement(targets, decodedFragment);
    if (decodedFound !== null) return decodedFound;
  }
  return isTop(decodedFragment) ? "top" : null;
}

/** Whether `s` is an ASCII case-insensitive match for "top" (https://infra.spec.whatwg.org/#ascii-case-insensitive). */
function isTop(s: string): boolean {
  return s.length === 3 && (s.charCodeAt(0) | 0x20) === 0x74 && (s.charCodeAt(1) | 0x20) === 0x6f && (s.charCodeAt(2) | 0x20) === 0x70;
}

/**
 * A URL's fragment without its fragment directive: the part before the
 * first ":~:" (a text fragment, `#:~:text=...`, is a directive to the
 * browser, not an element's name; the browser strips it from the URL
 * before it looks for the indicated part).
 *
 * https://wicg.github.io/scroll-to-text-fragment/#fragment-directive-delimiter
 *
 * @example
 * ```ts
 * removeFragmentDirective("intro:~:text=hello"); // "intro"
 * removeFragmentDirective(":~:text=hello"); // ""
 * removeFragmentDirective("intro"); // "intro"
 * ```
 */
export function removeFragmentDirective(fragment: string): string {
  const at = fragment.indexOf(":~:");
  return at === -1 ? fragment : fragment.slice(0, at);
}

/**
 * The fragment targets of one document that {@link extractLinksAndTargets}
 * read: the top document (`depth` 0) or a srcdoc document, with the
 * document's own links for a srcdoc document.
 *
 * @example
 * ```ts
 * const read: DocumentTargets = { depth: 0, targets: { ids: new Set(["a"]), names: new Set() }, links: null };
 * ```
 */
export interface DocumentTargets {
  readonly depth: number;
  readonly targets: FragmentTargets;
  /** For a srcdoc document, its own links (a link there to `about:srcdoc#x` indicates its elements); null for the top one. */
  readonly links: readonly Link[] | null;
}

/**
 * `extractLinks`, and the fragment targets of each document read, from
 * the same parse: the top document first, then its srcdoc documents (one
 * pass over the input, where a separate parse for the ids would double the
 * work). Internal: for `docbase check`.
 *
 * @example
 * ```ts
 * const { links, documents } = extractLinksAndTargets('<a href="#s">s</a><h2 id="s">S</h2>', { url: "https://example.com/" });
 * links[0].url; // "https://example.com/#s"
 * documents[0].targets.ids.has("s"); // true
 * ```
 */
export function extractLinksAndTargets(html: string | Uint8Array, options: ExtractLinksOptions): { links: Link[]; documents: DocumentTargets[] } {
  const document = prepareDocument(html, options);
  const documents: DocumentTargets[] = [];
  const { links } = extractSites(document, options.validate === true, false, (read) => {
    documents.push({ depth: read.depth, targets: documentFragmentTargets(read.tree), links: read.links });
  });
  const report = options.onSrcdocTooDeep;
  if (report !== undefined) {
    for (const { depth, start } of document.tooDeep) {
      const { line, column } = sourcePosition(document.text, start);
      report({ depth, start, line, column });
    }
  }
  return { links, documents };
}
