/**
 * The shared benchmark harness: corpus loading, an interleaved measurement
 * loop, and the report (a table of ns per unit and the ratios between
 * implementations).
 *
 * How a measurement works ({@link measure}):
 *
 * 1. Warm-up: the contenders run in turn, whole passes over the same input,
 *    until each has run for `warmupMs` and at least `minWarmupPasses` times,
 *    so that every one of them is optimised before timing starts. The
 *    warm-up also calibrates how many passes make one sample of at least
 *    `sampleMs` (per contender, since a slow peer needs fewer passes).
 * 2. Rounds: each round times one sample of every contender, in an order
 *    rotated by one each round (and reversed every other round), so that no
 *    contender always runs first, or always right after the same
 *    neighbour, and a slow drift of the machine (thermal, another process)
 *    reaches all of them alike. The garbage collector runs before every
 *    sample, so no contender pays for another's garbage, then one untimed
 *    pass of the contender re-optimises what the collection deoptimised
 *    (see the loop), so that samples measure the steady state.
 * 3. Result: the median over rounds of ns per unit, and, for each pair that
 *    is compared, the median over rounds of the two contenders' time ratio
 *    within the same round (a paired ratio, which cancels most of the drift).
 *
 * Fairness rules for the contenders' `run` functions (see the bench files):
 * each is its own function literal with its own loop (a shared loop calling
 * a callback would be a megamorphic call site that penalises whoever comes
 * second), each does the same consumer work on its result (e.g. adds the
 * href's length) so the work cannot be dropped as dead code, and each
 * returns a checksum that must be the same on every pass.
 *
 * `--quick` shortens everything (fewer rounds, shorter samples) to check
 * that a bench runs; its figures are rough. Run with `--expose-gc` for the
 * collector between samples; without it, the harness enables it at run time
 * (`v8.setFlagsFromString` and a fresh context), which works on Node 24.
 *
 * @module
 */

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import v8 from "node:v8";
import vm from "node:vm";
import { gunzipSync } from "node:zlib";

/** True when `--quick` was given: a short run to check that a bench works. */
export const quick: boolean = process.argv.includes("--quick");

/** The value of `--name=value` on the command line, or undefined. */
export function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  const arg = process.argv.find((a) => a.startsWith(prefix));
  return arg === undefined ? undefined : arg.slice(prefix.length);
}

// --- The garbage collector ---------------------------------------------------

function findGC(): { readonly gc: () => void; readonly how: string } {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") return { gc: exposed as () => void, how: "--expose-gc" };
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as unknown;
    if (typeof gc === "function") return { gc: gc as () => void, how: "enabled at run time" };
  } catch {
    // Fall through: no collector between samples.
  }
  return { gc: () => {}, how: "unavailable (samples include other contenders' garbage)" };
}

const collector = findGC();

/** Runs a full garbage collection (a no-op when none is available). */
export const gc: () => void = collector.gc;

/** How the garbage collector was obtained, for the report. */
export const gcStatus: string = collector.how;

// --- Corpus ------------------------------------------------------------------

/**
 * The corpus folder: `../shared/corpus/` beside the repository, or the
 * `DOCBASE_CORPUS` environment variable.
 */
export const corpusDir: string =
  process.env["DOCBASE_CORPUS"] ?? new URL("../../shared/corpus/", import.meta.url).pathname;

/** The text of a gzip'd corpus file (UTF-8), e.g. `readCorpus("urls-kasztp.txt.gz")`. */
export function readCorpus(file: string): string {
  return gunzipSync(readFileSync(corpusDir.replace(/\/?$/, "/") + file)).toString("utf8");
}

/** The URL each HTML page of the corpus was served from. */
const pageURLs: Record<string, string> = {
  "html-whatwg-html5-spec-2009.html.gz": "https://www.whatwg.org/specs/web-apps/current-work/",
  "html-whatwg-spec-excerpt-2015.html.gz": "https://html.spec.whatwg.org/multipage/",
  "html-wikipedia-911-victims-list.html.gz": "https://en.wikipedia.org/wiki/List_of_victims_of_the_September_11_attacks",
  "html-wikipedia-new-zealand.html.gz": "https://en.wikipedia.org/wiki/New_Zealand",
};

/**
 * The HTML page of the corpus whose file name contains `page` (`new-zealand`,
 * `2015`, `2009`, `911`): its file name, its text and the URL it was served from.
 */
export function readCorpusPage(page: string): { readonly file: string; readonly html: string; readonly url: string } {
  const file = readdirSync(corpusDir).find((f) => f.startsWith("html-") && f.includes(page));
  if (file === undefined || pageURLs[file] === undefined) throw new Error(`no corpus page matches ${page}`);
  return { file, html: readCorpus(file), url: pageURLs[file] };
}

/**
 * The lines of a gzip'd URL list: a leading BOM stripped, split on LF (a CR
 * before it is removed too), the empty string after a final newline
 * dropped. Every other line is kept, valid or not: all implementations see
 * the same input.
 */
export function readCorpusLines(file: string): string[] {
  let text = readCorpus(file);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * With `--quick`, every `stride`-th element (a deterministic sample of the
 * whole list, so the mix of inputs is kept); otherwise the list itself.
 */
export function quickSample<T>(list: readonly T[], stride = 8): readonly T[] {
  return quick ? list.filter((_, i) => i % stride === 0) : list;
}

// --- Measurement -------------------------------------------------------------

/**
 * One implementation under test. `run` processes the whole input once and
 * returns a checksum of its consumer work (e.g. the sum of the href lengths);
 * the checksum must be the same on every pass.
 */
export interface Contender<T> {
  readonly name: string;
  readonly run: (input: T) => number;
}

/** Options of {@link measure}; {@link defaultOptions} gives the usual ones. */
export interface MeasureOptions {
  /** Timed rounds; each gives one sample per contender. */
  readonly rounds: number;
  /** Minimum warm-up time per contender, in ms. */
  readonly warmupMs: number;
  /** Minimum warm-up passes per contender. */
  readonly minWarmupPasses: number;
  /** Minimum duration of one sample, in ms (whole passes are repeated to reach it). */
  readonly sampleMs: number;
}

/** The default options, or the short ones with `--quick`; `--rounds=N` overrides the rounds. */
export function defaultOptions(): MeasureOptions {
  const base: MeasureOptions = quick
    ? { rounds: 5, warmupMs: 100, minWarmupPasses: 2, sampleMs: 15 }
    : { rounds: 15, warmupMs: 1000, minWarmupPasses: 3, sampleMs: 80 };
  const rounds = flag("rounds");
  return rounds === undefined ? base : { ...base, rounds: Math.max(1, Number(rounds)) };
}

/** One contender's figures. */
export interface Result {
  readonly name: string;
  /** Median over rounds of ns per unit. */
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Interquartile range over the median (0.05 is 5%). */
  readonly iqr: number;
  /** ns per unit, one per round, in round order. */
  readonly samples: readonly number[];
  /** Passes per sample. */
  readonly passes: number;
  /** The checksum of one pass. */
  readonly checksum: number;
}

/** A whole measurement: the results in the contenders' order, and the units per pass. */
export interface Measurement {
  readonly units: number;
  readonly results: readonly Result[];
}

function now(): number {
  return Number(process.hrtime.bigint());
}

/** Every value returned by a contender ends up here, so no work is dead. */
let sink = 0;

/** The sink's value (printing it makes the work observable for certain). */
export function sinkValue(): number {
  return sink;
}

function runChecked<T>(c: Contender<T>, input: T, expected: { value: number | undefined }): void {
  const sum = c.run(input);
  sink = (sink + sum) | 0;
  if (expected.value === undefined) expected.value = sum;
  else if (sum !== expected.value && !Number.isNaN(sum)) {
    throw new Error(`${c.name}: checksum changed between passes (${expected.value} then ${sum})`);
  }
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

/**
 * Times every contender on the same input, interleaved (see the module
 * comment). `units` is what one pass processes (e.g. the number of URLs),
 * so that results are in ns per unit.
 */
export function measure<T>(
  input: T,
  units: number,
  contenders: readonly Contender<T>[],
  options: MeasureOptions = defaultOptions(),
): Measurement {
  const n = contenders.length;
  const expected = contenders.map(() => ({ value: undefined as number | undefined }));

  // 1. Warm-up, interleaved, until every contender has had its time and passes.
  const warmUp = new WarmUp(n, options);
  for (let pending = warmUp.pending(); pending.length > 0; pending = warmUp.pending()) {
    for (const i of pending) {
      const t0 = now();
      runChecked(contenders[i]!, input, expected[i]!);
      warmUp.record(i, now() - t0);
    }
  }
  const passes = warmUp.samplePasses();

  // 2. Rounds: a rotated (and every other round reversed) order.
  const samples: number[][] = contenders.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    for (const i of roundOrder(round, n)) {
      const c = contenders[i]!;
      const reps = passes[i]!;
      gc();
      // A forced full collection deoptimises code that embeds objects it
      // frees (V8's --trace-deopt: "embedded weak objects cleared"), so the
      // first pass after it runs unoptimised code a real workload never
      // runs (measured: a 1 MB page took 4x its steady time). One untimed
      // pass re-optimises; its garbage is the contender's own.
      runChecked(c, input, expected[i]!);
      const t0 = now();
      for (let r = 0; r < reps; r++) runChecked(c, input, expected[i]!);
      const dt = now() - t0;
      samples[i]!.push(dt / (reps * units));
    }
  }

  return { units, results: figures(contenders, samples, passes, expected) };
}

/** Step 1's bookkeeping: each contender's warm-up time and passes, and the time of its fastest recent pass. */
class WarmUp {
  private readonly time: number[];
  private readonly passes: number[];
  private readonly last: number[];
  private readonly warmupNs: number;
  private readonly options: MeasureOptions;

  constructor(n: number, options: MeasureOptions) {
    this.options = options;
    this.time = new Array<number>(n).fill(0);
    this.passes = new Array<number>(n).fill(0);
    this.last = new Array<number>(n).fill(Infinity);
    this.warmupNs = options.warmupMs * 1e6;
  }

  /** The contenders that still want warming (by index), for one interleaved sweep; none when done. */
  pending(): number[] {
    const pending: number[] = [];
    for (let i = 0; i < this.time.length; i++) {
      if (this.time[i]! < this.warmupNs || this.passes[i]! < this.options.minWarmupPasses) pending.push(i);
    }
    return pending;
  }

  record(i: number, ns: number): void {
    this.time[i]! += ns;
    this.passes[i]! += 1;
    // The later passes are the optimised ones; keep the fastest recent one.
    this.last[i] = this.passes[i]! <= 2 ? ns : Math.min(this.last[i]!, ns);
  }

  /** How many passes make one sample of at least `sampleMs`, per contender. */
  samplePasses(): number[] {
    return this.last.map((t) => Math.max(1, Math.ceil((this.options.sampleMs * 1e6) / Math.max(t, 1))));
  }
}

/** Step 2's order in round `round`: the n contenders rotated by one each round, and every other round reversed. */
function roundOrder(round: number, n: number): number[] {
  const order: number[] = [];
  for (let k = 0; k < n; k++) {
    const rotated = (k + round) % n;
    order.push(round % 2 === 0 ? rotated : n - 1 - rotated);
  }
  return order;
}

/** Step 3 of a measurement: each contender's figures from its samples. */
function figures(
  contenders: readonly { readonly name: string }[],
  samples: readonly (readonly number[])[],
  passes: readonly number[],
  expected: readonly { readonly value: number | undefined }[],
): Result[] {
  return contenders.map((c, i): Result => {
    const s = samples[i]!;
    const sorted = [...s].sort((a, b) => a - b);
    const med = quantile(sorted, 0.5);
    return {
      name: c.name,
      median: med,
      min: sorted[0]!,
      max: sorted[sorted.length - 1]!,
      iqr: (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / med,
      samples: s,
      passes: passes[i]!,
      checksum: expected[i]!.value ?? NaN,
    };
  });
}

/**
 * A contender whose pass may finish later (a web stream, an async
 * iterator): `run` returns its checksum or a promise of it.
 */
export interface AsyncContender<T> {
  readonly name: string;
  readonly run: (input: T) => number | Promise<number>;
}

async function runCheckedAsync<T>(c: AsyncContender<T>, input: T, expected: { value: number | undefined }): Promise<void> {
  const sum = await c.run(input);
  sink = (sink + sum) | 0;
  if (expected.value === undefined) expected.value = sum;
  else if (sum !== expected.value && !Number.isNaN(sum)) {
    throw new Error(`${c.name}: checksum changed between passes (${expected.value} then ${sum})`);
  }
}

/**
 * {@link measure} for contenders of which some are asynchronous: the same
 * warm-up, interleaved rounds, re-warm pass and figures, each pass awaited
 * before the next starts (a synchronous contender pays one await per pass,
 * a microtask, nothing next to a pass over a page).
 */
export async function measureAsync<T>(
  input: T,
  units: number,
  contenders: readonly AsyncContender<T>[],
  options: MeasureOptions = defaultOptions(),
): Promise<Measurement> {
  const n = contenders.length;
  const expected = contenders.map(() => ({ value: undefined as number | undefined }));
  const warmUp = new WarmUp(n, options);
  for (let pending = warmUp.pending(); pending.length > 0; pending = warmUp.pending()) {
    for (const i of pending) {
      const t0 = now();
      await runCheckedAsync(contenders[i]!, input, expected[i]!);
      warmUp.record(i, now() - t0);
    }
  }
  const passes = warmUp.samplePasses();
  const samples: number[][] = contenders.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    for (const i of roundOrder(round, n)) {
      const c = contenders[i]!;
      const reps = passes[i]!;
      gc();
      // The re-warm pass of measure(), for the same reason.
      await runCheckedAsync(c, input, expected[i]!);
      const t0 = now();
      for (let r = 0; r < reps; r++) await runCheckedAsync(c, input, expected[i]!);
      const dt = now() - t0;
      samples[i]!.push(dt / (reps * units));
    }
  }
  return { units, results: figures(contenders, samples, passes, expected) };
}

// --- Report ------------------------------------------------------------------

function pad(s: string, width: number, right = false): string {
  return right ? s.padStart(width) : s.padEnd(width);
}

/** ns with three significant digits (e.g. "412", "41.2", "4.12", "12,345"). */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return String(ns);
  if (ns >= 1000) return Math.round(ns).toLocaleString("en-US");
  if (ns >= 100) return ns.toFixed(0);
  if (ns >= 10) return ns.toFixed(1);
  return ns.toFixed(2);
}

/** A ratio with two decimals below 10, one below 100, none above. */
export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return String(r);
  if (r >= 100) return r.toFixed(0);
  if (r >= 10) return r.toFixed(1);
  return r.toFixed(2);
}

/** Prints a heading line and an underline. */
export function heading(title: string): void {
  console.log(`\n${title}\n${"-".repeat(Math.min(title.length, 100))}`);
}

/** Prints the results as a table: median, min, max, IQR, throughput, passes per sample. */
export function printTable(m: Measurement, unit: string): void {
  const nameWidth = Math.max(12, ...m.results.map((r) => r.name.length));
  const cols = [`median ns/${unit}`, "min", "max", "IQR", `M ${unit}/s`, "passes/sample"];
  console.log(
    `${pad("implementation", nameWidth)}  ${cols.map((c) => pad(c, Math.max(c.length, 8), true)).join("  ")}`,
  );
  for (const r of m.results) {
    const cells = [formatNs(r.median), formatNs(r.min), formatNs(r.max), `${(r.iqr * 100).toFixed(1)}%`, (1e3 / r.median).toFixed(2), String(r.passes)];
    console.log(`${pad(r.name, nameWidth)}  ${cells.map((c, j) => pad(c, Math.max(cols[j]!.length, 8), true)).join("  ")}`);
  }
}

/**
 * A comparison to report: how many times as fast `subject` is as `peer`
 * (peer's time / subject's time), and, optionally, the least that counts as
 * meeting the target.
 */
export interface Comparison {
  readonly subject: string;
  readonly peer: string;
  readonly target?: number;
}

/** The result of one {@link Comparison}. */
export interface ComparisonResult extends Comparison {
  /** Median over rounds of (peer's time / subject's time) in the same round. */
  readonly speed: number;
  /** peer's median / subject's median (unpaired), for reference. */
  readonly speedOfMedians: number;
  readonly meets: boolean | undefined;
}

function byName(m: Measurement, name: string): Result {
  const r = m.results.find((x) => x.name === name);
  if (r === undefined) throw new Error(`no contender named ${JSON.stringify(name)}`);
  return r;
}

/** Computes the comparisons from a measurement's paired samples. */
export function compare(m: Measurement, comparisons: readonly Comparison[]): ComparisonResult[] {
  return comparisons.map((c) => {
    const s = byName(m, c.subject);
    const p = byName(m, c.peer);
    const paired = s.samples.map((t, i) => p.samples[i]! / t);
    const speed = median(paired);
    return { ...c, speed, speedOfMedians: p.median / s.median, meets: c.target === undefined ? undefined : speed >= c.target };
  });
}

/**
 * Prints the comparisons, one line each: "subject is X× as fast as peer
 * (takes Y× its time)", and the target when there is one.
 */
export function printComparisons(results: readonly ComparisonResult[]): void {
  const w = Math.max(...results.map((r) => r.subject.length));
  const wp = Math.max(...results.map((r) => r.peer.length));
  for (const r of results) {
    const target = r.target === undefined ? "" : `   target >= ${r.target}x: ${r.meets === true ? "MET" : "MISSED"}`;
    console.log(
      `${pad(r.subject, w)}  vs  ${pad(r.peer, wp)}  ${pad(formatRatio(r.speed), 6, true)}x as fast ` +
        `(${formatRatio(1 / r.speed)}x the time; ratio of medians ${formatRatio(r.speedOfMedians)}x)${target}`,
    );
  }
}

// --- Environment -------------------------------------------------------------

function packageVersion(name: string): string {
  try {
    const json = readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), "utf8");
    return (JSON.parse(json) as { version: string }).version;
  } catch {
    return "?";
  }
}

function gitRevision(): string {
  try {
    const cwd = new URL("..", import.meta.url).pathname;
    const rev = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return dirty === "" ? rev : `${rev} + uncommitted changes in src/`;
  } catch {
    return "?";
  }
}

/** Prints what the figures depend on: the bench, the command, versions, machine, options. */
export function printEnvironment(title: string, options?: MeasureOptions): void {
  console.log(`# ${title}`);
  console.log(`command: node ${process.execArgv.join(" ")}${process.execArgv.length > 0 ? " " : ""}${process.argv.slice(1).map((a) => a.replace(/^.*\/(bench\/)/, "$1")).join(" ")}`);
  console.log(
    `node ${process.version} (V8 ${process.versions.v8}, ada ${process.versions["ada"] ?? "?"}), whatwg-url ${packageVersion("whatwg-url")}, docbase ${gitRevision()}`,
  );
  const cpu = os.cpus()[0];
  console.log(`machine: ${cpu?.model ?? "?"}, ${os.cpus().length} CPUs, ${os.platform()} ${os.arch()}; gc between samples: ${gcStatus}`);
  if (options !== undefined) {
    console.log(
      `mode: ${quick ? "--quick (rough figures)" : "full"}; ${options.rounds} interleaved rounds, warm-up >= ${options.warmupMs} ms and ${options.minWarmupPasses} passes each, samples >= ${options.sampleMs} ms`,
    );
  }
}
