/**
 * `docbase check <file|dir|-> --url U`: what is wrong with the links of
 * the documents (see `check/check-document.ts`) — its options, the work on
 * one file, the fragment check across pages once every page is read, and
 * the summary. Exits with 1 when it reports anything.
 *
 * @module
 */

import type { Link, StreamWarning } from "../../links/index.ts";
import type { FragmentTargets, StreamedBases } from "../../links/internal.ts";
import { LinksBeforeBase } from "../base-url-report.ts";
import { readTwice, streamFailure, warningReport } from "../document-stream.ts";
import { UsageError } from "../errors.ts";
import type { ExternalCheckerOptions, ExternalSummary } from "../external/index.ts";
import { failedFile, type FileJob, type FileWork, failures, loadOnce, type OpenedDocument, openDocument, readDocument, type TaskEnvironment, UNDECODABLE } from "../file-task.ts";
import { plural } from "../format.ts";
import { gatherInputs, inputKind } from "../inputs.ts";
import { type CommonOptions, encodingOption } from "../options.ts";
import type { Output } from "../output.ts";
import { DEFAULT_MAX_FILE_SIZE } from "../regular-file.ts";
import { runTask, summaryEnd } from "../run-task.ts";
import { hostingOption } from "../site.ts";
import { siteURL } from "../site-url.ts";
import { UNLABELED_UTF8, unlabeledUTF8Warning } from "../unlabeled-utf8.ts";
import { readStandardInput } from "../standard-input.ts";
import { TemporaryFileError } from "../temporary-directory.ts";
import { programVersion } from "../version.ts";
import { type CheckSummary, checkSummary, summaryWords } from "./check/check-summary.ts";
import { pathExclusion, urlPatterns } from "./check/exclusions.ts";
import type { ExternalRef } from "./check/external-links.ts";
import { type Finding, findingLine, type ReportedFinding } from "./check/finding.ts";
import { type FindingSource, findingsInMemory, spooledFindings } from "./check/formats/finding-source.ts";
import { junitReport } from "./check/formats/junit-report.ts";
import { markdownReport } from "./check/formats/markdown-report.ts";
import { sarifReport } from "./check/formats/sarif-report.ts";
import { textReport } from "./check/formats/text-report.ts";
import { type CheckResult, encodePending, type PendingFragment, pendingLine } from "./check/fragment-check.ts";
import { SpoolDirectory } from "./check/line-spool.ts";
import { RunFindings } from "./check/run-findings.ts";

/**
 * Options of `docbase check`.
 *
 * @example
 * ```ts
 * const options: CheckOptions = { url: "https://example.com/", jobs: 1 };
 * ```
 */
export interface CheckOptions extends CommonOptions {
  /** The site root URL (directory) or the document's URL; default: a placeholder (see site-url.ts). */
  readonly url?: string | undefined;
  /** Check links' fragments (`--no-fragments`: false). Default true. */
  readonly fragments?: boolean | undefined;
  /** Warnings fail the run too (`--strict`). */
  readonly strict?: boolean | undefined;
  /** The output format (`--format`); default "text" ("json" with `--json`). */
  readonly format?: CheckFormat | undefined;
  /** Regular expressions: links whose URL matches one are not checked (`--exclude`, repeatable). */
  readonly exclude?: readonly string[] | undefined;
  /** Globs: files whose path under the site root matches one are not read (`--exclude-path`, repeatable). */
  readonly excludePath?: readonly string[] | undefined;
  /** The files a directory URL is served from, comma-separated (`--index-files`); default "index.html,index.htm". */
  readonly indexFiles?: string | undefined;
  /** `docs/intro` is served from `docs/intro.html` (`--clean-urls`). */
  readonly cleanUrls?: boolean | undefined;
  /** Check links to other sites too, over HTTP(S) (`--external`), with the checker's flags below. */
  readonly external?: boolean | undefined;
  readonly externalFragments?: boolean | undefined;
  readonly concurrency?: number | undefined;
  readonly perHost?: number | undefined;
  /** Seconds. */
  readonly timeout?: number | undefined;
  readonly retries?: number | undefined;
  readonly maxRedirects?: number | undefined;
  readonly accept?: string | undefined;
  readonly userAgent?: string | undefined;
  readonly method?: "head-then-get" | "get" | undefined;
  readonly cache?: string | undefined;
  /** Seconds. */
  readonly cacheMaxAge?: number | undefined;
}

/**
 * `docbase check`, as data for a worker.
 *
 * @example
 * ```ts
 * const task: CheckTask = { command: "check", encoding: undefined, siteRoot: "https://example.com/", exclude: [] };
 * ```
 */
export interface CheckTask {
  readonly command: "check";
  readonly encoding: string | undefined;
  /** The site root URL: links under it must lead to files of the site. */
  readonly siteRoot: string | null;
  /** Check that links' fragments name an element of their page (`--no-fragments`: false). Default false. */
  readonly fragments?: boolean | undefined;
  /** The `--exclude` regular expressions' sources. */
  readonly exclude: readonly string[];
  /** Give each page's links to other sites (`--external`). */
  readonly external?: boolean | undefined;
}

/** The `--exclude` patterns of a task, compiled once per thread. */
let compiled: { sources: readonly string[]; patterns: RegExp[] } | null = null;

function taskPatterns(sources: readonly string[]): RegExp[] {
  if (compiled === null || compiled.sources !== sources) compiled = { sources, patterns: sources.map((source) => new RegExp(source, "u")) };
  return compiled.patterns;
}

/** The check of one document and the library under it, loaded where files are read (see loadOnce). */
const checkDocumentModule = loadOnce(() => import("./check/check-document.ts"));

/**
 * `docbase check`'s work on one file: its findings, one JSON line each
 * (the main thread writes them in the format asked for), and with fragments the page's part of the fragment check across pages.
 *
 * @example
 * ```ts
 * await checkWork.run(job, { command: "check", encoding: undefined, siteRoot: "https://example.com/", fragments: true, exclude: [] }, env);
 * ```
 */
export const checkWork: FileWork<CheckTask, CheckResult> = {
  async run(job: FileJob, task: CheckTask, env: TaskEnvironment): Promise<CheckResult> {
    // A style sheet is read whole (see readDocument); a document over STREAMING_SIZE, as a stream.
    const bytes = job.stylesheet === true ? await readDocument(job, env) : await openDocument(job, env);
    if (!(bytes instanceof Uint8Array)) return "handle" in bytes ? checkOpenFile(bytes, job, task, env) : bytes;
    const fragments = task.fragments === true;
    const { checkDocument } = await checkDocumentModule();
    const checked = checkDocument(bytes, {
      url: job.url,
      encoding: task.encoding,
      root: task.siteRoot,
      site: env.site,
      fragments,
      rel: job.rel === "" ? null : job.rel,
      display: job.display,
      exclude: task.exclude.length === 0 ? undefined : taskPatterns(task.exclude),
      external: task.external === true,
      stylesheet: job.stylesheet === true,
    });
    if (checked === null) return failedFile(job, "undecodable", UNDECODABLE);
    const { links, findings, pending, targets } = checked;
    const external = checked.external === null ? undefined : JSON.stringify(checked.external.map((l) => ({ url: l.url, file: job.display, line: l.line, column: l.column, element: l.element, attribute: l.attribute, value: l.value })));
    const counts: Record<string, number> = { files: 1, links };
    if (checked.unlabeledUTF8) counts[UNLABELED_UTF8] = 1;
    const lines: string[] = [];
    for (const f of findings) {
      counts[f.category] = (counts[f.category] ?? 0) + 1;
      lines.push(findingLine(job.display, f, true));
    }
    const out = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    if (!fragments) return { index: job.index, out, err: "", counts, external };
    // Only a site walk's pages are looked into by other pages.
    let joined: string | null = null;
    if (targets !== null && env.site !== null && job.rel !== "" && job.path !== "-") {
      joined = [...targets.ids, ...targets.names].join("\0");
    }
    return { index: job.index, out, err: "", counts, fragments: { targets: joined, pending }, external };
  },
  transfer(result: CheckResult): CheckResult {
    const fragments = result.fragments;
    // Optimisation: a page's links into other pages cross to the main process as one string (see encodePending).
    if (fragments === undefined || typeof fragments.pending === "string") return result;
    return { ...result, fragments: { ...fragments, pending: encodePending(fragments.pending) } };
  },
};

/** The links library, loaded where files are read (see loadOnce). */
const library = loadOnce(() => import("../../links/index.ts"));

/** Its internal entry (the stream's bound on the `<base>` elements it tells). */
const internals = loadOnce(() => import("../../links/internal.ts"));

/**
 * How many characters of a file read as a stream's ids and `a` names (see
 * `FileFragments.targets`) are kept for the links into it: past that, the
 * fragments of links into it are not checked, and the run says so.
 *
 * @example
 * ```ts
 * MAX_STREAMED_TARGETS; // 16777216
 * ```
 */
export const MAX_STREAMED_TARGETS = 16 * 1024 * 1024;

/**
 * `docbase check`'s work on a file too large to read whole (see
 * openDocument): read twice (see readTwice: exact whatever its size), its
 * links' findings reported a batch at a time, written as they come (to
 * `env.write` when there is one), in bounded memory; with fragments, its
 * links' fragment checks sent with them (see pendingLine), to be made
 * against the targets of the pages they lead to — its own, gathered as it
 * is read, sent at its end — once every page is read; its base-URL
 * surprises at its end (the stream tells its `<base>` elements, see
 * LinksBeforeBase). Deviation: the fragments of `about:srcdoc` links in its
 * srcdoc documents are not checked, nor are its `<base>` elements where
 * the stream cannot tell them (it says so).
 */
async function checkOpenFile(opened: OpenedDocument, job: FileJob, task: CheckTask, env: TaskEnvironment): Promise<CheckResult> {
  const { baseReportFindings, streamedLinkFindings, srcdocTooDeepFinding, unlistedErrorsFinding } = await checkDocumentModule();
  const { LinkStream } = await library();
  const { MAX_STREAMED_BASES } = await internals();
  const fragments = task.fragments === true;
  const counts: Record<string, number> = { files: 1, links: 0 };
  const unlisted = { count: 0, first: null };
  const ready: Link[] = [];
  const findings: Finding[] = [];
  const warnings: StreamWarning[] = [];
  const page = fragments ? { url: job.url, rel: job.rel, display: job.display, pending: [] as PendingFragment[] } : null;
  let srcdocFragments = 0;
  let targets: FragmentTargets | null = null;
  let out = "";
  const write =
    env.write ??
    (async (text: string): Promise<void> => {
      out += text;
    });
  // The base elements (told at the end) and, with a base URL a <base> sets, the relative links before each.
  let bases: StreamedBases | null = null;
  let relativeLinks: LinksBeforeBase | null = null;
  const handOn = async (): Promise<void> => {
    counts["links"]! += ready.length;
    relativeLinks?.add(ready);
    if (page !== null) for (const link of ready) if (link.srcdoc > 0 && link.url !== null && link.url.startsWith("about:srcdoc#")) srcdocFragments++;
    streamedLinkFindings(ready, { root: task.siteRoot, site: env.site, exclude: task.exclude.length === 0 ? undefined : taskPatterns(task.exclude), unlisted, page }, findings);
    ready.length = 0;
    if (findings.length === 0 && (page === null || page.pending.length === 0)) return;
    let text = "";
    for (const f of findings) {
      counts[f.category] = (counts[f.category] ?? 0) + 1;
      text += `${findingLine(job.display, f, true)}\n`;
    }
    findings.length = 0;
    if (page !== null && page.pending.length > 0) {
      text += `${pendingLine(page.pending)}\n`;
      page.pending.length = 0;
    }
    await write(text);
  };
  try {
    await readTwice(
      opened.handle,
      { url: job.url, encoding: task.encoding, size: opened.size, maxBytes: opened.maxBytes, maxToken: opened.maxToken },
      (settled) => {
        // Without a <base href> (the first pass says so), no link comes before one.
        relativeLinks = settled?.firstBaseHref === null ? null : new LinksBeforeBase(MAX_STREAMED_BASES);
        return new LinkStream(
          {
            url: job.url,
            encoding: task.encoding,
            settled: settled ?? undefined,
            validate: true,
            maxHold: opened.maxBytes,
            maxToken: opened.maxToken,
            onLink: (link) => ready.push(link),
            onWarning: (w) => warnings.push(w),
            onSrcdocTooDeep: (place) => findings.push(srcdocTooDeepFinding(place)),
          },
          {
            ignoreMarked: true,
            // Its ids and names, in bounded memory: past the bound, unknown (and said so).
            maxTargetChars: MAX_STREAMED_TARGETS,
            onTargets: (found) => {
              targets = found;
            },
            onBases: (found) => {
              bases = found;
            },
          },
        );
      },
      handOn,
    );
    // The validation errors past the document's bound, said once at the end, and its base-URL surprises.
    unlistedErrorsFinding(unlisted, findings);
    const told = bases as StreamedBases | null;
    if (told !== null) baseReportFindings({ ...told, linksBeforeBase: (relativeLinks as LinksBeforeBase | null)?.before(told) ?? null }, findings);
    await handOn();
  } catch (error) {
    return streamFailure(job, error, "cannot be read");
  } finally {
    await opened.handle.close();
  }
  // The stream's warnings go to standard error: the findings' lines are read back by every format.
  const warned = warningReport(job.display, warnings, false);
  // Never silent: what this file's check leaves out is said.
  const unchecked: string[] = [];
  if (bases === null) unchecked.push(`its <base> elements (more than ${MAX_STREAMED_BASES.toLocaleString("en-US")}, or their tree order needs the whole page, larger than --max-file-size)`);
  let joined: string | null = null;
  if (fragments) {
    joined = targets === null ? null : joinTargets(targets);
    if (joined === null) unchecked.push(`the fragments of links into it (its ids and names are more than ${plural(MAX_STREAMED_TARGETS, "character")}, or unknown)`);
    if (srcdocFragments > 0) unchecked.push(`the fragments of the ${plural(srcdocFragments, "about:srcdoc link")} in its srcdoc documents`);
  }
  const err = `${unchecked.length === 0 ? "" : `docbase: warning: ${job.display}: read as a stream (${(opened.size / 1048576).toFixed(1)} MiB): ${unchecked.join(", ")} are not checked\n`}${warned.err}`;
  return { index: job.index, out: out + warned.out, err, counts, ...(fragments ? { fragments: { targets: joined, pending: [] } } : {}) };
}

/** A page's ids and `a` names as one string (see `FileFragments.targets`), or null past {@link MAX_STREAMED_TARGETS} characters. */
function joinTargets(targets: FragmentTargets): string | null {
  let length = 0;
  const all: string[] = [];
  for (const set of [targets.ids, targets.names]) {
    for (const name of set) {
      length += name.length + 1;
      if (length > MAX_STREAMED_TARGETS) return null;
      all.push(name);
    }
  }
  return all.join("\0");
}

/**
 * `docbase check`'s output formats (`--format`).
 *
 * @example
 * ```ts
 * const format: CheckFormat = "sarif";
 * ```
 */
export type CheckFormat = "text" | "json" | "sarif" | "junit" | "markdown";

const FORMATS: readonly CheckFormat[] = ["text", "json", "sarif", "junit", "markdown"];

/** `--format` (and `--json`, the same as `--format json`), checked. */
function formatOption(options: CheckOptions): CheckFormat {
  const format = options.format ?? (options.json === true ? "json" : "text");
  if (!FORMATS.includes(format)) throw new UsageError(`--format: not one of ${FORMATS.join(", ")}: ${JSON.stringify(format)}`);
  if (options.json === true && format !== "json") throw new UsageError(`--json and --format ${format} ask for two formats`);
  return format;
}

/**
 * `docbase check <file|dir> --url U`: invalid URLs, missing files and
 * fragments, base-URL surprises, each an error or a warning; returns 1
 * when there are errors (with `--strict`, warnings too) or a file could
 * not be read.
 *
 * @example
 * ```ts
 * await checkCommand("examples/site", { url: "https://example.com/" }, output); // 1 (it has broken links)
 * ```
 */
export async function checkCommand(input: string, options: CheckOptions, output: Output): Promise<number> {
  const encoding = encodingOption(options.encoding);
  const format = formatOption(options);
  const exclude = urlPatterns(options.exclude);
  const excludedPath = pathExclusion(options.excludePath);
  const started = performance.now();
  const serving = { hosting: hostingOption(options.indexFiles, options.cleanUrls), redirects: true };
  const gathered = await gatherInputs(input, siteURL(input, await inputKind(input), options.url, output), options, output, serving);
  const kept = gathered.jobs.filter((job) => job.rel === "" || !excludedPath(job.rel));
  const inputs = kept.length === gathered.jobs.length ? gathered : { ...gathered, jobs: kept.map((job, index) => ({ ...job, index })) };
  let stdin: Uint8Array | undefined;
  if (inputs.standardInput) {
    // Capped as a file is: a larger input is reported, never held whole.
    const read = await readStandardInput(options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
    if (typeof read === "string") {
      output.err(`docbase: -: cannot be read: ${read}\n`);
      return 1;
    }
    stdin = read;
  }
  const fragments = options.fragments !== false;
  const strict = options.strict === true;
  const external = options.external === true;
  const settings = external ? await externalOptions(options, exclude) : null;
  // An external check's root: the site's (a single file's directory, standard input's document's).
  const task: CheckTask = { command: "check", encoding, siteRoot: inputs.site === null && !external ? null : inputs.siteRoot, fragments, exclude: exclude.map((r) => r.source), external };
  // JSON lines are written as each file is read (without fragments; with them, once they are settled); the other formats need every finding first: they are spooled.
  const stream = format === "json" && !fragments && !external;
  const place = new SpoolDirectory("check's findings");
  try {
    const found = stream ? null : new RunFindings(inputs.jobs, place);
    const counts = await runTask({ jobs: inputs.jobs, work: checkWork, task, site: inputs.site, stdin, hold: found?.hold, write: found?.write }, options, output);
    if (fragments && found !== null) counts["missing-fragment"] = (counts["missing-fragment"] ?? 0) + found.settleFragments();
    let externalFound: ReportedFinding[] = [];
    let externalSummary: ExternalSummary | null = null;
    if (external && found !== null) {
      const refs: ExternalRef[] = [];
      for (const text of found.external) refs.push(...(JSON.parse(text) as ExternalRef[]));
      const { checkExternalLinks } = await import("./check/external-links.ts");
      const checked = await checkExternalLinks(refs, settings!, (message) => output.err(`docbase: warning: ${message}\n`));
      externalFound = checked.findings;
      externalSummary = checked.summary;
      for (const f of externalFound) counts[f.category] = (counts[f.category] ?? 0) + 1;
    }
    if (inputs.unreadable > 0) counts["unreadable"] = (counts["unreadable"] ?? 0) + inputs.unreadable;
    const unreadable = failures(counts);
    const summary = checkSummary(counts, unreadable, strict, externalSummary);
    for (const err of found?.errors ?? []) output.err(err);
    const out = new ReportWriter(output);
    if (format === "json") {
      if (found !== null) for (const line of found.lines()) await out.write(`${line}\n`);
      for (const f of externalFound) await out.write(`${JSON.stringify(f)}\n`);
      const encodingWarning = unlabeledUTF8Warning(counts[UNLABELED_UTF8] ?? 0);
      await out.write(`${JSON.stringify(encodingWarning === null ? summary : { ...summary, notices: [encodingWarning] })}\n`);
    } else {
      // The findings in their final order: in memory when they were held there, else read from their spools as often as the format needs.
      let source: FindingSource;
      if (found!.inMemory) {
        const held: ReportedFinding[] = [];
        for (const line of found!.lines()) held.push(JSON.parse(line) as ReportedFinding);
        // The external findings as the spool gives them (JSON's reading: no undefined fields).
        for (const f of externalFound) held.push(JSON.parse(JSON.stringify(f)) as ReportedFinding);
        source = findingsInMemory(held);
      } else {
        const external = externalFound.map((f) => JSON.stringify(f));
        const all = {
          *lines(): Generator<string> {
            yield* found!.lines();
            yield* external;
          },
        };
        source = spooledFindings(all, place);
      }
      for (const piece of report(format, source, summary, inputs.jobs)) await out.write(piece);
    }
    await out.end();
    if (externalSummary !== null && options.quiet !== true) output.err(`${(await import("../external/index.ts")).formatExternalSummary(externalSummary)}\n`);
    if (format !== "json") {
      const encodingWarning = unlabeledUTF8Warning(counts[UNLABELED_UTF8] ?? 0);
      if (encodingWarning !== null) output.err(`docbase: warning: ${encodingWarning}\n`);
    }
    if (options.quiet !== true) {
      const ms = performance.now() - started;
      const files = inputs.jobs.length === 0 ? `no HTML files in ${input}` : plural(inputs.jobs.length, "file");
      output.err(`docbase check: ${summaryWords(summary)} in ${files} (${plural(summary.links, "link")}), ${summaryEnd(inputs.jobs.length, ms, counts)}`);
    }
    return summary.failed ? 1 : 0;
  } catch (error) {
    // A spool that cannot be written ends the run, naming the directory.
    if (!(error instanceof TemporaryFileError)) throw error;
    output.err(`docbase: ${error.message}\n`);
    return 1;
  } finally {
    place.remove();
  }
}

/** The external checker's options from `check`'s flags (times in seconds on the command line). */
async function externalOptions(options: CheckOptions, exclude: RegExp[]): Promise<ExternalCheckerOptions> {
  // Optimisation: the checker (node:http, node:https, node:zlib) loads only for --external.
  const { isExternalCheckerError, parseStatusRanges } = await import("../external/index.ts");
  const { resolveExternalOptions } = await import("../external/options.ts");
  let accept: ExternalCheckerOptions["accept"];
  if (options.accept !== undefined) {
    try {
      accept = parseStatusRanges(options.accept);
    } catch (error) {
      throw new UsageError(`--accept: ${(error as Error).message}`);
    }
  }
  const settings: ExternalCheckerOptions = {
    concurrency: options.concurrency,
    perHost: options.perHost,
    timeout: options.timeout === undefined ? undefined : options.timeout * 1000,
    retries: options.retries,
    maxRedirects: options.maxRedirects,
    accept,
    userAgent: options.userAgent,
    method: options.method,
    fragments: options.externalFragments === true,
    exclude,
    cache: options.cache === undefined ? null : { file: options.cache, maxAge: options.cacheMaxAge === undefined ? undefined : options.cacheMaxAge * 1000 },
  };
  try {
    // A bad value is misuse of the command, said before any page is read.
    resolveExternalOptions(settings);
  } catch (error) {
    if (isExternalCheckerError(error)) throw new UsageError(error.message);
    throw error;
  }
  return settings;
}

/** The report in a format other than JSON lines, a piece at a time. */
function report(format: Exclude<CheckFormat, "json">, findings: FindingSource, summary: CheckSummary, jobs: readonly FileJob[]): Iterable<string> {
  switch (format) {
    case "text":
      return textReport(findings);
    case "sarif":
      return sarifReport(findings, programVersion());
    case "junit":
      return junitReport(
        jobs.map((job) => job.display),
        findings,
        summary,
      );
    case "markdown":
      return markdownReport(findings, summary);
  }
}

/** A report's pieces gathered into writes of up to 1 MiB, each waiting until standard output takes more. */
class ReportWriter {
  private readonly output: Output;
  private pieces: string[] = [];
  private size = 0;

  constructor(output: Output) {
    this.output = output;
  }

  async write(piece: string): Promise<void> {
    this.pieces.push(piece);
    this.size += piece.length;
    if (this.size >= 1 << 20) await this.end();
  }

  /** Writes what is gathered. */
  async end(): Promise<void> {
    if (this.size === 0) return;
    this.output.out(this.pieces.join(""));
    this.pieces = [];
    this.size = 0;
    await this.output.drain?.();
  }
}
