/**
 * Question: does the command stay near-linear, in time and memory, on the
 * hostile inputs of issue 16 — nested srcdoc documents, huge invalid URLs
 * through `check`, very large pages — and what is the largest page it
 * handles in a 2 GiB heap?
 *
 * Inputs, generated into the system's temporary directory:
 * - srcdoc nesting of n and 2n levels (each level `<a href=lN>` and an
 *   iframe whose srcdoc is the next level, escaped once more per level);
 * - one `<a href>` of 40 KB and of 2 MB of "% " pairs (two validation
 *   errors per pair), through `check`;
 * - pages of 25, 50 and 100 MB of links (`<p><a href="/pN.html">…`),
 *   through `links --json` with a 2 GiB heap (`--max-old-space-size=2048`)
 *   and `--max-file-size 1G`.
 *
 * Each runs the built command (`dist/cli/main.js`) as a subprocess under
 * GNU time (wall time, peak RSS), once.
 *
 *   node_modules/.bin/node bench/cli-hostile.ts [--quick]
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const dir = mkdtempSync(path.join(os.tmpdir(), "docbase-bench-hostile-"));
const cli = path.join(repo, "dist/cli/main.js");
const url = "https://example.com/";

function nested(levels: number): string {
  let inner = `<a href="l${levels}">x</a>`;
  for (let level = levels - 1; level >= 0; level--) inner = `<a href="l${level}">x</a><iframe srcdoc="${inner.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>`;
  return inner;
}

function page(megabytes: number): string {
  const parts: string[] = ["<!doctype html><meta charset=utf-8><title>big</title>"];
  let size = 0;
  for (let i = 0; size < megabytes * 1e6; i++) {
    const piece = `<p>Paragraph ${i} <a href="/section/p${i % 5000}.html?x=${i}">link ${i}</a> and <img src="img/${i % 300}.png" alt=""></p>\n`;
    parts.push(piece);
    size += piece.length;
  }
  return parts.join("");
}

interface Measure {
  readonly seconds: number;
  readonly peakMB: number;
  readonly code: number | null;
  readonly tail: string;
}

function run(args: readonly string[], nodeArgs: readonly string[] = []): Measure {
  const start = performance.now();
  const result = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, ...nodeArgs, cli, ...args], { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "ignore", "pipe"] });
  const seconds = (performance.now() - start) / 1000;
  const lines = result.stderr.trim().split("\n");
  const peakKB = Number(lines[lines.length - 1]);
  return { seconds, peakMB: peakKB / 1024, code: result.status, tail: lines.slice(-3, -1).join(" | ").slice(0, 160) };
}

function row(name: string, bytes: number, m: Measure): void {
  console.log(`${name.padEnd(44)} ${(bytes / 1e6).toFixed(1).padStart(7)} MB ${m.seconds.toFixed(2).padStart(7)} s ${m.peakMB.toFixed(0).padStart(6)} MB peak  exit ${String(m.code)}  ${m.tail}`);
}

function main(): void {
  const build = spawnSync(path.join(repo, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: repo, stdio: "inherit" });
  if (build.status !== 0) throw new Error("the build failed");
  const levels = quick ? [354, 707] : [707, 1414];
  for (const n of levels) {
    const file = path.join(dir, `srcdoc-${n}.html`);
    const html = nested(n);
    writeFileSync(file, html);
    row(`check: srcdoc nested ${n} levels`, html.length, run(["check", file, "--url", url, "--max-file-size", "1G"]));
  }
  for (const size of quick ? [40_000, 400_000] : [40_000, 2_000_000]) {
    const file = path.join(dir, `href-${size}.html`);
    const html = `<a href="${"% ".repeat(size / 2)}">x</a>`;
    writeFileSync(file, html);
    row(`check: one href of ${size.toLocaleString("en-US")} "% " chars`, html.length, run(["check", file, "--url", url]));
  }
  for (const mb of quick ? [10, 25] : [25, 50, 100]) {
    const file = path.join(dir, `page-${mb}.html`);
    const html = page(mb);
    writeFileSync(file, html);
    row(`links --json: a ${mb} MB page, 2 GiB heap`, html.length, run(["links", file, "--url", url, "--json", "--max-file-size", "1G"], ["--max-old-space-size=2048"]));
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`\n(node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, ${os.availableParallelism()} cores; one run each; the machine may be shared)`);
}

main();
