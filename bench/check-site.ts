/**
 * Question: how many MB of HTML per second does `docbase check` (with its
 * fragment check) get through on one thread, on a site of real pages —
 * next to `check --no-fragments`, `docbase links --json`, `extractLinks`
 * alone, and linkinator 8 (with and without its fragment check) on the
 * same site?
 *
 * Corpus: the four real pages of ../shared/corpus (two WHATWG specs, two
 * Wikipedia articles; `DOCBASE_CORPUS` names another folder), each copied
 * `--copies=N` times (default 5: about 42 MB) into a site in the system's
 * temporary directory (kept for later runs; `--regenerate` writes it
 * again), plus an index.html that links every page so that a crawler finds
 * them all. Links into the site are fixed up so that most resolve: every
 * link to the page's own origin (Wikipedia's `/wiki/…`, the specs'
 * cross-references) is rewritten, by docbase's own rewriteLinks, to the
 * root-relative path of one of the site's pages chosen by a hash of the
 * original URL, its fragment kept; one such link in 20 is pointed at a page
 * that does not exist, so that `check` has many broken links to report.
 * Fragments are kept as they were: the specs' `#…` references point at ids
 * of the same page, the articles' at ids of other articles, mostly missing.
 *
 * Contenders, each as a user runs it, all on the same files:
 * - `extractLinks` over every file (the link work alone): in this process,
 *   where it is warm after the first round, and in a fresh process that
 *   reads each file once, cold, as the command does;
 * - the built command (`dist/cli/main.js`, built first) as a subprocess,
 *   `links --json` (output to /dev/null), `check` (fragments checked, the
 *   default) and `check --no-fragments`, with `--jobs 1`;
 * - linkinator 8 (a dev dependency) as a subprocess, `linkinator SITE
 *   --recurse --skip '^https?://(?!localhost[:/]|127\.0\.0\.1[:/])'` (it serves the folder itself
 *   from a local server and crawls it over HTTP, as its users run it on a
 *   folder), and the same with `--check-fragments`.
 * The figures are the median wall time over rounds (start to exit), as
 * MB/s of HTML, and the median CPU time of the process and its worker processes (GNU time; every thread:
 * the compiler's and the collector's too), as MB/s per CPU second: on a
 * machine shared with other work, wall time counts the waits for a core,
 * CPU time does not. The ratios are against `docbase check`.
 *
 * `--previous=DIR` adds the same two `check` runs of another checkout's
 * build (`DIR/dist/cli/main.js`, built there beforehand): the build to
 * compare with, in the same rounds.
 *
 *   node_modules/.bin/node --expose-gc bench/check-site.ts [--quick] [--rounds=N] [--copies=N] [--regenerate] [--no-linkinator] [--previous=DIR]
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { extractLinks, rewriteLinks } from "../src/links/index.ts";
import { flag, quick } from "./harness.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const copies = Number(flag("copies") ?? (quick ? 1 : 5));
const rounds = Number(flag("rounds") ?? (quick ? 1 : 3));
const corpusDir = process.env["DOCBASE_CORPUS"] ?? path.join(repo, "../shared/corpus");
const siteURL = "http://localhost/";

const sources = [
  { file: "html-whatwg-html5-spec-2009.html.gz", slug: "spec-2009", url: "https://www.whatwg.org/specs/web-apps/current-work/" },
  { file: "html-whatwg-spec-excerpt-2015.html.gz", slug: "spec-2015", url: "https://html.spec.whatwg.org/multipage/" },
  { file: "html-wikipedia-911-victims-list.html.gz", slug: "wiki-911", url: "https://en.wikipedia.org/wiki/List_of_victims_of_the_September_11_attacks" },
  { file: "html-wikipedia-new-zealand.html.gz", slug: "wiki-nz", url: "https://en.wikipedia.org/wiki/New_Zealand" },
];

/** The site's page paths, in a fixed order. */
const sitePages = sources.flatMap((source) => Array.from({ length: copies }, (_, copy) => `${source.slug}/${copy}.html`));

/** FNV-1a, for a deterministic choice of target page. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Writes the site (unless it is there already); its directory and total HTML bytes. */
function generateSite(): { dir: string; bytes: number; files: string[] } {
  const dir = path.join(os.tmpdir(), `docbase-bench-check-site-v1-${copies}`);
  const stamp = path.join(dir, ".complete");
  if (!existsSync(stamp) || argv.includes("--regenerate")) {
    rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`generating ${sitePages.length} pages in ${dir} ... `);
    for (const source of sources) {
      const original = new Uint8Array(gunzipSync(readFileSync(path.join(corpusDir, source.file))));
      const origin = new URL(source.url).origin;
      const fixed = rewriteLinks(original, {
        url: source.url,
        rewrite: (link) => {
          if (link.url === null || link.kind === "srcset" || !link.url.startsWith(`${origin}/`)) return undefined;
          const target = new URL(link.url);
          if (target.pathname === new URL(source.url).pathname) return undefined; // the page itself: its own #fragments stay
          const h = hash(target.pathname);
          const fragment = target.hash;
          if (h % 20 === 0) return `/missing/${h % 1000}.html${fragment}`;
          return `/${sitePages[h % sitePages.length]!}${fragment}`;
        },
      });
      mkdirSync(path.join(dir, source.slug), { recursive: true });
      for (let copy = 0; copy < copies; copy++) writeFileSync(path.join(dir, source.slug, `${copy}.html`), fixed);
    }
    const index = `<!doctype html><meta charset="utf-8"><title>site</title>\n${sitePages.map((p) => `<a href="/${p}">${p}</a>`).join("\n")}\n`;
    writeFileSync(path.join(dir, "index.html"), index);
    writeFileSync(stamp, "");
    console.log("done");
  }
  const files = ["index.html", ...sitePages];
  let bytes = 0;
  for (const file of files) bytes += statSync(path.join(dir, file)).size;
  return { dir, bytes, files };
}

/** A run's wall and CPU milliseconds. */
interface Timing {
  readonly wall: number;
  readonly cpu: number;
}

/** Where GNU time writes a run's CPU seconds (user and system, the process's and its worker processes'). */
const timeFile = path.join(os.tmpdir(), `docbase-bench-check-site-time-${process.pid}`);

/**
 * Wall and CPU milliseconds of one Node.js subprocess run (`node ARGS`, its
 * output to /dev/null), its worker processes' CPU included (GNU time: the
 * command reads large files in workers, which the process's own
 * `cpuUsage()` does not count); exit codes 0 and 1 (problems reported) are fine.
 */
function timeRun(args: readonly string[], cwd: string): Timing {
  const devNull = openSync("/dev/null", "w");
  const start = performance.now();
  const result = spawnSync("/usr/bin/time", ["-f", "%U %S", "-o", timeFile, process.execPath, ...args], { cwd, stdio: ["ignore", devNull, "pipe"], maxBuffer: 1 << 30, timeout: 30 * 60_000 });
  const wall = performance.now() - start;
  closeSync(devNull);
  const stderr = result.stderr.toString();
  if (result.status !== 0 && result.status !== 1) {
    throw new Error(`node ${args.join(" ")} exited with ${String(result.status)}: ${stderr.slice(0, 2000)}`);
  }
  const cpu = /([\d.]+) ([\d.]+)\s*$/.exec(readFileSync(timeFile, "utf8"));
  if (cpu === null) throw new Error(`node ${args.join(" ")}: GNU time did not report its CPU time`);
  return { wall, cpu: (Number(cpu[1]) + Number(cpu[2])) * 1000 };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function main(): void {
  const build = spawnSync(path.join(repo, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: repo, stdio: "inherit" });
  if (build.status !== 0) throw new Error("the build failed");
  const site = generateSite();
  const mb = site.bytes / 1e6;
  console.log(`site: ${site.files.length} HTML files, ${mb.toFixed(1)} MB (${copies} copies of 4 real pages + an index), root URL ${siteURL}`);

  const cli = path.join(repo, "dist/cli/main.js");
  const linkinator = path.join(repo, "node_modules/linkinator/build/src/cli.js");
  const urls = site.files.map((file) => new URL(file.replaceAll(path.sep, "/"), siteURL).href);
  // The cold extraction: a fresh process that imports the built library and reads each file once.
  const coldScript = [
    `import { readFileSync } from "node:fs";`,
    `import { extractLinks } from ${JSON.stringify(pathToFileURL(path.join(repo, "dist/links/index.js")).href)};`,
    `const files = ${JSON.stringify(site.files.map((file) => path.join(site.dir, file)))};`,
    `const urls = ${JSON.stringify(urls)};`,
    `let links = 0;`,
    `for (let i = 0; i < files.length; i++) links += extractLinks(new Uint8Array(readFileSync(files[i])), { url: urls[i] }).length;`,
    `if (links === 0) throw new Error("no links");`,
  ].join("\n");
  const contenders: { name: string; run: () => Timing }[] = [
    {
      name: "extractLinks (in this process, warm)",
      run: () => {
        const start = performance.now();
        const cpuStart = process.cpuUsage();
        let links = 0;
        for (let i = 0; i < site.files.length; i++) links += extractLinks(new Uint8Array(readFileSync(path.join(site.dir, site.files[i]!))), { url: urls[i]! }).length;
        if (links === 0) throw new Error("no links");
        const cpu = process.cpuUsage(cpuStart);
        return { wall: performance.now() - start, cpu: (cpu.user + cpu.system) / 1000 };
      },
    },
    { name: "extractLinks (fresh process, cold)", run: () => timeRun(["--input-type=module", "-e", coldScript], repo) },
    { name: "docbase links --json --jobs 1", run: () => timeRun([cli, "links", site.dir, "--url", siteURL, "--json", "--jobs", "1"], repo) },
    { name: "docbase check --jobs 1", run: () => timeRun([cli, "check", site.dir, "--url", siteURL, "--jobs", "1"], repo) },
    { name: "docbase check --jobs 1 --no-fragments", run: () => timeRun([cli, "check", site.dir, "--url", siteURL, "--jobs", "1", "--no-fragments"], repo) },
  ];
  const previous = flag("previous");
  if (previous !== undefined) {
    const previousCli = path.resolve(previous, "dist/cli/main.js");
    if (!existsSync(previousCli)) throw new Error(`--previous: no build at ${previousCli}`);
    contenders.push(
      { name: "previous build: check --jobs 1", run: () => timeRun([previousCli, "check", site.dir, "--url", siteURL, "--jobs", "1"], repo) },
      { name: "previous build: check --jobs 1 --no-fragments", run: () => timeRun([previousCli, "check", site.dir, "--url", siteURL, "--jobs", "1", "--no-fragments"], repo) },
    );
  }
  if (!argv.includes("--no-linkinator")) {
    // External links are skipped (the network is closed, and docbase check does not fetch them either).
    const skip = ["--skip", "^https?://(?!localhost[:/]|127\\.0\\.0\\.1[:/])"];
    contenders.push(
      { name: "linkinator 8 --recurse", run: () => timeRun([linkinator, site.dir, "--recurse", ...skip, "--format", "json"], repo) },
      { name: "linkinator 8 --recurse --check-fragments", run: () => timeRun([linkinator, site.dir, "--recurse", "--check-fragments", ...skip, "--format", "json"], repo) },
    );
  }

  const times = new Map<string, Timing[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    // Interleaved, in an order rotated by one each round.
    for (let k = 0; k < contenders.length; k++) {
      const contender = contenders[(k + round) % contenders.length]!;
      (globalThis as { gc?: () => void }).gc?.();
      const timing = contender.run();
      times.get(contender.name)!.push(timing);
      process.stdout.write(`  round ${round + 1}: ${contender.name} ${(timing.wall / 1000).toFixed(2)} s wall, ${(timing.cpu / 1000).toFixed(2)} s CPU\n`);
    }
  }

  const wall = (name: string): number => median(times.get(name)!.map((t) => t.wall));
  const cpu = (name: string): number => median(times.get(name)!.map((t) => t.cpu));
  const reference = "docbase check --jobs 1";
  console.log(`\n${"contender".padEnd(44)} ${"wall s".padStart(7)} ${"MB/s".padStart(6)} ${"ratio".padStart(6)}  ${"CPU s".padStart(6)} ${"MB/CPU s".padStart(8)} ${"ratio".padStart(6)}`);
  for (const contender of contenders) {
    const w = wall(contender.name);
    const c = cpu(contender.name);
    console.log(
      `${contender.name.padEnd(44)} ${(w / 1000).toFixed(2).padStart(7)} ${(mb / (w / 1000)).toFixed(1).padStart(6)} ${`${(wall(reference) / w).toFixed(2)}×`.padStart(6)}  ${(c / 1000).toFixed(2).padStart(6)} ${(mb / (c / 1000)).toFixed(1).padStart(8)} ${`${(cpu(reference) / c).toFixed(2)}×`.padStart(6)}`,
    );
  }
  console.log(`\n(${rounds} round${rounds === 1 ? "" : "s"}, node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, ${os.availableParallelism()} cores; the machine may be shared)`);
}

main();
