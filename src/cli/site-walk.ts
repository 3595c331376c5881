/**
 * The walk that lists a static site's files on disk, never leaving its
 * root unless told to: HTML documents, style sheets, other files, directories, symbolic
 * links inside the site, the temporary files of interrupted writes, and
 * what it left out, with why.
 *
 * @module
 */

import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isTemporaryName } from "./atomic-write.ts";
import { isCSSFileName, isHTMLFileName, isWithin } from "./site.ts";

/** Directories the walk never enters: version control and package folders. */
const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([".git", ".hg", ".svn", "node_modules"]);

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
 * const listing: SiteListing = { html: ["index.html"], stylesheets: ["css/site.css"], other: ["img/a.png"], directories: ["css", "img"], temporary: [], symlinks: [], symlinkTargets: new Map(), problems: [], notUTF8: [] };
 * ```
 */
export interface SiteListing {
  /** HTML documents (`.html`, `.htm`): regular files. */
  readonly html: string[];
  /** Style sheets (`.css`): regular files, whose links are read too. */
  readonly stylesheets: string[];
  /** Every other regular file. */
  readonly other: string[];
  /** Every directory ("" is the root itself, not listed). */
  readonly directories: string[];
  /** Temporary files of atomic writes (see atomic-write.ts's isTemporaryName). */
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
  const stylesheets: string[] = [];
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
    if (isTemporaryName(name)) temporary.push(relPath);
    else if (isHTMLFileName(name)) html.push(relPath);
    else if (isCSSFileName(name)) stylesheets.push(relPath);
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
  for (const list of [html, stylesheets, other, directories, temporary, symlinks]) list.sort(byCodeUnit);
  problems.sort((a, b) => byCodeUnit(a.path, b.path));
  return { html, stylesheets, other, directories, temporary, symlinks, symlinkTargets, problems, notUTF8 };
}
