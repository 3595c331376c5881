/**
 * Question: of the first rounds of `extractLinks` on a corpus page — the
 * rounds a command pays on each of its first pages, and the rounds 2–5 the
 * instruction figure of bench/icount-workload.ts counts — how much is V8
 * compiling and deoptimising the code, rather than running it? This
 * checkout against another one (`--previous=DIR`).
 *
 * Each checkout runs in a child process with V8's `--trace-opt` and
 * `--trace-deopt`, `--single-threaded` (compilation on the main thread, as
 * under ../shared/tools/icount) and `--predictable-gc-schedule`; the child
 * extracts the page's links `--rounds` times (default 8) and marks each
 * round in its output. Per round: the milliseconds V8 reports for its
 * optimising compilations (Maglev and TurboFan), the deoptimisations (eager
 * and lazy) with their reasons, and the functions whose compilation cost
 * the most. Timings of a traced run are slower than an untraced one's; the
 * counts (compilations, deoptimisations) are the figures to compare.
 *
 *   DOCBASE_CORPUS=../shared/corpus node_modules/.bin/node bench/extract-warm-up.ts [--page=new-zealand] [--rounds=8] [--previous=DIR]
 *
 * @module
 */

import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { flag } from "./harness.ts";

const page = flag("page") ?? "new-zealand";
const rounds = Number(flag("rounds") ?? 8);
const previous = flag("previous");
const here = resolve(import.meta.dirname, "..");

/** The child's job: `rounds` extractions of the page by CHECKOUT, each round marked. */
const child = (checkout: string): string =>
  [
    `import { extractLinks } from ${JSON.stringify(pathToFileURL(resolve(checkout, "src/links/index.ts")).href)};`,
    `import { readCorpusPage } from ${JSON.stringify(pathToFileURL(resolve(here, "bench/harness.ts")).href)};`,
    `const { html, url } = readCorpusPage(${JSON.stringify(page)});`,
    `const bytes = new TextEncoder().encode(html);`,
    `let n = 0;`,
    `for (let r = 0; r < ${rounds}; r++) {`,
    `  console.log("=== round " + r);`,
    `  n += extractLinks(bytes, { url }).length;`,
    `}`,
    `console.log("=== end " + n);`,
  ].join("\n");

interface Round {
  compileMs: number;
  compilations: number;
  deopts: Map<string, number>;
  byFunction: Map<string, number>;
}

function newRound(): Round {
  return { compileMs: 0, compilations: 0, deopts: new Map(), byFunction: new Map() };
}

const compiled = /<JSFunction (\S+) .*\(target (\w+)\)( OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms/;
const bailout = /\[bailout \(kind: ([\w-]+), reason: (.*?)\): begin\. deoptimizing \S+ <JSFunction (\S+) /;

/** Rounds of the child's trace; the first entry is the loading of the modules (before round 0). */
function readTrace(trace: string): Round[] {
  const result = [newRound()];
  for (const line of trace.split("\n")) {
    if (line.startsWith("=== round ")) {
      result.push(newRound());
      continue;
    }
    if (line.startsWith("=== end")) break;
    const round = result[result.length - 1]!;
    const c = compiled.exec(line);
    if (c !== null) {
      const ms = Number(c[4]) + Number(c[5]) + Number(c[6]);
      const name = `${c[1]} (${c[2] === "TURBOFAN_JS" ? "TurboFan" : c[2] === "MAGLEV" ? "Maglev" : c[2]}${c[3] ?? ""})`;
      round.compileMs += ms;
      round.compilations++;
      round.byFunction.set(name, (round.byFunction.get(name) ?? 0) + ms);
      continue;
    }
    const b = bailout.exec(line);
    if (b !== null && !b[2]!.startsWith("prepare for on stack replacement")) {
      const key = `${b[3]}: ${b[2]}`;
      round.deopts.set(key, (round.deopts.get(key) ?? 0) + 1);
    }
  }
  return result;
}

function report(name: string, checkout: string): void {
  const trace = execFileSync(
    process.execPath,
    ["--single-threaded", "--predictable-gc-schedule", "--trace-opt", "--trace-deopt", "--input-type=module", "-e", child(checkout)],
    { encoding: "utf8", env: process.env, maxBuffer: 1 << 30 },
  );
  const result = readTrace(trace);
  console.log(`\n${name}: ${page}, ${rounds} rounds`);
  console.log("| round | compilations | compiling, ms | deoptimisations | the costliest compilations |");
  console.log("|---|---|---|---|---|");
  let laterMs = 0;
  let laterDeopts = 0;
  result.forEach((round, i) => {
    const deopts = [...round.deopts.values()].reduce((a, b) => a + b, 0);
    if (i >= 2 && i <= 5) {
      laterMs += round.compileMs;
      laterDeopts += deopts;
    }
    const top = [...round.byFunction].sort((a, b) => b[1] - a[1]).slice(0, 3);
    const label = i === 0 ? "loading" : String(i);
    console.log(`| ${label} | ${round.compilations} | ${round.compileMs.toFixed(1)} | ${deopts} | ${top.map(([f, ms]) => `${f} ${ms.toFixed(1)}`).join(", ")} |`);
  });
  console.log(`rounds 2-5 (what icount's 5 rounds − 1 keep): ${laterMs.toFixed(1)} ms compiling, ${laterDeopts} deoptimisations`);
  for (let i = 2; i < result.length; i++) for (const [key, count] of result[i]!.deopts) console.log(`  round ${i}: ${key}${count > 1 ? ` ×${count}` : ""}`);
}

report("this checkout", here);
if (previous !== undefined) report(`previous (${previous})`, resolve(previous));
