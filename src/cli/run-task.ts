/**
 * A command's run over its files: the work of each file on the worker
 * pool (or the main thread), with the progress bar, each result written
 * in the files' order as it comes (or handed to the command to hold), the
 * counts summed; standard input as the one file of a run; and the end
 * every summary line has.
 *
 * @module
 */

import { availableParallelism, freemem } from "node:os";
import { noSpoolWarning, streamFailure } from "./document-stream.ts";
import { type FileJob, type FileResult, type FileWork, failures, type TaskData } from "./file-task.ts";
import { formatSeconds, plural } from "./format.ts";
import type { CommonOptions } from "./options.ts";
import type { Output } from "./output.ts";
import { ProgressBar } from "./progress.ts";
import type { SiteSource } from "./site.ts";
import { type Spool, type TakenInput, takeStandardInput } from "./standard-input.ts";
import { runFiles } from "./worker-pool.ts";

/**
 * Options of {@link runTask}: the files and what to do with each.
 *
 * @example
 * ```ts
 * const run: TaskRun<LinksTask> = { jobs: inputs.jobs, work: linksWork, task, site: inputs.site };
 * ```
 */
export interface TaskRun<Task extends TaskData, Result extends FileResult = FileResult> {
  readonly jobs: readonly FileJob[];
  readonly work: FileWork<Task, Result>;
  readonly task: Task;
  readonly site: SiteSource;
  /** Standard input's bytes, for a job whose path is "-". */
  readonly stdin?: Uint8Array | undefined;
  /** Takes each result, in order, instead of writing it (a command that writes its results at the end). */
  readonly hold?: ((result: Result) => void) | undefined;
  /** With `hold`: takes the output of files read as streams as it comes (without, a held file's stream is held whole in its result). */
  readonly write?: ((text: string | Uint8Array) => Promise<void>) | undefined;
}

/**
 * Runs `run.task` over `run.jobs`, writing each result to `output` in the
 * files' order (or handing it to `run.hold`), with the progress bar;
 * returns the summed counts.
 *
 * @example
 * ```ts
 * const counts = await runTask({ jobs, work: linksWork, task, site }, options, output);
 * counts["links"]; // 1234
 * ```
 */
export async function runTask<Task extends TaskData, Result extends FileResult>(run: TaskRun<Task, Result>, options: CommonOptions, output: Output): Promise<Record<string, number>> {
  const { jobs, hold } = run;
  const counts: Record<string, number> = {};
  const bar = await ProgressBar.start({ total: jobs.length, quiet: options.quiet === true, force: options.progress === true, label: run.task.command });
  try {
    await runFiles(jobs, {
      work: run.work,
      task: run.task,
      site: run.site,
      threads: workerCount(options.jobs, jobs.length),
      stdin: run.stdin,
      write:
        run.write ??
        (hold === undefined
          ? async (text) => {
              bar.clearLine();
              output.out(text);
              await output.drain?.();
            }
          : undefined),
      onResult: (result: Result) => {
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
 * How {@link runStandardInput} takes standard input (`--max-hold`,
 * `--no-spool`), and what its work's failure is called.
 *
 * @example
 * ```ts
 * const taking: StandardInputRun = { maxHold: 1 << 20, spool: true, failedVerb: "cannot be rewritten" };
 * ```
 */
export interface StandardInputRun {
  readonly maxHold: number;
  readonly spool: boolean;
  /** How a failure of the work (a spool that cannot be written) is said: "cannot be read", "cannot be rewritten". */
  readonly failedVerb: string;
}

/**
 * Runs `work` on standard input, the job whose path is "-", exact
 * whatever its size (see takeStandardInput): read whole when it ends
 * within `maxHold`, else spooled to a temporary file and read as that
 * file; with `spool` false, one stream, after {@link noSpoolWarning} on
 * standard error. Its output is written as it comes. Read as a stream, or
 * whole when it is larger than IN_PROCESS_SIZE, it is read in a worker process
 * (see runFiles): memory run out is its failure (exit 1), never V8's
 * abort of the command.
 *
 * @example
 * ```ts
 * const result = await runStandardInput(job, rewriteWork, task, { maxHold: 1 << 20, spool: true, failedVerb: "cannot be rewritten" }, output);
 * output.err(result.err); // "" when it went well
 * ```
 */
export async function runStandardInput<Task extends TaskData, Result extends FileResult>(
  job: FileJob,
  work: FileWork<Task, Result>,
  task: Task,
  taking: StandardInputRun,
  output: Output,
): Promise<Result | FileResult> {
  let taken: TakenInput;
  try {
    taken = await takeStandardInput(taking);
  } catch (error) {
    return streamFailure(job, error, taking.failedVerb);
  }
  if (taken.type === "pieces") output.err(noSpoolWarning(taking.maxHold));
  const spool: Spool | null = taken.type === "spooled" ? taken.spool : null;
  try {
    let result: Result | null = null;
    await runFiles([spool === null ? { ...job, maxHold: taking.maxHold } : { ...job, path: spool.path }], {
      work,
      task,
      site: null,
      threads: 1,
      stdin: taken.type === "whole" ? taken.bytes : undefined,
      pieces: taken.type === "pieces" ? taken.pieces : undefined,
      write: async (text) => {
        output.out(text);
        await output.drain?.();
      },
      onResult: (r) => (result = r),
    });
    return result!;
  } finally {
    spool?.remove();
  }
}

/**
 * The workers to use (besides the main thread): what `--jobs` asks (default: every core), but
 * never more than the cores, the files, or what the free memory holds at
 * 512 MiB a worker (a worker parses a page of up to --max-file-size, which
 * takes many times its size).
 */
function workerCount(requested: number | undefined, files: number): number {
  const byMemory = Math.max(1, Math.floor(freemem() / (512 * 1024 * 1024)));
  return Math.max(1, Math.min(requested ?? availableParallelism(), availableParallelism(), byMemory, Math.max(files, 1)));
}

/**
 * The end of a summary line: the time taken, the files a second (for more
 * than one file), and how many files failed, if any, and its newline.
 *
 * @example
 * ```ts
 * summaryEnd(1200, 2345, { unreadable: 1 });
 * // "2.35 s, 512 files/s; 1 file could not be read, decoded or written (see above)\n"
 * ```
 */
export function summaryEnd(files: number, ms: number, counts: Readonly<Record<string, number>>): string {
  const rate = ms > 0 && files > 1 ? `, ${Math.round((files * 1000) / ms).toLocaleString("en-US")} files/s` : "";
  const failed = failures(counts);
  const note = failed === 0 ? "" : `; ${plural(failed, "file")} could not be read, decoded or written (see above)`;
  return `${formatSeconds(ms)}${rate}${note}\n`;
}
