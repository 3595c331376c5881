/**
 * Everything `docbase check` reports about one document: the URL
 * validation errors of its links, links to files missing from the site,
 * fragments that name no element of their page (or, for another page of
 * the site, a check that waits for that page), base-URL surprises, and
 * srcdoc documents too deep to read.
 *
 * @module
 */

import { parseURL, serializeURL, validationErrorTypes, type ValidationErrorType } from "../../../core/index.ts";
import { SlotMemo } from "../../../core/slot-memo.ts";
import { DEFAULT_MAX_SRCDOC_DEPTH, type Link, MAX_ERRORS_PER_DOCUMENT } from "../../../links/index.ts";
import { type FragmentTargets, type LinksRead, readLinks, readStylesheet } from "../../../links/internal.ts";
import { type BaseURLReport, baseURLReport } from "../../base-url-report.ts";
import { excerpt, formatValue, linkLabel } from "../../format.ts";
import { DEFAULT_HOSTING, servedHTMLFile, siteFileForHref, type SiteFiles, siteFileServing, siteHTMLFile, type SiteTarget } from "../../site.ts";
import { followSiteRedirects, type SiteRedirect } from "../../site-redirects.ts";
import { isUnlabeledUTF8 } from "../../unlabeled-utf8.ts";
import { isExcluded } from "./exclusions.ts";
import { isExternalURL } from "./external-url.ts";
import type { Finding } from "./finding.ts";
import { checkFragment, missingFragmentFinding, type PendingFragment } from "./fragment-check.ts";

/**
 * Whether a link names a file of the site that must exist. Not: `itemtype`
 * (a vocabulary's name), `<base href>` (a base, not a resource), `ping`
 * and form actions (endpoints that a server, not a file, answers).
 */
function mustExist(link: Link): boolean {
  if (link.kind === "absolute-list" || link.element === "base" || link.missing === true) return false;
  return link.attribute !== "ping" && link.attribute !== "action" && link.attribute !== "formaction";
}

/** How many validation errors of one link are listed; the rest are one "more-validation-errors" finding. */
const MAX_ERRORS_PER_LINK = 100;

/**
 * The validation errors a document's links left out past the links layer's
 * MAX_ERRORS_PER_DOCUMENT (counted in their `errorsOmitted`), and the first
 * link that left some out, where the report says so.
 */
export interface UnlistedErrors {
  count: number;
  first: Link | null;
}

/**
 * The validation errors of every link, each at its place in the source (the
 * links layer's `line` and `column` of the error), and the count of those
 * the document left out: added to `unlisted` when given (a document read a
 * batch at a time), else said at once.
 */
function validationFindings(links: readonly Link[], findings: Finding[], unlisted: UnlistedErrors | null = null): void {
  const tally: UnlistedErrors = unlisted ?? { count: 0, first: null };
  for (const link of links) {
    let errors = link.errors;
    if (errors === undefined) continue;
    // Bounded per document: past it a link keeps fewer of its errors, or none, and counts the rest.
    if (errors.length <= MAX_ERRORS_PER_LINK && link.errorsOmitted !== undefined) {
      tally.count += link.errorsOmitted;
      tally.first ??= link;
    }
    // In source order, so that the finding carrying the value is the link's first (the report groups the others under it).
    if (errors.length > 1) errors = [...errors].sort((a, b) => a.line - b.line || a.column - b.column);
    let first = true;
    let shown = 0;
    for (const error of errors) {
      // Bounded: a URL with thousands of errors lists its first ones and a count.
      if (shown === MAX_ERRORS_PER_LINK) {
        findings.push({
          line: error.line,
          column: error.column,
          type: "more-validation-errors",
          category: link.url === null ? "invalid-url" : "url-validation",
          message: `${linkLabel(link)}: ${(errors.length - shown + (link.errorsOmitted ?? 0)).toLocaleString("en-US")} more validation errors in this URL, not listed`,
          element: link.element,
          attribute: link.attribute,
        });
        break;
      }
      shown++;
      const description = validationErrorTypes[error.type as ValidationErrorType]?.description ?? "";
      const fails = link.url === null ? " The URL does not parse." : "";
      // Bounded: the message shows the offending part of a long value, and only a link's first finding
      // carries the whole value and URL (each error repeating them would make the output quadratic in one URL).
      const at = link.value.length > 120 ? ` (at ${error.start}–${error.end} of ${link.value.length})` : "";
      findings.push({
        line: error.line,
        column: error.column,
        type: error.type,
        category: link.url === null ? "invalid-url" : "url-validation",
        message: `${linkLabel(link)} ${formatValue(excerpt(link.value, error.start, error.end))}${at}: ${description}${fails}`,
        element: link.element,
        attribute: link.attribute,
        ...(first ? { value: link.value, url: link.url } : {}),
      });
      first = false;
    }
  }
  if (unlisted === null) unlistedErrorsFinding(tally, findings);
}

/**
 * The one finding that says how many validation errors of a document are
 * not listed (see {@link UnlistedErrors}); none when none are left out.
 *
 * @example
 * ```ts
 * const findings: Finding[] = [];
 * unlistedErrorsFinding({ count: 0, first: null }, findings); // findings stays empty
 * ```
 */
export function unlistedErrorsFinding(unlisted: UnlistedErrors, findings: Finding[]): void {
  const link = unlisted.first;
  if (link === null || unlisted.count === 0) return;
  findings.push({
    line: link.line,
    column: link.column,
    type: "more-validation-errors",
    category: link.url === null ? "invalid-url" : "url-validation",
    message: `${unlisted.count.toLocaleString("en-US")} more validation errors in this document, from this ${linkLabel(link)} on, not listed (its first ${MAX_ERRORS_PER_DOCUMENT.toLocaleString("en-US")} are)`,
    element: link.element,
    attribute: link.attribute,
  });
}

/**
 * What a URL under the site root leads to: the file it names, whether the
 * site serves something there (the file, or where its `_redirects` sends
 * it), the HTML file that serves it (null: not HTML, or not there), and
 * the redirect followed, if any.
 */
interface Destination {
  readonly target: SiteTarget;
  readonly exists: boolean;
  readonly html: string | null;
  readonly redirect: SiteRedirect | null;
}

/** Where `bare` (a URL under `root` without query and fragment) leads in the site, redirects followed. */
function lookUp(root: string, site: SiteFiles, target: SiteTarget, bare: string): Destination {
  const served = siteFileServing(site, target);
  const redirect = site.redirects === undefined ? null : followSiteRedirects(site, root, bare, served !== null);
  if (redirect === null) return { target, exists: served !== null, html: servedHTMLFile(site, served), redirect };
  const cut = redirect.to.search(/[?#]/);
  const to = redirect.outcome === "found" ? siteFileForHref(root, cut === -1 ? redirect.to : redirect.to.slice(0, cut)) : null;
  return { target, exists: redirect.outcome === "found" || redirect.outcome === "outside", html: to === null ? null : siteHTMLFile(site, to), redirect };
}

/** The number of slots of the memo of destinations by URL (see {@link destination}): a power of two. */
const DESTINATION_SLOTS = 1024;

/** Destinations per site and root (a thread checks one site): by URL in a small memo, and by URL without query and fragment. */
let destinations: {
  root: string;
  site: SiteFiles;
  byURL: SlotMemo<Destination | null>;
  byBare: Map<string, Destination | null>;
} | null = null;

/**
 * Where `url` (serialized) leads in the site, or null when it is not under `root`.
 *
 * Optimisation: pages link the same pages over and over (a navigation bar,
 * a spec's cross-references): each distinct URL without its query and
 * fragment is looked up once per thread. Before that, a direct-mapped memo
 * of the last URL in each of its slots answers a repeat without cutting
 * the URL: the links layer gives a repeated value the same string, which
 * compares at once (where a Map of every URL would grow with a site whose
 * links are all distinct).
 */
function destination(root: string, site: SiteFiles, url: string): Destination | null {
  if (destinations === null || destinations.root !== root || destinations.site !== site) {
    destinations = { root, site, byURL: new SlotMemo(DESTINATION_SLOTS), byBare: new Map() };
  }
  const memo = destinations;
  const known = memo.byURL.get(url);
  if (known !== undefined) return known;
  let end = url.indexOf("#");
  const query = url.indexOf("?");
  if (query !== -1 && (end === -1 || query < end)) end = query;
  const bare = end === -1 ? url : url.slice(0, end);
  let found = memo.byBare.get(bare);
  if (found === undefined) {
    const target = siteFileForHref(root, bare);
    found = target === null ? null : lookUp(root, site, target, bare);
    // Bounded: a site of millions of distinct URLs starts over now and then.
    if (memo.byBare.size >= 100_000) memo.byBare.clear();
    memo.byBare.set(bare, found);
  }
  memo.byURL.set(url, found);
  return found;
}

/** What the fragment check of one page knows: its targets and those of its srcdoc documents, its URL, its file. */
interface PageFragments {
  /** Null for a document read as a stream: its targets are known at its end, and a link into it waits for them (pending). */
  readonly page: FragmentTargets | null;
  /** The targets of the srcdoc document each link of a srcdoc document is in. */
  readonly srcdoc: ReadonlyMap<Link, FragmentTargets>;
  /** The page's URL, serialized, without its fragment. */
  readonly pageURL: string;
  /** Its path relative to the site root (null: not in a site walk). */
  readonly rel: string | null;
  readonly display: string;
  readonly pending: PendingFragment[];
  /** Whether the fragment of each URL into the page itself names something, by URL (pages repeat their links). */
  readonly checked: Map<string, boolean>;
}

/**
 * The links that must lead to a file of the site and do not
 * (missing-file), and, with `fragments`, those whose fragment names no
 * element of their page: a missing-fragment found here when the page is
 * this one (or its srcdoc document), a pending check for a page of the
 * site read elsewhere.
 */
function siteFindings(links: readonly Link[], root: string | null, site: SiteFiles | null, fragments: PageFragments | null, findings: Finding[]): void {
  for (const link of links) {
    const url = link.url;
    if (url === null || !mustExist(link)) continue;
    const found = root !== null && site !== null ? destination(root, site, url) : null;
    if (found !== null && !found.exists) {
      findings.push(missingFinding(link, url, found, site!));
      continue;
    }
    if (fragments !== null) fragmentFinding(link, url, found, fragments, findings);
  }
}

/**
 * The finding of a link to `url`, which leads to nothing in the site: a
 * redirect of the site's `_redirects` to a missing page (or round a loop),
 * a directory without an index file (a host answers 404, or a listing), or
 * a missing file.
 */
function missingFinding(link: Link, url: string, found: Destination, site: SiteFiles): Finding {
  const { target, redirect } = found;
  const name = excerpt(target.path, target.path.length, target.path.length);
  const common = { line: link.line, column: link.column, element: link.element, attribute: link.attribute, value: link.value, url };
  const label = `${linkLabel(link)} ${formatValue(excerpt(link.value, 0, 0))} → ${excerpt(url, 0, 0)}`;
  if (redirect !== null) {
    const where = `_redirects line ${redirect.line} (${redirect.status}) sends it to ${excerpt(redirect.to, 0, 0)}`;
    const what = redirect.outcome === "loop" ? "a redirect loop (or more than 20 redirects)" : "which nothing in the site serves";
    return { ...common, type: "redirect-to-missing", category: "redirect-to-missing", message: `${label}: ${where}, ${what}` };
  }
  if (site.hasDirectory(target.path)) {
    const where = target.path === "" ? "the site root" : `${name}/`;
    const names = (site.hosting ?? DEFAULT_HOSTING).indexFiles.join(", ");
    return { ...common, type: "missing-index", category: "missing-index", message: `${label}: ${where} is a directory without an index file (${names}): a host answers 404, or a listing` };
  }
  const what = target.directory ? `no index.html in ${target.path === "" ? "the site root" : `${name}/`}` : `no file ${name}`;
  return { ...common, type: "missing-file", category: "missing-file", message: `${label}: ${what} in the site` };
}

/**
 * The fragment check of one link whose URL is `url` (leading to `found` in
 * the site, if anywhere): the HTML Standard looks for the fragment in the
 * document the URL leads to — the page itself when the URL is the page's
 * (with a `<base>` elsewhere, `#x` is not), its srcdoc document for
 * `about:srcdoc#x` in that document, another page of the site (pending).
 *
 * Deviation: the fragments of CSS `url()` and `@import` are not checked:
 * CSS resolves a fragment-only `url(#x)` against the style's own tree,
 * whatever the base (https://drafts.csswg.org/css-values-4/#local-urls),
 * and it names an SVG resource (a filter, a clip path), not a place to
 * scroll to.
 *
 * Nor is an `itemid`'s: it is an item's name, never fetched nor navigated
 * to (https://html.spec.whatwg.org/multipage/microdata.html#attr-itemid —
 * "The global identifier of an item is the value of its element's itemid
 * attribute"); `itemid="https://example.com/#organization"` names an
 * organization, not an element.
 */
function fragmentFinding(link: Link, url: string, found: Destination | null, page: PageFragments, findings: Finding[]): void {
  if (link.kind === "css-url" || link.kind === "css-import" || link.attribute === "itemid") return;
  const hash = url.indexOf("#");
  if (hash === -1) return;
  const pageURL = page.pageURL;
  let targets: FragmentTargets | undefined;
  let where: string;
  if (link.srcdoc > 0 && hash === 12 && url.startsWith("about:srcdoc")) {
    targets = page.srcdoc.get(link);
    where = "its srcdoc document";
  } else if ((hash === pageURL.length && url.startsWith(pageURL)) || (found !== null && found.html !== null && found.html === page.rel)) {
    // https://html.spec.whatwg.org/multipage/browsing-the-web.html#navigate-fragid — "If ... url equals
    // navigable's active document's URL with exclude fragments set to true, and url's fragment is
    // non-null", the navigation is a fragment navigation within this document (a static server gives
    // the same page for another URL of its file, or for its query).
    if (page.page === null) {
      if (checkFragment(url.slice(hash + 1), null) === "ok") return;
      page.pending.push({ target: page.rel ?? "", fragment: url.slice(hash + 1), line: link.line, column: link.column, label: linkLabel(link), element: link.element, attribute: link.attribute, value: link.value, url });
      return;
    }
    let ok = page.checked.get(url);
    if (ok === undefined) {
      ok = checkFragment(url.slice(hash + 1), page.page) === "ok";
      page.checked.set(url, ok);
    }
    if (ok) return;
    targets = page.page;
    where = page.display;
  } else {
    if (found === null || found.html === null) return;
    const check = checkFragment(url.slice(hash + 1), null);
    if (check === "ok") return;
    page.pending.push({ target: found.html, fragment: url.slice(hash + 1), line: link.line, column: link.column, label: linkLabel(link), element: link.element, attribute: link.attribute, value: link.value, url });
    return;
  }
  if (targets === undefined) return;
  if (checkFragment(url.slice(hash + 1), targets) === "ok") return;
  findings.push(missingFragmentFinding({ fragment: url.slice(hash + 1), line: link.line, column: link.column, label: linkLabel(link), element: link.element, attribute: link.attribute, value: link.value, url }, where));
}

/** The base-URL surprises of a document: each `<base href>` that is ignored, or outside the head, or after relative links. */
function baseFindings(read: LinksRead, url: string, findings: Finding[]): void {
  baseReportFindings(baseURLReport(read, url), findings);
}

/**
 * The base-URL surprises a report of a document's base URL tells (see
 * base-url-report.ts): each `<base href>` that is ignored, or outside the
 * head, or after relative links.
 *
 * @example
 * ```ts
 * const findings: Finding[] = [];
 * baseReportFindings({ fallbackBaseURL: "https://example.com/", bases: [], linksBeforeBase: null }, findings);
 * findings.length; // 0
 * ```
 */
export function baseReportFindings(report: Pick<BaseURLReport, "fallbackBaseURL" | "bases" | "linksBeforeBase">, findings: Finding[]): void {
  const first = report.bases.find((b) => b.status !== "in-template" && b.status !== "in-shadow-root");
  for (const base of report.bases) {
    const common = { line: base.line, column: base.column, category: "base-url" as const, element: "base", attribute: "href", value: base.href, url: base.url };
    const label = `<base href> ${formatValue(base.href)}`;
    if (base.status === "unusable") {
      findings.push({ ...common, type: "base-unusable", message: `${label} is ignored: it ${base.reason}; links resolve against ${report.fallbackBaseURL}` });
    } else if (base.status === "not-first") {
      findings.push({ ...common, type: "base-not-first", message: `${label} is ignored: only the first <base> with an href counts (at ${first?.line}:${first?.column})` });
    } else if (base.status === "in-template") {
      findings.push({ ...common, type: "base-in-template", message: `${label} is in a <template>: it does not set the document's base URL` });
    } else if (base.status === "in-shadow-root") {
      findings.push({ ...common, type: "base-in-shadow-root", message: `${label} is in a declarative shadow root (<template shadowrootmode>): it does not set the document's base URL` });
    }
    if (base.inBody) {
      findings.push({ ...common, type: "base-in-body", message: `${label} is outside <head>: it still sets the base URL of the whole document` });
    }
    if (base.status === "used" && report.linksBeforeBase !== null) {
      const { count, first: at } = report.linksBeforeBase;
      findings.push({
        ...common,
        type: "base-after-links",
        message: `${label} comes after ${count === 1 ? "a relative link" : `${count} relative links`} (${count === 1 ? "at" : "the first at"} ${at.line}:${at.column}) that ${count === 1 ? "resolves" : "resolve"} against it all the same, not against the document's URL`,
      });
    }
  }
}

/**
 * The finding of an iframe whose srcdoc document is too deep to read.
 *
 * @example
 * ```ts
 * srcdocTooDeepFinding({ line: 3, column: 9, depth: 33 }).type; // "srcdoc-too-deep"
 * ```
 */
export function srcdocTooDeepFinding({ line, column, depth }: { readonly line: number; readonly column: number; readonly depth: number }): Finding {
  return {
    line,
    column,
    type: "srcdoc-too-deep",
    category: "limit",
    message: `<iframe srcdoc> at depth ${depth}: srcdoc documents deeper than ${DEFAULT_MAX_SRCDOC_DEPTH} levels are not read`,
    element: "iframe",
    attribute: "srcdoc",
  };
}

/**
 * A document read as a stream, for the fragment check of its links: its
 * URL and its path, and its links' checks that wait (into other pages,
 * and into itself: its targets are known at its end).
 *
 * @example
 * ```ts
 * const page: StreamedPage = { url: "https://example.com/big.html", rel: "big.html", display: "site/big.html", pending: [] };
 * ```
 */
export interface StreamedPage {
  readonly url: string;
  /** Its path relative to the site root ("" outside a site walk). */
  readonly rel: string;
  readonly display: string;
  readonly pending: PendingFragment[];
}

/**
 * The findings of a batch of links of a document read as a stream (see
 * `check.ts`), but those `exclude` leaves out: their validation errors
 * and, within a site, the files they lead to that are missing; with
 * `page`, the fragment checks of its links, each waiting in
 * `page.pending` for the targets of the page it leads to (this one's too).
 * Base-URL surprises are known at its end (see baseReportFindings), not
 * here; fragments of `about:srcdoc` links in its srcdoc documents are not
 * checked.
 *
 * @example
 * ```ts
 * const findings: Finding[] = [];
 * streamedLinkFindings(batch, { root: "https://example.com/", site, unlisted, page: null }, findings);
 * ```
 */
export function streamedLinkFindings(
  batch: readonly Link[],
  options: { readonly root: string | null; readonly site: SiteFiles | null; readonly exclude?: readonly RegExp[] | undefined; readonly unlisted: UnlistedErrors; readonly page?: StreamedPage | null | undefined },
  findings: Finding[],
): void {
  const exclude = options.exclude;
  const links = exclude === undefined || exclude.length === 0 ? batch : batch.filter((link) => !isExcluded(link, exclude));
  validationFindings(links, findings, options.unlisted);
  const page = options.page ?? null;
  let fragments: PageFragments | null = null;
  if (page !== null) {
    const record = parseURL(page.url);
    const pageURL = record === null ? page.url : serializeURL(record, { excludeFragment: true });
    fragments = { page: null, srcdoc: new Map(), pageURL, rel: page.rel === "" ? null : page.rel, display: page.display, pending: page.pending, checked: new Map() };
  }
  if ((options.root !== null && options.site !== null) || fragments !== null) siteFindings(links, options.root, options.site, fragments, findings);
  findings.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * Options of {@link checkDocument}.
 *
 * @example
 * ```ts
 * const options: CheckDocumentOptions = { url: "https://example.com/a.html", encoding: undefined, root: null, site: null, fragments: true };
 * ```
 */
export interface CheckDocumentOptions {
  readonly url: string;
  readonly encoding: string | undefined;
  /** The site root URL and the site's files, for the missing-file check and links into other pages; null: none. */
  readonly root: string | null;
  readonly site: SiteFiles | null;
  /** Check fragments (default false). */
  readonly fragments?: boolean | undefined;
  /** The document's path relative to the site root (a site walk's page: other pages may link into it). */
  readonly rel?: string | null | undefined;
  /** The document's path as printed, for messages (default "this page"). */
  readonly display?: string | undefined;
  /** Links whose URL (or text, when it does not parse) matches one of these are not checked (`--exclude`). */
  readonly exclude?: readonly RegExp[] | undefined;
  /** Give the links to other sites (http: and https: URLs not under `root`), for `--external`. */
  readonly external?: boolean | undefined;
  /** The bytes are a style sheet (a `.css` file): its links are read by CSS Syntax's rules (see {@link checkStylesheet}). */
  readonly stylesheet?: boolean | undefined;
}

/** The result of {@link checkDocument}. */
type CheckedDocument = { links: number; findings: Finding[]; pending: PendingFragment[]; targets: FragmentTargets | null; external: Link[] | null; unlabeledUTF8: boolean };

/** The links of `links` that `--exclude` leaves, and with `external` those to other sites. */
function checkedLinks(links: Link[], options: CheckDocumentOptions): { links: Link[]; external: Link[] | null } {
  const exclude = options.exclude;
  const kept = exclude === undefined || exclude.length === 0 ? links : links.filter((link) => !isExcluded(link, exclude));
  const root = options.root;
  return { links: kept, external: options.external === true ? kept.filter((link) => link.url !== null && isExternalURL(link.url, root)) : null };
}

/**
 * What `check` reports about a style sheet (a `.css` file): its links'
 * validation errors and, in a site, the files they lead to that are
 * missing, sorted by position. Its URLs' fragments name SVG resources,
 * not places (see {@link fragmentFinding}), and are not checked. Null
 * when it cannot be decoded (an `@charset` of the replacement encoding).
 */
function checkStylesheet(bytes: Uint8Array, options: CheckDocumentOptions): CheckedDocument | null {
  const read = readStylesheet(bytes, { url: options.url, encoding: options.encoding, validate: true }, false);
  if (read.encoding === "replacement") return null;
  const { links, external } = checkedLinks(read.links, options);
  const findings: Finding[] = [];
  validationFindings(links, findings);
  if (options.root !== null && options.site !== null) siteFindings(links, options.root, options.site, null, findings);
  findings.sort((a, b) => a.line - b.line || a.column - b.column);
  return { links: links.length, findings, pending: [], targets: null, external, unlabeledUTF8: false };
}

/**
 * Everything `check` reports about one document (bytes, with its URL),
 * sorted by position: validation errors, missing files (when `root` and
 * `site` are given), missing fragments in the page itself (with
 * `fragments`; those into other pages come back in `pending`, with the
 * page's own fragment targets), base-URL surprises — all from the links
 * layer's one reading of it; and whether it is UTF-8 that declares no
 * encoding (see unlabeled-utf8.ts). Null when the document cannot be decoded (its
 * encoding is the replacement encoding).
 *
 * @example
 * ```ts
 * checkDocument(new TextEncoder().encode('<a href="a&amp;b c">'), { url: "https://example.com/", encoding: "utf-8", root: null, site: null }).findings;
 * // [{ line: 1, column: 17, type: "invalid-URL-unit", category: "url-validation", ... }] (the space, after "&amp;b")
 * ```
 */
export function checkDocument(bytes: Uint8Array, options: CheckDocumentOptions): CheckedDocument | null {
  if (options.stylesheet === true) return checkStylesheet(bytes, options);
  const findings: Finding[] = [];
  const extractOptions = {
    url: options.url,
    encoding: options.encoding,
    validate: true,
    onSrcdocTooDeep: (place: { line: number; column: number; depth: number }) => findings.push(srcdocTooDeepFinding(place)),
  };
  const read = readLinks(bytes, extractOptions, { bases: true, targets: options.fragments === true, ignore: true });
  if (read.undecodable) return null;
  const { links, external } = checkedLinks(read.links, options);
  let fragments: PageFragments | null = null;
  if (read.documents !== null) {
    const srcdoc = new Map<Link, FragmentTargets>();
    for (const document of read.documents) {
      if (document.links !== null) for (const link of document.links) srcdoc.set(link, document.targets);
    }
    const record = parseURL(options.url);
    const pageURL = record === null ? options.url : serializeURL(record, { excludeFragment: true });
    fragments = { page: read.documents[0]!.targets, srcdoc, pageURL, rel: options.rel ?? null, display: options.display ?? "this page", pending: [], checked: new Map() };
  }
  validationFindings(links, findings);
  if ((options.root !== null && options.site !== null) || fragments !== null) siteFindings(links, options.root, options.site, fragments, findings);
  if (read.bases !== null && read.bases.length > 0) baseFindings(read, options.url, findings);
  findings.sort((a, b) => a.line - b.line || a.column - b.column);
  return { links: links.length, findings, pending: fragments?.pending ?? [], targets: fragments?.page ?? null, external, unlabeledUTF8: isUnlabeledUTF8(bytes, read.encodingSource) };
}
