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
 * has serialized already: parsing it again cost a tenth of the command.
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
}

/**
 * A {@link SiteFiles} over the lists a walk made, and its symbolic links
 * (`links`: each path to where the walk listed what it leads to, see
 * {@link SiteListing.symlinkTargets}): a path through a link to a
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
 * The HTML file of the site that serves `target`, when there is one: the
 * file itself (an `.html` or `.htm` file), or the index of the directory
 * it names (see {@link siteHas}), at the path where the site has it
 * (through its symbolic links: see {@link SiteFiles.realPath}); null when
 * the file is not HTML or is not there.
 *
 * @example
 * ```ts
 * const files = siteFilesFromLists(["docs/index.html", "a.png"], ["docs"]);
 * siteHTMLFile(files, { path: "docs", directory: true }); // "docs/index.html"
 * siteHTMLFile(files, { path: "a.png", directory: false }); // null
 * ```
 */
export function siteHTMLFile(files: SiteFiles, target: SiteTarget): string | null {
  const { path: p, directory } = target;
  if (!directory && files.hasFile(p)) return isHTMLFileName(p) ? (files.realPath?.(p) ?? p) : null;
  if (!files.hasDirectory(p)) return null;
  for (const name of INDEX_NAMES) {
    const index = p === "" ? name : `${p}/${name}`;
    if (files.hasFile(index)) return files.realPath?.(index) ?? index;
  }
  return null;
}

/**
 * Something a walk left out, with why: a symbolic link that leads out of
 * the site or nowhere, a directory it could not read, a file that is not a
 * regular file (a FIFO, a device, a socket).
 *
 * @example
 * ```ts
 * const problem: SiteProblem = { path: "link.html", kind: "outside", message: "a symbolic link to outside the site root (../outside/a.html): skipped" };
 * ```
 */
export interface SiteProblem {
  /** The path relative to the walked directory, "/"-separated. */
  readonly path: string;
  /** "unreadable" (a directory that cannot be read) and "broken-link" are errors; the others are warnings. */
  readonly kind: "outside" | "broken-link" | "special" | "unreadable" | "not-utf8";
  readonly message: string;
}

/**
 * What a walk found. Paths are relative to the walked directory,
 * "/"-separated, sorted by code unit.
 *
 * @example
 * ```ts
 * const listing: SiteListing = { html: ["index.html"], other: ["img/a.png"], directories: ["img"], temporary: [], symlinks: [], symlinkTargets: new Map(), problems: [], notUTF8: [] };
 * ```
 */
export interface SiteListing {
  /** HTML documents (`.html`, `.htm`): regular files. */
  readonly html: string[];
  /** Every other regular file. */
  readonly other: string[];
  /** Every directory ("" is the root itself, not listed). */
  readonly directories: string[];
  /** Temporary files of atomic writes (see {@link TEMP_FILE_PATTERN}). */
  readonly temporary: string[];
  /**
   * Symbolic links to a file or directory inside the site: not read (their
   * target is, at its own path and URL), copied as links by `rewrite --out`.
   */
  readonly symlinks: string[];
  /**
   * Where the walk listed what a path leads to, when it is not that path:
   * the target of each of {@link symlinks} (links resolved all the way),
   * and, with `followSymlinks`, the first path of a directory reached
   * again. Relative to the site root, "/"-separated.
   */
  readonly symlinkTargets: Map<string, string>;
  /** What the walk left out, and why. */
  readonly problems: SiteProblem[];
  /**
   * Regular files whose names are not UTF-8 (the name's bytes, relative to
   * the walked directory): they have no URL docbase can give, so they are
   * not read; `rewrite --out` copies them as they are.
   */
  readonly notUTF8: { readonly directory: string; readonly name: Buffer }[];
}

/**
 * Options of {@link listSite}.
 *
 * @example
 * ```ts
 * const options: ListSiteOptions = { exclude: ["/tmp/out"], followSymlinks: false };
 * ```
 */
export interface ListSiteOptions {
  /** Directories (absolute paths) the walk does not enter: an `--out` directory inside the site. */
  readonly exclude?: readonly string[] | undefined;
  /** Follow symbolic links wherever they lead (`--follow-symlinks`); default false. */
  readonly followSymlinks?: boolean | undefined;
}

/** Whether `child` is `parent` or inside it (both resolved, real paths). */
function isWithin(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Lists the files under `root`, recursively, never leaving it unless told
 * to. Version-control and `node_modules` directories are skipped, and so is
 * every directory in `exclude`.
 *
 * Symbolic links: by default a link is not followed. A link to a file or a
 * directory inside the site is listed in `symlinks` — its target is walked
 * at its own path, so each file is read once, at its own URL — and a link
 * that leads out of the site, or nowhere, is a problem (a warning). With
 * `followSymlinks`, links are followed wherever they lead (a directory
 * reached twice is walked once). Only regular files are listed as files; a
 * FIFO, a device or a socket is a problem (a warning), and so is a
 * directory that cannot be read (an error), and the walk goes on.
 *
 * @example
 * ```ts
 * (await listSite("examples/site")).html.slice(0, 2); // ["about/index.html", "about/team.html"]
 * ```
 */
export async function listSite(root: string, options: ListSiteOptions = {}): Promise<SiteListing> {
  const html: string[] = [];
  const other: string[] = [];
  const directories: string[] = [];
  const temporary: string[] = [];
  const symlinks: string[] = [];
  const symlinkTargets = new Map<string, string>();
  const problems: SiteProblem[] = [];
  const notUTF8: { directory: string; name: Buffer }[] = [];
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const follow = options.followSymlinks === true;
  const excluded = new Set((options.exclude ?? []).map((p) => path.resolve(p)));
  const realRoot = await realpath(root);
  // Each directory walked, by its real path: where it was walked.
  const seen = new Map<string, string>();
  const addFile = (name: string, relPath: string): void => {
    if (TEMP_FILE_PATTERN.test(name)) temporary.push(relPath);
    else if (isHTMLFileName(name)) html.push(relPath);
    else other.push(relPath);
  };
  const walk = async (dir: string, rel: string): Promise<void> => {
    let entries;
    try {
      const real = await realpath(dir);
      const walked = seen.get(real);
      if (walked !== undefined) {
        symlinkTargets.set(rel, walked);
        return;
      }
      seen.set(real, rel);
      // Names as bytes: a name that is not UTF-8 would otherwise become U+FFFD, a file that is not there.
      entries = await readdir(dir, { withFileTypes: true, encoding: "buffer" });
      // In name order: a directory reached by two paths is walked at the same one in every run.
      entries.sort((a, b) => Buffer.compare(a.name, b.name));
    } catch (error) {
      problems.push({ path: rel === "" ? "." : rel, kind: "unreadable", message: `cannot read this directory: ${(error as Error).message}` });
      return;
    }
    for (const entry of entries) {
      let name: string;
      try {
        name = utf8.decode(entry.name);
      } catch {
        const shown = `${rel === "" ? "" : `${rel}/`}${entry.name.toString("latin1")}`;
        if (entry.isFile()) notUTF8.push({ directory: rel, name: entry.name });
        problems.push({ path: shown, kind: "not-utf8", message: `its name is not UTF-8 (${entry.name.toString("hex")}): it has no URL, so it is not read${entry.isFile() ? " (rewrite --out copies it as it is)" : ""}` });
        continue;
      }
      const full = path.join(dir, name);
      const relPath = rel === "" ? name : `${rel}/${name}`;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = await realpath(full);
        } catch {
          problems.push({ path: relPath, kind: "broken-link", message: "a symbolic link to nothing (ENOENT)" });
          continue;
        }
        if (!follow) {
          if (isWithin(realRoot, target)) {
            symlinks.push(relPath);
            symlinkTargets.set(relPath, path.relative(realRoot, target).split(path.sep).join("/"));
          } else problems.push({ path: relPath, kind: "outside", message: `a symbolic link to outside the site root (${target}): skipped (--follow-symlinks follows it)` });
          continue;
        }
        try {
          const stats = await stat(full);
          isDirectory = stats.isDirectory();
          isFile = stats.isFile();
        } catch {
          problems.push({ path: relPath, kind: "broken-link", message: "a symbolic link to nothing (ENOENT)" });
          continue;
        }
      }
      if (isDirectory) {
        if (SKIPPED_DIRECTORIES.has(name) || excluded.has(path.resolve(full))) continue;
        directories.push(relPath);
        await walk(full, relPath);
      } else if (isFile) {
        addFile(name, relPath);
      } else {
        problems.push({ path: relPath, kind: "special", message: "not a regular file (a FIFO, a device or a socket): skipped" });
      }
    }
  };
  await walk(root, "");
  const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  for (const list of [html, other, directories, temporary, symlinks]) list.sort(byCodeUnit);
  problems.sort((a, b) => byCodeUnit(a.path, b.path));
  return { html, other, directories, temporary, symlinks, symlinkTargets, problems, notUTF8 };
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
