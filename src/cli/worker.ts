/**
 * A worker process of the pool (see `worker-pool.ts`): receives what it is
 * started with (a {@link WorkerInit}), then batches of files; runs the
 * command's work on each, and sends the results back — and the output of
 * a file read as a stream a piece at a time, each once the last is
 * written. Standard input read as one stream comes on its own standard
 * input.
 *
 * @module
 */

import { checkWork } from "./commands/check.ts";
import { linksWork } from "./commands/links.ts";
import { rewriteWork } from "./commands/rewrite.ts";
import { type FileJob, type FileResult, type FileWork, runFileWork, type TaskData, type TaskEnvironment } from "./file-task.ts";
import { siteFilesFrom } from "./site.ts";
import type { OutputPiece, OutputWritten, WorkerInit } from "./worker-pool.ts";

/** The work of each command that runs on the pool, by its name. */
const WORK = { links: linksWork, check: checkWork, rewrite: rewriteWork };

const encoder = new TextEncoder();
let init: WorkerInit | null = null;
let work: FileWork<TaskData> | null = null;
let env: TaskEnvironment | null = null;

/** The files whose last output piece awaits its OutputWritten, by index. */
const awaitingWritten = new Map<number, () => void>();

/** The output of file `index` read as a stream: sent as it comes, the next piece read once it is written. */
function streamOutput(index: number): (text: string | Uint8Array) => Promise<void> {
  return (text) =>
    new Promise<void>((resolve) => {
      awaitingWritten.set(index, resolve);
      process.send!({ index, out: typeof text === "string" ? encoder.encode(text) : text } satisfies OutputPiece);
    });
}

process.on("message", async (message: WorkerInit | FileJob[] | OutputWritten) => {
  if (init === null) {
    init = message as WorkerInit;
    // The task is the one its command's work takes: the pool sends a command's task with its work.
    work = WORK[init.task.command as keyof typeof WORK] as unknown as FileWork<TaskData>;
    env = { site: siteFilesFrom(init.site), stdin: init.stdin, pieces: init.pieces === true ? (process.stdin as AsyncIterable<Uint8Array>) : undefined };
    return;
  }
  if (!Array.isArray(message)) {
    const index = (message as OutputWritten).written;
    const written = awaitingWritten.get(index);
    awaitingWritten.delete(index);
    written?.();
    return;
  }
  const results: FileResult[] = [];
  for (const job of message) {
    let result = await runFileWork(work!, job, init.task, init.stream === true ? { ...env!, write: streamOutput(job.index) } : env!);
    if (work!.transfer !== undefined) result = work!.transfer(result);
    // Optimisation: the output is encoded here, in parallel, and crosses as bytes (the main process
    // writes them as they are).
    results.push(typeof result.out === "string" && result.out !== "" ? { ...result, out: encoder.encode(result.out) } : result);
  }
  process.send!(results);
});

// The pool ends a worker by closing its channel (or killing it): then there is nothing more to do.
process.on("disconnect", () => process.exit(0));
