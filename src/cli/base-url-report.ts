/**
 * How a document's base URL comes about, as `docbase base` prints it and
 * `docbase check` reports its surprises: the links layer's one reading
 * tells the base URLs and every `<base href>` with what it does; this adds
 * what only the command asks — the relative links that come before the
 * `<base>` that sets the base URL — and the report's shape.
 *
 * @module
 */

import { type EncodingName, parseURL } from "../core/index.ts";
import type { Link, SourcePosition } from "../links/index.ts";
import type { BaseElementStatus, LinksRead, StreamedBases } from "../links/internal.ts";

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

/**
 * Whether `link`, of the top document, is a relative URL resolved against
 * a base URL (`link.base`) — one a `<base href>` that comes after it
 * changes all the same. Not: other bases, absolute URLs, links of srcdoc
 * documents, attributes that are missing (a form's action without one).
 *
 * @example
 * ```ts
 * isRelativeLink(extractLinks('<a href="x.html">', { url: "https://example.com/" })[0]!); // true
 * ```
 */
export function isRelativeLink(link: Link): boolean {
  return link.srcdoc === 0 && link.element !== "base" && link.missing !== true && link.base !== null && parseURL(link.value) === null;
}

/**
 * How the base URL of a document comes about, from one reading of it
 * (`readLinks` with `{ bases: true }`); `documentURL` is its URL.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode('<link href=a.css><base href="/v2/"><base href="/v3/">');
 * const report = baseURLReport(readLinks(bytes, { url: "https://example.com/docs/" }, { bases: true }), "https://example.com/docs/");
 * report.documentBaseURL; // "https://example.com/v2/"
 * report.bases.map((b) => b.status); // ["used", "not-first"]
 * report.linksBeforeBase; // { count: 1, first: { line: 1, column: 12 } }
 * ```
 */
export function baseURLReport(read: LinksRead, documentURL: string): BaseURLReport {
  if (read.bases === null) throw new TypeError("baseURLReport: the document was read without { bases: true }");
  const used = read.bases.find((b) => b.status === "used");
  let linksBeforeBase: BaseURLReport["linksBeforeBase"] = null;
  if (used !== undefined && read.documentBaseURL !== read.fallbackBaseURL) {
    let count = 0;
    let first: SourcePosition | null = null;
    for (const link of read.links) {
      if (link.start >= used.start) break;
      if (link.base !== read.documentBaseURL || !isRelativeLink(link)) continue;
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

/**
 * {@link BaseURLReport}'s `linksBeforeBase` for a document read as a
 * stream, whose links come a batch at a time and whose `<base>` elements
 * are told at its end (the links layer's StreamedBases): the relative
 * links counted as they come, by the base URL they resolve against, and
 * the counts as they stood at each `<base href>` — for the one that turns
 * out to set the base URL. Bounded: the counts at no more than `maxBases`
 * `<base>` elements are kept (the stream tells none past its own bound).
 *
 * @example
 * ```ts
 * const before = new LinksBeforeBase(4096);
 * before.add(batch); // as the stream gives them
 * before.before(told); // { count: 2, first: { line: 3, column: 10 } }
 * ```
 */
export class LinksBeforeBase {
  private readonly counts = new Map<string, { count: number; first: SourcePosition }>();
  private readonly atBase = new Map<number, Map<string, { count: number; first: SourcePosition }>>();
  private readonly maxBases: number;

  constructor(maxBases: number) {
    this.maxBases = maxBases;
  }

  /** Counts the next links of the document, in source order. */
  add(links: readonly Link[]): void {
    for (const link of links) {
      if (link.srcdoc === 0 && link.element === "base" && link.namespace === "html") {
        if (this.atBase.size < this.maxBases) this.atBase.set(link.start, new Map([...this.counts].map(([base, c]) => [base, { ...c }])));
        continue;
      }
      if (!isRelativeLink(link)) continue;
      const seen = this.counts.get(link.base!);
      if (seen === undefined) this.counts.set(link.base!, { count: 1, first: { line: link.line, column: link.column } });
      else seen.count++;
    }
  }

  /** The relative links before the `<base>` that sets the base URL of the document `told` describes (null: none, or no such base). */
  before(told: StreamedBases): BaseURLReport["linksBeforeBase"] {
    const used = told.bases.find((b) => b.status === "used");
    if (used === undefined || told.documentBaseURL === told.fallbackBaseURL) return null;
    return this.atBase.get(used.start)?.get(told.documentBaseURL) ?? null;
  }
}
