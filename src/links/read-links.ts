/**
 * Everything one reading of a document tells the command, from that one
 * reading (no second parse, no second sniffing): its links; its encoding,
 * what decided it, and whether the document can be decoded at all; its
 * base URLs and every `<base href>` with what it does; and, when asked,
 * the fragment targets of it and of its srcdoc documents.
 *
 * @module
 */

import { type EncodingName, serializeURL, type URLRecord } from "../core/index.ts";
import { type BaseElement, baseElements } from "./base-elements.ts";
import type { EncodingSource } from "./encoding-sniffing.ts";
import { extractSites, reportTooDeep } from "./extract-links.ts";
import { collectTargets, type DocumentTargets } from "./fragment-targets.ts";
import type { LeanElement } from "./html-source.ts";
import { withoutIgnoredLinks } from "./ignored-elements.ts";
import type { Link } from "./link-types.ts";
import type { ExtractLinksOptions } from "./options.ts";
import { prepareDocument } from "./prepare-document.ts";

/**
 * What {@link readLinks} also reads, beyond the links: each costs a walk
 * of the document's tree.
 *
 * @example
 * ```ts
 * const wants: ReadWants = { bases: true, targets: true }; // docbase check with fragments
 * ```
 */
export interface ReadWants {
  /** Every `<base href>` of the top document ({@link LinksRead.bases}). */
  readonly bases?: boolean | undefined;
  /** The fragment targets of each document read ({@link LinksRead.documents}). */
  readonly targets?: boolean | undefined;
  /** Leave out the links of elements with an ignore mark and of their descendants (see ignored-elements.ts). */
  readonly ignore?: boolean | undefined;
}

/**
 * One reading of a document.
 *
 * @example
 * ```ts
 * const read: LinksRead = {
 *   links: [], encoding: "windows-1252", encodingSource: "default", undecodable: false,
 *   fallbackBaseURL: "https://example.com/a.html", documentBaseURL: "https://example.com/a.html", bases: [], documents: null,
 * };
 * ```
 */
export interface LinksRead {
  /** Its links, as `extractLinks` gives them. */
  readonly links: Link[];
  /** The encoding its bytes were decoded in (for a string, the `encoding` option's, else UTF-8). */
  readonly encoding: EncodingName;
  /** What decided it: the byte order mark, the `encoding` option, a declaration in the document, or the default. */
  readonly encodingSource: EncodingSource;
  /**
   * True when the encoding is the replacement encoding
   * (https://encoding.spec.whatwg.org/#replacement: the labels of
   * ISO-2022-KR, HZ-GB-2312 and the like): the document decodes to one
   * U+FFFD, and nothing in it can be read.
   */
  readonly undecodable: boolean;
  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url, serialized. */
  readonly fallbackBaseURL: string;
  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url, serialized. */
  readonly documentBaseURL: string;
  /** With `bases`: every `<base href>` of the top document, in tree order; else null. */
  readonly bases: readonly BaseElement[] | null;
  /** With `targets`: the fragment targets of the top document, then of each srcdoc document; else null. */
  readonly documents: readonly DocumentTargets[] | null;
}

/**
 * Reads `html` once, as `extractLinks` does (the same options, the same
 * links, `onSrcdocTooDeep` called the same way), and tells what else that
 * reading found (see {@link LinksRead}). Internal: for `docbase links`,
 * `check` and `base`.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode('<link href=a.css><base href="/v2/"><base href="/v3/">');
 * const read = readLinks(bytes, { url: "https://example.com/docs/" }, { bases: true });
 * read.documentBaseURL; // "https://example.com/v2/"
 * read.bases.map((b) => b.status); // ["used", "not-first"]
 * read.encodingSource; // "default" (windows-1252)
 * ```
 */
export function readLinks(html: string | Uint8Array, options: ExtractLinksOptions, wants: ReadWants = {}): LinksRead {
  // The base elements are read from the tree (see base-elements.ts): keep it for them where they need it.
  const document = prepareDocument(html, options, wants.bases === true ? "bases" : "none");
  const documents: DocumentTargets[] | null = wants.targets === true ? [] : null;
  const baseLinks = wants.bases === true && document.parsed.hasBaseWithHref ? new Map<LeanElement, Link>() : undefined;
  const read = extractSites(document, false, { onDocument: documents === null ? undefined : collectTargets(documents), baseLinks });
  reportTooDeep(document, read);
  const urls = read.urls;
  let bases: BaseElement[] | null = null;
  if (wants.bases === true) bases = baseLinks === undefined ? [] : baseElements(document.parsed, baseLinks, urls, document.encoding);
  return {
    links: wants.ignore === true ? withoutIgnoredLinks(document.parsed, read.links) : read.links,
    encoding: document.encoding,
    encodingSource: document.encodingSource,
    undecodable: document.encoding === "replacement",
    fallbackBaseURL: serializeURL(urls.fallbackBaseURL as URLRecord),
    documentBaseURL: serializeURL(urls.documentBaseURL as URLRecord),
    bases,
    documents,
  };
}
