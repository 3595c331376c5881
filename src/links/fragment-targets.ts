/**
 * Fragment targets: which elements of a document a URL's fragment can
 * indicate (its ids, and the names of its `a` elements), read from the
 * same parse as its links (see indicated-part.ts for the matching).
 *
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#scrolling-to-a-fragment
 *
 * @module
 */

import { HTML_NAMESPACE } from "../html/index.ts";
import { extractSites, reportTooDeep } from "./extract-links.ts";
import { isInDocumentTree, type LeanElement, type ParsedSource } from "./html-source.ts";
import type { FragmentTargets } from "./indicated-part.ts";
import type { Link } from "./link-types.ts";
import type { ExtractLinksOptions } from "./options.ts";
import { prepareDocument } from "./prepare-document.ts";
import type { ReadDocument } from "./read-document.ts";

/**
 * The {@link FragmentTargets} of a parsed document: the `id` of every
 * element in the document tree (any namespace: an SVG element's too) and
 * the `name` of every HTML `a` element in it.
 *
 * "In the document tree": template contents are not (they belong to the
 * template's own inert document), and neither are shadow trees (tree order
 * does not enter them; a declarative shadow root's `<template
 * shadowrootmode>` keeps its elements in its content), nor the elements a
 * `frameset` took out with the body. The parse noted the elements made
 * outside template contents with an `id` or a `name`
 * ({@link ParsedSource.targetCandidates}); those whose parents lead to the
 * document are in it. An empty `id` is no ID
 * (https://dom.spec.whatwg.org/#concept-id: "If ... value is the empty
 * string, then unset element's ID"), and the empty fragment never gets to
 * the lookup.
 *
 * @example
 * ```ts
 * const parsed = prepareDocument('<h2 id="a">A</h2><a name="b"></a><template><p id="c"></template>', { url: "https://example.com/" }).parsed;
 * documentFragmentTargets(parsed); // { ids: Set {"a"}, names: Set {"b"} }
 * ```
 */
export function documentFragmentTargets(parsed: ParsedSource): FragmentTargets {
  return fragmentTargetsOf(parsed.targetCandidates ?? []);
}

/**
 * The {@link FragmentTargets} among a parse's target candidates (see
 * {@link documentFragmentTargets}): also a stream's, once it has ended.
 *
 * @example
 * ```ts
 * fragmentTargetsOf(prepareDocument('<h2 id="a">A</h2>', { url: "https://example.com/" }).parsed.targetCandidates ?? []); // { ids: Set {"a"}, names: Set {} }
 * ```
 */
export function fragmentTargetsOf(candidates: readonly LeanElement[]): FragmentTargets {
  const targets = { ids: new Set<string>(), names: new Set<string>() };
  addFragmentTargets(candidates, targets);
  return targets;
}

/**
 * Adds the {@link FragmentTargets} among `candidates` (see
 * {@link fragmentTargetsOf}) to `targets`; returns how many characters
 * the ids and names it added have (for a bound on them).
 *
 * @example
 * ```ts
 * const targets = { ids: new Set<string>(), names: new Set<string>() };
 * addFragmentTargets(prepareDocument('<h2 id="a">A</h2>', { url: "https://example.com/" }).parsed.targetCandidates ?? [], targets); // 1
 * ```
 */
export function addFragmentTargets(candidates: readonly LeanElement[], targets: { readonly ids: Set<string>; readonly names: Set<string> }): number {
  const { ids, names } = targets;
  let chars = 0;
  // The order does not matter: only whether some element has the ID (the first such in tree order is the one scrolled to).
  for (let i = 0; i < candidates.length; i++) {
    const element = candidates[i]!;
    if (!isInDocumentTree(element)) continue;
    const attrs = element.attrs;
    for (let a = 0; a < attrs.length; a++) {
      const attr = attrs[a]!;
      if (attr.value === "" || (attr.namespace !== undefined && attr.namespace !== "")) continue;
      let set: Set<string>;
      if (attr.name === "id") set = ids;
      else if (attr.name === "name" && element.tagName === "a" && element.namespaceURI === HTML_NAMESPACE) set = names;
      else continue;
      if (set.has(attr.value)) continue;
      set.add(attr.value);
      chars += attr.value.length;
    }
  }
  return chars;
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
 * A hook for the read stage (`onDocument`) that adds the fragment targets
 * of each document read to `documents`: the top document first, then its
 * srcdoc documents.
 *
 * @example
 * ```ts
 * const documents: DocumentTargets[] = [];
 * extractSites(document, false, { onDocument: collectTargets(documents) });
 * ```
 */
export function collectTargets(documents: DocumentTargets[]): (read: ReadDocument) => void {
  return (read) => {
    documents.push({ depth: read.depth, targets: documentFragmentTargets(read.parsed), links: read.links });
  };
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
  const read = extractSites(document, false, { onDocument: collectTargets(documents) });
  reportTooDeep(document, read);
  return { links: read.links, documents };
}
