/**
 * `docbase check <file|dir|-> --url U`: what is wrong with the links of
 * the documents (see `check/check-document.ts`) — its options, the work on
 * one file, the fragment check across pages once every page is read, and
 * the summary. Exits with 1 when it reports anything.
 *
 * @module
 */

import type { Link, StreamWarning } from "../../links/index.ts";
import { readTwice, streamFailure, warningReport } from "../document-stream.ts";
import { failedFile, type FileJob, type FileWork, failures, loadOnce, type OpenedDocument, openDocument, type TaskEnvironment, UNDECODABLE } from "../file-task.ts";
import { plural } from "../format.ts";
import { gatherInputs } from "../inputs.ts";
import { type CommonOptions, encodingOption } from "../options.ts";
import { type Output, writeResults } from "../output.ts";
import { DEFAULT_MAX_FILE_SIZE } from "../regular-file.ts";
import { runTask, summaryEnd } from "../run-task.ts";
import { readStandardInput } from "../standard-input.ts";
import { type Finding, findingLine } from "./check/finding.ts";
import { type CheckResult, encodePending, settleFragments } from "./check/fragment-check.ts";

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
 * `docbase check`, as data for a worker.
 *
 * @example
 * ```ts
 * const task: CheckTask = { command: "check", json: false, encoding: undefined, siteRoot: "https://example.com/" };
 * ```
 */
export interface CheckTask {
  readonly command: "check";
  readonly json: boolean;
  readonly encoding: string | undefined;
  /** The site root URL: links under it must lead to files of the site. */
  readonly siteRoot: string | null;
  /** Check that links' fragments name an element of their page (`--no-fragments`: false). Default false. */
  readonly fragments?: boolean | undefined;
}

/** The check of one document and the library under it, loaded where files are read (see loadOnce). */
const checkDocumentModule = loadOnce(() => import("./check/check-document.ts"));

/**
 * `docbase check`'s work on one file: its findings, one line each, and
 * with fragments the page's part of the fragment check across pages.
 *
 * @example
 * ```ts
 * await checkWork.run(job, { command: "check", json: false, encoding: undefined, siteRoot: "https://example.com/", fragments: true }, env);
 * ```
 */
export const checkWork: FileWork<CheckTask, CheckResult> = {
  async run(job: FileJob, task: CheckTask, env: TaskEnvironment): Promise<CheckResult> {
    const bytes = await openDocument(job, env);
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
    });
    if (checked === null) return failedFile(job, "undecodable", UNDECODABLE);
    const { links, findings, pending, targets } = checked;
    const counts: Record<string, number> = { ...checkCounts(), links, problems: findings.length };
    const lines: string[] = [];
    for (const f of findings) {
      counts[f.category]!++;
      lines.push(findingLine(job.display, f, task.json));
    }
    const out = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    if (!fragments) return { index: job.index, out, err: "", counts };
    let at: Int32Array | null = null;
    if (pending.length > 0) {
      at = new Int32Array(findings.length * 2);
      for (let i = 0; i < findings.length; i++) {
        at[2 * i] = findings[i]!.line;
        at[2 * i + 1] = findings[i]!.column;
      }
    }
    // Only a site walk's pages are looked into by other pages.
    let joined: string | null = null;
    if (targets !== null && env.site !== null && job.rel !== "" && job.path !== "-") {
      joined = [...targets.ids, ...targets.names].join("\0");
    }
    return { index: job.index, out, err: "", counts, fragments: { targets: joined, pending, at } };
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

function checkCounts(): Record<string, number> {
  return { files: 1, links: 0, problems: 0, "invalid-url": 0, "missing-file": 0, "missing-fragment": 0, "base-url": 0, limit: 0 };
}

/**
 * `docbase check`'s work on a file too large to read whole (see
 * openDocument): read twice (see readTwice: exact whatever its size), its
 * links' validation errors and missing files reported a batch at a time,
 * written as they come (to `env.write` when there is one), in bounded
 * memory. Deviation: the checks that need the whole document — fragments
 * (its ids), base-URL surprises (every `<base>`) — are not made for it.
 */
async function checkOpenFile(opened: OpenedDocument, job: FileJob, task: CheckTask, env: TaskEnvironment): Promise<CheckResult> {
  const { streamedLinkFindings, srcdocTooDeepFinding } = await checkDocumentModule();
  const { LinkStream } = await library();
  const counts = checkCounts();
  const ready: Link[] = [];
  const findings: Finding[] = [];
  const warnings: StreamWarning[] = [];
  let out = "";
  const write =
    env.write ??
    (async (text: string): Promise<void> => {
      out += text;
    });
  const handOn = async (): Promise<void> => {
    counts["links"]! += ready.length;
    streamedLinkFindings(ready, { root: task.siteRoot, site: env.site }, findings);
    ready.length = 0;
    if (findings.length === 0) return;
    let text = "";
    for (const f of findings) {
      counts[f.category]!++;
      counts["problems"]!++;
      text += `${findingLine(job.display, f, task.json)}\n`;
    }
    findings.length = 0;
    await write(text);
  };
  try {
    await readTwice(
      opened.handle,
      { url: job.url, encoding: task.encoding, size: opened.size, maxBytes: opened.maxBytes, maxToken: opened.maxToken },
      (settled) =>
        new LinkStream({
          url: job.url,
          encoding: task.encoding,
          settled: settled ?? undefined,
          validate: true,
          maxHold: opened.maxBytes,
          maxToken: opened.maxToken,
          onLink: (link) => ready.push(link),
          onWarning: (w) => warnings.push(w),
          onSrcdocTooDeep: (place) => findings.push(srcdocTooDeepFinding(place)),
        }),
      handOn,
    );
  } catch (error) {
    return streamFailure(job, error, "cannot be read");
  } finally {
    await opened.handle.close();
  }
  const warned = warningReport(job.display, warnings, task.json);
  return { index: job.index, out: out + warned.out, err: warned.err, counts };
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
  const json = options.json === true;
  const task: CheckTask = { command: "check", json, encoding, siteRoot: inputs.site === null ? null : inputs.siteRoot, fragments };
  // With fragments, a page's report waits for the pages it links into: the results are held, then settled.
  const held: CheckResult[] = [];
  const counts = await runTask({ jobs: inputs.jobs, work: checkWork, task, site: inputs.site, stdin, hold: fragments ? (result) => held.push(result) : undefined }, options, output);
  if (fragments) {
    const { results, missing } = settleFragments(held, inputs.jobs, json);
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
    output.err(`docbase check: ${what} in ${files} (${plural(counts["links"] ?? 0, "link")}), ${summaryEnd(inputs.jobs.length, ms, counts)}`);
  }
  return problems > 0 || failures(counts) > 0 ? 1 : 0;
}
