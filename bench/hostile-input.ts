/**
 * Question: does parseURL's time grow linearly with hostile input (huge
 * hosts, dot segments, percent runs, IPv4 numbers, IPv6 pieces, a 10 MB
 * URL), and how does it compare with Node's native URL (ada) and whatwg-url
 * on the same input?
 *
 * Corpus: generated inputs, the families of test/core/hostile-input.test.ts,
 * each at sizes n, 2n and 4n, where 4n is the size that test uses (a host of
 * 200k labels, 300k `../`, a million `%`, a 100k-digit IPv4 number, a
 * 100k-piece IPv6 address, a 10 MB URL, ...). `--quick` divides every size by
 * 4 and has 5 rounds instead of 9; `--rounds=N` sets them; `--limit=S` sets the
 * time limit of one parse (default 60 s, 15 with `--quick`); `--scale=F` multiplies them by F; `--case=TEXT` keeps the cases whose
 * name contains TEXT.
 *
 * Each implementation runs in its own worker thread (same process), so that
 * one that takes too long can be stopped: a parse that exceeds the time
 * limit is terminated, and the larger sizes of that case are not tried for
 * that implementation (nor any size whose smaller one took over a quarter of
 * the limit). Jobs run one at a time, never in parallel.
 *
 * Per case: a warm-up (each worker parses the size-n input up to ten times),
 * then rounds: in each, every implementation parses the input of every size
 * once, the implementations taking turns in an order rotated from size to
 * size (a slow one stops repeating once it has one parse over 3 s). A
 * garbage collection runs before each parse; building the input is not
 * timed. The report gives the fastest parse of the rounds (interference
 * only adds time; the test takes the fastest too) and the median at 4n.
 *
 * Timed: docbase `parseURL(input)`, Node `URL.parse(input)` (no exception
 * for a failure; the href is computed during the parse), whatwg-url
 * `parseURL(input)`. The result is then checked outside the timing: failure,
 * or the href's length, which must be the same for every implementation.
 *
 * Reading the figures: with linear work each doubling of the input doubles
 * the time (ratio 2, exponent 1); quadratic work quadruples it (ratio 4,
 * exponent 2). Times below a few ms are dominated by noise.
 *
 *   node_modules/.bin/node --expose-gc bench/hostile-input.ts [--quick] [--case=TEXT] [--scale=F] [--rounds=N] [--limit=SECONDS]
 *
 * @module
 */

import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { parseURL as whatwgParseURL, serializeURL as whatwgSerializeURL } from "whatwg-url";
import { parseURL, serializeURL } from "../src/core/index.ts";
import { flag, formatRatio, gc, heading, median, printEnvironment, quick } from "./harness.ts";

/** An input family: `make(n)` builds the input of size n; `size` is the largest n (4n). */
interface HostileCase {
  readonly name: string;
  readonly size: number;
  readonly make: (n: number) => string;
}

/**
 * About n code units of a plausible URL: long path, long query, long
 * fragment, a third each. (test/core/hostile-input.test.ts has the same
 * shape with n / 30, which makes its "10 MB URL" about 1 MB; here it is 10 MB.)
 */
function tenMegabyteURL(n: number): string {
  const part = Math.floor(n / 3);
  return (
    `https://user:pass@example.com:8080/` +
    "segment/".repeat(part / 8) +
    "?" +
    "key=value&".repeat(part / 10) +
    "#" +
    "fragment ".repeat(part / 9)
  );
}

const hostileCases: readonly HostileCase[] = [
  { name: "a host of 200k labels", size: 200_000, make: (n) => `https://${"a.".repeat(n)}b/` },
  { name: "a host of 200k non-ASCII labels", size: 200_000, make: (n) => `https://${"ü.".repeat(n)}b/` },
  { name: "300k ../ segments", size: 300_000, make: (n) => `https://h/${"../".repeat(n)}x` },
  { name: "300k a/ then 300k ../", size: 300_000, make: (n) => `https://h/${"a/".repeat(n)}${"../".repeat(n)}x` },
  { name: "a million % in the path", size: 1_000_000, make: (n) => `https://h/${"%".repeat(n)}` },
  { name: "a million % in the host", size: 1_000_000, make: (n) => `https://${"%".repeat(n)}/` },
  { name: "a 100k-digit IPv4 number", size: 100_000, make: (n) => `https://${"9".repeat(n)}/` },
  { name: "an IPv4 address of 100k parts", size: 100_000, make: (n) => `https://${"1.".repeat(n)}1/` },
  { name: "an IPv6 address of 100k pieces", size: 100_000, make: (n) => `https://[${"1:".repeat(n)}1]/` },
  { name: "an IPv6 address of 100k colons", size: 100_000, make: (n) => `https://[${":".repeat(n)}]/` },
  { name: "a 10 MB URL (path, query, fragment)", size: 10_000_000, make: tenMegabyteURL },
  { name: "1M tabs and newlines", size: 1_000_000, make: (n) => `ht\ttp://h/${"\t\n\r".repeat(n / 3)}x` },
];

/** The implementations, by the name the workers know them by. */
const implementations = {
  "docbase parseURL": (input: string): string | null => {
    const start = process.hrtime.bigint();
    const r = parseURL(input);
    timed = Number(process.hrtime.bigint() - start);
    return r === null ? null : String(serializeURL(r).length);
  },
  "Node URL.parse (ada)": (input: string): string | null => {
    const start = process.hrtime.bigint();
    const u = URL.parse(input);
    timed = Number(process.hrtime.bigint() - start);
    return u === null ? null : String(u.href.length);
  },
  "whatwg-url parseURL": (input: string): string | null => {
    const start = process.hrtime.bigint();
    const r = whatwgParseURL(input);
    timed = Number(process.hrtime.bigint() - start);
    return r === null ? null : String(whatwgSerializeURL(r).length);
  },
} as const;

type ImplName = keyof typeof implementations;
const implNames = Object.keys(implementations) as ImplName[];

/** The time of the last parse, in ns (set by the implementation wrappers, around the parse only). */
let timed = 0;

interface Job {
  readonly caseIndex: number;
  readonly n: number;
  readonly maxRuns: number;
  /** Stop repeating once the runs add up to this many ms. */
  readonly budgetMs: number;
}

interface JobResult {
  readonly ms: number[];
  readonly length: number;
  /** "failure", the href's length, or "threw ...". */
  readonly outcome: string;
}

// --- The worker: runs the jobs of one implementation --------------------------

function workerMain(): void {
  const impl = implementations[workerData as ImplName];
  let cachedCase = -1;
  const inputs = new Map<number, string>();
  parentPort!.on("message", (job: Job) => {
    if (job.caseIndex !== cachedCase) {
      inputs.clear();
      gc();
      cachedCase = job.caseIndex;
    }
    let input = inputs.get(job.n);
    if (input === undefined) {
      input = hostileCases[job.caseIndex]!.make(job.n);
      // Flatten the concatenated string now, so that the first timed parse does not pay for it.
      input.charCodeAt(input.length >> 1);
      inputs.set(job.n, input);
    }
    const ms: number[] = [];
    let outcome = "";
    let total = 0;
    try {
      while (ms.length < job.maxRuns && (ms.length === 0 || total < job.budgetMs)) {
        gc();
        const href = impl(input);
        ms.push(timed / 1e6);
        total += timed / 1e6;
        outcome = href === null ? "failure" : `href of ${Number(href).toLocaleString("en-US")}`;
      }
    } catch (e) {
      outcome = `threw ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 60)}` : String(e)}`;
    }
    const result: JobResult = { ms, length: input.length, outcome };
    parentPort!.postMessage(result);
  });
}

// --- The main thread: schedules the jobs and reports ----------------------------

/** A worker for one implementation, replaced when a job is stopped. */
class Runner {
  #worker: Worker;
  readonly name: ImplName;

  constructor(name: ImplName) {
    this.name = name;
    this.#worker = this.#spawn();
  }

  #spawn(): Worker {
    const w = new Worker(new URL(import.meta.url), { workerData: this.name });
    w.unref();
    return w;
  }

  /** Runs a job; resolves with its result, or with a reason when it was stopped or crashed. */
  run(job: Job, timeoutMs: number): Promise<JobResult | string> {
    const w = this.#worker;
    return new Promise((resolve) => {
      const done = (value: JobResult | string): void => {
        clearTimeout(timer);
        w.off("message", onMessage);
        w.off("error", onError);
        w.off("exit", onExit);
        resolve(value);
      };
      const restart = (): void => {
        void w.terminate();
        this.#worker = this.#spawn();
      };
      const onMessage = (r: JobResult): void => done(r);
      const onError = (e: Error): void => {
        restart();
        done(`crashed: ${e.message.slice(0, 60)}`);
      };
      const onExit = (): void => {
        this.#worker = this.#spawn();
        done("worker exited");
      };
      const timer = setTimeout(() => {
        restart();
        done(`stopped after ${timeoutMs / 1000} s`);
      }, timeoutMs);
      w.on("message", onMessage);
      w.on("error", onError);
      w.on("exit", onExit);
      w.postMessage(job);
    });
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

interface Cell {
  /** The fastest parse, in ms. */
  readonly ms: number | undefined;
  /** The median parse, in ms. */
  readonly medianMs: number | undefined;
  readonly note: string;
  readonly length: number;
}

async function main(): Promise<void> {
  const scale = (quick ? 0.25 : 1) * Number(flag("scale") ?? 1);
  const filter = flag("case");
  const timeoutMs = Number(flag("limit") ?? (quick ? 15 : 60)) * 1000;
  const rounds = Number(flag("rounds") ?? (quick ? 5 : 9));
  const warmupMs = quick ? 300 : 1_000;
  const budgetMs = quick ? 1_000 : 3_000;
  printEnvironment("hostile-input: parseURL time on hostile inputs at sizes n, 2n, 4n");
  console.log(
    `mode: ${quick ? "--quick (sizes / 4, rough figures)" : "full"}${scale !== (quick ? 0.25 : 1) ? `, scale ${scale}` : ""}; ` +
      `warm-up: up to 10 parses of the size-n input (${warmupMs} ms); then ${rounds} interleaved rounds of one parse per size and implementation ` +
      `(not repeated once a parse takes over ${budgetMs / 1000} s), gc before each; a parse is stopped after ${timeoutMs / 1000} s`,
  );
  console.log(
    "times are the fastest of the rounds (another process or a collection can only add time, and single parses of a few ms " +
      "are easily hit); the median is shown at 4n. Linear work: x2 per doubling, exponent 1; quadratic: x4, exponent 2.",
  );

  const runners = implNames.map((name) => new Runner(name));
  const summary: string[] = [];
  const cases = hostileCases.map((c, i) => [c, i] as const).filter(([c]) => filter === undefined || c.name.includes(filter));
  for (const [c, caseIndex] of cases) {
    const big = Math.max(4, Math.round(c.size * scale));
    const sizes = [big / 4, big / 2, big].map((x) => Math.round(x));
    // Warm-up: several parses of the size-n input, so that the timed rounds run optimised code.
    // limit[i]: the first size implementation i is not run at (it failed to finish there, or would take too long).
    const limit: number[] = runners.map(() => sizes.length);
    const notes: string[][] = runners.map(() => sizes.map(() => ""));
    for (let i = 0; i < runners.length; i++) {
      const w = await runners[i]!.run({ caseIndex, n: sizes[0]!, maxRuns: 10, budgetMs: warmupMs }, timeoutMs + warmupMs);
      const failed = typeof w === "string" ? w : w.ms.length === 0 ? w.outcome : undefined;
      if (failed !== undefined) {
        limit[i] = 0;
        notes[i]![0] = failed;
      }
    }
    // Rounds: in each, every (size, implementation) once, one parse, the implementations
    // taking turns in an order rotated from job to job. samples[impl][size] are ms.
    const samples: number[][][] = runners.map(() => sizes.map(() => []));
    const lengths = sizes.map(() => 0);
    let turn = caseIndex;
    for (let round = 0; round < rounds; round++) {
      for (let s = 0; s < sizes.length; s++) {
        turn++;
        for (let k = 0; k < runners.length; k++) {
          const i = (k + turn) % runners.length;
          if (s >= limit[i]!) continue;
          const done = samples[i]![s]!;
          // One parse is enough when it is this slow.
          if (done.length > 0 && median(done) > budgetMs) continue;
          const smaller = s === 0 ? [] : samples[i]![s - 1]!;
          if (done.length === 0 && smaller.length > 0 && median(smaller) * 4 > timeoutMs) {
            limit[i] = s;
            notes[i]![s] = "skipped (4 x the smaller size's time > limit)";
            continue;
          }
          const result = await runners[i]!.run({ caseIndex, n: sizes[s]!, maxRuns: 1, budgetMs: 0 }, timeoutMs);
          const failed = typeof result === "string" ? result : result.ms.length === 0 ? result.outcome : undefined;
          if (failed !== undefined || typeof result === "string") {
            limit[i] = s;
            notes[i]![s] = failed ?? "?";
            continue;
          }
          done.push(result.ms[0]!);
          notes[i]![s] = result.outcome;
          lengths[s] = result.length;
        }
      }
    }
    const cells: Cell[][] = runners.map((_, i) =>
      sizes.map((_, s) => {
        const m = samples[i]![s]!;
        return {
          ms: m.length > 0 ? Math.min(...m) : undefined,
          medianMs: m.length > 0 ? median(m) : undefined,
          note: notes[i]![s] || "not tried",
          length: lengths[s]!,
        };
      }),
    );

    heading(`${c.name}: n = ${sizes[0]!.toLocaleString("en-US")}; input ${lengths.map((l) => l.toLocaleString("en-US")).join(" / ")} code units`);
    const w = Math.max(...implNames.map((n) => n.length));
    console.log(
      `${"implementation".padEnd(w)}  ${"n ms".padStart(9)}  ${"2n ms".padStart(9)}  ${"4n ms".padStart(9)}  ${"2n/n".padStart(6)}  ${"4n/2n".padStart(6)}  ${"exponent".padStart(8)}  ${"ns/unit 4n".padStart(10)}  ${"median 4n".padStart(9)}  result at 4n`,
    );
    const docbaseRow = cells[0]!;
    runners.forEach((r, i) => {
      const row = cells[i]!;
      const t = row.map((x) => x?.ms);
      const ratio = (a: number | undefined, b: number | undefined): string => (a === undefined || b === undefined ? "-" : formatRatio(b / a));
      const exponent = t[0] === undefined || t[2] === undefined ? "-" : (Math.log2(t[2] / t[0]) / 2).toFixed(2);
      const perUnit = t[2] === undefined ? "-" : ((t[2] * 1e6) / lengths[2]!).toFixed(1);
      const last = row[2] ?? row[1] ?? row[0];
      const notes = row.filter((x) => x !== undefined && x.ms === undefined).map((x) => x!.note);
      const result = notes.length > 0 ? notes[0]! : (last?.note ?? "");
      const cellsText = t.map((x, s) => (x === undefined ? (row[s]?.note.startsWith("stopped") ? "> limit" : "-") : formatMs(x)).padStart(9));
      console.log(
        `${r.name.padEnd(w)}  ${cellsText.join("  ")}  ${ratio(t[0], t[1]).padStart(6)}  ${ratio(t[1], t[2]).padStart(6)}  ${exponent.padStart(8)}  ${perUnit.padStart(10)}  ${(row[2]?.medianMs === undefined ? "-" : formatMs(row[2].medianMs)).padStart(9)}  ${result}`,
      );
    });
    const outcomes = new Set(cells.map((row) => row[2]).filter((x) => x !== undefined && x.ms !== undefined).map((x) => x!.note));
    if (outcomes.size > 1) console.log(`note: the implementations disagree at 4n: ${[...outcomes].join(" / ")}`);
    const d = docbaseRow.map((x) => x?.ms);
    const vs = (name: ImplName, label: string): string => {
      const row = cells[implNames.indexOf(name)]!;
      const peer = row[2]!;
      if (d[2] === undefined) return "";
      if (peer.ms === undefined) return `, ${label} did not finish (${row.find((x) => x.ms === undefined)!.note})`;
      if (peer.note !== docbaseRow[2]!.note) return `, not comparable with ${label} (${label} gives ${peer.note}, docbase ${docbaseRow[2]!.note})`;
      return `, ${formatRatio(peer.ms / d[2])}x as fast as ${label}`;
    };
    summary.push(
      `${c.name.padEnd(40)} docbase ${d[2] === undefined ? `did not finish (${docbaseRow.find((x) => x.ms === undefined)?.note ?? "?"})` : `${formatMs(d[2])} ms at 4n, per doubling x${ratio2(d[0], d[1])} then x${ratio2(d[1], d[2])}`}${vs("Node URL.parse (ada)", "Node")}${vs("whatwg-url parseURL", "whatwg-url")}`,
    );
  }

  heading("summary: docbase parseURL at 4n, growth per doubling, speed against the peers at 4n");
  for (const line of summary) console.log(line);
  await Promise.all(runners.map((r) => r.terminate()));
}

function ratio2(a: number | undefined, b: number | undefined): string {
  return a === undefined || b === undefined ? "?" : formatRatio(b / a);
}

if (isMainThread) await main();
else workerMain();
