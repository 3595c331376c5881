/**
 * `docbase links <file|dir|-> --url U`: every link of the documents, as a
 * browser resolves it — its options, the work on one file (or on standard
 * input, as a stream), and the summary.
 *
 * @module
 */

import type { Link, StreamWarning } from "../../links/index.ts";
import { feedLinkStream, readTwice, streamFailure, UNDECODABLE_ENDS_STREAM, warningReport } from "../document-stream.ts";
import { failedFile, type FileJob, type FileResult, type FileWork, failures, loadOnce, type OpenedDocument, openDocument, readDocument, type TaskEnvironment, UNDECODABLE } from "../file-task.ts";
import { escapeControls, formatLinkTable, jsonLine, plural } from "../format.ts";
import { gatherInputs, inputKind } from "../inputs.ts";
import { type CommonOptions, DEFAULT_MAX_HOLD, encodingOption, type StreamingOptions } from "../options.ts";
import type { Output } from "../output.ts";
import { DEFAULT_MAX_TOKEN } from "../regular-file.ts";
import { runStandardInput, runTask, summaryEnd } from "../run-task.ts";
import { siteURL } from "../site-url.ts";
import { isUnlabeledUTF8, UNLABELED_UTF8, unlabeledUTF8Warning } from "../unlabeled-utf8.ts";

/**
 * Options of `docbase links` (commander's names for its flags).
 *
 * @example
 * ```ts
 * const options: LinksOptions = { url: "https://example.com/", json: true, external: true };
 * ```
 */
export interface LinksOptions extends CommonOptions, StreamingOptions {
  /** The site root URL (directory) or the document's URL; default: a placeholder (see site-url.ts). */
  readonly url?: string | undefined;
  readonly internal?: boolean | undefined;
  readonly external?: boolean | undefined;
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

/** The links library, loaded where files are read (see loadOnce). */
const library = loadOnce(() => import("../../links/index.ts"));

/** The links layer's one reading of a document, loaded where files are read (see loadOnce). */
const reading = loadOnce(() => import("../../links/internal.ts"));

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
  for (const l of links) out += `${jsonLine({ file: job.display, element: l.element, attribute: l.attribute, value: l.value, url: l.url, line: l.line, column: l.column })}\n`;
  return out;
}

/**
 * `docbase links`' work on one file: its links, counted, and those the
 * filter shows, as JSON lines or as a table. A file larger than
 * STREAMING_SIZE is read as a stream, twice (see {@link linksOfOpenFile}).
 *
 * @example
 * ```ts
 * await linksWork.run(job, { command: "links", json: true, filter: "all", encoding: undefined, siteRoot: null }, { site: null });
 * ```
 */
export const linksWork: FileWork<LinksTask> = {
  async run(job: FileJob, task: LinksTask, env: TaskEnvironment): Promise<FileResult> {
    if (job.stylesheet === true) return stylesheetLinks(job, task, env);
    // Standard input read as one stream (--no-spool), or a file too large to read whole: links written as they come.
    const document = job.path === "-" && env.pieces !== undefined ? env.pieces : await openDocument(job, env);
    if (!(document instanceof Uint8Array)) {
      // A file that cannot be read: its failed result.
      if (!("handle" in document || Symbol.asyncIterator in document)) return document;
      let out = "";
      const write =
        env.write ??
        (async (text: string): Promise<void> => {
          out += text;
        });
      const result = "handle" in document ? await linksOfOpenFile(document, job, task, write) : await linksStream(document, job, task, write);
      return { ...result, out: out + result.out };
    }
    const { readLinks } = await reading();
    const read = readLinks(document, { url: job.url, encoding: task.encoding });
    if (read.undecodable) return failedFile(job, "undecodable", UNDECODABLE);
    const links = read.links;
    const counts = linkCounts();
    if (isUnlabeledUTF8(document, read.encodingSource)) counts[UNLABELED_UTF8] = 1;
    const shown = countLinks(links, task, counts);
    const out = task.json ? linkLines(job, shown) : shown.length > 0 ? formatLinkTable(tableName(job), shown) : "";
    return { index: job.index, out, err: "", counts };
  },
};

/** `docbase links`' work on a style sheet (a `.css` file), read whole: its links, as a document's are shown. */
async function stylesheetLinks(job: FileJob, task: LinksTask, env: TaskEnvironment): Promise<FileResult> {
  const bytes = await readDocument(job, env);
  if (!(bytes instanceof Uint8Array)) return bytes;
  const { readStylesheet } = await reading();
  const read = readStylesheet(bytes, { url: job.url, encoding: task.encoding }, false);
  if (read.encoding === "replacement") return failedFile(job, "undecodable", UNDECODABLE);
  const counts = linkCounts();
  const shown = countLinks(read.links, task, counts);
  const out = task.json ? linkLines(job, shown) : shown.length > 0 ? formatLinkTable(tableName(job), shown) : "";
  return { index: job.index, out, err: "", counts };
}

/** The file's name at the head of its table. */
function tableName(job: FileJob): string {
  return job.display === "-" ? "<stdin>" : escapeControls(job.display);
}

/**
 * Hands on the links a stream settles: counted, and those the filter
 * shows written to `write` at once, as JSON lines or as table rows.
 * Bounded: the table of a streamed document is its name, then its rows
 * a batch at a time, aligned within each batch (not over all rows, which
 * would hold every link).
 */
function linkHandOn(job: FileJob, task: LinksTask, counts: Record<string, number>, write: (text: string) => Promise<void>): { ready: Link[]; handOn: () => Promise<void> } {
  const ready: Link[] = [];
  let named = false;
  const handOn = async (): Promise<void> => {
    const shown = countLinks(ready, task, counts);
    ready.length = 0;
    if (shown.length === 0) return;
    if (task.json) {
      await write(linkLines(job, shown));
      return;
    }
    const table = formatLinkTable(tableName(job), shown);
    await write(named ? table.slice(table.indexOf("\n") + 1) : table);
    named = true;
  };
  return { ready, handOn };
}

/**
 * The links of a file too large to read whole (see openDocument), read
 * twice (see document-stream.ts's readTwice: exact whatever its size),
 * each written to `write` as it is settled; closes the file. The result
 * has the counts, and the warnings of the one case the first reading
 * cannot settle (the stream then holds up to the job's size cap).
 *
 * @example
 * ```ts
 * await linksOfOpenFile(opened, job, task, async (text) => void process.stdout.write(text));
 * ```
 */
export async function linksOfOpenFile(opened: OpenedDocument, job: FileJob, task: LinksTask, write: (text: string) => Promise<void>): Promise<FileResult> {
  const counts = linkCounts();
  const { ready, handOn } = linkHandOn(job, task, counts, write);
  const warnings: StreamWarning[] = [];
  try {
    const { LinkStream } = await library();
    await readTwice(
      opened.handle,
      { url: job.url, encoding: task.encoding, size: opened.size, maxBytes: opened.maxBytes, maxToken: opened.maxToken },
      (settled) => new LinkStream({ url: job.url, encoding: task.encoding, settled: settled ?? undefined, maxHold: opened.maxBytes, maxToken: opened.maxToken, onLink: (link) => ready.push(link), onWarning: (w) => warnings.push(w) }),
      handOn,
    );
  } catch (error) {
    return streamFailure(job, error, "cannot be read");
  } finally {
    await opened.handle.close();
  }
  return { index: job.index, ...warningReport(job.display, warnings, task.json), counts };
}

/**
 * `docbase links - --no-spool`: the links of the document on standard
 * input (`pieces`), at the job's URL, read as one stream (see
 * link-stream.ts), each written to `write` as soon as it is settled, in
 * bounded memory whatever the document's size; past the job's `maxHold`,
 * a later `<base>` or `<meta charset>` is not applied, and the result's
 * warning says so.
 *
 * @example
 * ```ts
 * await linksStream(process.stdin, { index: 0, path: "-", display: "-", url: "https://example.com/", rel: "", maxHold: 1 << 20 }, task, async (text) => void process.stdout.write(text));
 * ```
 */
export async function linksStream(pieces: AsyncIterable<Uint8Array>, job: FileJob, task: LinksTask, write: (text: string) => Promise<void>): Promise<FileResult> {
  const counts = linkCounts();
  const { ready, handOn } = linkHandOn(job, task, counts, write);
  const warnings: StreamWarning[] = [];
  try {
    const { LinkStream } = await library();
    const limits = { maxHold: job.maxHold ?? DEFAULT_MAX_HOLD, maxToken: job.maxToken ?? DEFAULT_MAX_TOKEN };
    const stream = new LinkStream({ url: job.url, encoding: task.encoding, ...limits, onLink: (link) => ready.push(link), onWarning: (w) => warnings.push(w) }, UNDECODABLE_ENDS_STREAM);
    await feedLinkStream(stream, pieces, task.encoding, handOn);
  } catch (error) {
    return streamFailure(job, error, "cannot be read");
  }
  return { index: job.index, ...warningReport(job.display, warnings, task.json), counts };
}

/**
 * `docbase links <file|dir|-> --url U`: every link of the documents, as a
 * browser resolves it — its options, the work on one file (or on standard
 * input, as a stream), and the summary.
 *
 * @module
 */

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
  const inputs = await gatherInputs(input, siteURL(input, await inputKind(input), options.url, output), options, output);
  const task: LinksTask = { command: "links", json: options.json === true, filter, encoding, siteRoot: inputs.siteRoot };
  let counts: Record<string, number>;
  if (inputs.standardInput) {
    // Standard input, exact whatever its size (see runStandardInput); with --no-spool, one stream (see linksStream).
    const taking = { maxHold: options.maxHold ?? DEFAULT_MAX_HOLD, spool: options.spool !== false, failedVerb: "cannot be read" };
    const result = await runStandardInput(inputs.jobs[0]!, linksWork, task, taking, output);
    if (result.out !== "") output.out(result.out);
    if (result.err !== "") output.err(result.err);
    counts = { ...result.counts };
  } else {
    counts = await runTask({ jobs: inputs.jobs, work: linksWork, task, site: inputs.site }, options, output);
  }
  if (inputs.unreadable > 0) counts["unreadable"] = (counts["unreadable"] ?? 0) + inputs.unreadable;
  const encodingWarning = unlabeledUTF8Warning(counts[UNLABELED_UTF8] ?? 0);
  if (encodingWarning !== null) output.err(`docbase: warning: ${encodingWarning}\n`);
  const ms = performance.now() - started;
  if (options.quiet !== true) {
    const links = counts["links"] ?? 0;
    const parts = [`${(counts["internal"] ?? 0).toLocaleString("en-US")} internal`, `${(counts["external"] ?? 0).toLocaleString("en-US")} external`];
    if ((counts["invalid"] ?? 0) > 0) parts.push(`${(counts["invalid"] ?? 0).toLocaleString("en-US")} that do not parse`);
    const shown = filter === "all" ? "" : `; ${(counts["shown"] ?? 0).toLocaleString("en-US")} ${filter} shown`;
    const files = inputs.jobs.length === 0 ? `no HTML files in ${input}` : `${plural(inputs.jobs.length, "file")}`;
    output.err(`docbase links: ${plural(links, "link")} (${parts.join(", ")}) in ${files}${shown}, ${summaryEnd(inputs.jobs.length, ms, counts)}`);
  }
  return failures(counts) > 0 ? 1 : 0;
}
