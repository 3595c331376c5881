/**
 * The worker pool: runs a command's work over many files on every core,
 * in worker processes (see `worker.ts`), and hands the results back in the
 * files' order. Few files run in the main thread (starting a worker costs
 * more than they do).
 *
 * Each worker takes batches of files from a shared queue (two batches in
 * flight per worker, so that none waits for the main thread), so a slow
 * file delays one worker, not the others. Results arrive in any order and
 * leave in the order of the files, so the output of a run does not depend
 * on the number of workers.
 *
 * Workers are processes, not threads: V8 may abort a whole process when a
 * thread reaches its heap limit, and every other file's result with it; a
 * process that runs out of memory ends alone.
 *
 * @module
 */

import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type FileJob, type FileResult, type FileWork, runFileWork, type TaskData, type TaskEnvironment } from "./file-task.ts";
import { siteFilesFrom, type SiteSource } from "./site.ts";

/**
 * What a worker is started with (its first message): the task, by whose
 * `command` it finds the work to do, and the site.
 *
 * @example
 * ```ts
 * const init: WorkerInit = { task: { command: "check", json: false, encoding: undefined, siteRoot: "https://example.com/" }, site: null };
 * ```
 */
export interface WorkerInit {
  readonly task: TaskData;
  readonly site: SiteSource;
}

/** Below this many files per worker, fewer workers start; below it in all, none does. */
const MIN_FILES_PER_WORKER = 24;

/**
 * A worker's old-generation heap cap, in MiB (`--max-old-space-size`): a
 * page too large for it stops that worker only (its file is reported).
 * DOCBASE_WORKER_HEAP_MB sets another (the tests use a small one to run a
 * worker out of memory).
 */
const WORKER_HEAP_MB = Number(process.env["DOCBASE_WORKER_HEAP_MB"]) > 0 ? Number(process.env["DOCBASE_WORKER_HEAP_MB"]) : 2048;

/**
 * Options of {@link runFiles}.
 *
 * @example
 * ```ts
 * const options: RunFilesOptions<LinksTask> = { work: linksWork, task, site: null, threads: 2, onResult: (r) => process.stdout.write(r.out) };
 * ```
 */
export interface RunFilesOptions<Task extends TaskData, Result extends FileResult = FileResult> {
  /** The command's work on one file, for the main thread (a worker finds it by `task.command`). */
  readonly work: FileWork<Task, Result>;
  readonly task: Task;
  readonly site: SiteSource;
  /** How many threads at most (1: the main thread only). */
  readonly threads: number;
  /** Standard input's bytes, for a job whose path is "-" (main thread only). */
  readonly stdin?: Uint8Array | undefined;
  /** Standard output for a file's work on the main thread (see TaskEnvironment.write). */
  readonly write?: ((text: string) => Promise<void>) | undefined;
  /** Called with each result, in the jobs' order. */
  readonly onResult: (result: Result) => void;
  /** Called as files are done, with how many were done since the last call. */
  readonly onProgress?: ((done: number) => void) | undefined;
}

/** The worker's module, beside this one: the .ts source when running from source, the .js build otherwise. */
function workerPath(): string {
  return fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./worker.ts" : "./worker.js", import.meta.url));
}

/** What a worker printed on its standard error, at most this much (V8's last words when it runs out of memory). */
const MAX_WORKER_STDERR = 4096;

/** Why a worker process ended, from its exit and what it printed. */
function whyWorkerEnded(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  if (/heap out of memory|Reached heap limit/.test(stderr)) return "JavaScript heap out of memory";
  if (signal !== null) return `ended by ${signal}`;
  const first = stderr.split("\n").find((line) => line.trim() !== "");
  return first === undefined ? `exit code ${code}` : `exit code ${code}: ${first.trim().slice(0, 200)}`;
}

/** Hands results on in index order, holding back those that arrive early. */
class InOrder<Result extends FileResult> {
  private next = 0;
  private readonly waiting = new Map<number, Result>();
  private readonly emit: (result: Result) => void;

  constructor(emit: (result: Result) => void) {
    this.emit = emit;
  }

  add(result: Result): void {
    if (result.index !== this.next) {
      this.waiting.set(result.index, result);
      return;
    }
    this.emit(result);
    this.next++;
    for (let r = this.waiting.get(this.next); r !== undefined; r = this.waiting.get(this.next)) {
      this.waiting.delete(this.next);
      this.emit(r);
      this.next++;
    }
  }
}

/**
 * Runs the task over `jobs` (their `index` is their place, 0 to n − 1),
 * on up to `threads` threads, and calls `onResult` in order.
 *
 * @example
 * ```ts
 * await runFiles(jobs, { work: linksWork, task, site: null, threads: os.availableParallelism(), onResult: (r) => process.stdout.write(r.out) });
 * ```
 */
export async function runFiles<Task extends TaskData, Result extends FileResult>(jobs: readonly FileJob[], options: RunFilesOptions<Task, Result>): Promise<void> {
  const threads = Math.max(1, Math.min(options.threads, Math.floor(jobs.length / MIN_FILES_PER_WORKER)));
  const order = new InOrder(options.onResult);
  if (threads <= 1 || jobs.some((j) => j.path === "-")) {
    const env: TaskEnvironment = { site: siteFilesFrom(options.site), stdin: options.stdin, write: options.write };
    for (const job of jobs) {
      order.add(await runFileWork(options.work, job, options.task, env));
      options.onProgress?.(1);
    }
    return;
  }
  const batchSize = Math.max(1, Math.min(64, Math.floor(jobs.length / (threads * 16))));
  let nextJob = 0;
  // Jobs of a batch whose worker died: each is run again alone, so that one bad file loses only its own result.
  const retries: FileJob[][] = [];
  /** The next batch for a worker; a retried job only for a worker with nothing else in flight (see `send`). */
  const takeBatch = (idle: boolean): FileJob[] | null => {
    if (idle) {
      const retry = retries.shift();
      if (retry !== undefined) return retry;
    }
    if (nextJob >= jobs.length) return null;
    const batch = jobs.slice(nextJob, nextJob + batchSize);
    nextJob += batch.length;
    return batch;
  };
  const init: WorkerInit = { task: options.task, site: options.site };
  const workers = new Set<ChildProcess>();
  try {
    await new Promise<void>((resolve) => {
      let done = 0;
      // Each job's result is taken once: a job run again after its worker stopped may have been answered already.
      const answered = new Uint8Array(jobs.length);
      const finish = (results: readonly Result[]): void => {
        let fresh = 0;
        for (const result of results) {
          if (answered[result.index] === 1) continue;
          answered[result.index] = 1;
          order.add(result);
          fresh++;
        }
        done += fresh;
        options.onProgress?.(fresh);
        if (done === jobs.length) resolve();
      };
      const start = (): void => {
        // A worker's heap is capped, so that a page too large for it stops the worker, not the command.
        // Its standard output is not used (results come as messages); its standard error is kept, bounded.
        const worker = fork(workerPath(), [], {
          execArgv: [...process.execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`],
          serialization: "advanced",
          stdio: ["ignore", "ignore", "pipe", "ipc"],
        });
        workers.add(worker);
        let stderr = "";
        worker.stderr!.setEncoding("utf8");
        worker.stderr!.on("data", (chunk: string) => {
          if (stderr.length < MAX_WORKER_STDERR) stderr += chunk.slice(0, MAX_WORKER_STDERR - stderr.length);
        });
        // The batches sent and not answered yet, by their first job's index (a worker reads files
        // asynchronously, so it may answer its batches in another order than it got them).
        const inFlight = new Map<number, FileJob[]>();
        let gone = false;
        // A retried job runs alone in its worker: if that worker stops too, the job is the one that
        // stopped it, and no other file's result goes down with it.
        let alone = false;
        const send = (): void => {
          if (alone || gone) return;
          const batch = takeBatch(inFlight.size === 0);
          if (batch === null) return;
          alone = batch[0]!.retried === true;
          inFlight.set(batch[0]!.index, batch);
          worker.send(batch);
        };
        worker.on("message", (results: Result[]) => {
          if (results.length > 0) inFlight.delete(results[0]!.index);
          alone = false;
          finish(results);
          // Two batches in flight again (after a retried job, which ran alone, the worker has none).
          if (done < jobs.length) send();
          if (done < jobs.length && inFlight.size < 2) send();
        });
        const lost = (why: string): void => {
          if (gone) return;
          gone = true;
          workers.delete(worker);
          worker.kill();
          if (inFlight.size === 0) return;
          for (const batch of inFlight.values()) {
            if (batch.every((job) => answered[job.index] === 1)) continue;
            if (batch.length === 1 && batch[0]!.retried === true) {
              const job = batch[0]!;
              const failed: FileResult = { index: job.index, out: "", err: `docbase: ${job.display}: failed: the worker reading it stopped (${why})\n`, counts: { files: 1, failed: 1 } };
              // A failed file's result has none of Result's own fields, which are optional (see FileWork).
              finish([failed as Result]);
            } else {
              for (const job of batch) if (answered[job.index] !== 1) retries.push([{ ...job, retried: true }]);
            }
          }
          inFlight.clear();
          if (done < jobs.length) start();
        };
        // "close" comes after the process has ended and its channel and standard error are closed: every
        // answer it sent before it stopped has arrived by then, and so have its last words.
        worker.on("close", (code: number | null, signal: NodeJS.Signals | null) => lost(whyWorkerEnded(code, signal, stderr)));
        worker.on("error", (error: Error) => {
          stderr ||= error.message;
        });
        worker.send(init);
        send();
        send();
      };
      for (let t = 0; t < threads; t++) start();
    });
  } finally {
    for (const worker of workers) worker.kill();
  }
}
