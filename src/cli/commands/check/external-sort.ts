/**
 * Lines sorted in bounded memory, whatever their number: an external merge
 * sort (sorted runs of a bounded size written to spools, then merged a
 * bounded number at a time). Lines compare as strings (by UTF-16 code
 * units), so a caller puts its sort key first, encoded to compare so.
 *
 * @module
 */

import { LineSpool, SPOOL_MEMORY_CHARS, type SpoolDirectory } from "./line-spool.ts";

/**
 * The characters of a sorted run, each line counted 64 more for its cost as a string (as a spool's, see SPOOL_MEMORY_CHARS).
 *
 * @example
 * ```ts
 * sortLines(lines, place, RUN_CHARS); // the default
 * ```
 */
export const RUN_CHARS = SPOOL_MEMORY_CHARS;

/** The runs merged at once (each reads through a buffer of its own). */
const FAN_IN = 32;

/** What a line costs beyond its characters, counted against a run's size. */
const LINE_COST = 64;

/**
 * `lines` in string order: sorted in memory when they fit in `runChars`,
 * else in runs of that size written to spools of `place` and merged.
 * Each spool is removed once merged, or when the sort is left.
 *
 * @example
 * ```ts
 * [...sortLines(["b", "a", "c"], place)]; // ["a", "b", "c"]
 * ```
 */
export function* sortLines(lines: Iterable<string>, place: SpoolDirectory, runChars = RUN_CHARS): Generator<string> {
  let run: string[] = [];
  let chars = 0;
  const runs: LineSpool[] = [];
  const spill = (): void => {
    const spool = new LineSpool(place, "run", 0);
    runs.push(spool);
    // Array.prototype.sort's default order for strings is their UTF-16 code units' (as `<` compares them).
    run.sort();
    spool.appendLines(run);
    run = [];
    chars = 0;
  };
  try {
    for (const line of lines) {
      run.push(line);
      chars += line.length + LINE_COST;
      if (chars >= runChars) spill();
    }
    if (runs.length === 0) {
      run.sort();
      yield* run;
      return;
    }
    if (run.length > 0) spill();
    while (runs.length > FAN_IN) {
      const merged = new LineSpool(place, "run", 0);
      const these = runs.splice(0, FAN_IN);
      for (const line of mergeRuns(these)) merged.appendLine(line);
      for (const spool of these) spool.remove();
      runs.push(merged);
    }
    yield* mergeRuns(runs);
  } finally {
    for (const spool of runs) spool.remove();
  }
}

/** The lines of sorted runs, merged in string order (a binary heap of each run's next line). */
function* mergeRuns(runs: readonly LineSpool[]): Generator<string> {
  const heap: { line: string; rest: Iterator<string> }[] = [];
  const below = (a: number, b: number): boolean => heap[a]!.line < heap[b]!.line;
  const swap = (a: number, b: number): void => {
    const t = heap[a]!;
    heap[a] = heap[b]!;
    heap[b] = t;
  };
  const down = (from: number): void => {
    for (let at = from; ; ) {
      const left = 2 * at + 1;
      if (left >= heap.length) return;
      const least = left + 1 < heap.length && below(left + 1, left) ? left + 1 : left;
      if (!below(least, at)) return;
      swap(least, at);
      at = least;
    }
  };
  const iterators: Iterator<string>[] = [];
  try {
    for (const run of runs) {
      const rest = run.lines();
      iterators.push(rest);
      const first = rest.next();
      if (first.done !== true) heap.push({ line: first.value, rest });
    }
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    while (heap.length > 0) {
      const top = heap[0]!;
      yield top.line;
      const next = top.rest.next();
      if (next.done !== true) top.line = next.value;
      else {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
      }
      down(0);
    }
  } finally {
    // A merge left early closes the runs' files.
    for (const rest of iterators) rest.return?.(undefined);
  }
}
