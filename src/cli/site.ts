/**
 * A static site on disk and its URLs: the site root URL, the URL of each
 * file (with index.html handling), the file a URL points to (with
 * percent-decoding), and the walk that lists a site's files.
 *
 * The mapping is the one static file servers use: the file `a/b.html`
 * under the site root `https://example.com/` is served at
 * `https://example.com/a/b.html`, and `a/index.html` at
 * `https://example.com/a/` (the URL a visitor sees, and the one relative
 * links are resolved against — the same directory either way).
 *
 * @module
 */

import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { statSync } from "node:fs";
import path from "node:path";
import { parseURL, pathPercentEncodeSet, percentDecodeString, serializeURL, type URLRecord, utf8PercentEncodeString } from "../core/index.ts";
import { UsageError } from "./errors.ts";

/** The names a directory index has, in the order servers try them. */
const INDEX_NAMES: readonly string[] = ["index.html", "index.htm"];

/** Directories the walk never enters: version control and package folders. */
const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([".git", ".hg", ".svn", "node_modules"]);

/**
 * The temporary files an atomic write makes beside its target
 * (`.NAME.docbase-PID-THREAD-SEQ.tmp`); the walk leaves them out, and
 * `rewrite` removes those of processes that are gone.
 *
 * @example
 * ```ts
 * TEMP_FILE_PATTERN.exec(".index.html.docbase-4242-1-7.tmp")?.[1]; // "4242" (the process)
 * TEMP_FILE_PATTERN.test("index.html"); // false
 * ```
 */
export const TEMP_FILE_PATTERN: RegExp = /^\..*\.docbase-(\d+)-(\d+)-(\d+)\.tmp$/;

/** Whether `name` (a file name) is an HTML document by its extension: `.html` or `.htm`, any case. */
function isHTMLFileName(name: string): boolean {
  return /\.html?$/i.test(name);
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
 * file's path, each segment percent-encoded; a directory index
 * (`index.html`, `index.htm`) is served at its directory's URL.
 *
 * @example
 * ```ts
 * siteFileURL("https://example.com/", "docs/index.html"); // "https://example.com/docs/"
 * siteFileURL("https://example.com/", "notes/50% off.html"); // "https://example.com/notes/50%25%20off.html"
 * siteFileURL("https://example.com/v2/", "index.html"); // "https://example.com/v2/"
 * ```
 */
export function siteFileURL(rootURL: string, relativePath: string): string {
  const segments = relativePath.split("/").filter((s) => s !== "");
  const last = segments[segments.length - 1];
  if (last !== undefined && INDEX_NAMES.includes(last)) segments[segments.length - 1] = "";
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
 * percent-decoded as UTF-8 (a segment that decodes to "/" or NUL names no
 * file: its path is returned as it is, and will not be found).
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
  const href = serializeURL(bare);
  // The root's own URL without its final "/" names the root directory too.
  if (`${href}/` === rootURL) return { path: "", directory: true };
  if (!href.startsWith(rootURL)) return null;
  const rest = href.slice(rootURL.length);
  const directory = rest === "" || rest.endsWith("/");
  const decoder = new TextDecoder();
  const segments = rest.split("/").filter((s) => s !== "");
  const decoded = segments.map((s) => (s.includes("%") ? decoder.decode(percentDecodeString(s)) : s));
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
}

/**
 * A {@link SiteFiles} over the lists a walk made.
 *
 * @example
 * ```ts
 * siteFilesFromLists(["a.html"], []).hasDirectory(""); // true (the root)
 * ```
 */
export function siteFilesFromLists(files: readonly string[], directories: readonly string[]): SiteFiles {
  const fileSet = new Set(files);
  const directorySet = new Set(directories);
  directorySet.add("");
  return { hasFile: (p) => fileSet.has(p), hasDirectory: (p) => directorySet.has(p) };
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
  const kind = (p: string): "file" | "directory" | null => {
    try {
      const s = statSync(path.join(rootDirectory, ...p.split("/")));
      return s.isDirectory() ? "directory" : "file";
    } catch {
      return null;
    }
  };
  return { hasFile: (p) => kind(p) === "file", hasDirectory: (p) => kind(p) === "directory" };
}

/**
 * Whether a site has the file `target` names: the file itself; for a
 * directory URL, the directory's index; for a file URL that names a
 * directory, that directory's index too (servers redirect `/docs` to
 * `/docs/`).
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
  const { path: p, directory } = target;
  const hasIndex = (dir: string): boolean => files.hasDirectory(dir) && INDEX_NAMES.some((name) => files.hasFile(dir === "" ? name : `${dir}/${name}`));
  if (directory) return hasIndex(p);
  return files.hasFile(p) || hasIndex(p);
}

/**
 * What a walk found. Paths are relative to the walked directory,
 * "/"-separated, sorted by code unit.
 *
 * @example
 * ```ts
 * const listing: SiteListing = { html: ["index.html"], other: ["img/a.png"], directories: ["img"], temporary: [] };
 * ```
 */
export interface SiteListing {
  /** HTML documents (`.html`, `.htm`). */
  readonly html: string[];
  /** Every other file. */
  readonly other: string[];
  /** Every directory ("" is the root itself, not listed). */
  readonly directories: string[];
  /** Temporary files of atomic writes (see {@link TEMP_FILE_PATTERN}). */
  readonly temporary: string[];
}

/**
 * Lists the files under `root`, recursively. Version-control and
 * `node_modules` directories are skipped, and so is every directory in
 * `exclude` (absolute paths: an `--out` directory inside the site).
 * Symbolic links are followed (a directory reached twice is walked once);
 * a link that leads nowhere is listed as a file, so that reading it
 * reports the error.
 *
 * @example
 * ```ts
 * (await listSite("examples/site")).html.slice(0, 2); // ["about/index.html", "about/team.html"]
 * ```
 */
export async function listSite(root: string, exclude: readonly string[] = []): Promise<SiteListing> {
  const html: string[] = [];
  const other: string[] = [];
  const directories: string[] = [];
  const temporary: string[] = [];
  const excluded = new Set(exclude.map((p) => path.resolve(p)));
  const seen = new Set<string>();
  const walk = async (dir: string, rel: string): Promise<void> => {
    const real = await realpath(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const name = entry.name;
      const full = path.join(dir, name);
      const relPath = rel === "" ? name : `${rel}/${name}`;
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        try {
          isDirectory = (await stat(full)).isDirectory();
        } catch {
          isDirectory = false;
        }
      }
      if (isDirectory) {
        if (SKIPPED_DIRECTORIES.has(name) || excluded.has(path.resolve(full))) continue;
        directories.push(relPath);
        await walk(full, relPath);
      } else if (TEMP_FILE_PATTERN.test(name)) {
        temporary.push(relPath);
      } else if (isHTMLFileName(name)) {
        html.push(relPath);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        other.push(relPath);
      }
    }
  };
  await walk(root, "");
  const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  html.sort(byCodeUnit);
  other.sort(byCodeUnit);
  directories.sort(byCodeUnit);
  temporary.sort(byCodeUnit);
  return { html, other, directories, temporary };
}

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
