/**
 * A worker thread of the pool: receives batches of files, runs the task
 * on each, and posts the results back (see `worker-pool.ts`).
 *
 * @module
 */

import { parentPort, workerData } from "node:worker_threads";
import { type FileJob, type FileResult, runFileTask, type TaskEnvironment } from "./file-tasks.ts";
import { encodePending } from "./fragment-check.ts";
import { siteFilesFrom, type WorkerInit } from "./worker-pool.ts";

const init = workerData as WorkerInit;
const env: TaskEnvironment = { site: siteFilesFrom(init.site) };

const encoder = new TextEncoder();

parentPort!.on("message", async (batch: FileJob[]) => {
  const results: FileResult[] = [];
  const transfer: ArrayBuffer[] = [];
  for (const job of batch) {
    let result = await runFileTask(job, init.task, env);
    const fragments = result.fragments;
    // Optimisation: a page's links into other pages cross to the main thread as one string (see encodePending).
    if (fragments !== undefined && typeof fragments.pending !== "string") result = { ...result, fragments: { ...fragments, pending: encodePending(fragments.pending) } };
    if (typeof result.out === "string" && result.out !== "") {
      // Optimisation: the output is encoded here, in parallel, and its buffer moves to the main
      // thread without a copy (a string would be copied twice, and encoded there).
      const bytes = encoder.encode(result.out);
      transfer.push(bytes.buffer);
      results.push({ ...result, out: bytes });
    } else {
      results.push(result);
    }
  }
  parentPort!.postMessage(results, transfer);
});
