/**
 * The work on one file, for each command: read it, run the library, and
 * return what to print. The same functions run in the main thread (small
 * inputs) and in the worker pool; their inputs and results are plain data
 * that crosses between processes.
 *
 * @module
 */

import { type FileHandle, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { parseURL, serializeURL, validationErrorTypes, type ValidationErrorType } from "../core/index.ts";
import { SlotMemo } from "../core/slot-memo.ts";
import { absolutize, DEFAULT_MAX_SRCDOC_DEPTH, extractLinks, type Link, LinkStream, rebase, relativize, rewriteLinks } from "../links/index.ts";
import { extractLinksAndTargets } from "../links/fragment-targets.ts";
import type { FragmentTargets } from "../links/indicated-part.ts";
import { copyFileAtomic, replaceFileAtomic, writeFileAtomic } from "./atomic-write.ts";
import { DEFAULT_MAX_FILE_SIZE, openRegularFile, readOpenFile, readRegularFile, STREAMING_SIZE } from "./regular-file.ts";
import { baseURLReport } from "./base-url-report.ts";
import { sniffEncoding } from "./document-text.ts";
import { escapeControls, excerpt, findingLine, formatLinkTable, formatValue, linkLabel } from "./format.ts";
import { checkFragment, missingFragmentFinding, type PendingFragment } from "./fragment-check.ts";
import { siteFileForHref, type SiteFiles, siteHas, siteHTMLFile, type SiteTarget } from "./site.ts";

/**
 * One file to work on.
 *
 * @example
 * ```ts
 * const job: FileJob = {
 *   index: 0, path: "/srv/site/docs/index.html", display: "site/docs/index.html",
 *   url: "https://example.com/docs/", rel: "docs/index.html",
 * };
 * ```
 */
export interface FileJob {
  /** Its place in the output order. */
  readonly index: number;
  /** The path to read ("-" for standard input). */
  readonly path: string;
  /** The path as printed. */
  readonly display: string;
  /** The document's URL. */
  readonly url: string;
  /** Its path relative to the site root, "/"-separated ("" for a single file or standard input). */
  readonly rel: string;
  /** For `rewrite --out`: a file that is not HTML, copied as it is. */
  readonly copy?: true;
  /** The size cap (bytes) of a document read; default DEFAULT_MAX_FILE_SIZE. */
  readonly maxBytes?: number;
  /** A file found by a site walk: refuse a symbolic link in its place instead of following it. */
  readonly noFollow?: true;
  /** Run again alone after its worker stopped: if it stops a worker again, it is reported as failed. */
  readonly retried?: true;
}

/**
 * `docbase links`, as data for a worker.
 *
 * @example
 * ```ts
 * const task: LinksTask = { command: "links", json: true, filter: "internal", encoding: undefined, siteRoot: "https://example.com/" };
 * ```
 */
export interface LinksTask {
  readonly command: "links";
  readonly json: boolean;
  readonly filter: "all" | "internal" | "external";
  readonly encoding: string | undefined;
  /** The site root URL (a prefix): links under it are internal. Null: none are. */
  readonly siteRoot: string | null;
}

/**
 * `docbase check`, as data for a worker.
 *
 * @example
 * ```ts
 * const task: CheckTask = { command: "check", json: false, encoding: undefined, siteRoot: "https://example.com/" };
 * ```
 */
export interface CheckTask {
  readonly command: "check";
  readonly json: boolean;
  readonly encoding: string | undefined;
  /** The site root URL: links under it must lead to files of the site. */
  readonly siteRoot: string | null;
  /** Check that links' fragments name an element of their page (`--no-fragments`: false). Default false. */
  readonly fragments?: boolean | undefined;
}

/**
 * How `rewrite` changes links.
 *
 * @example
 * ```ts
 * const mode: RewriteMode = { type: "rebase", from: "https://old.example/", to: "https://new.example/v2/" };
 * ```
 */
export type RewriteMode =
  | { readonly type: "absolute" }
  | { readonly type: "relative" }
  | { readonly type: "rebase"; readonly from: string; readonly to: string };

/**
 * `docbase rewrite`, as data for a worker.
 *
 * @example
 * ```ts
 * const task: RewriteTask = { command: "rewrite", json: false, encoding: undefined, mode: { type: "absolute" }, outDir: null, dryRun: true };
 * ```
 */
export interface RewriteTask {
  readonly command: "rewrite";
  readonly json: boolean;
  readonly encoding: string | undefined;
  readonly mode: RewriteMode;
  /** The output directory (absolute), or null to rewrite in place. */
  readonly outDir: string | null;
  readonly dryRun: boolean;
}

/**
 * The work a run does on each file.
 *
 * @example
 * ```ts
 * const task: Task = { command: "check", json: true, encoding: "windows-1252", siteRoot: null };
 * ```
 */
export type Task = LinksTask | CheckTask | RewriteTask;

/**
 * What the work on one file gives.
 *
 * @example
 * ```ts
 * const result: FileResult = { index: 3, out: "site/a.html:1:10: missing-file: ...\n", err: "", counts: { files: 1, problems: 1 } };
 * ```
 */
export interface FileResult {
  readonly index: number;
  /**
   * Text for standard output; UTF-8 bytes when it comes from a worker
   * (encoded there, in parallel, and transferred without a copy).
   */
  readonly out: string | Uint8Array;
  /** Text for standard error (a file that could not be read, decoded or rewritten). */
  readonly err: string;
  /** Counts for the summary, added up over files. */
  readonly counts: Readonly<Record<string, number>>;
  /** `check` with fragments: what the main thread needs to check the links into other pages once every page is read. */
  readonly fragments?: FileFragments | undefined;
}

/**
 * A checked page's part of the fragment check across pages: its own
 * fragment targets, for the links of other pages into it, and its links
 * into other pages, to check against theirs.
 *
 * @example
 * ```ts
 * const fragments: FileFragments = { targets: "intro\u0000usage", pending: [], at: null };
 * ```
 */
export interface FileFragments {
  /**
   * The page's ids and `a` names, joined with NUL (no attribute value
   * holds one: the tokenizer makes it U+FFFD), for the page of a site
   * walk; else null.
   *
   * Optimisation: one string crosses between processes, where a Set or an array of
   * thousands of strings (a Wikipedia page's citations) is cloned piece by piece.
   */
  readonly targets: string | null;
  /**
   * Links into other pages of the site, with a fragment to look for there:
   * as objects in the thread that checked the page, and as one string
   * (see `encodePending`) once they have crossed from a worker.
   */
  readonly pending: readonly PendingFragment[] | string;
  /** When `pending` is not empty: the line and column of each line of `out`, in pairs, to place a finding among them. */
  readonly at: Int32Array | null;
}

/**
 * Where the site's files are, for the missing-file check.
 *
 * @example
 * ```ts
 * const env: TaskEnvironment = { site: siteFilesOnDisk("examples/site") };
 * ```
 */
export interface TaskEnvironment {
  readonly site: SiteFiles | null;
  /** Standard input's bytes, for the job whose path is "-". */
  readonly stdin?: Uint8Array | undefined;
}

/** Reads a job's bytes, or returns the error message. */
async function readJob(job: FileJob, stdin: Uint8Array | undefined): Promise<Uint8Array | string> {
  if (job.path === "-") return stdin ?? new Uint8Array();
  return readRegularFile(job.path, { maxBytes: job.maxBytes ?? DEFAULT_MAX_FILE_SIZE, noFollow: job.noFollow === true });
}

/** A document whose encoding is "replacement" decodes to one U+FFFD: there is nothing to read in it. */
function undecodable(bytes: Uint8Array, encoding: string | undefined): string | null {
  const sniffed = sniffEncoding(bytes, encoding);
  return sniffed === "replacement" ? "its encoding is the replacement encoding (e.g. a charset of ISO-2022-KR or HZ-GB-2312): it cannot be decoded" : null;
}

function failed(job: FileJob, kind: "unreadable" | "undecodable" | "failed", message: string, verb?: string): FileResult {
  verb ??= kind === "unreadable" ? "cannot be read" : kind === "undecodable" ? "cannot be decoded" : "failed";
  return { index: job.index, out: "", err: `docbase: ${escapeControls(job.display)}: ${verb}: ${escapeControls(message)}\n`, counts: { files: 1, [kind]: 1 } };
}

// --- links ---------------------------------------------------------------------

async function linksFile(job: FileJob, task: LinksTask, env: TaskEnvironment): Promise<FileResult> {
  const bytes = await readJob(job, env.stdin);
  if (typeof bytes === "string") return failed(job, "unreadable", bytes);
  const why = undecodable(bytes, task.encoding);
  if (why !== null) return failed(job, "undecodable", why);
  const links = extractLinks(bytes, { url: job.url, encoding: task.encoding });
  const counts = linkCounts();
  const shown = countLinks(links, task, counts);
  const out = task.json ? linkLines(job, shown) : shown.length > 0 ? formatLinkTable(job.display === "-" ? "<stdin>" : escapeControls(job.display), shown) : "";
  return { index: job.index, out, err: "", counts };
}

function linkCounts(): Record<string, number> {
  return { files: 1, links: 0, shown: 0, internal: 0, external: 0, invalid: 0 };
}

/** Counts `links` (internal, external, invalid) into `counts`; returns those the task's filter shows. */
function countLinks(links: readonly Link[], task: LinksTask, counts: Record<string, number>): Link[] {
  const root = task.siteRoot;
  const shown: Link[] = [];
  for (const link of links) {
    const isInternal = link.url !== null && root !== null && link.url.startsWith(root);
    if (link.url === null) counts["invalid"]!++;
    else if (isInternal) counts["internal"]!++;
    else counts["external"]!++;
    if (task.filter === "all" || (link.url !== null && (task.filter === "internal") === isInternal)) shown.push(link);
  }
  counts["links"]! += links.length;
  counts["shown"]! += shown.length;
  return shown;
}

/** `links --json`: one line per link. */
function linkLines(job: FileJob, links: readonly Link[]): string {
  let out = "";
  for (const l of links) out += `${JSON.stringify({ file: job.display, element: l.element, attribute: l.attribute, value: l.value, url: l.url, line: l.line, column: l.column })}\n`;
  return out;
}

/**
 * `docbase links -`: the links of the document on standard input
 * (`pieces`), at URL `url`, read as a stream (see link-stream.ts): with
 * `--json`, each link's line goes to `write` as soon as the link is
 * settled, in bounded memory whatever the document's size; the table waits
 * for the end (its columns are aligned over all rows).
 *
 * @example
 * ```ts
 * await linksStream(process.stdin, "https://example.com/", task, async (text) => void process.stdout.write(text));
 * ```
 */
export async function linksStream(pieces: AsyncIterable<Uint8Array>, url: string, task: LinksTask, write: (text: string) => Promise<void>): Promise<FileResult> {
  const job: FileJob = { index: 0, path: "-", display: "-", url, rel: "" };
  const counts = linkCounts();
  const ready: Link[] = [];
  const table: Link[] = [];
  let first = true;
  try {
    const stream = new LinkStream({ url, encoding: task.encoding, onLink: (link) => ready.push(link) });
    const step = async (piece: Uint8Array | null): Promise<void> => {
      if (first && piece !== null) {
        const why = undecodable(piece, task.encoding);
        if (why !== null) throw new UndecodableFile(why);
        first = false;
      }
      if (piece === null) stream.end();
      else stream.write(piece);
      const shown = countLinks(ready, task, counts);
      ready.length = 0;
      if (task.json) {
        if (shown.length > 0) await write(linkLines(job, shown));
      } else {
        for (const link of shown) table.push(link);
      }
    };
    for await (const piece of pieces) await step(piece);
    await step(null);
  } catch (error) {
    if (error instanceof UndecodableFile) return failed(job, "undecodable", error.message);
    return failed(job, "unreadable", (error as Error).message);
  }
  return { index: 0, out: table.length > 0 ? formatLinkTable("<stdin>", table) : "", err: "", counts };
}

// --- check ---------------------------------------------------------------------

/**
 * One thing `check` reports.
 *
 * @example
 * ```ts
 * const finding: Finding = {
 *   line: 15, column: 37, type: "port-out-of-range", category: "invalid-url",
 *   message: "<a href> http://example.com:99999/: The input's port is too big. The URL does not parse.",
 *   element: "a", attribute: "href", value: "http://example.com:99999/", url: null,
 * };
 * ```
 */
export interface Finding {
  readonly line: number;
  readonly column: number;
  /** A validation error's name (`"invalid-URL-unit"`), `"missing-file"`, or a base-URL surprise (`"base-after-links"`, …). */
  readonly type: string;
  /** "limit": a part of the document not read (a srcdoc document nested too deep). */
  readonly category: "invalid-url" | "missing-file" | "missing-fragment" | "base-url" | "limit";
  readonly message: string;
  readonly element: string;
  readonly attribute: string | null;
  /** The link's value; for a link's second and later validation errors, omitted (it is in the first). */
  readonly value?: string;
  readonly url?: string | null;
  /** For a missing fragment: the page looked in (its path as printed). */
  readonly target?: string;
}

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

/** The validation errors of every link, each at its place in the source (the links layer's `line` and `column` of the error). */
function validationFindings(links: readonly Link[], findings: Finding[]): void {
  for (const link of links) {
    const errors = link.errors;
    if (errors === undefined) continue;
    let first = true;
    let shown = 0;
    for (const error of errors) {
      // Bounded: a URL with thousands of errors (a 2 MB href of "% ") lists its first ones and a count.
      if (shown === MAX_ERRORS_PER_LINK) {
        findings.push({
          line: error.line,
          column: error.column,
          type: "more-validation-errors",
          category: "invalid-url",
          message: `${linkLabel(link)}: ${(errors.length - shown).toLocaleString("en-US")} more validation errors in this URL, not listed`,
          element: link.element,
          attribute: link.attribute,
        });
        break;
      }
      shown++;
      const description = validationErrorTypes[error.type as ValidationErrorType]?.description ?? "";
      const fails = link.url === null ? " The URL does not parse." : "";
      // Bounded: the message shows the offending part of a long value, and only a link's first finding
      // carries the whole value and URL (each error repeating them made the output quadratic in one URL).
      const at = link.value.length > 120 ? ` (at ${error.start}–${error.end} of ${link.value.length})` : "";
      findings.push({
        line: error.line,
        column: error.column,
        type: error.type,
        category: "invalid-url",
        message: `${linkLabel(link)} ${formatValue(excerpt(link.value, error.start, error.end))}${at}: ${description}${fails}`,
        element: link.element,
        attribute: link.attribute,
        ...(first ? { value: link.value, url: link.url } : {}),
      });
      first = false;
    }
  }
}

/**
 * What a URL under the site root leads to: the file it names, whether the
 * site has it, and the HTML file that serves it (null: not HTML, or not there).
 */
interface Destination {
  readonly target: SiteTarget;
  readonly exists: boolean;
  readonly html: string | null;
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
 * compares at once (a Map of every URL cost more than it saved on a site
 * whose links are all distinct).
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
    found = target === null ? null : { target, exists: siteHas(site, target), html: siteHTMLFile(site, target) };
    // Bounded: a site of millions of distinct URLs starts over now and then.
    if (memo.byBare.size >= 100_000) memo.byBare.clear();
    memo.byBare.set(bare, found);
  }
  memo.byURL.set(url, found);
  return found;
}

/** What the fragment check of one page knows: its targets and those of its srcdoc documents, its URL, its file. */
interface PageFragments {
  readonly page: FragmentTargets;
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
      const target = found.target;
      const name = excerpt(target.path, target.path.length, target.path.length);
      const what = target.directory ? `no index.html in ${target.path === "" ? "the site root" : `${name}/`}` : `no file ${name}`;
      findings.push({
        line: link.line,
        column: link.column,
        type: "missing-file",
        category: "missing-file",
        message: `${linkLabel(link)} ${formatValue(excerpt(link.value, 0, 0))} → ${excerpt(url, 0, 0)}: ${what} in the site`,
        element: link.element,
        attribute: link.attribute,
        value: link.value,
        url,
      });
      continue;
    }
    if (fragments !== null) fragmentFinding(link, url, found, fragments, findings);
  }
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

function baseFindings(bytes: Uint8Array, links: readonly Link[], url: string, label: string | undefined, findings: Finding[]): void {
  const report = baseURLReport(bytes, links, { url, encoding: label });
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
}

/**
 * Everything `check` reports about one document (bytes, with its URL),
 * sorted by position: validation errors, missing files (when `root` and
 * `site` are given), missing fragments in the page itself (with
 * `fragments`; those into other pages come back in `pending`, with the
 * page's own fragment targets), base-URL surprises.
 *
 * @example
 * ```ts
 * checkDocument(new TextEncoder().encode('<a href="a&amp;b c">'), { url: "https://example.com/", encoding: "utf-8", root: null, site: null }).findings;
 * // [{ line: 1, column: 17, type: "invalid-URL-unit", category: "invalid-url", ... }] (the space, after "&amp;b")
 * ```
 */
export function checkDocument(
  bytes: Uint8Array,
  options: CheckDocumentOptions,
): { links: number; findings: Finding[]; pending: PendingFragment[]; targets: FragmentTargets | null } {
  const findings: Finding[] = [];
  const extractOptions = {
    url: options.url,
    encoding: options.encoding,
    validate: true,
    onSrcdocTooDeep: ({ line, column, depth }: { line: number; column: number; depth: number }) =>
      findings.push({
        line,
        column,
        type: "srcdoc-too-deep",
        category: "limit",
        message: `<iframe srcdoc> at depth ${depth}: srcdoc documents deeper than ${DEFAULT_MAX_SRCDOC_DEPTH} levels are not read`,
        element: "iframe",
        attribute: "srcdoc",
      }),
  };
  let links: Link[];
  let fragments: PageFragments | null = null;
  if (options.fragments === true) {
    const read = extractLinksAndTargets(bytes, extractOptions);
    links = read.links;
    const srcdoc = new Map<Link, FragmentTargets>();
    for (const document of read.documents) {
      if (document.links !== null) for (const link of document.links) srcdoc.set(link, document.targets);
    }
    const record = parseURL(options.url);
    const pageURL = record === null ? options.url : serializeURL(record, { excludeFragment: true });
    fragments = { page: read.documents[0]!.targets, srcdoc, pageURL, rel: options.rel ?? null, display: options.display ?? "this page", pending: [], checked: new Map() };
  } else {
    links = extractLinks(bytes, extractOptions);
  }
  validationFindings(links, findings);
  if ((options.root !== null && options.site !== null) || fragments !== null) siteFindings(links, options.root, options.site, fragments, findings);
  if (links.some((l) => l.element === "base" && l.attribute === "href" && l.srcdoc === 0)) baseFindings(bytes, links, options.url, options.encoding, findings);
  findings.sort((a, b) => a.line - b.line || a.column - b.column);
  return { links: links.length, findings, pending: fragments?.pending ?? [], targets: fragments?.page ?? null };
}

async function checkFile(job: FileJob, task: CheckTask, env: TaskEnvironment): Promise<FileResult> {
  const bytes = await readJob(job, env.stdin);
  if (typeof bytes === "string") return failed(job, "unreadable", bytes);
  const why = undecodable(bytes, task.encoding);
  if (why !== null) return failed(job, "undecodable", why);
  const fragments = task.fragments === true;
  const { links, findings, pending, targets } = checkDocument(bytes, {
    url: job.url,
    encoding: task.encoding,
    root: task.siteRoot,
    site: env.site,
    fragments,
    rel: job.rel === "" ? null : job.rel,
    display: job.display,
  });
  const counts: Record<string, number> = { files: 1, links, problems: findings.length, "invalid-url": 0, "missing-file": 0, "missing-fragment": 0, "base-url": 0, limit: 0 };
  const lines: string[] = [];
  for (const f of findings) {
    counts[f.category]!++;
    lines.push(findingLine(job.display, f, task.json));
  }
  const out = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
  if (!fragments) return { index: job.index, out, err: "", counts };
  let at: Int32Array | null = null;
  if (pending.length > 0) {
    at = new Int32Array(findings.length * 2);
    for (let i = 0; i < findings.length; i++) {
      at[2 * i] = findings[i]!.line;
      at[2 * i + 1] = findings[i]!.column;
    }
  }
  // Only a site walk's pages are looked into by other pages.
  let joined: string | null = null;
  if (targets !== null && env.site !== null && job.rel !== "" && job.path !== "-") {
    joined = [...targets.ids, ...targets.names].join("\0");
  }
  return { index: job.index, out, err: "", counts, fragments: { targets: joined, pending, at } };
}

// --- rewrite -------------------------------------------------------------------

function rewriteFunction(mode: RewriteMode): (link: Link) => string | undefined {
  if (mode.type === "absolute") return absolutize();
  if (mode.type === "relative") return relativize();
  return rebase(mode.from, mode.to);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

async function modeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

async function rewriteFile(job: FileJob, task: RewriteTask): Promise<FileResult> {
  const target = task.outDir === null ? job.path : path.join(task.outDir, ...job.rel.split("/"));
  if (job.copy === true) {
    if (task.dryRun) return { index: job.index, out: "", err: "", counts: { copied: 1 } };
    try {
      await copyFileAtomic(job.path, target);
    } catch (error) {
      return { index: job.index, out: "", err: `docbase: ${escapeControls(job.display)}: cannot be copied: ${escapeControls((error as Error).message)}\n`, counts: { failed: 1 } };
    }
    return { index: job.index, out: "", err: "", counts: { copied: 1 } };
  }
  const opened = await openRegularFile(job.path, { noFollow: job.noFollow === true });
  if (typeof opened === "string") return failed(job, "unreadable", opened);
  if (opened.size > STREAMING_SIZE) return rewriteStreamed(job, task, target, opened.handle);
  const bytes = await readOpenFile(opened, { maxBytes: job.maxBytes ?? DEFAULT_MAX_FILE_SIZE });
  if (typeof bytes === "string") return failed(job, "unreadable", bytes);
  const why = undecodable(bytes, task.encoding);
  if (why !== null) return failed(job, "undecodable", why);
  const changes: { link: Link; to: string }[] = [];
  let output: Uint8Array;
  try {
    output = rewriteLinks(bytes, { url: job.url, encoding: task.encoding, rewrite: noteChanges(task.mode, changes) });
  } catch (error) {
    return failed(job, "failed", (error as Error).message, "cannot be rewritten");
  }
  const changed = changes.length > 0 && !sameBytes(bytes, output);
  if (task.dryRun) return rewriteReport(job, task, changes, changed);
  try {
    if (task.outDir !== null) await writeFileAtomic(target, output, await modeOf(job.path));
    // In place, through a symbolic link: the file it points to is rewritten, and the link stays.
    else if (changed) await replaceFileAtomic(await realpath(target), output);
  } catch (error) {
    return cannotBeWritten(job, error);
  }
  return rewriteReport(job, task, changes, changed);
}

/** The task's rewrite, noting each link it changes in `changes`. */
function noteChanges(mode: RewriteMode, changes: { link: Link; to: string }[]): (link: Link) => string | undefined {
  const rewrite = rewriteFunction(mode);
  return (link) => {
    const to = rewrite(link);
    if (to !== undefined && to !== link.value) changes.push({ link, to });
    return to;
  };
}

function cannotBeWritten(job: FileJob, error: unknown): FileResult {
  return { index: job.index, out: "", err: `docbase: ${escapeControls(job.display)}: cannot be written: ${escapeControls((error as Error).message)}\n`, counts: { files: 1, failed: 1 } };
}

/** An error of the rewriting itself (not of reading or writing the file). */
class RewriteFailure extends Error {}

/**
 * A file larger than STREAMING_SIZE, rewritten as a stream (see
 * link-stream.ts): read in pieces, its output written to the temporary
 * file as it comes, in memory bounded by its longest token, whatever its
 * size (`--max-file-size` caps only files read whole). A file left as it
 * was in place is not written.
 */
async function rewriteStreamed(job: FileJob, task: RewriteTask, target: string, handle: FileHandle): Promise<FileResult> {
  const changes: { link: Link; to: string }[] = [];
  const run = (write: (chunk: Uint8Array) => Promise<void>): Promise<void> => rewritePieces(job.url, task, fileChunks(handle), write, changes);
  try {
    if (task.dryRun) await run(async () => {});
    else if (task.outDir !== null) {
      await writeFileAtomic(
        target,
        async (write) => {
          await run(write);
          return true;
        },
        await modeOf(job.path),
      );
    } else {
      // In place, through a symbolic link: the file it points to is rewritten, and the link stays.
      await replaceFileAtomic(await realpath(target), async (write) => {
        await run(write);
        return changes.length > 0;
      });
    }
  } catch (error) {
    if (error instanceof UndecodableFile) return failed(job, "undecodable", error.message);
    if (error instanceof RewriteFailure) return failed(job, "failed", error.message, "cannot be rewritten");
    return cannotBeWritten(job, error);
  } finally {
    await handle.close();
  }
  return rewriteReport(job, task, changes, changes.length > 0);
}

/** A file whose encoding is the replacement encoding (see undecodable). */
class UndecodableFile extends Error {}

/** The pieces of an open file, from where it is to its end (one buffer, reused: each piece is read before the next). */
async function* fileChunks(handle: FileHandle): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * Rewrites the document `pieces` gives, as `task` says, through a
 * {@link LinkStream}: each piece of output goes to `write` as it comes
 * (awaited, so a slow writer holds the reading back), each link changed
 * to `changes`. Throws an UndecodableFile for a document in the
 * replacement encoding, a RewriteFailure when the rewriting fails, and
 * what `pieces` or `write` throw.
 */
async function rewritePieces(
  url: string,
  task: Pick<RewriteTask, "encoding" | "mode">,
  pieces: AsyncIterable<Uint8Array>,
  write: (chunk: Uint8Array) => Promise<void>,
  changes: { link: Link; to: string }[],
): Promise<void> {
  const output: Uint8Array[] = [];
  let stream: LinkStream;
  try {
    stream = new LinkStream({ url, encoding: task.encoding, rewrite: noteChanges(task.mode, changes), onOutput: (piece) => output.push(piece as Uint8Array) });
  } catch (error) {
    throw new RewriteFailure((error as Error).message);
  }
  let first = true;
  const step = async (piece: Uint8Array | null): Promise<void> => {
    if (first && piece !== null) {
      // The encoding is sniffed from the first 1024 bytes; a first piece is rarely shorter (a pipe's may be).
      const why = undecodable(piece, task.encoding);
      if (why !== null) throw new UndecodableFile(why);
      first = false;
    }
    try {
      if (piece === null) stream.end();
      else stream.write(piece);
    } catch (error) {
      throw new RewriteFailure((error as Error).message);
    }
    for (const chunk of output) await write(chunk);
    output.length = 0;
  };
  for await (const piece of pieces) await step(piece);
  await step(null);
}

/**
 * `docbase rewrite -`: the document on standard input (`pieces`), at URL
 * `url`, rewritten as `task` says, to `write` (standard output) as it
 * comes; with `task.dryRun`, nothing is written and the changes are
 * listed. Never throws for a bad document: the result says what went wrong.
 *
 * @example
 * ```ts
 * const result = await rewriteStream(process.stdin, "https://example.com/", task, async (chunk) => void process.stdout.write(chunk));
 * ```
 */
export async function rewriteStream(pieces: AsyncIterable<Uint8Array>, url: string, task: RewriteTask, write: (chunk: Uint8Array) => Promise<void>): Promise<FileResult> {
  const job: FileJob = { index: 0, path: "-", display: "-", url, rel: "" };
  const changes: { link: Link; to: string }[] = [];
  try {
    await rewritePieces(url, task, pieces, task.dryRun ? async () => {} : write, changes);
  } catch (error) {
    if (error instanceof UndecodableFile) return failed(job, "undecodable", error.message);
    if (error instanceof RewriteFailure) return failed(job, "failed", error.message, "cannot be rewritten");
    return failed(job, "unreadable", (error as Error).message);
  }
  return rewriteReport(job, task, changes, changes.length > 0);
}

/** The result of rewriting one file: its counts, and with --dry-run the changes. */
function rewriteReport(job: FileJob, task: RewriteTask, changes: readonly { link: Link; to: string }[], changed: boolean): FileResult {
  const counts: Record<string, number> = { files: 1, changedFiles: changed ? 1 : 0, changedLinks: changed ? changes.length : 0 };
  let out = "";
  if (task.dryRun) {
    if (changed) {
      if (task.json) {
        out = changes
          .map(({ link, to }) =>
            `${JSON.stringify({ file: job.display, element: link.element, attribute: link.attribute, value: link.value, url: link.url, line: link.line, column: link.column, rewritten: to })}\n`,
          )
          .join("");
      } else {
        const rows = changes.map(({ link, to }) => `  ${link.line}:${link.column}  ${linkLabel(link)}  ${formatValue(link.value)} → ${formatValue(to)}`);
        out = `${escapeControls(job.display)}: ${changes.length} link${changes.length === 1 ? "" : "s"}\n${rows.join("\n")}\n`;
      }
    }
  }
  return { index: job.index, out, err: "", counts };
}

/**
 * Runs `task` on one file. Never throws for a bad file: the result says
 * what went wrong.
 *
 * @example
 * ```ts
 * const result = await runFileTask(job, { command: "links", json: true, filter: "all", encoding: undefined, siteRoot: null }, { site: null });
 * result.out; // '{"file":"site/index.html","element":"a",...}\n...'
 * ```
 */
export async function runFileTask(job: FileJob, task: Task, env: TaskEnvironment): Promise<FileResult> {
  try {
    switch (task.command) {
      case "links":
        return await linksFile(job, task, env);
      case "check":
        return await checkFile(job, task, env);
      case "rewrite":
        return await rewriteFile(job, task);
    }
  } catch (error) {
    // A bug, not a bad file: say so, and go on with the other files.
    return failed(job, "failed", `internal error: ${(error as Error).stack ?? String(error)}`);
  }
}
