/**
 * The four commands — links, check, rewrite, base — from checked options
 * to output and exit code.
 *
 * Exit codes: 0 when all went well; 1 when `check` reports something, or
 * a file could not be read, decoded, rewritten or written; 2 for a usage
 * error (see `UsageError`).
 *
 * @module
 */

import { copyFile, mkdir, readlink, rm, symlink } from "node:fs/promises";
import { availableParallelism, freemem } from "node:os";
import path from "node:path";
import { getEncoding } from "../core/index.ts";
import { removeStaleTemporaryFiles } from "./atomic-write.ts";
import type { BaseURLReport } from "./base-url-report.ts";
import { UsageError } from "./errors.ts";
import type { FileJob, FileResult, RewriteMode, Task } from "./file-tasks.ts";
import { settleFragments } from "./fragment-check.ts";
import { escapeControls, findingLine, formatSeconds, plural } from "./format.ts";
import { DEFAULT_MAX_FILE_SIZE, readRegularFile } from "./regular-file.ts";
import { ProgressBar } from "./progress.ts";
import { directoryOf, documentURLOption, inputKind, listSite, siteFileURL, siteRootOption, type SiteProblem } from "./site.ts";
import { runFiles, type SiteSource } from "./worker-pool.ts";

/**
 * Options every file-processing command takes.
 *
 * @example
 * ```ts
 * const options: CommonOptions = { json: true, jobs: 2, quiet: true };
 * ```
 */
export interface CommonOptions {
  readonly json?: boolean | undefined;
  readonly encoding?: string | undefined;
  readonly jobs?: number | undefined;
  readonly quiet?: boolean | undefined;
  readonly progress?: boolean | undefined;
  /** Follow symbolic links out of the site root (`--follow-symlinks`). */
  readonly followSymlinks?: boolean | undefined;
  /** The largest file read, in bytes (`--max-file-size`); default DEFAULT_MAX_FILE_SIZE. */
  readonly maxFileSize?: number | undefined;
}

/** Reports what a walk left out, one line a path (control characters escaped); returns the count of errors among them. */
function reportListingProblems(input: string, problems: readonly SiteProblem[], output: Output): number {
  let errors = 0;
  for (const problem of problems) {
    // An unreadable directory or a link to nothing is a file the run could not read; the rest are warnings.
    const error = problem.kind === "unreadable" || problem.kind === "broken-link";
    if (error) errors++;
    const label = error ? "cannot be read" : "warning";
    output.err(`docbase: ${escapeControls(path.join(input, problem.path))}: ${label}: ${escapeControls(problem.message)}\n`);
  }
  return errors;
}

/**
 * Where a command writes: standard output and standard error (replaceable
 * for tests and embedding).
 *
 * @example
 * ```ts
 * const chunks: (string | Uint8Array)[] = [];
 * const output: Output = { out: (s) => chunks.push(s), err: (s) => process.stderr.write(s) };
 * await run(["node", "docbase", "links", "site", "--url", "https://example.com/", "--json"], output);
 * ```
 */
export interface Output {
  /** Standard output: text, or UTF-8 bytes. */
  readonly out: (text: string | Uint8Array) => void;
  readonly err: (text: string) => void;
  /** Resolves when standard output can take more (a stream's output waits for it); default: at once. */
  readonly drain?: (() => Promise<void>) | undefined;
}

/** Checks `--encoding`: an Encoding Standard label. */
function encodingOption(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  if (getEncoding(label) === null) throw new UsageError(`--encoding: unknown encoding label: ${JSON.stringify(label)} (see https://encoding.spec.whatwg.org/#names-and-labels)`);
  return label;
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The files a links or check run reads, with their URLs, and the site they belong to. */
interface Inputs {
  readonly jobs: FileJob[];
  readonly siteRoot: string | null;
  readonly site: SiteSource;
  readonly stdin?: Uint8Array | undefined;
  readonly directory: boolean;
  /** Directories the walk could not read (each reported, and a failure of the run). */
  readonly unreadable: number;
}

/**
 * A directory: every HTML file under it, at its URL under the site root
 * `url`. A file: the document at URL `url`; its directory is its site
 * (links under the URL's directory are internal, and must lead to files
 * under the file's directory). "-": standard input, at URL `url`.
 */
async function gatherInputs(input: string, url: string, options: CommonOptions, output: Output): Promise<Inputs> {
  const kind = await inputKind(input);
  const maxBytes = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  if (kind === "directory") {
    const root = siteRootOption(url, "--url");
    const follow = options.followSymlinks === true;
    const listing = await listSite(input, { followSymlinks: follow });
    const unreadable = reportListingProblems(input, listing.problems, output);
    const jobs: FileJob[] = listing.html.map((rel, index) => ({ index, path: path.join(input, rel), display: path.join(input, rel), url: siteFileURL(root, rel), rel, maxBytes, ...(follow ? {} : { noFollow: true as const }) }));
    // A link inside the site is served like its target: links to it are not missing.
    const site: SiteSource = { type: "lists", files: [...listing.html, ...listing.other, ...listing.symlinks], directories: listing.directories, links: [...listing.symlinkTargets] };
    return { jobs, siteRoot: root, site, directory: true, unreadable };
  }
  const documentURL = documentURLOption(url, "--url");
  const siteRoot = directoryOf(documentURL);
  if (kind === "stdin") {
    return { jobs: [{ index: 0, path: "-", display: "-", url: documentURL, rel: "" }], siteRoot, site: null, stdin: await readStdin(), directory: false, unreadable: 0 };
  }
  return {
    jobs: [{ index: 0, path: input, display: input, url: documentURL, rel: path.basename(input), maxBytes }],
    siteRoot,
    site: { type: "disk", root: path.dirname(path.resolve(input)) },
    directory: false,
    unreadable: 0,
  };
}

/**
 * Runs a task over the jobs, writing results in order (or, with `hold`,
 * handing them to it instead), with the progress bar; returns the summed counts.
 */
async function runTask(
  jobs: readonly FileJob[],
  task: Task,
  site: SiteSource,
  options: CommonOptions,
  output: Output,
  stdin?: Uint8Array,
  hold?: (result: FileResult) => void,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const bar = new ProgressBar({ total: jobs.length, quiet: options.quiet === true, force: options.progress === true, label: task.command });
  try {
    await runFiles(jobs, {
      task,
      site,
      threads: workerCount(options.jobs, jobs.length),
      stdin,
      onResult: (result: FileResult) => {
        for (const [key, value] of Object.entries(result.counts)) counts[key] = (counts[key] ?? 0) + value;
        if (hold !== undefined) {
          hold(result);
          return;
        }
        if (result.out !== "" || result.err !== "") bar.clearLine();
        if (result.out !== "") output.out(result.out);
        if (result.err !== "") output.err(result.err);
      },
      onProgress: (done) => bar.tick(done),
    });
  } finally {
    bar.stop();
  }
  return counts;
}

/**
 * Writes held results, in order.
 *
 * Optimisation: standard output gets few large writes (up to 1 MiB each),
 * not one per page.
 */
function writeResults(results: readonly FileResult[], output: Output): void {
  const encoder = new TextEncoder();
  let chunks: Uint8Array[] = [];
  let size = 0;
  const flush = (): void => {
    if (size === 0) return;
    output.out(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    chunks = [];
    size = 0;
  };
  for (const result of results) {
    if (result.err !== "") {
      flush();
      output.err(result.err);
    }
    if (result.out === "") continue;
    const bytes = typeof result.out === "string" ? encoder.encode(result.out) : result.out;
    chunks.push(bytes);
    size += bytes.length;
    if (size >= 1 << 20) flush();
  }
  flush();
}

/**
 * The workers to use (besides the main thread): what `--jobs` asks (default: every core), but
 * never more than the cores, the files, or what the free memory holds at
 * 512 MiB a worker (a worker parses a page of up to --max-file-size, which
 * takes many times its size: -j 100 once took 3 GB for nothing).
 */
function workerCount(requested: number | undefined, files: number): number {
  const byMemory = Math.max(1, Math.floor(freemem() / (512 * 1024 * 1024)));
  return Math.max(1, Math.min(requested ?? availableParallelism(), availableParallelism(), byMemory, Math.max(files, 1)));
}

function failures(counts: Record<string, number>): number {
  return (counts["unreadable"] ?? 0) + (counts["undecodable"] ?? 0) + (counts["failed"] ?? 0);
}

function failureNote(counts: Record<string, number>): string {
  const n = failures(counts);
  return n === 0 ? "" : `; ${plural(n, "file")} could not be read, decoded or written (see above)`;
}

function rate(files: number, ms: number): string {
  return ms > 0 && files > 1 ? `, ${Math.round((files * 1000) / ms).toLocaleString("en-US")} files/s` : "";
}

// --- links ---------------------------------------------------------------------

/**
 * Options of `docbase links` (commander's names for its flags).
 *
 * @example
 * ```ts
 * const options: LinksOptions = { url: "https://example.com/", json: true, external: true };
 * ```
 */
export interface LinksOptions extends CommonOptions {
  readonly url: string;
  readonly internal?: boolean | undefined;
  readonly external?: boolean | undefined;
}

/**
 * `docbase links <file|dir|-> --url U`: every link, resolved; returns the
 * exit code.
 *
 * @example
 * ```ts
 * await linksCommand("examples/site", { url: "https://example.com/", json: true }, output); // 0
 * ```
 */
export async function linksCommand(input: string, options: LinksOptions, output: Output): Promise<number> {
  const encoding = encodingOption(options.encoding);
  const started = performance.now();
  const filter = options.internal === true ? "internal" : options.external === true ? "external" : "all";
  let inputs: Inputs;
  let counts: Record<string, number>;
  if ((await inputKind(input)) === "stdin") {
    // Standard input is read as a stream (see file-tasks.ts's linksStream).
    const url = documentURLOption(options.url, "--url");
    inputs = { jobs: [{ index: 0, path: "-", display: "-", url, rel: "" }], siteRoot: directoryOf(url), site: null, directory: false, unreadable: 0 };
    const { linksStream } = await import("./file-tasks.ts");
    const result = await linksStream(process.stdin as AsyncIterable<Uint8Array>, url, { command: "links", json: options.json === true, filter, encoding, siteRoot: inputs.siteRoot }, async (text) => {
      output.out(text);
      await output.drain?.();
    });
    if (result.out !== "") output.out(result.out);
    if (result.err !== "") output.err(result.err);
    counts = result.counts;
  } else {
    inputs = await gatherInputs(input, options.url, options, output);
    const task: Task = { command: "links", json: options.json === true, filter, encoding, siteRoot: inputs.siteRoot };
    counts = await runTask(inputs.jobs, task, inputs.site, options, output, inputs.stdin);
  }
  if (inputs.unreadable > 0) counts["unreadable"] = (counts["unreadable"] ?? 0) + inputs.unreadable;
  const ms = performance.now() - started;
  if (options.quiet !== true) {
    const links = counts["links"] ?? 0;
    const parts = [`${(counts["internal"] ?? 0).toLocaleString("en-US")} internal`, `${(counts["external"] ?? 0).toLocaleString("en-US")} external`];
    if ((counts["invalid"] ?? 0) > 0) parts.push(`${(counts["invalid"] ?? 0).toLocaleString("en-US")} that do not parse`);
    const shown = filter === "all" ? "" : `; ${(counts["shown"] ?? 0).toLocaleString("en-US")} ${filter} shown`;
    const files = inputs.jobs.length === 0 ? `no HTML files in ${input}` : `${plural(inputs.jobs.length, "file")}`;
    output.err(`docbase links: ${plural(links, "link")} (${parts.join(", ")}) in ${files}${shown}, ${formatSeconds(ms)}${rate(inputs.jobs.length, ms)}${failureNote(counts)}\n`);
  }
  return failures(counts) > 0 ? 1 : 0;
}

// --- check ---------------------------------------------------------------------

/**
 * Options of `docbase check`.
 *
 * @example
 * ```ts
 * const options: CheckOptions = { url: "https://example.com/", jobs: 1 };
 * ```
 */
export interface CheckOptions extends CommonOptions {
  readonly url: string;
  /** Check links' fragments (`--no-fragments`: false). Default true. */
  readonly fragments?: boolean | undefined;
}

/**
 * `docbase check <file|dir> --url U`: invalid URLs, missing files,
 * base-URL surprises; returns 1 when it reports any.
 *
 * @example
 * ```ts
 * await checkCommand("examples/site", { url: "https://example.com/" }, output); // 1 (it has broken links)
 * ```
 */
export async function checkCommand(input: string, options: CheckOptions, output: Output): Promise<number> {
  const encoding = encodingOption(options.encoding);
  const started = performance.now();
  const inputs = await gatherInputs(input, options.url, options, output);
  const fragments = options.fragments !== false;
  const json = options.json === true;
  const task: Task = { command: "check", json, encoding, siteRoot: inputs.site === null ? null : inputs.siteRoot, fragments };
  // With fragments, a page's report waits for the pages it links into: the results are held, then settled.
  const held: FileResult[] = [];
  const counts = await runTask(inputs.jobs, task, inputs.site, options, output, inputs.stdin, fragments ? (result) => held.push(result) : undefined);
  if (fragments) {
    const { results, missing } = settleFragments(held, inputs.jobs, { json, format: findingLine });
    counts["problems"] = (counts["problems"] ?? 0) + missing;
    counts["missing-fragment"] = (counts["missing-fragment"] ?? 0) + missing;
    writeResults(results, output);
  }
  if (inputs.unreadable > 0) counts["unreadable"] = (counts["unreadable"] ?? 0) + inputs.unreadable;
  const ms = performance.now() - started;
  const problems = counts["problems"] ?? 0;
  if (options.quiet !== true) {
    const files = inputs.jobs.length === 0 ? `no HTML files in ${input}` : plural(inputs.jobs.length, "file");
    const what =
      problems === 0
        ? "no problems"
        : `${plural(problems, "problem")} (${plural(counts["invalid-url"] ?? 0, "URL validation error")}, ${plural(counts["missing-file"] ?? 0, "missing file")}, ${fragments ? `${plural(counts["missing-fragment"] ?? 0, "missing fragment")}, ` : ""}${plural(counts["base-url"] ?? 0, "base-URL surprise")}${(counts["limit"] ?? 0) > 0 ? `, ${plural(counts["limit"] ?? 0, "srcdoc document")} too deep to read` : ""})`;
    output.err(`docbase check: ${what} in ${files} (${plural(counts["links"] ?? 0, "link")}), ${formatSeconds(ms)}${rate(inputs.jobs.length, ms)}${failureNote(counts)}\n`);
  }
  return problems > 0 || failures(counts) > 0 ? 1 : 0;
}

// --- rewrite -------------------------------------------------------------------

/**
 * Options of `docbase rewrite`.
 *
 * @example
 * ```ts
 * const options: RewriteOptions = { from: "https://old.example/", to: "https://new.example/", out: "build" };
 * ```
 */
export interface RewriteOptions extends CommonOptions {
  readonly url?: string | undefined;
  readonly absolute?: boolean | undefined;
  readonly relative?: boolean | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly out?: string | undefined;
  readonly dryRun?: boolean | undefined;
}

/** The rewrite the flags ask for, and the site root the files are at, or a usage error. */
function rewriteMode(options: RewriteOptions): { mode: RewriteMode; root: string } {
  const { url, absolute, relative, from, to } = options;
  if (from !== undefined || to !== undefined) {
    if (url !== undefined || absolute === true || relative === true) throw new UsageError("rewrite: use either --from A --to B, or --url U with --absolute or --relative, not both");
    if (from === undefined || to === undefined) throw new UsageError(`rewrite: ${from === undefined ? "--to needs --from" : "--from needs --to"} (the site's old and new root URLs)`);
    const fromRoot = siteRootOption(from, "--from");
    return { mode: { type: "rebase", from: fromRoot, to: siteRootOption(to, "--to") }, root: fromRoot };
  }
  if (absolute === true && relative === true) throw new UsageError("rewrite: --absolute and --relative exclude each other");
  if (absolute !== true && relative !== true) {
    throw new UsageError("rewrite: say how: --url U with --absolute or --relative, or --from A --to B");
  }
  if (url === undefined) throw new UsageError(`rewrite: --${absolute === true ? "absolute" : "relative"} needs --url (the site's root URL)`);
  return { mode: { type: absolute === true ? "absolute" : "relative" }, root: siteRootOption(url, "--url") };
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

/** Whether `inner` is `outer` or inside it (absolute paths). */
function isInside(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * `docbase rewrite <dir>`: rewrites a site's links, in place or into
 * --out, atomically; returns 1 when a file could not be read, decoded or
 * written.
 *
 * @example
 * ```ts
 * await rewriteCommand("site", { url: "https://example.com/", relative: true, dryRun: true }, output); // 0
 * ```
 */
export async function rewriteCommand(input: string, options: RewriteOptions, output: Output): Promise<number> {
  const encoding = encodingOption(options.encoding);
  const { mode, root } = rewriteMode(options);
  const kind = await inputKind(input);
  if (kind === "stdin") return rewriteStandardInput(root, { command: "rewrite", json: options.json === true, encoding, mode, outDir: null, dryRun: options.dryRun === true }, options, output);
  if (kind !== "directory") throw new UsageError(`rewrite: ${input} is not a directory (rewrite works on a site's directory, or - for standard input)`);
  const inputDir = path.resolve(input);
  let outDir: string | null = options.out === undefined ? null : path.resolve(options.out);
  if (outDir !== null && outDir === inputDir) outDir = null;
  if (outDir !== null && isInside(inputDir, outDir)) throw new UsageError(`rewrite: --out ${options.out} contains the site ${input}; choose a directory outside it (or inside it)`);
  const dryRun = options.dryRun === true;
  const started = performance.now();
  const follow = options.followSymlinks === true;
  const listing = await listSite(input, { exclude: outDir === null ? [] : [outDir], followSymlinks: follow });
  const unreadable = reportListingProblems(input, listing.problems, output);
  const maxBytes = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  let stale = 0;
  if (!dryRun) {
    stale += await removeStaleTemporaryFiles(inputDir, listing.temporary);
    if (outDir !== null) {
      try {
        stale += await removeStaleTemporaryFiles(outDir, (await listSite(outDir, {})).temporary);
      } catch {
        // No output directory yet.
      }
    }
  }
  const noFollow = follow ? {} : { noFollow: true as const };
  const jobs: FileJob[] = listing.html.map((rel, index) => ({ index, path: path.join(inputDir, rel), display: path.join(input, rel), url: siteFileURL(root, rel), rel, maxBytes, ...noFollow }));
  if (outDir !== null) {
    for (const rel of listing.other) jobs.push({ index: jobs.length, path: path.join(inputDir, rel), display: path.join(input, rel), url: "", rel, copy: true, ...noFollow });
  }
  const task: Task = { command: "rewrite", json: options.json === true, encoding, mode, outDir, dryRun };
  const counts = await runTask(jobs, task, null, options, output, undefined);
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
    const files = listing.html.length;
    let line = `docbase rewrite: ${verb} ${plural(counts["changedLinks"] ?? 0, "link")} in ${(counts["changedFiles"] ?? 0).toLocaleString("en-US")} of ${plural(files, "HTML file")}`;
    if (outDir !== null) line += dryRun ? ` into ${options.out} (and would copy ${plural(listing.other.length, "other file")})` : ` into ${options.out} (and copied ${plural(counts["copied"] ?? 0, "other file")})`;
    if (stale > 0) line += `; removed ${plural(stale, "temporary file")} left by an interrupted run`;
    output.err(`${line}, ${formatSeconds(ms)}${rate(files, ms)}${failureNote(counts)}\n`);
  }
  return failures(counts) > 0 ? 1 : 0;
}

/**
 * `docbase rewrite -`: standard input is the document at the root URL,
 * rewritten to standard output as a stream (see link-stream.ts), in
 * bounded memory whatever its size; with --dry-run, the changes are
 * listed instead.
 */
async function rewriteStandardInput(url: string, task: Extract<Task, { command: "rewrite" }>, options: RewriteOptions, output: Output): Promise<number> {
  if (options.out !== undefined) throw new UsageError("rewrite -: standard input is written to standard output; --out is for a site's directory");
  const started = performance.now();
  const { rewriteStream } = await import("./file-tasks.ts");
  const result = await rewriteStream(process.stdin as AsyncIterable<Uint8Array>, url, task, async (chunk) => {
    output.out(chunk);
    await output.drain?.();
  });
  if (result.out !== "") output.out(result.out);
  if (result.err !== "") output.err(result.err);
  const counts = result.counts;
  if (options.quiet !== true) {
    const verb = task.dryRun ? "would rewrite" : "rewrote";
    output.err(`docbase rewrite: ${verb} ${plural(counts["changedLinks"] ?? 0, "link")} of standard input, ${formatSeconds(performance.now() - started)}${failureNote(counts)}\n`);
  }
  return failures(counts) > 0 ? 1 : 0;
}

// --- base ----------------------------------------------------------------------

/**
 * Options of `docbase base`.
 *
 * @example
 * ```ts
 * const options: BaseOptions = { url: "https://example.com/docs/guide.html", json: true };
 * ```
 */
export interface BaseOptions {
  readonly url: string;
  readonly json?: boolean | undefined;
  readonly encoding?: string | undefined;
  /** The largest file read, in bytes (`--max-file-size`). */
  readonly maxFileSize?: number | undefined;
}

function formatBaseReport(file: string, report: BaseURLReport): string {
  const lines = [file];
  const row = (name: string, value: string): void => {
    lines.push(`  ${name.padEnd(18)}  ${value}`);
  };
  row("document URL", report.documentURL);
  row("encoding", report.encoding);
  row("fallback base URL", `${report.fallbackBaseURL}${report.fallbackBaseURL === report.documentURL ? " (the document's URL)" : " (the about base URL)"}`);
  row("document base URL", report.documentBaseURL);
  const used = report.bases.find((b) => b.status === "used");
  const firstUnusable = report.bases.find((b) => b.status === "unusable");
  if (used !== undefined) {
    lines.push(`    set by <base href=${JSON.stringify(used.href)}> at ${used.line}:${used.column}, the first <base> with an href`);
  } else if (firstUnusable !== undefined) {
    lines.push(`    the fallback base URL: the first <base href=${JSON.stringify(firstUnusable.href)}> at ${firstUnusable.line}:${firstUnusable.column} ${firstUnusable.reason}`);
  } else {
    lines.push("    the fallback base URL: the document has no <base> with an href");
  }
  for (const base of report.bases) {
    const at = `<base href=${JSON.stringify(base.href)}> at ${base.line}:${base.column}`;
    if (base.status === "not-first") row("ignored", `${at}: only the first <base> with an href counts`);
    else if (base.status === "in-template") row("ignored", `${at}: in a <template>, not in the document`);
    else if (base.status === "in-shadow-root") row("ignored", `${at}: in a declarative shadow root, not in the document tree`);
    else if (base.status === "unusable") row("ignored", `${at}: it ${base.reason}`);
    if (base.inBody) row("note", `${at} is outside <head> (it counts all the same)`);
  }
  if (report.linksBeforeBase !== null) {
    const { count, first } = report.linksBeforeBase;
    row("note", `${count === 1 ? "a relative link" : `${count} relative links`} before the <base> (${count === 1 ? "at" : "the first at"} ${first.line}:${first.column}) ${count === 1 ? "resolves" : "resolve"} against it, not against the document's URL`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `docbase base <file> --url U`: the document base URL and how it is
 * derived.
 *
 * @example
 * ```ts
 * await baseCommand("examples/site/docs/guide.html", { url: "https://example.com/docs/guide.html" }, output); // 0
 * ```
 */
export async function baseCommand(input: string, options: BaseOptions, output: Output): Promise<number> {
  const encoding = encodingOption(options.encoding);
  const kind = await inputKind(input);
  if (kind === "directory") throw new UsageError(`base: ${input} is a directory; give one HTML file (its URL is --url)`);
  const url = documentURLOption(options.url, "--url");
  let bytes: Uint8Array;
  try {
    const read = kind === "stdin" ? await readStdin() : await readRegularFile(input, { maxBytes: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE });
    if (typeof read === "string") throw new Error(read);
    bytes = read;
  } catch (error) {
    output.err(`docbase: ${escapeControls(input)}: cannot be read: ${escapeControls((error as Error).message)}\n`);
    return 1;
  }
  // Optimisation: the library loads here, in the main thread, only for `base` (workers load it for the others).
  const [{ extractLinks }, { baseURLReport }, { sniffEncoding }] = await Promise.all([
    import("../links/index.ts"),
    import("./base-url-report.ts"),
    import("./document-text.ts"),
  ]);
  if (sniffEncoding(bytes, encoding) === "replacement") {
    output.err(`docbase: ${input}: cannot be decoded: its encoding is the replacement encoding\n`);
    return 1;
  }
  const links = extractLinks(bytes, { url, encoding });
  const report = baseURLReport(bytes, links, { url, encoding });
  const file = kind === "stdin" ? "-" : input;
  output.out(options.json === true ? `${JSON.stringify({ file, ...report })}\n` : formatBaseReport(kind === "stdin" ? "<stdin>" : input, report));
  return 0;
}
