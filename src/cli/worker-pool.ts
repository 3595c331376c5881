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
 * process that runs out of memory ends alone. So a run of few files with
 * a large one (over {@link IN_PROCESS_SIZE}) reads them in one worker: a
 * page that needs more memory than there is is that file's error, never
 * V8's abort of the command.
 *
 * A file read as a stream sends its output to the main process a piece at
 * a time ({@link OutputPiece}) and waits for each to be written: its
 * output is never held whole, in the worker or here. Standard input read
 * as one stream (`--no-spool`) is read in a worker too, always: the main
 * process pipes its pieces to the worker's standard input.
 *
 * @module
 */

import { type ChildProcess, fork } from "node:child_process";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { getHeapStatistics } from "node:v8";
import { type FileJob, type FileResult, type FileWork, runFileWork, type TaskData, type TaskEnvironment } from "./file-task.ts";
import { escapeControls } from "./format.ts";
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
  /** Whether a file read as a stream sends its output as it comes ({@link OutputPiece}), not in its result. */
  readonly stream?: boolean | undefined;
  /** Standard input's bytes, for a job whose path is "-". */
  readonly stdin?: Uint8Array | undefined;
  /** Whether standard input's pieces, for a job whose path is "-", come on the worker's own standard input (see RunFilesOptions.pieces). */
  readonly pieces?: boolean | undefined;
}

/**
 * A piece of the output of a file read as a stream, sent by a worker as it
 * comes; the worker waits for the {@link OutputWritten} of its file before
 * it reads on (so that a slow reader holds the reading back, and nothing
 * piles up).
 *
 * @example
 * ```ts
 * const piece: OutputPiece = { index: 3, out: new TextEncoder().encode('{"file":"big.html",...}\n') };
 * ```
 */
export interface OutputPiece {
  readonly index: number;
  readonly out: Uint8Array;
}

/**
 * The main process's answer to an {@link OutputPiece}: written.
 *
 * @example
 * ```ts
 * const written: OutputWritten = { written: 3 };
 * ```
 */
export interface OutputWritten {
  readonly written: number;
}

/**
 * A file larger than this (bytes) is read in a worker even when the run
 * reads its files on the main thread: 1/512 of the command's heap (8 MiB
 * of a 4 GiB heap, 128 KiB of a 64 MiB one). A whole reading takes up to
 * about 200 bytes of heap a byte of page (`check` of a link-dense page
 * with a finding per link), so a smaller page cannot exhaust the heap
 * here, and starting a worker costs more than reading it: a second
 * process starts Node.js, loads the links layer and warms its compiler up
 * again.
 */
export const IN_PROCESS_SIZE = Math.floor(getHeapStatistics().heap_size_limit / 512);

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
  /** Standard input's bytes, for a job whose path is "-". */
  readonly stdin?: Uint8Array | undefined;
  /**
   * Standard input's pieces, for a job whose path is "-" read as one
   * stream: that job runs in a worker, whose standard input they are
   * piped to (a slow worker holds the reading back).
   */
  readonly pieces?: AsyncIterable<Uint8Array> | undefined;
  /**
   * Standard output for the output of a file read as a stream, written as
   * it comes (see TaskEnvironment.write), on the main thread or from a
   * worker; without it, that output is in the file's result.
   */
  readonly write?: ((text: string | Uint8Array) => Promise<void>) | undefined;
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
  /** The index of the file whose turn it is: its output can be written now. */
  next = 0;
  private readonly waiting = new Map<number, Result>();
  private readonly emit: (result: Result) => void;
  /** Called when it is a file's turn. */
  onTurn: ((index: number) => void) | null = null;

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
    this.onTurn?.(this.next);
  }
}

/**
 * The output pieces of files read as streams in workers: a piece of the
 * file whose turn it is is written at once, then answered; another file's
 * piece waits for its turn, and its worker with it. One piece a worker at
 * most is held here.
 */
class StreamedOutput {
  private readonly held = new Map<number, { readonly out: Uint8Array; readonly written: () => void }>();
  /** The files some of whose output has been written: one whose worker stops cannot be read again. */
  readonly begun = new Set<number>();
  private readonly write: (out: Uint8Array) => Promise<void>;
  private readonly order: { readonly next: number };

  constructor(write: (out: Uint8Array) => Promise<void>, order: { readonly next: number }) {
    this.write = write;
    this.order = order;
  }

  piece(piece: OutputPiece, written: () => void): void {
    if (piece.index === this.order.next) this.flush(piece.index, piece.out, written);
    else this.held.set(piece.index, { out: piece.out, written });
  }

  /** It is `index`'s turn: its held piece is written. */
  turn(index: number): void {
    const held = this.held.get(index);
    if (held === undefined) return;
    this.held.delete(index);
    this.flush(index, held.out, held.written);
  }

  /** Forgets the held pieces of `indexes` (their worker stopped). */
  drop(indexes: Iterable<number>): void {
    for (const index of indexes) this.held.delete(index);
  }

  private flush(index: number, out: Uint8Array, written: () => void): void {
    this.begun.add(index);
    // A write that fails (standard output closed) ends the run elsewhere; the worker is answered all the same.
    void this.write(out).then(written, written);
  }
}

/**
 * Whether `job`'s document is read in a worker when the run reads its
 * files on the main thread: one larger than {@link IN_PROCESS_SIZE}, and
 * standard input read as one stream, whose size is not known (a file that
 * cannot be looked at is read here, which says why; a file copied as it
 * is is not read).
 */
async function readsApart(job: FileJob, options: Pick<RunFilesOptions<TaskData>, "stdin" | "pieces">): Promise<boolean> {
  // A file copied as it is (rewrite --out) is not read.
  if (job.copy === true) return false;
  if (job.path === "-") return options.pieces !== undefined || (options.stdin?.length ?? 0) > IN_PROCESS_SIZE;
  try {
    return (await stat(job.path)).size > IN_PROCESS_SIZE;
  } catch {
    return false;
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
  const readsStdin = jobs.some((j) => j.path === "-");
  if (threads <= 1 && !readsStdin && jobs.length > 1) {
    // Optimisation: a run with a large file reads all its files in one worker, not the small ones here
    // and each run of large ones in a worker of its own: every process that reads warms its compiler
    // up again (a site of 21 real pages took twice the CPU seconds so).
    for (const job of jobs) {
      if (await readsApart(job, options)) {
        await runOnWorkers(jobs, options, 1, order);
        return;
      }
    }
  }
  if (threads <= 1 || readsStdin) {
    const env: TaskEnvironment = { site: siteFilesFrom(options.site), stdin: options.stdin, write: options.write };
    for (let next = 0; next < jobs.length; ) {
      // Large files in a worker (one for those that follow each other), one at a time, each marked as
      // already retried: one that stops the worker is reported at once.
      const apart: FileJob[] = [];
      while (next < jobs.length && (await readsApart(jobs[next]!, options))) apart.push({ ...jobs[next++]!, retried: true });
      if (apart.length > 0) {
        await runOnWorkers(apart, options, 1, order);
        continue;
      }
      order.add(await runFileWork(options.work, jobs[next++]!, options.task, env));
      options.onProgress?.(1);
    }
    return;
  }
  await runOnWorkers(jobs, options, threads, order);
}

/**
 * Runs the task over `jobs` (their indexes consecutive, the first one's
 * turn next in `order`) on `threads` worker processes, and adds their
 * results to `order`.
 */
async function runOnWorkers<Task extends TaskData, Result extends FileResult>(jobs: readonly FileJob[], options: RunFilesOptions<Task, Result>, threads: number, order: InOrder<Result>): Promise<void> {
  const first = jobs[0]!.index;
  const write = options.write;
  const streamed = write === undefined ? null : new StreamedOutput(write, order);
  order.onTurn = streamed === null ? null : (index) => streamed.turn(index);
  const batchSize = Math.max(1, Math.min(64, Math.floor(jobs.length / (threads * 16))));
  let nextJob = 0;
  // Jobs of a batch whose worker died: each is run again alone, so that one bad file loses only its own result.
  const retries: FileJob[][] = [];
  /** The next batch for a worker; a retried job only for a worker with nothing else in flight (see `send`). */
  const takeBatch = (idle: boolean): FileJob[] | null => {
    if (idle && retries.length > 0) {
      // The first file first: a worker waiting for a file's turn (see StreamedOutput) waits for it.
      let at = 0;
      for (let r = 1; r < retries.length; r++) if (retries[r]![0]!.index < retries[at]![0]!.index) at = r;
      return retries.splice(at, 1)[0]!;
    }
    if (nextJob >= jobs.length) return null;
    const batch = jobs.slice(nextJob, nextJob + batchSize);
    nextJob += batch.length;
    return batch;
  };
  const readsStdin = jobs.some((j) => j.path === "-");
  const init: WorkerInit = { task: options.task, site: options.site, stream: streamed !== null, stdin: readsStdin ? options.stdin : undefined, pieces: readsStdin && options.pieces !== undefined };
  // Standard input's pieces can be read once: piped to the first worker (its job is run once: see runFiles).
  let pieces = readsStdin ? options.pieces : undefined;
  const workers = new Set<ChildProcess>();
  try {
    await new Promise<void>((resolve, reject) => {
      let done = 0;
      // What the results' receiver throws (a spool that cannot be written) ends the run, as on the main thread.
      const guarded =
        <Args extends unknown[]>(handle: (...args: Args) => void) =>
        (...args: Args): void => {
          try {
            handle(...args);
          } catch (error) {
            reject(error);
          }
        };
      // Each job's result is taken once: a job run again after its worker stopped may have been answered already.
      const answered = new Uint8Array(jobs.length);
      const finish = (results: readonly Result[]): void => {
        let fresh = 0;
        for (const result of results) {
          if (answered[result.index - first] === 1) continue;
          answered[result.index - first] = 1;
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
          stdio: [pieces === undefined ? "ignore" : "pipe", "ignore", "pipe", "ipc"],
        });
        workers.add(worker);
        if (pieces !== undefined) {
          // A worker that stops ends the pipe: the reading of standard input stops with it (the job's result says why).
          pipeline(Readable.from(pieces, { objectMode: false }), worker.stdin!).catch(() => {});
          pieces = undefined;
        }
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
        const onMessage = (message: Result[] | OutputPiece): void => {
          if (!Array.isArray(message)) {
            const index = message.index;
            streamed?.piece(message, () => {
              if (!gone) worker.send({ written: index } satisfies OutputWritten);
            });
            return;
          }
          const results = message;
          if (results.length > 0) inFlight.delete(results[0]!.index);
          alone = false;
          finish(results);
          // Two batches in flight again (after a retried job, which ran alone, the worker has none).
          if (done < jobs.length) send();
          if (done < jobs.length && inFlight.size < 2) send();
        };
        worker.on("message", guarded(onMessage));
        const lost = (why: string): void => {
          if (gone) return;
          gone = true;
          workers.delete(worker);
          worker.kill();
          if (inFlight.size === 0) return;
          for (const batch of inFlight.values()) {
            if (batch.every((job) => answered[job.index - first] === 1)) continue;
            streamed?.drop(batch.map((job) => job.index));
            for (const job of batch) {
              if (answered[job.index - first] === 1) continue;
              // A file run alone stopped its worker again; a file part of whose output is written cannot be read again.
              const begun = streamed?.begun.has(job.index) === true;
              if ((batch.length === 1 && job.retried === true) || begun) {
                const after = begun ? ", after part of its output was written" : "";
                const failed: FileResult = { index: job.index, out: "", err: `docbase: ${escapeControls(job.display)}: failed: the worker reading it stopped (${why})${after}\n`, counts: { files: 1, failed: 1 } };
                // A failed file's result has none of Result's own fields, which are optional (see FileWork).
                finish([failed as Result]);
              } else {
                retries.push([{ ...job, retried: true }]);
              }
            }
          }
          inFlight.clear();
          if (done < jobs.length) start();
        };
        // "close" comes after the process has ended and its channel and standard error are closed: every
        // answer it sent before it stopped has arrived by then, and so have its last words.
        worker.on("close", guarded((code: number | null, signal: NodeJS.Signals | null) => lost(whyWorkerEnded(code, signal, stderr))));
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
    order.onTurn = null;
    for (const worker of workers) worker.kill();
  }
}
