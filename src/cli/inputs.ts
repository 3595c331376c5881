/**
 * What a run reads: every HTML file of a site's directory, one file, or
 * standard input, each as a job with its URL, and the site they belong to
 * (for the missing-file check); and what the walk of a site left out,
 * reported.
 *
 * @module
 */

import { lstat, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "./errors.ts";
import type { FileJob } from "./file-task.ts";
import { escapeControls } from "./format.ts";
import type { CommonOptions } from "./options.ts";
import type { Output } from "./output.ts";
import { DEFAULT_MAX_FILE_SIZE } from "./regular-file.ts";
import type { RedirectRule } from "../links/redirects-file.ts";
import { DEFAULT_HOSTING, directoryOf, isCSSFileName, documentURLOption, type HostingRules, siteFileURL, siteRootOption, type SiteSource } from "./site.ts";
import { listSite, type SiteListing, type SiteProblem } from "./site-walk.ts";

/**
 * What an input argument is: standard input, a file, or a directory.
 *
 * @example
 * ```ts
 * const kind: InputKind = "directory";
 * ```
 */
export type InputKind = "stdin" | "file" | "directory";

/**
 * Tells what `input` (a command's argument) is, or throws a usage error
 * for one that does not exist.
 *
 * @example
 * ```ts
 * await inputKind("-"); // "stdin"
 * await inputKind("examples/site"); // "directory"
 * await inputKind("nope.html"); // throws UsageError("no such file or directory: nope.html")
 * ```
 */
export async function inputKind(input: string): Promise<InputKind> {
  if (input === "-") return "stdin";
  try {
    const s = await stat(input);
    return s.isDirectory() ? "directory" : "file";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    let exists = false;
    try {
      await lstat(input);
      exists = true;
    } catch {
      // Not there at all.
    }
    if (code === "ENOENT" && !exists) throw new UsageError(`no such file or directory: ${input}`);
    if (code === "ENOENT") throw new UsageError(`${input} is a symbolic link to nothing (no such file or directory)`);
    throw new UsageError(`cannot read ${input}: ${(error as Error).message}`);
  }
}

/**
 * Reports what a walk left out, one line a path (control characters
 * escaped) on standard error; returns the count of errors among them (an
 * unreadable directory or a link to nothing is a file the run could not
 * read; the rest are warnings).
 *
 * @example
 * ```ts
 * const unreadable = reportListingProblems("site", listing.problems, output);
 * // "docbase: site/link.html: warning: a symbolic link to outside the site root (...): skipped ..."
 * ```
 */
export function reportListingProblems(input: string, problems: readonly SiteProblem[], output: Output): number {
  let errors = 0;
  for (const problem of problems) {
    const error = problem.kind === "unreadable" || problem.kind === "broken-link";
    if (error) errors++;
    const label = error ? "cannot be read" : "warning";
    output.err(`docbase: ${escapeControls(path.join(input, problem.path))}: ${label}: ${escapeControls(problem.message)}\n`);
  }
  return errors;
}

/**
 * The files a links or check run reads, with their URLs, and the site
 * they belong to.
 *
 * @example
 * ```ts
 * const inputs: Inputs = { jobs: [], siteRoot: "https://example.com/", site: null, standardInput: false, unreadable: 0 };
 * ```
 */
export interface Inputs {
  readonly jobs: FileJob[];
  /** The site root URL: links under it are internal (null: the document's URL has no directory). */
  readonly siteRoot: string | null;
  readonly site: SiteSource;
  /** The input is standard input: one job, whose path is "-", for the command to read (whole, or as a stream). */
  readonly standardInput: boolean;
  /** Directories the walk could not read (each reported, and a failure of the run). */
  readonly unreadable: number;
}

/**
 * The files of a listing whose links a run reads — its HTML documents and
 * its style sheets — in path order (by code unit), each with whether it is
 * a style sheet.
 *
 * @example
 * ```ts
 * siteDocuments({ ...listing, html: ["index.html"], stylesheets: ["css/site.css"] });
 * // [{ rel: "css/site.css", stylesheet: true }, { rel: "index.html", stylesheet: false }]
 * ```
 */
export function siteDocuments(listing: Pick<SiteListing, "html" | "stylesheets">): { rel: string; stylesheet: boolean }[] {
  const all = [...listing.html.map((rel) => ({ rel, stylesheet: false })), ...listing.stylesheets.map((rel) => ({ rel, stylesheet: true }))];
  return all.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/**
 * How the site is served, for a check of what it serves: its hosting
 * rules, and whether to read the `_redirects` file at its root.
 *
 * @example
 * ```ts
 * const serving: SiteServing = { hosting: { indexFiles: ["index.html"], cleanURLs: true }, redirects: true };
 * ```
 */
export interface SiteServing {
  readonly hosting: HostingRules;
  readonly redirects: boolean;
}

/** The name of the redirects file at a site's root (Netlify, Cloudflare Pages). */
const REDIRECTS_FILE = "_redirects";

/**
 * The rules of the `_redirects` file at the root of `input` (a site
 * directory), with each line not applied reported as a warning; null,
 * with the error reported, for a file that cannot be read or followed
 * exactly (never a guess at what the host does).
 */
async function siteRedirects(input: string, root: string, output: Output): Promise<RedirectRule[] | null> {
  const file = path.join(input, REDIRECTS_FILE);
  const { parseRedirects } = await import("../links/redirects-file.ts");
  try {
    const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
    const { rules, notes } = parseRedirects(text, root, { rewrites: true });
    for (const note of notes) output.err(`docbase: ${escapeControls(file)}:${note.line}: warning: not applied: ${escapeControls(note.reason)}\n`);
    return rules;
  } catch (error) {
    output.err(`docbase: ${escapeControls(file)}: cannot be read: ${escapeControls((error as Error).message)}\n`);
    return null;
  }
}

/**
 * What `input` gives a links or check run. A directory: every HTML file
 * and style sheet under it, at its URL under the site root `url`. A file: the document at
 * URL `url`; its directory is its site (links under the URL's directory
 * are internal, and must lead to files under the file's directory). "-":
 * standard input, at URL `url`, not read yet. With `serving` (a check),
 * the site is served by its rules, and a directory's `_redirects` is read.
 *
 * @example
 * ```ts
 * const inputs = await gatherInputs("examples/site", "https://example.com/", {}, output);
 * inputs.jobs[0]; // { index: 0, path: "examples/site/about/index.html", url: "https://example.com/about/", ... }
 * ```
 */
export async function gatherInputs(input: string, url: string, options: CommonOptions, output: Output, serving?: SiteServing): Promise<Inputs> {
  const kind = await inputKind(input);
  const maxBytes = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  const limits = { maxBytes, ...(options.maxToken === undefined ? {} : { maxToken: options.maxToken }) };
  const hosting = serving?.hosting ?? DEFAULT_HOSTING;
  const rules = hosting === DEFAULT_HOSTING ? {} : { hosting };
  if (kind === "directory") {
    const root = siteRootOption(url, "--url");
    const follow = options.followSymlinks === true;
    const listing = await listSite(input, { followSymlinks: follow });
    let unreadable = reportListingProblems(input, listing.problems, output);
    const jobs: FileJob[] = siteDocuments(listing).map(({ rel, stylesheet }, index) => ({
      index,
      path: path.join(input, rel),
      display: path.join(input, rel),
      url: siteFileURL(root, rel, hosting.indexFiles),
      rel,
      ...limits,
      ...(follow ? {} : { noFollow: true as const }),
      ...(stylesheet ? { stylesheet: true as const } : {}),
    }));
    let redirects: RedirectRule[] | null = null;
    if (serving?.redirects === true && listing.other.includes(REDIRECTS_FILE)) {
      redirects = await siteRedirects(input, root, output);
      if (redirects === null) unreadable++;
    }
    // A link inside the site is served like its target: links to it are not missing.
    const site: SiteSource = {
      type: "lists",
      // The host reads its _redirects and does not serve it.
      files: [...listing.html, ...listing.stylesheets, ...(redirects === null ? listing.other : listing.other.filter((rel) => rel !== REDIRECTS_FILE)), ...listing.symlinks],
      directories: listing.directories,
      links: [...listing.symlinkTargets],
      ...rules,
      ...(redirects === null || redirects.length === 0 ? {} : { redirects }),
    };
    return { jobs, siteRoot: root, site, standardInput: false, unreadable };
  }
  const documentURL = documentURLOption(url, "--url");
  const siteRoot = directoryOf(documentURL);
  if (kind === "stdin") {
    return { jobs: [{ index: 0, path: "-", display: "-", url: documentURL, rel: "", ...limits }], siteRoot, site: null, standardInput: true, unreadable: 0 };
  }
  return {
    jobs: [{ index: 0, path: input, display: input, url: documentURL, rel: path.basename(input), ...limits, ...(isCSSFileName(input) ? { stylesheet: true as const } : {}) }],
    siteRoot,
    site: { type: "disk", root: path.dirname(path.resolve(input)), ...rules },
    standardInput: false,
    unreadable: 0,
  };
}
