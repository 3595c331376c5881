/**
 * Question: what do `links`, `check` and `rewrite` of a very large
 * link-dense file cost — time and peak memory — now that a file over the
 * streaming threshold is read twice (a first pass settles its encoding and
 * its `<base>`, then the stream holds nothing), with the only `<base>` at
 * the end of the file, next to the same file with its `<base>` in the head
 * (where the first pass stops after the head)?
 *
 * Input, generated into the system's temporary directory: `<p>text <a
 * href="x.html">l</a> <img src=i.png srcset="a.png 1x, b.png 2x">
 * café</p>` repeated (about 14 links per 100 bytes) to DOCBASE_BENCH_MB
 * megabytes (default 1024), with `<base href="/moved/">` at its end, or in
 * its head. Each command runs the built command (`dist/cli/main.js`) once,
 * as a subprocess under GNU time (wall time, CPU time, peak RSS), output
 * to /dev/null: `links FILE` (the table), `check FILE --no-fragments
 * --format json` (JSON lines leave as they come), `check FILE` (the text
 * report, fragments checked: its findings — one a link on this page —
 * spooled and sorted on disk), `rewrite DIR --absolute --out OUT`.
 *
 *   DOCBASE_BENCH_MB=1024 node_modules/.bin/node bench/cli-streamed-file.ts
 *
 * (DOCBASE_BENCH_BUILT=1 skips the build of dist/; DOCBASE_BENCH_COMMANDS
 * (`links,check,rewrite`, or a row's name: `check FILE`) and DOCBASE_BENCH_BASE (`end`, `head` or `both`)
 * run a part of the table: at 1 GiB each command takes minutes.)
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const megabytes = Number(process.env["DOCBASE_BENCH_MB"] ?? 1024);
const dir = mkdtempSync(path.join(os.tmpdir(), "docbase-bench-streamed-"));
const cli = path.join(repo, "dist/cli/main.js");
const UNIT = '<p>text <a href="x.html">l</a> <img src=i.png srcset="a.png 1x, b.png 2x"> café</p>\n';

/** Writes the page: the head (with the base, if `early`), the unit to `megabytes`, then the base (if late). */
function generate(file: string, early: boolean): number {
  const fd = openSync(file, "w");
  const block = Buffer.from(UNIT.repeat(Math.floor(1_048_576 / Buffer.byteLength(UNIT))));
  let size = writeSync(fd, `<!doctype html><meta charset=utf-8>${early ? '<base href="/moved/">' : ""}<title>big</title>\n`);
  while (size < megabytes * 1024 * 1024) size += writeSync(fd, block);
  if (!early) size += writeSync(fd, '<base href="/moved/"><a href="last.html">last</a>\n');
  closeSync(fd);
  return size;
}

/** Runs the command once: wall time, CPU time (user + system, of the command and the workers it waited for), peak RSS (GNU time's, the largest process's). */
function run(args: readonly string[]): { seconds: number; cpu: number; peakMB: number; code: number | null } {
  const start = performance.now();
  const result = spawnSync("/usr/bin/time", ["-f", "%M %U %S", process.execPath, cli, ...args], { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  const seconds = (performance.now() - start) / 1000;
  const lines = result.stderr.trim().split("\n");
  const [peak, user, system] = lines[lines.length - 1]!.split(" ").map(Number);
  return { seconds, cpu: user! + system!, peakMB: peak! / 1024, code: result.status };
}

/** The commands to run (DOCBASE_BENCH_COMMANDS, default all three). */
const only = new Set((process.env["DOCBASE_BENCH_COMMANDS"] ?? "links,check,rewrite").split(","));
/** Where the `<base>` goes (DOCBASE_BENCH_BASE: end, head, or both, the default). */
const bases = ({ end: [false], head: [true] } as Record<string, boolean[]>)[process.env["DOCBASE_BENCH_BASE"] ?? "both"] ?? [false, true];

function main(): void {
  // DOCBASE_BENCH_BUILT=1: dist/ is current (built by the test run going on), not built again under it.
  if (process.env["DOCBASE_BENCH_BUILT"] === undefined) {
    const build = spawnSync(path.join(repo, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: repo, stdio: "inherit" });
    if (build.status !== 0) throw new Error("the build failed");
  }
  console.log(`| command | <base> | size | time | CPU | peak RSS | exit |\n|---|---|---|---|---|---|---|`);
  for (const early of bases) {
    const site = path.join(dir, early ? "early" : "late");
    mkdirSync(site);
    const file = path.join(site, "index.html");
    const size = generate(file, early);
    const url = "https://example.com/";
    const commands: [string, string[]][] = [
      ["links FILE", ["links", file, "--url", url, "-q"]],
      ["check FILE --no-fragments --format json", ["check", file, "--url", url, "--no-fragments", "--format", "json", "-q"]],
      ["check FILE", ["check", file, "--url", url, "-q"]],
      ["rewrite DIR --absolute --out", ["rewrite", site, "--url", url, "--absolute", "--out", path.join(dir, `out-${early ? "early" : "late"}`), "-q"]],
    ];
    for (const [name, args] of commands) {
      if (!only.has(args[0]!) && !only.has(name)) continue;
      const m = run(args);
      console.log(`| \`${name}\` | ${early ? "in the head" : "at the end"} | ${(size / 1024 / 1024).toFixed(0)} MiB | ${m.seconds.toFixed(1)} s | ${m.cpu.toFixed(1)} s | ${m.peakMB.toFixed(0)} MB | ${String(m.code)} |`);
    }
    rmSync(site, { recursive: true, force: true });
    rmSync(path.join(dir, `out-${early ? "early" : "late"}`), { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`\n(node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, ${os.availableParallelism()} cores; one run each; the machine may be shared)`);
}

main();
