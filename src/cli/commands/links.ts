/**
 * `docbase links <file|dir|-> --url U`: every link of the documents, as a
 * browser resolves it — its options, the work on one file (or on standard
 * input, as a stream), and the summary.
 *
 * @module
 */

import type { Link } from "../../links/index.ts";
import { feedLinkStream, UndecodableDocument } from "../document-stream.ts";
import { failedFile, type FileJob, type FileResult, type FileWork, failures, loadOnce, readDocument, type TaskEnvironment, UNDECODABLE } from "../file-task.ts";
import { escapeControls, formatLinkTable, plural } from "../format.ts";
import { gatherInputs, inputKind } from "../inputs.ts";
import { type CommonOptions, encodingOption } from "../options.ts";
import type { Output } from "../output.ts";
import { runTask, summaryEnd } from "../run-task.ts";
import { siteURL } from "../site-url.ts";

/**
 * Options of `docbase links` (commander's names for its flags).
 *
 * @example
 * ```ts
 * const options: LinksOptions = { url: "https://example.com/", json: true, external: true };
 * ```
 */
export interface LinksOptions extends CommonOptions {
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
  for (const l of links) out += `${JSON.stringify({ file: job.display, element: l.element, attribute: l.attribute, value: l.value, url: l.url, line: l.line, column: l.column })}\n`;
  return out;
}

/**
 * `docbase links`' work on one file: its links, counted, and those the
 * filter shows, as JSON lines or as a table.
 *
 * @example
 * ```ts
 * await linksWork.run(job, { command: "links", json: true, filter: "all", encoding: undefined, siteRoot: null }, { site: null });
 * ```
 */
export const linksWork: FileWork<LinksTask> = {
  async run(job: FileJob, task: LinksTask, env: TaskEnvironment): Promise<FileResult> {
    const bytes = await readDocument(job, env);
    if (!(bytes instanceof Uint8Array)) return bytes;
    const { readLinks } = await reading();
    const read = readLinks(bytes, { url: job.url, encoding: task.encoding });
    if (read.undecodable) return failedFile(job, "undecodable", UNDECODABLE);
    const links = read.links;
    const counts = linkCounts();
    const shown = countLinks(links, task, counts);
    const out = task.json ? linkLines(job, shown) : shown.length > 0 ? formatLinkTable(job.display === "-" ? "<stdin>" : escapeControls(job.display), shown) : "";
    return { index: job.index, out, err: "", counts };
  },
};

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
  try {
    const { LinkStream } = await library();
    const stream = new LinkStream({ url, encoding: task.encoding, onLink: (link) => ready.push(link) });
    await feedLinkStream(stream, pieces, task.encoding, async () => {
      const shown = countLinks(ready, task, counts);
      ready.length = 0;
      if (task.json) {
        if (shown.length > 0) await write(linkLines(job, shown));
      } else {
        for (const link of shown) table.push(link);
      }
    });
  } catch (error) {
    if (error instanceof UndecodableDocument) return failedFile(job, "undecodable", error.message);
    return failedFile(job, "unreadable", (error as Error).message);
  }
  return { index: 0, out: table.length > 0 ? formatLinkTable("<stdin>", table) : "", err: "", counts };
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
  const inputs = await gatherInputs(input, siteURL(input, await inputKind(input), options.url, output), options, output);
  const task: LinksTask = { command: "links", json: options.json === true, filter, encoding, siteRoot: inputs.siteRoot };
  let counts: Record<string, number>;
  if (inputs.standardInput) {
    const result = await linksStream(process.stdin as AsyncIterable<Uint8Array>, inputs.jobs[0]!.url, task, async (text) => {
      output.out(text);
      await output.drain?.();
    });
    if (result.out !== "") output.out(result.out);
    if (result.err !== "") output.err(result.err);
    counts = { ...result.counts };
  } else {
    counts = await runTask({ jobs: inputs.jobs, work: linksWork, task, site: inputs.site }, options, output);
  }
  if (inputs.unreadable > 0) counts["unreadable"] = (counts["unreadable"] ?? 0) + inputs.unreadable;
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
