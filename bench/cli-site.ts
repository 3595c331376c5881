/**
 * Question: how many pages per second does the `docbase` command get
 * through on a whole site, on one core and on all cores?
 *
 * Corpus: a generated static site of 10,000 pages (`--pages=N`), written
 * once to the system's temporary directory and kept for later runs (it is
 * deterministic; `--regenerate` writes it again). Each page is about 9 KB
 * and has 60 to 70 URLs, in the shapes real sites have them: stylesheets,
 * scripts and icons in the head, a navigation bar of relative links, an
 * article with relative, root-relative, fragment and external links and
 * character references in queries, images with `srcset`, a `style`
 * attribute with `url()`, a footer; one page in 50 has a `<base href>`,
 * one in 100 is windows-1252 with a `<meta charset>`, and one link in 200
 * is broken (a missing file or a space in the URL), so that `check` has
 * something to report.
 *
 * Contenders: the built command (`dist/cli/main.js`, built first with
 * tsc) as a subprocess, as a user runs it, for each command measured —
 * `links --json` (standard output to /dev/null) and `check` — with
 * `--jobs 1` (the main thread alone) and `--jobs N` (N = every core, the
 * default). Runs are interleaved: each round runs every contender once, in
 * an order rotated by one each round. The figure is the median over rounds
 * of the wall time, start to exit, process start-up and the directory walk
 * included, as pages per second; the speed-up is the median of the
 * per-round ratios. The CPU time (user + system, from GNU time) says how
 * much work each run did, whatever else the machine was running: on a
 * shared machine the wall-clock speed-up is what is left of the cores.
 *
 *   node_modules/.bin/node bench/cli-site.ts [--quick] [--rounds=N] [--pages=N] [--regenerate] [--commands=links,check]
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}
const pages = Number(flag("pages") ?? (quick ? 2000 : 10_000));
const rounds = Number(flag("rounds") ?? (quick ? 1 : 5));
const commands = (flag("commands") ?? "links,check").split(",");
const cores = os.availableParallelism();

// --- The site --------------------------------------------------------------------

/** A small deterministic generator (mulberry32), so that the site is the same every time. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SECTIONS = ["docs", "blog", "guides", "api", "news", "about", "help", "examples"];
const WORDS = "the of and to a in is that for it as was with be by on not he this are or his from at which but have an they you were her she there their one all we can has".split(" ");

function pagePath(i: number): string {
  const section = SECTIONS[i % SECTIONS.length]!;
  const group = Math.floor(i / 100) % 25;
  // The first pages are the sections' indexes, and one page in 40 is a directory index: served at its directory's URL.
  if (i < SECTIONS.length) return `${section}/index.html`;
  return i % 40 === 0 ? `${section}/g${group}/topic-${i}/index.html` : `${section}/g${group}/page-${i}.html`;
}

/** The page `i`: its relative path and bytes. */
function page(i: number, total: number): { rel: string; bytes: Uint8Array } {
  const r = random(i + 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const other = (): number => Math.floor(r() * total);
  const rel = pagePath(i);
  const depth = rel.split("/").length - 1;
  const up = "../".repeat(depth);
  const relativeTo = (j: number): string => {
    const target = pagePath(j);
    return up + (target.endsWith("index.html") ? target.slice(0, -"index.html".length) : target);
  };
  const text = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const broken = (): boolean => r() < 0.005;
  const link = (): string => {
    const kind = r();
    if (broken()) return r() < 0.5 ? `${up}missing/page-${other()}.html` : `${up}docs/a page ${other()}.html`;
    if (kind < 0.55) return relativeTo(other());
    if (kind < 0.7) return `/${pagePath(other())}`;
    if (kind < 0.8) return `#section-${Math.floor(r() * 10)}`;
    if (kind < 0.9) return `https://www.example.org/${pick(WORDS)}/${pick(WORDS)}?ref=site&amp;id=${other()}`;
    return `${relativeTo(other())}?tab=${pick(WORDS)}&amp;page=${Math.floor(r() * 9)}#top`;
  };
  const legacy = i % 100 === 7;
  const out: string[] = [];
  out.push("<!doctype html>", '<html lang="en">', "<head>", legacy ? '  <meta charset="windows-1252">' : '  <meta charset="utf-8">');
  out.push(`  <title>${text(5)} — page ${i}</title>`);
  if (i % 50 === 3) out.push(`  <base href="/${SECTIONS[i % SECTIONS.length]}/">`);
  out.push(`  <link rel="stylesheet" href="${up}assets/site.css">`, `  <link rel="stylesheet" href="${up}assets/print.css" media="print">`);
  out.push(`  <link rel="icon" href="/assets/favicon.png">`, `  <link rel="canonical" href="https://example.com/${rel}">`);
  out.push(`  <script src="${up}assets/app.js" defer></script>`, '  <script src="https://cdn.example.net/lib/analytics.js" async></script>', "</head>", "<body>");
  out.push(`  <header style="background-image: url(${up}assets/header.png)">`, "    <nav>");
  for (const section of SECTIONS) out.push(`      <a href="${up}${section}/">${section}</a>`);
  out.push("    </nav>", "  </header>", "  <main>", `    <h1>${text(6)}</h1>`);
  for (let p = 0; p < 12; p++) {
    out.push(`    <p>${text(30)} <a href="${link()}">${text(3)}</a> ${text(25)} <a href="${link()}">${text(2)}</a>.</p>`);
    if (p % 4 === 1) {
      const img = `${up}assets/img/figure-${other() % 500}`;
      out.push(`    <img src="${img}.png" srcset="${img}.png 1x, ${img}@2x.png 2x" alt="${text(3)}" loading="lazy">`);
    }
  }
  out.push("  </main>", "  <footer>");
  for (let f = 0; f < 8; f++) out.push(`    <a href="${link()}">${text(2)}</a>`);
  out.push('    <a href="mailto:web@example.com">Contact</a>', "  </footer>", "</body>", "</html>", "");
  let html = out.join("\n");
  if (legacy) html = html.replace("</h1>", " — caf\u00e9</h1>");
  return { rel, bytes: legacy ? Buffer.from(html, "latin1") : Buffer.from(html, "utf8") };
}

/** Writes the site (unless it is there already) and returns its directory. */
function generateSite(): string {
  const dir = path.join(os.tmpdir(), `docbase-bench-cli-site-v3-${pages}`);
  const stamp = path.join(dir, ".complete");
  if (existsSync(stamp) && !argv.includes("--regenerate")) return dir;
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`generating ${pages.toLocaleString("en-US")} pages in ${dir} ... `);
  const made = new Set<string>();
  for (let i = 0; i < pages; i++) {
    const { rel, bytes } = page(i, pages);
    const file = path.join(dir, rel);
    const parent = path.dirname(file);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(file, bytes);
  }
  mkdirSync(path.join(dir, "assets/img"), { recursive: true });
  for (const asset of ["site.css", "print.css", "favicon.png", "app.js", "header.png"]) writeFileSync(path.join(dir, "assets", asset), "");
  for (let k = 0; k < 500; k++) {
    writeFileSync(path.join(dir, `assets/img/figure-${k}.png`), "");
    writeFileSync(path.join(dir, `assets/img/figure-${k}@2x.png`), "");
  }
  writeFileSync(stamp, new Date().toISOString());
  console.log("done");
  return dir;
}

// --- Measuring ---------------------------------------------------------------------

interface Contender {
  readonly name: string;
  readonly command: string;
  readonly jobs: number;
  readonly args: readonly string[];
  readonly times: number[];
  /** CPU seconds (user + system) of each run, when /usr/bin/time can tell. */
  readonly cpu: number[];
}

/** GNU time, to read a run's CPU time (Node gives no rusage of a child). */
const gnuTime = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
const cpuFile = path.join(os.tmpdir(), `docbase-bench-cpu-${process.pid}.txt`);

const main = path.join(repo, "dist/cli/main.js");

function runOnce(contender: Contender): { ms: number; cpu: number | null } {
  const devNull = openSync("/dev/null", "w");
  const command = [process.execPath, main, ...contender.args, "--jobs", String(contender.jobs), "--quiet"];
  const [file, ...args] = gnuTime === null ? command : [gnuTime, "-f", "%U %S", "-o", cpuFile, ...command];
  const started = performance.now();
  const result = spawnSync(file!, args, { stdio: ["ignore", devNull, "pipe"] });
  const ms = performance.now() - started;
  closeSync(devNull);
  let cpu: number | null = null;
  if (gnuTime !== null) {
    const [user, system] = readFileSync(cpuFile, "utf8").trim().split("\n").pop()!.split(" ").map(Number);
    cpu = (user ?? 0) + (system ?? 0);
  }
  // check exits with 1: it finds the broken links on purpose.
  if (result.status !== 0 && !(contender.command === "check" && result.status === 1)) {
    throw new Error(`${contender.name} failed (${result.status}): ${result.stderr.toString()}`);
  }
  return { ms, cpu };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// --- Main ----------------------------------------------------------------------------

console.log("docbase command on a generated site — pages per second, one core and all cores");
console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, ${cores} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
const build = spawnSync(path.join(repo, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: repo, encoding: "utf8" });
if (!existsSync(main)) throw new Error(`the build failed:\n${build.stdout}${build.stderr}`);
const site = generateSite();
const url = "https://example.com/";
const argsFor: Record<string, readonly string[]> = {
  links: ["links", site, "--url", url, "--json"],
  check: ["check", site, "--url", url],
  rewrite: ["rewrite", site, "--url", url, "--relative", "--dry-run"],
};
const contenders: Contender[] = [];
for (const command of commands) {
  const args = argsFor[command];
  if (args === undefined) throw new Error(`unknown command ${command}`);
  contenders.push({ name: `${command} --jobs 1`, command, jobs: 1, args, times: [], cpu: [] });
  if (cores > 1) contenders.push({ name: `${command} --jobs ${cores}`, command, jobs: cores, args, times: [], cpu: [] });
}
console.log(`site: ${pages.toLocaleString("en-US")} pages; ${rounds} round${rounds === 1 ? "" : "s"}, interleaved\n`);
// One warm-up run of each, untimed (file system cache).
for (const c of contenders) runOnce(c);
for (let round = 0; round < rounds; round++) {
  const order = contenders.map((_, k) => contenders[(k + round) % contenders.length]!);
  if (round % 2 === 1) order.reverse();
  for (const c of order) {
    const { ms, cpu } = runOnce(c);
    c.times.push(ms);
    if (cpu !== null) c.cpu.push(cpu);
  }
  process.stdout.write(`round ${round + 1}/${rounds} done (load ${os.loadavg()[0]!.toFixed(2)})\n`);
}
console.log("");
console.log("| command | threads | median wall time | pages/s | speed-up vs 1 thread | median CPU time (user + sys) |");
console.log("|---|---|---|---|---|---|");
for (const c of contenders) {
  const one = contenders.find((o) => o.command === c.command && o.jobs === 1)!;
  const ratios = c.times.map((t, k) => one.times[k]! / t);
  const ms = median(c.times);
  console.log(`| ${c.command} | ${c.jobs} | ${(ms / 1000).toFixed(2)} s | ${Math.round((pages * 1000) / ms).toLocaleString("en-US")} | ${c.jobs === 1 ? "1.00×" : `${median(ratios).toFixed(2)}×`} | ${c.cpu.length === 0 ? "—" : `${median(c.cpu).toFixed(2)} s`} |`);
}
console.log(`\nload average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
rmSync(cpuFile, { force: true });
