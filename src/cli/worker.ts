/**
 * A worker process of the pool: receives what it is started with (a
 * {@link WorkerInit}), then batches of files; runs the task on each, and
 * sends the results back (see `worker-pool.ts`).
 *
 * @module
 */

import { type FileJob, type FileResult, runFileTask, type TaskEnvironment } from "./file-tasks.ts";
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
    const result = await runFileTask(job, init.task, env!);
    // Optimisation: the output is encoded here, in parallel, and crosses as bytes (the main thread
    // writes them as they are).
    results.push(typeof result.out === "string" && result.out !== "" ? { ...result, out: encoder.encode(result.out) } : result);
  }
  process.send!(results);
});

// The pool ends a worker by closing its channel (or killing it): then there is nothing more to do.
process.on("disconnect", () => process.exit(0));
