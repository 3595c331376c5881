/**
 * A worker process of the pool: receives what it is started with (a
 * {@link WorkerInit}), then batches of files; runs the task on each, and
 * sends the results back (see `worker-pool.ts`).
 *
 * @module
 */

import { type FileJob, type FileResult, runFileTask, type TaskEnvironment } from "./file-tasks.ts";
import { encodePending } from "./fragment-check.ts";
import { siteFilesFrom, type WorkerInit } from "./worker-pool.ts";

const encoder = new TextEncoder();
let init: WorkerInit | null = null;
let env: TaskEnvironment | null = null;

process.on("message", async (message: WorkerInit | FileJob[]) => {
  if (init === null) {
    init = message as WorkerInit;
    env = { site: siteFilesFrom(init.site) };
    return;
  }
  const results: FileResult[] = [];
  for (const job of message as FileJob[]) {
    let result = await runFileTask(job, init.task, env!);
    const fragments = result.fragments;
    // Optimisation: a page's links into other pages cross to the main process as one string (see encodePending).
    if (fragments !== undefined && typeof fragments.pending !== "string") result = { ...result, fragments: { ...fragments, pending: encodePending(fragments.pending) } };
    // Optimisation: the output is encoded here, in parallel, and crosses as bytes (the main process
    // writes them as they are).
    results.push(typeof result.out === "string" && result.out !== "" ? { ...result, out: encoder.encode(result.out) } : result);
  }
  process.send!(results);
});

// The pool ends a worker by closing its channel (or killing it): then there is nothing more to do.
process.on("disconnect", () => process.exit(0));
