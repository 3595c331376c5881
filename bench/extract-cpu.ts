/**
 * Question: how much CPU time does `extractLinks` take per round on each
 * corpus page, warm, given the page's bytes (decoding included, as a user
 * calls it) — this checkout against another one (`--previous=DIR`, by
 * default none), in alternating child processes?
 *
 * Each run is a child process per checkout that loads `src/links/index.ts`
 * of that checkout, extracts every page's links 5 times to warm up, then
 * `--rounds` times (default 30), and prints the CPU time (user and system,
 * every thread) per round of each page. Runs alternate between the two
 * checkouts `--runs` times (default 3), so that a change in the machine's
 * load falls on both; the table gives each run's figure and the medians.
 * CPU time, not instructions: a step whose cost is in the kernel (page
 * faults of a large allocation) shows here and not under valgrind (see
 * BENCHMARKS.md for the two kinds of figure).
 *
 *   DOCBASE_CORPUS=../shared/corpus node_modules/.bin/node bench/extract-cpu.ts [--previous=DIR] [--rounds=30] [--runs=3] [--pages=new-zealand,2015,2009,911]
 *
 * @module
 */

import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const flag = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const rounds = Number(flag("rounds") ?? 30);
const runs = Number(flag("runs") ?? 3);
const pages = (flag("pages") ?? "new-zealand,2015,2009,911").split(",");
const previous = flag("previous");
const here = resolve(import.meta.dirname, "..");

/** The child's job: `extractLinks` of CHECKOUT over every page, warm; one line `page ms` per page. */
const child = (checkout: string): string =>
  [
    `import { extractLinks } from ${JSON.stringify(pathToFileURL(resolve(checkout, "src/links/index.ts")).href)};`,
    `import { readCorpusPage } from ${JSON.stringify(pathToFileURL(resolve(here, "bench/harness.ts")).href)};`,
    `for (const page of ${JSON.stringify(pages)}) {`,
    `  const { html, url } = readCorpusPage(page);`,
    `  const bytes = new TextEncoder().encode(html);`,
    `  let n = 0;`,
    `  for (let i = 0; i < 5; i++) n += extractLinks(bytes, { url }).length;`,
    `  const start = process.cpuUsage();`,
    `  for (let i = 0; i < ${rounds}; i++) n += extractLinks(bytes, { url }).length;`,
    `  const cpu = process.cpuUsage(start);`,
    `  if (n === 0) throw new Error("no links");`,
    `  console.log(page, ((cpu.user + cpu.system) / 1000 / ${rounds}).toFixed(2));`,
    `}`,
  ].join("\n");

const checkouts: [string, string][] = [["this checkout", here]];
if (previous !== undefined) checkouts.push([`previous (${previous})`, resolve(previous)]);
const figures = new Map<string, Map<string, number[]>>(checkouts.map(([name]) => [name, new Map(pages.map((page) => [page, []]))]));
for (let run = 0; run < runs; run++) {
  for (const [name, checkout] of checkouts) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", child(checkout)], { encoding: "utf8", env: process.env });
    for (const line of out.trim().split("\n")) {
      const [page, ms] = line.split(" ");
      figures.get(name)!.get(page!)!.push(Number(ms));
    }
    process.stderr.write(`  run ${run + 1}: ${name} done\n`);
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(`extractLinks, CPU ms per round (${rounds} rounds after 5, ${runs} alternating runs; median in bold)`);
console.log(`| page | ${checkouts.map(([name]) => name).join(" | ")}${previous === undefined ? "" : " | ratio |"}`);
console.log(`|---|${checkouts.map(() => "---|").join("")}${previous === undefined ? "" : "---|"}`);
for (const page of pages) {
  const cells = checkouts.map(([name]) => {
    const values = figures.get(name)!.get(page)!;
    return `${values.map((v) => v.toFixed(1)).join(", ")} (**${median(values).toFixed(1)}**)`;
  });
  const ratio = previous === undefined ? "" : ` ${(median(figures.get(checkouts[0]![0])!.get(page)!) / median(figures.get(checkouts[1]![0])!.get(page)!)).toFixed(2)}× |`;
  console.log(`| ${page} | ${cells.join(" | ")} |${ratio}`);
}
console.log(`(node ${process.version}; the machine may be shared)`);
