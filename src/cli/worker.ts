/**
 * A worker process of the pool (see `worker-pool.ts`): receives what it is
 * started with (a {@link WorkerInit}), then batches of files; runs the
 * command's work on each, and sends the results back.
 *
 * @module
 */

import { checkWork } from "./commands/check.ts";
import { linksWork } from "./commands/links.ts";
import { rewriteWork } from "./commands/rewrite.ts";
import { type FileJob, type FileResult, type FileWork, runFileWork, type TaskData, type TaskEnvironment } from "./file-task.ts";
import { siteFilesFrom } from "./site.ts";
import type { WorkerInit } from "./worker-pool.ts";

/** The work of each command that runs on the pool, by its name. */
const WORK = { links: linksWork, check: checkWork, rewrite: rewriteWork };

const encoder = new TextEncoder();
let init: WorkerInit | null = null;
let work: FileWork<TaskData> | null = null;
let env: TaskEnvironment | null = null;

process.on("message", async (message: WorkerInit | FileJob[]) => {
  if (init === null) {
    init = message as WorkerInit;
    // The task is the one its command's work takes: the pool sends a command's task with its work.
    work = WORK[init.task.command as keyof typeof WORK] as unknown as FileWork<TaskData>;
    env = { site: siteFilesFrom(init.site) };
    return;
  }
  const results: FileResult[] = [];
  for (const job of message as FileJob[]) {
    let result = await runFileWork(work!, job, init.task, env!);
    if (work!.transfer !== undefined) result = work!.transfer(result);
    // Optimisation: the output is encoded here, in parallel, and crosses as bytes (the main process
    // writes them as they are).
    results.push(typeof result.out === "string" && result.out !== "" ? { ...result, out: encoder.encode(result.out) } : result);
  }
  process.send!(results);
});

// The pool ends a worker by closing its channel (or killing it): then there is nothing more to do.
process.on("disconnect", () => process.exit(0));
