/**
 * Work counted, not timed: the block executions V8's precise coverage
 * records in the scripts a pattern names, for tests that tell linear work
 * from quadratic on a loaded machine.
 *
 * @example
 * ```ts
 * const count = blockCounter(/\/src\/core\//);
 * count(); // resets
 * parse(input);
 * const work = count(); // the blocks parse ran in src/core
 * ```
 */

import { Session } from "node:inspector";

interface Coverage {
  readonly result: readonly { readonly url: string; readonly functions: readonly { readonly ranges: readonly { readonly count: number }[] }[] }[];
}

/** Starts precise coverage in this thread; the function returned takes the count of blocks run in `scripts` since its last call. */
export function blockCounter(scripts: RegExp): () => number {
  const session = new Session();
  session.connect();
  const post = <T = unknown>(method: string, params: object = {}): T => {
    // The inspector answers a session of the same thread synchronously.
    let answer: { error: Error | null; result: T } | undefined;
    session.post(method, params, (error, result) => {
      answer = { error, result: result as T };
    });
    if (answer === undefined) throw new Error(`inspector: no answer to ${method}`);
    if (answer.error !== null) throw answer.error;
    return answer.result;
  };
  post("Profiler.enable");
  post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  return () => {
    let count = 0;
    for (const script of post<Coverage>("Profiler.takePreciseCoverage").result) {
      if (!scripts.test(script.url)) continue;
      for (const fn of script.functions) for (const range of fn.ranges) count += range.count;
    }
    return count;
  };
}
