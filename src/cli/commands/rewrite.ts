/**
 * `docbase rewrite <dir|->`: a site's links made absolute, portable
 * (document-relative), moved to a new root, or moved as a URL map says,
 * all or some (resources, navigations, URL patterns), every other byte
 * kept — its options, the rewrite of one file (whole, or as a stream when
 * it is large), standard input as a stream, the copy of the rest of the
 * site with `--out`, and the summary. Files are written atomically (see `atomic-write.ts`).
 *
 * @module
 */

import { copyFile, mkdir, readFile, readlink, realpath, rm, stat, symlink } from "node:fs/promises";
import path from "node:path";
import type { Link, LinkFilterOptions, LinkStream, StreamWarning, URLMap, URLMapFormat } from "../../links/index.ts";
import { copyFileAtomic, removeStaleTemporaryFiles, replaceFileAtomic, writeFileAtomic } from "../atomic-write.ts";
import { feedLinkStream, readTwice, StreamFailure, streamFailure, UNDECODABLE_ENDS_STREAM, UndecodableDocument, UnreadableDocument, warningReport } from "../document-stream.ts";
import { UsageError } from "../errors.ts";
import { failedFile, type FileJob, type FileResult, type FileWork, failures, loadOnce, type OpenedDocument, openDocument, readDocument, type TaskEnvironment, UNDECODABLE, undecodable } from "../file-task.ts";
import { escapeControls, formatValue, jsonLine, linkLabel, plural } from "../format.ts";
import { inputKind, reportListingProblems, siteDocuments } from "../inputs.ts";
import { type LinkFilterFlags, linkFilterOptions } from "../link-filter-options.ts";
import { type CommonOptions, DEFAULT_MAX_HOLD, encodingOption, type StreamingOptions } from "../options.ts";
import type { Output } from "../output.ts";
import { DEFAULT_MAX_FILE_SIZE, DEFAULT_MAX_TOKEN } from "../regular-file.ts";
import { runStandardInput, runTask, summaryEnd } from "../run-task.ts";
import { isWithin, siteFileURL, siteRootOption } from "../site.ts";
import { listSite } from "../site-walk.ts";

/**
 * Options of `docbase rewrite`.
 *
 * @example
 * ```ts
 * const options: RewriteOptions = { from: "https://old.example/", to: "https://new.example/", out: "build" };
 * ```
 */
export interface RewriteOptions extends CommonOptions, StreamingOptions, LinkFilterFlags {
  readonly url?: string | undefined;
  readonly absolute?: boolean | undefined;
  readonly relative?: boolean | undefined;
  /** With --relative: a link to a directory names this file in it (for browsing from disk). */
  readonly indexFile?: string | undefined;
  /** A URL map file: JSON, a Vite manifest, or _redirects. */
  readonly map?: string | undefined;
  readonly mapFormat?: URLMapFormat | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly out?: string | undefined;
  readonly dryRun?: boolean | undefined;
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
  | { readonly type: "relative"; readonly root: string; readonly indexFile: string | null }
  | { readonly type: "rebase"; readonly from: string; readonly to: string }
  | { readonly type: "map"; readonly map: URLMap };

/**
 * `docbase rewrite`, as data for a worker.
 *
 * @example
 * ```ts
 * const task: RewriteTask = { command: "rewrite", json: false, encoding: undefined, mode: { type: "absolute" }, filter: null, outDir: null, dryRun: true };
 * ```
 */
export interface RewriteTask {
  readonly command: "rewrite";
  readonly json: boolean;
  readonly encoding: string | undefined;
  readonly mode: RewriteMode;
  /** Which links it may change (null: all). */
  readonly filter: LinkFilterOptions | null;
  /** The output directory (absolute), or null to rewrite in place. */
  readonly outDir: string | null;
  readonly dryRun: boolean;
  /** `rewrite -`: the document (standard input) is written to standard output as it comes (see TaskEnvironment.write), not to a file. */
  readonly toStandardOutput?: boolean | undefined;
}

/** The links library, loaded where files are read (see loadOnce). */
const library = loadOnce(() => import("../../links/index.ts"));

/** The links layer's reading of a style sheet, loaded where files are read (see loadOnce). */
const reading = loadOnce(() => import("../../links/internal.ts"));

/**
 * The links a rewrite changed: counted; with --dry-run, each one's line
 * too (the output asked for). Bounded: no record of every change is kept
 * otherwise, whatever the number of links.
 */
interface Changes {
  count: number;
  readonly lines: string[] | null;
}

/** What a rewrite of one file noted besides its changes: links that stay absolute, redirects that did not apply or could not be followed. */
interface RewriteNotes {
  notPortable: number;
  readonly problems: string[];
}

/** Everything the rewrite of one file tallies, whichever way it is read: its changes, its notes, and a stream's warnings. */
interface FileTally {
  readonly changes: Changes;
  readonly notes: RewriteNotes;
  readonly warnings: StreamWarning[];
}

function newTally(task: RewriteTask): FileTally {
  return { changes: { count: 0, lines: task.dryRun ? [] : null }, notes: { notPortable: 0, problems: [] }, warnings: [] };
}

/** Each task's filter, compiled once per thread (its URL patterns). */
const compiledFilters = new WeakMap<LinkFilterOptions, (link: Link) => boolean>();

/** The task's rewrite, noting each link it changes in the tally's `changes` (the file's path as `display`), and the rest in its `notes`. */
async function noteChanges(task: Pick<RewriteTask, "mode" | "filter" | "json">, display: string, { changes, notes }: FileTally): Promise<(link: Link) => string | undefined> {
  const { absolutize, rebase, relativize, mapURLs, linkFilter } = await library();
  const mode = task.mode;
  let filter: ((link: Link) => boolean) | undefined;
  if (task.filter !== null) {
    filter = compiledFilters.get(task.filter);
    if (filter === undefined) compiledFilters.set(task.filter, (filter = linkFilter(task.filter)));
  }
  let rewrite: (link: Link) => string | undefined;
  switch (mode.type) {
    case "absolute":
      rewrite = absolutize({ filter });
      break;
    case "relative":
      rewrite = relativize({ root: mode.root, indexFile: mode.indexFile ?? undefined, filter, onNotPortable: () => void notes.notPortable++ });
      break;
    case "rebase":
      rewrite = rebase(mode.from, mode.to, { filter });
      break;
    case "map":
      rewrite = mapURLs(mode.map, { filter, onProblem: (problem) => void notes.problems.push(problem) });
      break;
  }
  return (link) => {
    const to = rewrite(link);
    if (to !== undefined && to !== link.value) {
      changes.count++;
      changes.lines?.push(
        task.json
          ? jsonLine({ file: display, element: link.element, attribute: link.attribute, value: link.value, url: link.url, line: link.line, column: link.column, rewritten: to })
          : `  ${link.line}:${link.column}  ${linkLabel(link)}  ${formatValue(link.value)} → ${formatValue(to)}`,
      );
    }
    return to;
  };
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

function cannotBeWritten(job: FileJob, error: unknown): FileResult {
  return failedFile(job, "failed", (error as Error).message, "cannot be written");
}

/**
 * `docbase rewrite`'s work on one file: the file rewritten, in place or
 * into `--out` (a file that is not HTML copied there), or with
 * `--dry-run` its changes listed.
 *
 * @example
 * ```ts
 * await rewriteWork.run(job, { command: "rewrite", json: false, encoding: undefined, mode: { type: "absolute" }, filter: null, outDir: null, dryRun: true }, { site: null });
 * ```
 */
export const rewriteWork: FileWork<RewriteTask> = {
  async run(job: FileJob, task: RewriteTask, env: TaskEnvironment): Promise<FileResult> {
    if (task.toStandardOutput === true) return rewriteToStandardOutput(job, task, env);
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
    // A style sheet is read whole (see readDocument); a document over STREAMING_SIZE, as a stream.
    const document = job.stylesheet === true ? await readDocument(job, { site: null }) : await openDocument(job, { site: null });
    if (!(document instanceof Uint8Array)) return "handle" in document ? rewriteStreamed(job, task, target, document) : document;
    const why = job.stylesheet === true ? null : await undecodable(document, task.encoding);
    if (why !== null) return failedFile(job, "undecodable", why);
    const rewritten = await rewriteWhole(job, task, document);
    if (!("output" in rewritten)) return rewritten;
    const { output, tally } = rewritten;
    const changed = tally.changes.count > 0 && !sameBytes(document, output);
    if (task.dryRun) return rewriteReport(job, task, tally, changed);
    try {
      if (task.outDir !== null) await writeFileAtomic(target, output, await modeOf(job.path));
      // In place, through a symbolic link: the file it points to is rewritten, and the link stays.
      else if (changed) await replaceFileAtomic(await realpath(target), output);
    } catch (error) {
      return cannotBeWritten(job, error);
    }
    return rewriteReport(job, task, tally, changed);
  },
};

/** A whole document rewritten, with its changes; or the failed result. */
async function rewriteWhole(job: FileJob, task: RewriteTask, bytes: Uint8Array): Promise<{ output: Uint8Array; tally: FileTally } | FileResult> {
  const tally = newTally(task);
  const { readStylesheet, rewriteLinksAndEncoding, rewriteStylesheet } = await reading();
  try {
    const options = { url: job.url, encoding: task.encoding, rewrite: await noteChanges(task, job.display, tally) };
    if (job.stylesheet !== true) {
      const rewritten = rewriteLinksAndEncoding(bytes, options);
      // A <meta> past the prescan that declares the replacement encoding: the document is one U+FFFD, as for links and check.
      if (rewritten.encoding === "replacement") return failedFile(job, "undecodable", UNDECODABLE);
      return { output: rewritten.output as Uint8Array, tally };
    }
    const read = readStylesheet(bytes, options, true);
    // A style sheet of the replacement encoding (an @charset of ISO-2022-KR) decodes to one U+FFFD: nothing to rewrite, nothing to keep.
    if (read.encoding === "replacement") return failedFile(job, "undecodable", UNDECODABLE);
    return { output: rewriteStylesheet(read, bytes, options.rewrite) as Uint8Array, tally };
  } catch (error) {
    return failedFile(job, "failed", (error as Error).message, "cannot be rewritten");
  }
}

/**
 * A file larger than STREAMING_SIZE, rewritten as a stream, read twice
 * (see document-stream.ts's readTwice: a first pass settles its encoding
 * and its base URL, so that the stream is exact): its output written to
 * the temporary file as it comes, in memory bounded by its longest token,
 * whatever its size (`--max-file-size` caps only files read whole). A
 * file left as it was in place is not written.
 */
async function rewriteStreamed(job: FileJob, task: RewriteTask, target: string, opened: OpenedDocument): Promise<FileResult> {
  const tally = newTally(task);
  const run = (write: (chunk: Uint8Array) => Promise<void>): Promise<void> => rewriteOpenFile(job, task, opened, write, tally);
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
        return tally.changes.count > 0;
      });
    }
  } catch (error) {
    if (error instanceof UndecodableDocument || error instanceof UnreadableDocument || error instanceof StreamFailure) return streamFailure(job, error, "cannot be rewritten");
    return cannotBeWritten(job, error);
  } finally {
    await opened.handle.close();
  }
  const report = rewriteReport(job, task, tally, tally.changes.count > 0);
  return { ...report, err: report.err + warningReport(job.display, tally.warnings, false).err };
}

/**
 * Rewrites an open file too large to read whole, as `task` says, read
 * twice (see readTwice): each piece of output goes to `write` as it comes
 * (awaited, so a slow writer holds the reading back), each link changed
 * and each warning (the one case the first reading cannot settle) to
 * `tally`. Throws what readTwice throws.
 */
async function rewriteOpenFile(
  job: FileJob,
  task: RewriteTask,
  opened: OpenedDocument,
  write: (chunk: Uint8Array) => Promise<void>,
  tally: FileTally,
): Promise<void> {
  const { LinkStream } = await library();
  const rewrite = await noteChanges(task, job.display, tally);
  const { output, handOn } = outputHandOn(write);
  await readTwice(
    opened.handle,
    { url: job.url, encoding: task.encoding, size: opened.size, maxBytes: opened.maxBytes, maxToken: opened.maxToken },
    (settled) =>
      new LinkStream({ url: job.url, encoding: task.encoding, settled: settled ?? undefined, maxHold: opened.maxBytes, maxToken: opened.maxToken, rewrite, onOutput: (piece) => output.push(piece as Uint8Array), onWarning: (w) => tally.warnings.push(w) }),
    handOn,
  );
}

/**
 * Hands on the output a stream gave since the last piece was read: to
 * `write`, as one piece (Optimisation: from a worker, each piece is a
 * message and its answer).
 */
function outputHandOn(write: (chunk: Uint8Array) => Promise<void>): { output: Uint8Array[]; handOn: () => Promise<void> } {
  const output: Uint8Array[] = [];
  const handOn = async (): Promise<void> => {
    if (output.length === 0) return;
    const piece = output.length === 1 ? output[0]! : Buffer.concat(output);
    output.length = 0;
    await write(piece);
  };
  return { output, handOn };
}

/**
 * Rewrites the document `pieces` gives as one stream (`rewrite -
 * --no-spool`): each piece of output goes to `write` as it comes, each
 * link changed, and past the job's `maxHold` each warning, to `tally`.
 * Throws what {@link feedLinkStream} throws (a StreamFailure too when the
 * stream cannot be made).
 */
async function rewritePieces(job: FileJob, task: RewriteTask, pieces: AsyncIterable<Uint8Array>, write: (chunk: Uint8Array) => Promise<void>, tally: FileTally): Promise<void> {
  const { LinkStream } = await library();
  const { output, handOn } = outputHandOn(write);
  let stream: LinkStream;
  try {
    const limits = { maxHold: job.maxHold ?? DEFAULT_MAX_HOLD, maxToken: job.maxToken ?? DEFAULT_MAX_TOKEN };
    stream = new LinkStream({ url: job.url, encoding: task.encoding, ...limits, rewrite: await noteChanges(task, job.display, tally), onOutput: (piece) => output.push(piece as Uint8Array), onWarning: (w) => tally.warnings.push(w) }, UNDECODABLE_ENDS_STREAM);
  } catch (error) {
    throw new StreamFailure((error as Error).message);
  }
  await feedLinkStream(stream, pieces, task.encoding, handOn);
}

/**
 * `rewrite -`'s work on standard input (see runStandardInput: its bytes,
 * a spool of it read as a file, or its pieces): the document at the
 * job's URL rewritten as `task` says, written to `env.write` (standard
 * output) as it comes — whole, or from a stream, exact whatever its size
 * but with `--no-spool` (then past the job's `maxHold`, a warning says
 * what was not applied). With `task.dryRun`, nothing is written and the
 * changes are listed. Never throws for a bad document: the result says
 * what went wrong.
 */
async function rewriteToStandardOutput(job: FileJob, task: RewriteTask, env: TaskEnvironment): Promise<FileResult> {
  // Without a write (nothing streams), the document is the result's output; with --dry-run, nothing is written.
  const chunks: Uint8Array[] = [];
  const write = task.dryRun ? async () => {} : (env.write ?? (async (chunk: Uint8Array) => void chunks.push(chunk)));
  const tally = newTally(task);
  try {
    if (job.path === "-" && env.pieces !== undefined) await rewritePieces(job, task, env.pieces, write, tally);
    else {
      const document = await openDocument(job, env);
      if (document instanceof Uint8Array) {
        const why = await undecodable(document, task.encoding);
        if (why !== null) return failedFile(job, "undecodable", why);
        const rewritten = await rewriteWhole(job, task, document);
        if (!("output" in rewritten)) return rewritten;
        await write(rewritten.output);
        const report = rewriteReport(job, task, rewritten.tally, rewritten.tally.changes.count > 0);
        return chunks.length === 0 ? report : { ...report, out: Buffer.concat(chunks) };
      }
      if (!("handle" in document)) return document;
      try {
        await rewriteOpenFile(job, task, document, write, tally);
      } finally {
        await document.handle.close();
      }
    }
  } catch (error) {
    return streamFailure(job, error, "cannot be rewritten");
  }
  const report = rewriteReport(job, task, tally, tally.changes.count > 0);
  const warned = warningReport(job.display, tally.warnings, task.json && task.dryRun);
  return { ...report, out: chunks.length === 0 ? report.out + warned.out : Buffer.concat(chunks), err: report.err + warned.err };
}

/** The result of rewriting one file: its counts, with --dry-run the changes, and the redirects it could not follow. */
function rewriteReport(job: FileJob, task: RewriteTask, { changes, notes }: FileTally, changed: boolean): FileResult {
  const count = changes.count;
  const counts: Record<string, number> = { files: 1, changedFiles: changed ? 1 : 0, changedLinks: changed ? count : 0 };
  if (notes.notPortable > 0) counts["notPortable"] = notes.notPortable;
  if (notes.problems.length > 0) counts["notFollowed"] = notes.problems.length;
  const err = notes.problems.map((problem) => `docbase: ${escapeControls(job.display)}: not followed: ${escapeControls(problem)}\n`).join("");
  let out = "";
  const lines = changes.lines;
  if (lines !== null && changed) {
    if (task.json) out = `${lines.join("\n")}\n`;
    else out = `${escapeControls(job.display)}: ${count} link${count === 1 ? "" : "s"}\n${lines.join("\n")}\n`;
  }
  return { index: job.index, out, err, counts };
}

/**
 * The rewrite the flags ask for, and the site root the files are at, or a
 * usage error; a URL map's file is read later (see {@link readMap}).
 */
function rewriteMode(options: RewriteOptions): { mode: Exclude<RewriteMode, { type: "map" }> | { type: "map"; file: string }; root: string } {
  const { url, absolute, relative, from, to, map } = options;
  const modes = [absolute === true && "--absolute", relative === true && "--relative", (from !== undefined || to !== undefined) && "--from/--to", map !== undefined && "--map"].filter(
    (m) => m !== false,
  );
  if (modes.length > 1) {
    if (modes.length === 2 && modes.includes("--absolute") && modes.includes("--relative")) throw new UsageError("rewrite: --absolute and --relative exclude each other");
    throw new UsageError(`rewrite: one job at a time: ${modes.join(", ")} exclude each other`);
  }
  if (options.indexFile !== undefined && relative !== true) throw new UsageError("rewrite: --index-file is for --relative (a link to a directory names its index file)");
  if (options.mapFormat !== undefined && map === undefined) throw new UsageError("rewrite: --map-format needs --map FILE");
  if (from !== undefined || to !== undefined) {
    if (url !== undefined) throw new UsageError("rewrite: use either --from A --to B, or --url U with --absolute or --relative, not both");
    if (from === undefined || to === undefined) throw new UsageError(`rewrite: ${from === undefined ? "--to needs --from" : "--from needs --to"} (the site's old and new root URLs)`);
    const fromRoot = siteRootOption(from, "--from");
    return { mode: { type: "rebase", from: fromRoot, to: siteRootOption(to, "--to") }, root: fromRoot };
  }
  if (modes.length === 0) throw new UsageError("rewrite: say how: --url U with --absolute or --relative, or --from A --to B, or --url U --map FILE");
  const flag = modes[0]!;
  if (url === undefined) throw new UsageError(`rewrite: ${flag} needs --url (the site's root URL)`);
  const root = siteRootOption(url, "--url");
  if (map !== undefined) return { mode: { type: "map", file: map }, root };
  if (absolute === true) return { mode: { type: "absolute" }, root };
  const indexFile = options.indexFile ?? null;
  if (indexFile !== null && (indexFile === "" || /[/\\?#]/.test(indexFile))) throw new UsageError(`rewrite: --index-file is a file name (no "/", "\\", "?" or "#"): ${JSON.stringify(indexFile)}`);
  return { mode: { type: "relative", root, indexFile }, root };
}

/**
 * Reads `--map FILE` against the site's `root`: the map, or a usage error
 * that names the file and the line (nothing is rewritten then). `files`:
 * the URLs of the site's files, where a redirect that is not forced does
 * not apply. The lines of a `_redirects` file that are not applied are
 * reported on standard error.
 */
async function readMap(file: string, format: URLMapFormat | undefined, root: string, files: readonly string[] | null, output: Output): Promise<URLMap> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`rewrite: --map ${file}: cannot be read: ${(error as Error).message}`);
  }
  const { readURLMap } = await library();
  try {
    const { map, notes } = readURLMap(text, { root, format, files });
    for (const note of notes) output.err(`docbase: ${escapeControls(file)}:${note.line}: not applied: ${note.reason}: ${escapeControls(note.text)}\n`);
    return map;
  } catch (error) {
    throw new UsageError(`rewrite: --map ${file}: ${(error as Error).message.replace(/^URL map /, "").replace(/^_redirects /, "")}`);
  }
}

/** The URLs of a site's files (`rels`), as a redirect's source is compared with them: an index file by its directory's URL and its own. */
function siteFileURLs(root: string, rels: readonly string[]): string[] {
  const urls: string[] = [];
  for (const rel of rels) {
    const url = siteFileURL(root, rel);
    urls.push(url);
    if (url.endsWith("/")) urls.push(url + path.posix.basename(rel));
  }
  return urls;
}

/** The summary's clause for links a job left alone that the user should know of. */
function notesClause(counts: Readonly<Record<string, number>>): string {
  let clause = "";
  const notPortable = counts["notPortable"] ?? 0;
  const notFollowed = counts["notFollowed"] ?? 0;
  if (notPortable > 0) clause += `; ${plural(notPortable, "link")} into the site stay absolute: read against a <base> outside it, they cannot be portable`;
  if (notFollowed > 0) clause += `; ${plural(notFollowed, "redirect")} not followed (see above)`;
  return clause;
}

/**
 * The real path of `directory`, which need not exist yet: the real path of
 * its nearest existing ancestor, and the rest as given.
 */
async function realDirectory(directory: string): Promise<string> {
  const rest: string[] = [];
  for (let at = directory; ; at = path.dirname(at)) {
    try {
      return path.join(await realpath(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return directory;
      rest.push(path.basename(at));
    }
  }
}

/** Whether `a` and `b` are the same directory: the same real path, or the same device and inode. */
async function sameDirectory(a: string, b: string): Promise<boolean> {
  try {
    const [sa, sb] = await Promise.all([stat(a), stat(b)]);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return (await realDirectory(a)) === (await realDirectory(b));
  }
}

/** Copies each of a site's inner symbolic links into the output directory as a link with the same text; returns how many. */
async function copySymlinks(inputDir: string, outDir: string, links: readonly string[], output: Output): Promise<number> {
  let copied = 0;
  for (const rel of links) {
    const target = path.join(outDir, rel);
    try {
      const text = await readlink(path.join(inputDir, rel));
      await mkdir(path.dirname(target), { recursive: true });
      await rm(target, { force: true });
      await symlink(text, target);
      copied++;
    } catch (error) {
      output.err(`docbase: ${escapeControls(path.join(outDir, rel))}: cannot be written: ${escapeControls((error as Error).message)}\n`);
    }
  }
  return copied;
}

/**
 * `docbase rewrite <dir>`: rewrites a site's links, in place or into
 * --out, atomically; returns 1 when a file could not be read, decoded or
 * written.
 *
 * @example
 * ```ts
 * await rewriteCommand("site", { url: "https://example.com/", relative: true, dryRun: true }, output); // 0
 * await rewriteCommand("site", { from: "https://example.com/", to: "https://cdn.example.net/", only: "resources" }, output); // 0
 * ```
 */
export async function rewriteCommand(input: string, options: RewriteOptions, output: Output): Promise<number> {
  const encoding = encodingOption(options.encoding);
  const { mode: asked, root } = rewriteMode(options);
  const filter = await linkFilterOptions(options, root);
  const kind = await inputKind(input);
  if (kind === "stdin") {
    const mode = asked.type === "map" ? { type: "map" as const, map: await readMap(asked.file, options.mapFormat, root, null, output) } : asked;
    return rewriteStandardInput(root, { command: "rewrite", json: options.json === true, encoding, mode, filter, outDir: null, dryRun: options.dryRun === true }, options, output);
  }
  if (kind !== "directory") throw new UsageError(`rewrite: ${input} is not a directory (rewrite works on a site's directory, or - for standard input)`);
  const inputDir = path.resolve(input);
  let outDir: string | null = options.out === undefined ? null : path.resolve(options.out);
  // --out that is the site itself (by its path, or through a symbolic link: real paths, device and inode) is in place,
  // with the in-place safeguards (a read-only file or one with hard links is left as it is).
  if (outDir !== null && (outDir === inputDir || (await sameDirectory(outDir, inputDir)))) outDir = null;
  if (outDir !== null && (isWithin(outDir, inputDir) || isWithin(await realDirectory(outDir), await realpath(inputDir)))) {
    throw new UsageError(`rewrite: --out ${options.out} contains the site ${input}; choose a directory outside it (or inside it)`);
  }
  const dryRun = options.dryRun === true;
  const started = performance.now();
  const follow = options.followSymlinks === true;
  const listing = await listSite(input, { exclude: outDir === null ? [] : [outDir], followSymlinks: follow });
  // A map is read (and a bad one refused) before anything is written.
  const mode: RewriteMode = asked.type === "map" ? { type: "map", map: await readMap(asked.file, options.mapFormat, root, siteFileURLs(root, [...listing.html, ...listing.stylesheets, ...listing.other]), output) } : asked;
  const unreadable = reportListingProblems(input, listing.problems, output);
  const maxBytes = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  let stale = 0;
  if (!dryRun) {
    // With --out, nothing is written into the site: nothing in it is removed either.
    if (outDir === null) stale += await removeStaleTemporaryFiles(inputDir, listing.temporary);
    else {
      try {
        stale += await removeStaleTemporaryFiles(outDir, (await listSite(outDir, {})).temporary);
      } catch {
        // No output directory yet.
      }
    }
  }
  const noFollow = follow ? {} : { noFollow: true as const };
  const maxToken = options.maxToken ?? DEFAULT_MAX_TOKEN;
  const jobs: FileJob[] = siteDocuments(listing).map(({ rel, stylesheet }, index) => ({
    index,
    path: path.join(inputDir, rel),
    display: path.join(input, rel),
    url: siteFileURL(root, rel),
    rel,
    maxBytes,
    maxToken,
    ...noFollow,
    ...(stylesheet ? { stylesheet: true as const } : {}),
  }));
  if (outDir !== null) {
    for (const rel of listing.other) jobs.push({ index: jobs.length, path: path.join(inputDir, rel), display: path.join(input, rel), url: "", rel, copy: true, ...noFollow });
  }
  const task: RewriteTask = { command: "rewrite", json: options.json === true, encoding, mode, filter, outDir, dryRun };
  const counts = await runTask({ jobs, work: rewriteWork, task, site: null }, options, output);
  if (unreadable > 0) counts["unreadable"] = (counts["unreadable"] ?? 0) + unreadable;
  // rewrite --out: a link inside the site is copied as a link (its target is rewritten at its own path).
  if (outDir !== null && !dryRun) {
    counts["copied"] = (counts["copied"] ?? 0) + (await copySymlinks(inputDir, outDir, listing.symlinks, output));
    // Files whose names are not UTF-8: copied byte for byte, under the same name (paths as bytes).
    for (const { directory, name } of listing.notUTF8) {
      const shown = path.join(outDir, directory, name.toString("latin1"));
      try {
        await mkdir(path.join(outDir, directory), { recursive: true });
        await copyFile(Buffer.concat([Buffer.from(`${path.join(inputDir, directory)}/`), name]), Buffer.concat([Buffer.from(`${path.join(outDir, directory)}/`), name]));
        counts["copied"] = (counts["copied"] ?? 0) + 1;
      } catch (error) {
        output.err(`docbase: ${escapeControls(shown)}: cannot be copied: ${escapeControls((error as Error).message)}\n`);
        counts["failed"] = (counts["failed"] ?? 0) + 1;
      }
    }
  }
  const ms = performance.now() - started;
  if (options.quiet !== true) {
    const verb = dryRun ? "would rewrite" : "rewrote";
    const files = listing.html.length + listing.stylesheets.length;
    const read = listing.stylesheets.length === 0 ? plural(files, "HTML file") : `${plural(files, "file")} (${plural(listing.html.length, "HTML file")}, ${plural(listing.stylesheets.length, "style sheet")})`;
    let line = `docbase rewrite: ${verb} ${plural(counts["changedLinks"] ?? 0, "link")} in ${(counts["changedFiles"] ?? 0).toLocaleString("en-US")} of ${read}`;
    if (outDir !== null) line += dryRun ? ` into ${options.out} (and would copy ${plural(listing.other.length, "other file")})` : ` into ${options.out} (and copied ${plural(counts["copied"] ?? 0, "other file")})`;
    if (stale > 0) line += `; removed ${plural(stale, "temporary file")} left by an interrupted run`;
    line += notesClause(counts);
    output.err(`${line}, ${summaryEnd(files, ms, counts)}`);
  }
  return failures(counts) > 0 ? 1 : 0;
}

/**
 * `docbase rewrite -`: standard input is the document at the root URL,
 * rewritten to standard output (see {@link rewriteToStandardOutput} and
 * runStandardInput); with --dry-run, the changes are listed instead.
 */
async function rewriteStandardInput(url: string, task: RewriteTask, options: RewriteOptions, output: Output): Promise<number> {
  if (options.out !== undefined) throw new UsageError("rewrite -: standard input is written to standard output; --out is for a site's directory");
  const started = performance.now();
  const job: FileJob = { index: 0, path: "-", display: "-", url, rel: "", maxBytes: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, maxToken: options.maxToken ?? DEFAULT_MAX_TOKEN };
  const taking = { maxHold: options.maxHold ?? DEFAULT_MAX_HOLD, spool: options.spool !== false, failedVerb: "cannot be rewritten" };
  const result = await runStandardInput(job, rewriteWork, { ...task, toStandardOutput: true }, taking, output);
  if (result.out !== "") output.out(result.out);
  if (result.err !== "") output.err(result.err);
  const counts = result.counts;
  if (options.quiet !== true) {
    const verb = task.dryRun ? "would rewrite" : "rewrote";
    output.err(`docbase rewrite: ${verb} ${plural(counts["changedLinks"] ?? 0, "link")} of standard input${notesClause(counts)}, ${summaryEnd(1, performance.now() - started, counts)}`);
  }
  return failures(counts) > 0 ? 1 : 0;
}
