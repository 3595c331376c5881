/**
 * The findings of a `docbase check` run on their way to its report, in
 * bounded memory whatever their number: each file's findings spooled in
 * the files' order as they come, its links into other pages spooled until
 * every page is read, then all of them read back in their final order,
 * each missing fragment placed among its file's findings.
 *
 * @module
 */

import type { FragmentTargets } from "../../../links/internal.ts";
import type { FileJob } from "../../file-task.ts";
import { sortLines } from "./external-sort.ts";
import { findingLine } from "./finding.ts";
import { numberKey } from "./formats/finding-source.ts";
import { type CheckResult, checkFragment, encodePending, forEachPending, missingFragmentFinding } from "./fragment-check.ts";
import { LineSpool, type SpoolDirectory } from "./line-spool.ts";

/** The length of a missing fragment's sort key: its file's index, line, column and place. */
const MISSING_KEY = 4 * 16;

/**
 * A run's findings: given the results in the files' order ({@link hold})
 * and the output of files read as streams as it comes ({@link write}),
 * read back by {@link lines} once the fragments are settled.
 *
 * @example
 * ```ts
 * const found = new RunFindings(jobs, place);
 * await runTask({ jobs, work: checkWork, task, site, hold: found.hold, write: found.write }, options, output);
 * const missing = found.settleFragments();
 * for (const line of found.lines()) output.out(`${line}\n`);
 * ```
 */
export class RunFindings {
  private readonly jobs: readonly FileJob[];
  private readonly place: SpoolDirectory;
  /** Every file's findings, as JSON lines (see `findingLine`), in the files' order. */
  private readonly findings: LineSpool;
  /** Links into other pages (or, for a file read as a stream, into itself), a batch a line: `[index, encodePending(...)]` as JSON. */
  private readonly pending: LineSpool;
  /** The missing fragments, each line its sort key (see {@link MISSING_KEY}), a tab, the finding as a JSON line; sorted once settled. */
  private missing: LineSpool;
  /** The index of the file whose output comes now (results come in the files' order). */
  private next = 0;
  /** By file index: how many finding lines there are up to its own last. */
  private readonly ends: number[] = [];
  /** Each page's ids and `a` names (see `FileFragments.targets`), by its path relative to the site root. */
  private readonly targets = new Map<string, string>();
  private readonly decoder = new TextDecoder();
  /** The files' standard error, in their order. */
  readonly errors: string[] = [];
  /** With `--external`: the files' links to other sites (JSON arrays of `ExternalRef`). */
  readonly external: string[] = [];

  constructor(jobs: readonly FileJob[], place: SpoolDirectory) {
    this.jobs = jobs;
    this.place = place;
    this.findings = new LineSpool(place, "findings");
    this.pending = new LineSpool(place, "pending");
    this.missing = new LineSpool(place, "missing");
  }

  /** Output of a file read as a stream (finding lines), as it comes. */
  readonly write = async (text: string | Uint8Array): Promise<void> => {
    this.append(text);
  };

  private append(bytes: string | Uint8Array): void {
    const text = typeof bytes === "string" ? bytes : this.decoder.decode(bytes);
    if (!text.startsWith("P") && !text.includes("\nP")) {
      this.findings.append(text);
      return;
    }
    // A file read as a stream sends its pending fragment checks among its findings (see pendingLine).
    for (let at = 0; at < text.length; ) {
      const end = text.indexOf("\n", at);
      if (text.charCodeAt(at) === 0x50) this.pending.appendLine(`[${this.next},${text.slice(at + 1, end)}]`);
      else this.findings.appendLine(text.slice(at, end));
      at = end + 1;
    }
  }

  /** A file's result, in the files' order. */
  readonly hold = (result: CheckResult): void => {
    this.append(result.out);
    this.ends[result.index] = this.findings.count;
    this.next = result.index + 1;
    if (result.err !== "") this.errors.push(result.err);
    if (result.external !== undefined) this.external.push(result.external);
    const fragments = result.fragments;
    if (fragments === undefined) return;
    const job = this.jobs[result.index];
    if (job !== undefined && fragments.targets !== null) this.targets.set(job.rel, fragments.targets);
    const pending = typeof fragments.pending === "string" ? fragments.pending : encodePending(fragments.pending);
    if (pending !== "") this.pending.appendLine(JSON.stringify([result.index, pending]));
  };

  /**
   * Checks the links that waited for other pages against those pages'
   * targets, once every page is read; returns how many fragments are
   * missing. A link into a page that was not read (not HTML, unreadable,
   * outside the run) is not checked.
   */
  settleFragments(): number {
    const displays = new Map<string, string>();
    for (const job of this.jobs) displays.set(job.rel, job.display);
    // Each page's targets, made into a set the first time a link looks into it.
    const sets = new Map<string, FragmentTargets>();
    const targetsOf = (rel: string): FragmentTargets | null => {
      let set = sets.get(rel);
      if (set === undefined) {
        const text = this.targets.get(rel);
        if (text === undefined) return null;
        set = { ids: new Set(text === "" ? [] : text.split("\0")), names: new Set() };
        sets.set(rel, set);
      }
      return set;
    };
    let missing = 0;
    for (const line of this.pending.lines()) {
      const [index, pending] = JSON.parse(line) as [number, string];
      const display = this.jobs[index]!.display;
      forEachPending(pending, (target, fragment, record) => {
        const targets = targetsOf(target);
        if (targets === null || checkFragment(fragment, targets) !== "missing") return;
        const found = missingFragmentFinding(record(), displays.get(target) ?? target);
        this.missing.appendLine(`${numberKey(index)}${numberKey(found.line)}${numberKey(found.column)}${numberKey(missing++)}\t${findingLine(display, found, true)}`);
      });
    }
    this.pending.remove();
    // Sorted once: the report may read the findings more than once.
    const sorted = new LineSpool(this.place, "missing-sorted");
    for (const line of sortLines(this.missing.lines(), this.place)) sorted.appendLine(line);
    this.missing.remove();
    this.missing = sorted;
    return missing;
  }

  /** Whether every finding is held in memory (none was spooled to a file): the report can then be made there. */
  get inMemory(): boolean {
    return this.findings.inMemory && this.missing.inMemory;
  }

  /**
   * Every finding as a JSON line, in the files' order; in a file, its
   * missing fragments (sorted by line and column) each placed after the
   * findings at or before its place.
   */
  *lines(): Generator<string> {
    const missing = this.missing.lines()[Symbol.iterator]();
    const all = this.findings.lines()[Symbol.iterator]();
    let next = missing.next();
    let from = 0;
    for (let index = 0; index < this.ends.length; index++) {
      const end = this.ends[index] ?? from;
      const key = numberKey(index);
      const here = (): boolean => next.done !== true && next.value.startsWith(key);
      if (!here()) {
        for (; from < end; from++) yield all.next().value!;
        continue;
      }
      for (; from < end; from++) {
        const line = all.next().value!;
        const { line: row, column } = JSON.parse(line) as { line: number; column: number };
        for (; here(); next = missing.next()) {
          const at = next.value!;
          const foundRow = Number(at.slice(16, 32));
          if (foundRow > row || (foundRow === row && Number(at.slice(32, 48)) >= column)) break;
          yield at.slice(MISSING_KEY + 1);
        }
        yield line;
      }
      for (; here(); next = missing.next()) yield next.value!.slice(MISSING_KEY + 1);
    }
    // The findings of files read as streams whose result never came (their worker stopped).
    for (let line = all.next(); line.done !== true; line = all.next()) yield line.value;
  }
}
