/**
 * A static site's files and their URLs: the site root URL, the URL of each
 * file (with index files), the file a URL points to (with
 * percent-decoding), and what the site has and serves — its index files
 * and clean URLs as the host's rules say (see `site-walk.ts` for the walk
 * that lists it, `site-redirects.ts` for its `_redirects`).
 *
 * The mapping is the one static file servers use: the file `a/b.html`
 * under the site root `https://example.com/` is served at
 * `https://example.com/a/b.html`, and `a/index.html` at
 * `https://example.com/a/` (the URL a visitor sees, and the one relative
 * links are resolved against — the same directory either way).
 *
 * @module
 */

import { statSync } from "node:fs";
import path from "node:path";
import { parseURL, pathPercentEncodeSet, percentDecodeString, serializeURL, type URLRecord, utf8PercentEncodeString } from "../core/index.ts";
import type { RedirectRule } from "../links/redirects-file.ts";
import { UsageError } from "./errors.ts";

/**
 * How the host serves the site's files: the files a directory URL is
 * served from (`--index-files`, tried in order), and whether `docs/intro`
 * is served from `docs/intro.html` (`--clean-urls`, as GitHub Pages,
 * Netlify and Cloudflare Pages do).
 *
 * @example
 * ```ts
 * const hosting: HostingRules = { indexFiles: ["index.html"], cleanURLs: true };
 * ```
 */
export interface HostingRules {
  readonly indexFiles: readonly string[];
  readonly cleanURLs: boolean;
}

/**
 * The rules of a plain static file server: `index.html`, then
 * `index.htm`; no clean URLs.
 *
 * @example
 * ```ts
 * DEFAULT_HOSTING.indexFiles; // ["index.html", "index.htm"]
 * ```
 */
export const DEFAULT_HOSTING: HostingRules = { indexFiles: ["index.html", "index.htm"], cleanURLs: false };

/**
 * `--index-files` and `--clean-urls`, checked: index files are file
 * names (no "/", not empty), given as a comma-separated list.
 *
 * @example
 * ```ts
 * hostingOption("index.html,default.htm", true); // { indexFiles: ["index.html", "default.htm"], cleanURLs: true }
 * hostingOption(undefined, undefined); // DEFAULT_HOSTING
 * hostingOption("docs/index.html", false); // throws UsageError (a file name has no "/")
 * ```
 */
export function hostingOption(indexFiles: string | undefined, cleanURLs: boolean | undefined): HostingRules {
  if (indexFiles === undefined && cleanURLs !== true) return DEFAULT_HOSTING;
  const names = indexFiles === undefined ? DEFAULT_HOSTING.indexFiles : indexFiles.split(",").map((name) => name.trim());
  for (const name of names) {
    if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) throw new UsageError(`--index-files: not a file name: ${JSON.stringify(name)} (a comma-separated list of names, e.g. index.html,index.htm)`);
  }
  return { indexFiles: names, cleanURLs: cleanURLs === true };
}

/**
 * Whether `name` (a file name) is an HTML document by its extension:
 * `.html` or `.htm`, any case.
 *
 * @example
 * ```ts
 * isHTMLFileName("Index.HTM"); // true
 * isHTMLFileName("logo.png"); // false
 * ```
 */
export function isHTMLFileName(name: string): boolean {
  return /\.html?$/i.test(name);
}

/**
 * Whether `name` (a file name) is a style sheet by its extension: `.css`,
 * any case.
 *
 * @example
 * ```ts
 * isCSSFileName("site.CSS"); // true
 * isCSSFileName("site.css.map"); // false
 * ```
 */
export function isCSSFileName(name: string): boolean {
  return /\.css$/i.test(name);
}

/**
 * Checks a `--url` value and returns it serialized: an absolute URL, or a
 * usage error naming the flag and the value.
 *
 * @example
 * ```ts
 * documentURLOption("HTTPS://Example.com/a/../b.html", "--url"); // "https://example.com/b.html"
 * documentURLOption("/b.html", "--url"); // throws UsageError('--url: not an absolute URL: "/b.html"')
 * ```
 */
export function documentURLOption(value: string, flag: string): string {
  const record = parseURL(value);
  if (record === null) throw new UsageError(`${flag}: not an absolute URL: ${JSON.stringify(value)}`);
  return serializeURL(record);
}

/**
 * Checks a site root URL (`--url`, `--from`, `--to` for a directory) and
 * returns it serialized, ending with "/" (one is added: a root is a
 * directory). It must be absolute, have a path that is not opaque, and no
 * query or fragment.
 *
 * @example
 * ```ts
 * siteRootOption("https://example.com/docs", "--url"); // "https://example.com/docs/"
 * siteRootOption("mailto:a@example.com", "--url"); // throws UsageError (no hierarchical path)
 * ```
 */
export function siteRootOption(value: string, flag: string): string {
  const record = parseURL(value);
  if (record === null) throw new UsageError(`${flag}: not an absolute URL: ${JSON.stringify(value)}`);
  if (record.opaquePath) throw new UsageError(`${flag}: ${JSON.stringify(value)} cannot be a site root: it has no hierarchical path`);
  if (record.query !== null || record.fragment !== null) {
    throw new UsageError(`${flag}: a site root URL has no query or fragment: ${JSON.stringify(value)}`);
  }
  if (!record.path.endsWith("/")) record.path += "/";
  return serializeURL(record);
}

/**
 * The directory of a document URL, as a site root: the URL without its
 * query, fragment and last path segment, or null for a URL with an opaque
 * path.
 *
 * @example
 * ```ts
 * directoryOf("https://example.com/docs/a.html?x#y"); // "https://example.com/docs/"
 * directoryOf("about:blank"); // null
 * ```
 */
export function directoryOf(url: string): string | null {
  const record = parseURL(url);
  if (record === null || record.opaquePath) return null;
  record.query = null;
  record.fragment = null;
  record.path = record.path.slice(0, record.path.lastIndexOf("/") + 1);
  return serializeURL(record);
}

/** A path segment percent-encoded for a URL: the path percent-encode set, plus "%" and "\" (a separator in special URLs). */
function encodeSegment(segment: string): string {
  let s = segment;
  if (s.includes("%")) s = s.replaceAll("%", "%25");
  if (s.includes("\\")) s = s.replaceAll("\\", "%5C");
  return utf8PercentEncodeString(s, pathPercentEncodeSet);
}

/**
 * The URL a file of a site is served at: the site root URL followed by the
 * file's path, each segment percent-encoded; a directory index (one of
 * `indexFiles`: by default `index.html`, `index.htm`) is served at its
 * directory's URL.
 *
 * @example
 * ```ts
 * siteFileURL("https://example.com/", "docs/index.html"); // "https://example.com/docs/"
 * siteFileURL("https://example.com/", "notes/50% off.html"); // "https://example.com/notes/50%25%20off.html"
 * siteFileURL("https://example.com/v2/", "index.html"); // "https://example.com/v2/"
 * siteFileURL("https://example.com/", "docs/default.htm", ["default.htm"]); // "https://example.com/docs/"
 * ```
 */
export function siteFileURL(rootURL: string, relativePath: string, indexFiles: readonly string[] = DEFAULT_HOSTING.indexFiles): string {
  const segments = relativePath.split("/").filter((s) => s !== "");
  const last = segments[segments.length - 1];
  if (last !== undefined && indexFiles.includes(last)) segments[segments.length - 1] = "";
  return rootURL + segments.map(encodeSegment).join("/");
}

/**
 * A file a URL points to: its path relative to the site root, with "/"
 * separators, and whether the URL names a directory.
 *
 * @example
 * ```ts
 * const target: SiteTarget = { path: "docs", directory: true }; // https://example.com/docs/
 * ```
 */
export interface SiteTarget {
  /** The path relative to the site root ("" for the root itself), percent-decoded, "/"-separated, without a trailing "/". */
  readonly path: string;
  /** True when the URL's path ends with "/" (or is the root): the directory's index is meant. */
  readonly directory: boolean;
}

/**
 * Which file of the site `url` points to, or null when it is not under the
 * site root. The query and fragment do not matter; each path segment is
 * percent-decoded as UTF-8 (a segment whose decoding holds "/", "\\" or
 * NUL names no file: it is kept as written, so that it is never a separator
 * and is not found).
 *
 * @example
 * ```ts
 * siteFileForURL("https://example.com/", "https://example.com/files/annual%20report.pdf?dl=1");
 * // { path: "files/annual report.pdf", directory: false }
 * siteFileForURL("https://example.com/", "https://example.com/blog/"); // { path: "blog", directory: true }
 * siteFileForURL("https://example.com/", "https://cdn.example.com/x.js"); // null
 * ```
 */
export function siteFileForURL(rootURL: string, url: string): SiteTarget | null {
  const record = parseURL(url);
  if (record === null || record.opaquePath) return null;
  const bare: URLRecord = { ...record, query: null, fragment: null };
  return siteFileForHref(rootURL, serializeURL(bare));
}

const utf8 = new TextDecoder();

/**
 * {@link siteFileForURL} for a URL already serialized, without its query
 * and fragment (`href` as the URL serializer gives it, cut at its first
 * "?" or "#": in a serialized URL with a hierarchical path they are the
 * delimiters, the path and credentials having them percent-encoded).
 *
 * Optimisation: `check` looks up every link's URL, which the links layer
 * has serialized already: it is not parsed again.
 *
 * @example
 * ```ts
 * siteFileForHref("https://example.com/", "https://example.com/files/annual%20report.pdf");
 * // { path: "files/annual report.pdf", directory: false }
 * ```
 */
export function siteFileForHref(rootURL: string, href: string): SiteTarget | null {
  // The root's own URL without its final "/" names the root directory too (not an opaque "scheme:").
  if (`${href}/` === rootURL && !href.endsWith(":")) return { path: "", directory: true };
  // A root has a hierarchical path: a URL that starts with it has one too.
  if (!href.startsWith(rootURL)) return null;
  const rest = href.slice(rootURL.length);
  const directory = rest === "" || rest.endsWith("/");
  const decoder = utf8;
  const segments = rest.split("/").filter((s) => s !== "");
  // A segment is one file name: one whose decoding holds a separator ("%2F", "%5C") or NUL stays as it is
  // written — a name no file of the site has — so that a lookup can never climb out of the root.
  const decoded = segments.map((s) => {
    if (!s.includes("%")) return s;
    const name = decoder.decode(percentDecodeString(s));
    return /[/\\\0]/.test(name) || name === "." || name === ".." ? s : name;
  });
  return { path: decoded.join("/"), directory };
}

/**
 * What a site has: its files and directories, as "/"-separated paths
 * relative to its root ("" is the root directory).
 *
 * @example
 * ```ts
 * const files: SiteFiles = siteFilesFromLists(["index.html", "docs/a.html"], ["docs"]);
 * files.hasFile("docs/a.html"); // true
 * files.hasDirectory("docs"); // true
 * ```
 */
export interface SiteFiles {
  hasFile(relativePath: string): boolean;
  hasDirectory(relativePath: string): boolean;
  /** Where the site has the file at `relativePath` (through its symbolic links); the path itself when it has no links. */
  realPath?(relativePath: string): string;
  /** How the host serves the files; default {@link DEFAULT_HOSTING}. */
  readonly hosting?: HostingRules | undefined;
  /** The redirects of the site's `_redirects` file (see `site-redirects.ts`); default none. */
  readonly redirects?: readonly RedirectRule[] | undefined;
}

/**
 * A {@link SiteFiles} over the lists a walk made, and its symbolic links
 * (`links`: each path to where the walk listed what it leads to, see
 * `SiteListing.symlinkTargets` in `site-walk.ts`): a path through a link to a
 * directory is a path in that directory.
 *
 * @example
 * ```ts
 * siteFilesFromLists(["a.html"], []).hasDirectory(""); // true (the root)
 * const files = siteFilesFromLists(["v2/a.html"], ["v2"], [["latest", "v2"]]);
 * files.hasFile("latest/a.html"); // true
 * files.realPath?.("latest/a.html"); // "v2/a.html"
 * ```
 */
export function siteFilesFromLists(files: readonly string[], directories: readonly string[], links: readonly (readonly [string, string])[] = []): SiteFiles {
  const fileSet = new Set(files);
  const directorySet = new Set(directories);
  directorySet.add("");
  if (links.length === 0) return { hasFile: (p) => fileSet.has(p), hasDirectory: (p) => directorySet.has(p), realPath: (p) => p };
  const linkMap = new Map(links);
  // Segment by segment: a link's target is where the walk listed it, so only the segments after it can be links again.
  const realPath = (p: string): string => {
    let at = "";
    for (const segment of p.split("/")) {
      at = at === "" ? segment : `${at}/${segment}`;
      at = linkMap.get(at) ?? at;
    }
    return at;
  };
  // A link to what the walk did not list (a skipped or excluded directory) is a file of the site all the same.
  return { hasFile: (p) => fileSet.has(p) || fileSet.has(realPath(p)), hasDirectory: (p) => directorySet.has(p) || directorySet.has(realPath(p)), realPath };
}

/**
 * A {@link SiteFiles} that asks the file system (for a single document:
 * its directory is the site).
 *
 * @example
 * ```ts
 * siteFilesOnDisk("examples/site").hasFile("img/logo.png"); // true
 * ```
 */
export function siteFilesOnDisk(rootDirectory: string): SiteFiles {
  const root = path.resolve(rootDirectory);
  const kind = (p: string): "file" | "directory" | null => {
    const full = path.resolve(root, ...p.split("/"));
    // Never a lookup outside the root (no existence oracle for the rest of the disk).
    if (!isWithin(root, full)) return null;
    try {
      const s = statSync(full);
      return s.isDirectory() ? "directory" : "file";
    } catch {
      return null;
    }
  };
  // Optimisation: a page links the same few files over and over (a 2 MiB page's 98,684 links, 4 paths: a stat
  // each was 1.2 of its 7 CPU seconds); the answers are kept for the run, up to a bound, then forgotten.
  const known = new Map<string, "file" | "directory" | null>();
  const cachedKind = (p: string): "file" | "directory" | null => {
    let answer = known.get(p);
    if (answer === undefined) {
      if (known.size >= KNOWN_PATHS) known.clear();
      answer = kind(p);
      known.set(p, answer);
    }
    return answer;
  };
  return { hasFile: (p) => cachedKind(p) === "file", hasDirectory: (p) => cachedKind(p) === "directory" };
}

/** The most paths a {@link siteFilesOnDisk} remembers the kind of. */
const KNOWN_PATHS = 65_536;

/** The index file of directory `dir` that the host serves (the first of its index files the site has), or null. */
function indexFile(files: SiteFiles, dir: string): string | null {
  if (!files.hasDirectory(dir)) return null;
  for (const name of (files.hosting ?? DEFAULT_HOSTING).indexFiles) {
    const index = dir === "" ? name : `${dir}/${name}`;
    if (files.hasFile(index)) return index;
  }
  return null;
}

/**
 * The file of the site that serves `target`, or null when none does: the
 * file itself; for a directory URL (`docs/`), the directory's index file;
 * for a file URL that names a directory (`docs`), that directory's index
 * too (hosts redirect `/docs` to `/docs/`); with clean URLs, for `docs/intro`,
 * `docs/intro.html`. A custom 404 page (`404.html`) serves nothing here: a
 * link to a missing page is missing, whatever the host shows for it.
 *
 * Deviation from Cloudflare Pages: `docs/intro/` is not served from
 * `docs/intro.html` (Cloudflare redirects it to `docs/intro`; GitHub Pages
 * answers 404) — the link that works on every host is asked for.
 *
 * @example
 * ```ts
 * const files = siteFilesFromLists(["docs/index.html", "intro.html"], ["docs"]);
 * siteFileServing(files, { path: "docs", directory: true }); // "docs/index.html"
 * siteFileServing({ ...files, hosting: { indexFiles: ["index.html"], cleanURLs: true } }, { path: "intro", directory: false }); // "intro.html"
 * siteFileServing(files, { path: "intro", directory: false }); // null (no clean URLs)
 * ```
 */
export function siteFileServing(files: SiteFiles, target: SiteTarget): string | null {
  const { path: p, directory } = target;
  if (!directory && files.hasFile(p)) return p;
  const index = indexFile(files, p);
  if (index !== null) return index;
  // https://docs.github.com/en/pages — GitHub Pages, Netlify's pretty URLs and Cloudflare Pages serve `/intro` from `intro.html`.
  if (!directory && p !== "" && (files.hosting ?? DEFAULT_HOSTING).cleanURLs && files.hasFile(`${p}.html`)) return `${p}.html`;
  return null;
}

/**
 * Whether a site has the file `target` names (see {@link siteFileServing}).
 *
 * @example
 * ```ts
 * const files = siteFilesFromLists(["docs/index.html"], ["docs"]);
 * siteHas(files, { path: "docs", directory: true }); // true
 * siteHas(files, { path: "docs", directory: false }); // true (a redirect to docs/)
 * siteHas(files, { path: "gone.html", directory: false }); // false
 * ```
 */
export function siteHas(files: SiteFiles, target: SiteTarget): boolean {
  return siteFileServing(files, target) !== null;
}

/**
 * The HTML file of the site that serves `target`, when there is one (see
 * {@link siteFileServing}), at the path where the site has it (through
 * its symbolic links: see {@link SiteFiles.realPath}); null when the file
 * is not HTML or is not there.
 *
 * @example
 * ```ts
 * const files = siteFilesFromLists(["docs/index.html", "a.png"], ["docs"]);
 * siteHTMLFile(files, { path: "docs", directory: true }); // "docs/index.html"
 * siteHTMLFile(files, { path: "a.png", directory: false }); // null
 * ```
 */
export function siteHTMLFile(files: SiteFiles, target: SiteTarget): string | null {
  return servedHTMLFile(files, siteFileServing(files, target));
}

/**
 * {@link siteHTMLFile} of a file {@link siteFileServing} gave (null: none).
 *
 * @example
 * ```ts
 * servedHTMLFile(siteFilesFromLists(["a.html"], []), "a.html"); // "a.html"
 * servedHTMLFile(siteFilesFromLists(["a.png"], []), "a.png"); // null
 * ```
 */
export function servedHTMLFile(files: SiteFiles, served: string | null): string | null {
  if (served === null || !isHTMLFileName(served)) return null;
  return files.realPath?.(served) ?? served;
}

/**
 * Whether `child` is `parent` or inside it (both resolved: absolute, or
 * real paths).
 *
 * @example
 * ```ts
 * isWithin("/srv/site", "/srv/site/docs"); // true
 * isWithin("/srv/site", "/srv/site-old"); // false
 * ```
 */
export function isWithin(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Where the site's file list comes from, as data a worker can receive: the
 * lists a walk made, or the disk under a directory (a single document's).
 *
 * @example
 * ```ts
 * const source: SiteSource = { type: "lists", files: ["index.html", "img/a.png"], directories: ["img"] };
 * ```
 */
export type SiteSource =
  | {
      readonly type: "lists";
      readonly files: readonly string[];
      readonly directories: readonly string[];
      /** The site's symbolic links, each to where the walk listed what it leads to (see `SiteListing.symlinkTargets`). */
      readonly links?: readonly (readonly [string, string])[] | undefined;
      readonly hosting?: HostingRules | undefined;
      readonly redirects?: readonly RedirectRule[] | undefined;
    }
  | { readonly type: "disk"; readonly root: string; readonly hosting?: HostingRules | undefined }
  | null;

/**
 * The site's files, from a {@link SiteSource}.
 *
 * @example
 * ```ts
 * siteFilesFrom({ type: "disk", root: "examples/site" })?.hasFile("index.html"); // true
 * siteFilesFrom(null); // null
 * ```
 */
export function siteFilesFrom(source: SiteSource): SiteFiles | null {
  if (source === null) return null;
  const files = source.type === "lists" ? siteFilesFromLists(source.files, source.directories, source.links) : siteFilesOnDisk(source.root);
  const redirects = source.type === "lists" ? source.redirects : undefined;
  if (source.hosting === undefined && redirects === undefined) return files;
  return { ...files, hosting: source.hosting, redirects };
}
