/**
 * Question (issue #18): how fast does docbase rewrite links in a stream —
 * against `rewriteLinks` on the whole document, and against lol-html
 * (html-rewriter-wasm: Cloudflare's streaming rewriter compiled to
 * WebAssembly) doing URL-blind rewriting of the same attributes — how much
 * memory does a stream of 10 MB, 100 MB and 1 GB take, and how soon does
 * the first output chunk come? Targets: throughput ≥ lol-html-wasm's, peak
 * ≤ 64 MiB at 1 GB.
 *
 * The rewrite, the same decision on both sides (stream-rewrite-child.ts):
 * a value that starts with "/" gets "https://cdn.example" in front of it.
 * The attributes are docbase's catalogue less CSS, `srcdoc` and refresh
 * (lol-html sees no `url()`, no document inside an attribute, no URL
 * inside a `content`): lol-html gets one selector per element and
 * attribute (`a[href]`, `img[srcset]`, `[itemid]`, SVG's `[href]`, …) and
 * sets the attribute to the rewritten value (each srcset candidate split on
 * ",", each list item on spaces); docbase's `rewrite` makes the decision on
 * `link.value` for the links of those attributes. docbase does more for it:
 * it builds the tree (parse5's tree construction) to find the base URL,
 * resolves every URL, reads CSS and srcdoc documents, and keeps every other
 * byte as it was (lol-html writes a changed attribute anew).
 *
 * 1. Throughput, on the four `html-*.html.gz` pages of ../shared/corpus as
 *    bytes (encoding sniffed, as a server's stream would be), each its own
 *    interleaved measurement (harness.ts, `measureAsync`): `rewriteLinks`
 *    on the whole document; `LinkStream` fed 64 KiB chunks; the same page
 *    with `<base href>` (its own URL) added after `<head>`, so the stream
 *    flows at once where the page without one is held for its first
 *    `maxHold` bytes (the default, `DEFAULT_MAX_HOLD`: 1 MiB, which is the
 *    whole of the 2015 excerpt and of the New Zealand page);
 *    `createLinkRewriter` with a `ReadableStream` of the same chunks; and
 *    html-rewriter-wasm fed the same chunks, with `await` on each `write`
 *    as its README says, and in a `TransformStream` of the same shape.
 *    Checksum: output bytes plus values rewritten. Before timing, the
 *    streams' output is checked to equal `rewriteLinks`', and the counts
 *    of values each side rewrote are printed.
 * 2. Peak memory, each contender in a fresh child process
 *    (`node --expose-gc`), the page generated on the fly: the head of the
 *    New Zealand page (with or without `<base href>`), then the four pages'
 *    bodies over and over, read from a file into a fresh 64 KiB chunk each
 *    time, to `--sizes` MiB (default 10,100,1000; `--quick`: 10); output
 *    counted and discarded. Peak RSS (VmHWM of /proc/self/status: see
 *    peakRSS in stream-rewrite-child.ts for why not `resourceUsage().maxRSS`),
 *    also before the first chunk (modules loaded, a full collection), and
 *    peaks of the V8 heap sampled after every chunk. `rewriteLinks` (the
 *    whole page in one buffer) at 10 and 100 MiB only: it holds everything,
 *    so 1 GB is not run for it.
 * 3. Time to the first output chunk, from the same children: from the first
 *    chunk written to the first chunk out (a cold process, as a server
 *    starting a response would be).
 *
 *   node_modules/.bin/node --expose-gc bench/stream-rewrite.ts [--quick] [--rounds=N] [--page=SUBSTRING] [--sizes=10,100,1000] [--no-memory | --memory-only] [--web-memory] [--memory-contenders=none,linkstream,web,lol-html,rewrite-links] [--live-heap] [--child-heap=MB]
 *
 * `--web-memory` adds `createLinkRewriter` to the memory runs;
 * `--memory-contenders` keeps only the memory runs of the contenders named;
 * `--live-heap` makes each memory child run a full collection every 16 MiB
 * of chunks and report the most heap it left (what is really held, apart
 * from the collector's slack; it lowers the peaks, so it is not the
 * default); `--child-heap=MB` runs the streaming children with V8's old
 * space capped at MB (`--max-old-space-size`) and 1 MB semi-spaces, as a
 * user who wants a small process would.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { HTMLRewriter } from "html-rewriter-wasm";
import { catalogue, createLinkRewriter, DEFAULT_MAX_HOLD, extractLinks, LinkStream, rewriteLinks } from "../src/links/index.ts";
import {
  compare,
  corpusDir,
  defaultOptions,
  flag,
  heading,
  measureAsync,
  printComparisons,
  printEnvironment,
  printTable,
  quick,
  sinkValue,
  type AsyncContender,
  type Comparison,
  type ComparisonResult,
} from "./harness.ts";
import { addLolHandlers, CHUNK, type ChildContender, type ChildResult, type Counter, docbaseRewrite, touchedRows } from "./stream-rewrite-child.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const documents = [
  { file: "html-whatwg-html5-spec-2009.html.gz", url: "https://www.whatwg.org/specs/web-apps/current-work/" },
  { file: "html-whatwg-spec-excerpt-2015.html.gz", url: "https://html.spec.whatwg.org/multipage/" },
  { file: "html-wikipedia-911-victims-list.html.gz", url: "https://en.wikipedia.org/wiki/List_of_victims_of_the_September_11_attacks" },
  { file: "html-wikipedia-new-zealand.html.gz", url: "https://en.wikipedia.org/wiki/New_Zealand" },
];

/** The bytes of a gzip'd corpus page, as stored (not decoded). */
function readBytes(file: string): Uint8Array {
  return new Uint8Array(gunzipSync(readFileSync(path.join(corpusDir, file))));
}

const encoder = new TextEncoder();

function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, Math.min(i + CHUNK, bytes.length)));
  return chunks;
}

/** A readable stream of the chunks, one per pull (as a file or a socket gives them). */
function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
  });
}

/** Where a byte string first occurs in `bytes` at or after `from`, or -1. */
function indexOf(bytes: Uint8Array, text: string, from = 0): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(text, from, "latin1");
}

/** `bytes` with `insert` put right after the first `<head>` (or `<html …>` when there is no head tag). */
function withBase(bytes: Uint8Array, href: string): Uint8Array {
  let at = indexOf(bytes, "<head>");
  if (at >= 0) at += "<head>".length;
  else {
    at = indexOf(bytes, "<html");
    at = indexOf(bytes, ">", at) + 1;
  }
  const insert = encoder.encode(`<base href="${href}">`);
  const out = new Uint8Array(bytes.length + insert.length);
  out.set(bytes.subarray(0, at));
  out.set(insert, at);
  out.set(bytes.subarray(at), at + insert.length);
  return out;
}

// --- Throughput ----------------------------------------------------------------

interface Page {
  readonly url: string;
  readonly bytes: Uint8Array;
  readonly chunks: readonly Uint8Array[];
  readonly basedChunks: readonly Uint8Array[];
}

const rows = touchedRows(catalogue);

/** `LinkStream` fed the page's 64 KiB chunks (`chunksOf`: the page's own, or those of the page with a `<base>`). */
function linkStreamContender(name: string, chunksOf: (page: Page) => readonly Uint8Array[]): AsyncContender<Page> {
  return {
    name,
    run: (page) => {
      const counter = { rewrites: 0 };
      let bytes = 0;
      const stream = new LinkStream({
        url: page.url,
        rewrite: docbaseRewrite(counter),
        onOutput: (chunk) => {
          bytes += chunk.length;
        },
      });
      for (const chunk of chunksOf(page)) stream.write(chunk);
      stream.end();
      return bytes + counter.rewrites;
    },
  };
}

function lolTransform(counter: Counter): TransformStream<Uint8Array, Uint8Array> {
  let rewriter: HTMLRewriter;
  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      // The output chunks are views of the WebAssembly memory: copied before they leave.
      rewriter = new HTMLRewriter((chunk) => controller.enqueue(chunk.slice()));
      addLolHandlers(rewriter, rows, counter);
    },
    async transform(chunk) {
      await rewriter.write(chunk);
    },
    async flush() {
      try {
        await rewriter.end();
      } finally {
        rewriter.free();
      }
    },
  });
}

function contenders(): AsyncContender<Page>[] {
  const list: AsyncContender<Page>[] = [
    {
      name: "rewriteLinks (whole)",
      run: (page) => {
        const counter = { rewrites: 0 };
        const output = rewriteLinks(page.bytes, { url: page.url, rewrite: docbaseRewrite(counter) });
        return output.length + counter.rewrites;
      },
    },
    {
      name: "lol-html 64K",
      run: async (page) => {
        const counter = { rewrites: 0 };
        let bytes = 0;
        const rewriter = new HTMLRewriter((chunk) => {
          bytes += chunk.length;
        });
        try {
          addLolHandlers(rewriter, rows, counter);
          for (const chunk of page.chunks) await rewriter.write(chunk);
          await rewriter.end();
        } finally {
          rewriter.free();
        }
        return bytes + counter.rewrites;
      },
    },
    {
      name: "lol-html web stream",
      run: async (page) => {
        const counter = { rewrites: 0 };
        let bytes = 0;
        const reader = streamOf(page.chunks).pipeThrough(lolTransform(counter)).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.length;
        }
        return bytes + counter.rewrites;
      },
    },
  ];
  list.push(
      linkStreamContender("LinkStream 64K", (page) => page.chunks),
      linkStreamContender("LinkStream 64K <base>", (page) => page.basedChunks),
      {
        name: "createLinkRewriter",
        run: async (page) => {
          const counter = { rewrites: 0 };
          let bytes = 0;
          const reader = streamOf(page.chunks).pipeThrough(createLinkRewriter({ url: page.url, rewrite: docbaseRewrite(counter) })).getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            bytes += value.length;
          }
          return bytes + counter.rewrites;
        },
      },
  );
  return list;
}

/** The output of a contender's way of streaming, whole, for the check before timing. */
async function collect(readable: ReadableStream<Uint8Array | string>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const reader = readable.getReader(); ; ) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts);
    if (typeof value === "string") throw new Error("bytes in gave text out");
    parts.push(value);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/** Checks that the streams write what rewriteLinks writes, and prints how many values each side rewrote. */
async function check(page: Page): Promise<void> {
  const docbaseCount = { rewrites: 0 };
  const expected = rewriteLinks(page.bytes, { url: page.url, rewrite: docbaseRewrite(docbaseCount) });
  const lolCount = { rewrites: 0 };
  const lolOutput = await collect(streamOf(page.chunks).pipeThrough(lolTransform(lolCount)));
  console.log(
    `values rewritten: docbase ${docbaseCount.rewrites.toLocaleString("en-US")}, lol-html ${lolCount.rewrites.toLocaleString("en-US")}; ` +
      `output ${expected.length.toLocaleString("en-US")} bytes (docbase), ${lolOutput.length.toLocaleString("en-US")} (lol-html)`,
  );
  const parts: Uint8Array[] = [];
  const stream = new LinkStream({ url: page.url, rewrite: docbaseRewrite({ rewrites: 0 }), onOutput: (chunk) => parts.push(chunk as Uint8Array) });
  for (const chunk of page.chunks) stream.write(chunk);
  stream.end();
  const viaLinkStream = Buffer.concat(parts);
  const viaWeb = await collect(streamOf(page.chunks).pipeThrough(createLinkRewriter({ url: page.url, rewrite: docbaseRewrite({ rewrites: 0 }) })));
  const based = Buffer.concat(page.basedChunks);
  const basedExpected = rewriteLinks(based, { url: page.url, rewrite: docbaseRewrite({ rewrites: 0 }) });
  const basedParts: Uint8Array[] = [];
  const basedStream = new LinkStream({ url: page.url, rewrite: docbaseRewrite({ rewrites: 0 }), onOutput: (chunk) => basedParts.push(chunk as Uint8Array) });
  for (const chunk of page.basedChunks) basedStream.write(chunk);
  basedStream.end();
  const verdicts = [sameBytes(viaLinkStream, expected), sameBytes(viaWeb, expected), sameBytes(Buffer.concat(basedParts), basedExpected)];
  console.log(`stream output equals rewriteLinks': LinkStream ${verdicts[0]}, createLinkRewriter ${verdicts[1]}, LinkStream with <base> ${verdicts[2]}`);
  if (verdicts.includes(false)) throw new Error("a stream's output differs from rewriteLinks'");
}

async function throughput(): Promise<ComparisonResult[]> {
  const options = defaultOptions();
  const pageOptions = quick ? { ...options, rounds: 3 } : options;
  const all: ComparisonResult[] = [];
  const only = flag("page");
  for (const doc of documents.filter((d) => only === undefined || d.file.includes(only))) {
    const bytes = readBytes(doc.file);
    const page: Page = { url: doc.url, bytes, chunks: chunksOf(bytes), basedChunks: chunksOf(withBase(bytes, doc.url)) };
    heading(`${doc.file}: ${(bytes.length / 1e6).toFixed(2)} MB, ${page.chunks.length} chunks of 64 KiB`);
    await check(page);
    const m = await measureAsync(page, bytes.length, contenders(), pageOptions);
    printTable(m, "B");
    const comparisons: Comparison[] = [
      { subject: "LinkStream 64K", peer: "lol-html 64K", target: 1 },
      { subject: "LinkStream 64K <base>", peer: "lol-html 64K", target: 1 },
      { subject: "createLinkRewriter", peer: "lol-html web stream", target: 1 },
      { subject: "LinkStream 64K", peer: "rewriteLinks (whole)" },
      { subject: "LinkStream 64K <base>", peer: "rewriteLinks (whole)" },
      { subject: "createLinkRewriter", peer: "rewriteLinks (whole)" },
    ];
    const results = compare(m, comparisons);
    printComparisons(results);
    all.push(...results.map((r) => ({ ...r, subject: `${doc.file.replace(/^html-|\.html\.gz$/g, "")}: ${r.subject}` })));
  }
  return all;
}

// --- Memory and the first output chunk (child processes) ----------------------

const MiB = 1024 * 1024;
const generatedURL = "https://en.wikipedia.org/wiki/New_Zealand";
const generatedBase = "https://en.wikipedia.org/w/";

/** The generated page's parts, written to the temporary directory: the head (with and without `<base>`) and the unit of bodies. */
function writeGeneratedParts(dir: string): { head: string; basedHead: string; unit: string; unitBytes: number } {
  mkdirSync(dir, { recursive: true });
  const nz = readBytes("html-wikipedia-new-zealand.html.gz");
  const bodyTag = indexOf(nz, "<body");
  const head = nz.subarray(0, indexOf(nz, ">", bodyTag) + 1);
  const bodies: Uint8Array[] = [];
  for (const doc of documents) {
    const bytes = readBytes(doc.file);
    const start = indexOf(bytes, ">", indexOf(bytes, "<body")) + 1;
    // The end without a final </body></html> (the generated page closes once).
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
    const end = start + text.slice(start).replace(/(?:<\/body>\s*)?(?:<\/html>\s*)?$/i, "").length;
    bodies.push(bytes.subarray(start, end), encoder.encode("\n"));
  }
  const unit = Buffer.concat(bodies);
  const files = { head: path.join(dir, "head.html"), basedHead: path.join(dir, "head-base.html"), unit: path.join(dir, "unit.html") };
  writeFileSync(files.head, head);
  writeFileSync(files.basedHead, withBase(head, generatedBase));
  writeFileSync(files.unit, unit);
  return { ...files, unitBytes: unit.length };
}

/**
 * Checks the generated page on two units of bodies: every link resolves
 * against the page's own base (no body brings a `<base>`), and the second
 * unit has as many links as the first (no body swallows the rest: an
 * unclosed `<plaintext>`, `<script>`, comment …).
 */
function checkGenerated(parts: { head: string; basedHead: string; unit: string }): void {
  const head = readFileSync(parts.head, "utf8");
  const unit = readFileSync(parts.unit, "utf8");
  const one = extractLinks(head + unit + "</body></html>", { url: generatedURL });
  const two = extractLinks(head + unit + unit + "</body></html>", { url: generatedURL });
  const headLinks = extractLinks(head, { url: generatedURL }).length;
  const bases = new Set(two.filter((l) => l.base !== null).map((l) => l.base));
  const based = extractLinks(readFileSync(parts.basedHead, "utf8") + unit, { url: generatedURL });
  // The <base href> itself resolves against the page's URL (the fallback base URL).
  const basedBases = new Set(based.filter((l) => l.base !== null && l.element !== "base").map((l) => l.base));
  console.log(
    `generated page: head ${headLinks} links, one unit of bodies ${(unit.length / 1e6).toFixed(2)} M chars and ${one.length - headLinks} links, two units ${two.length - headLinks} links; ` +
      `bases ${[...bases].join(", ")}; with <base>: ${[...basedBases].join(", ")}`,
  );
  if (two.length - headLinks !== 2 * (one.length - headLinks) || bases.size !== 1 || basedBases.size !== 1 || !basedBases.has(generatedBase)) {
    throw new Error("the generated page is not what the bench needs (see the line above)");
  }
}

/** This file's sibling, stripped of its types into a temporary .mjs file (see stream-rewrite-child.ts). */
function childScript(dir: string): string {
  const source = readFileSync(path.join(repo, "bench/stream-rewrite-child.ts"), "utf8");
  const file = path.join(dir, "stream-rewrite-child.mjs");
  const silence = process.emitWarning;
  process.emitWarning = () => {}; // stripTypeScriptTypes is experimental and says so
  try {
    writeFileSync(file, stripTypeScriptTypes(source));
  } finally {
    process.emitWarning = silence;
  }
  return file;
}

function build(): void {
  const result = spawnSync(path.join(repo, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: repo, stdio: "inherit" });
  if (result.status !== 0) throw new Error("the build failed");
}

interface MemoryRun {
  readonly contender: ChildContender;
  readonly base: boolean;
  readonly mib: number;
}

/** A child's figures, or why it failed (a heap capped by `--child-heap` can run out). */
function runChild(script: string, parts: { head: string; basedHead: string; unit: string }, run: MemoryRun): ChildResult | string {
  const args = [
    "--expose-gc",
    ...(run.contender === "rewrite-links" ? ["--max-old-space-size=16384"] : childHeap === undefined ? [] : [`--max-old-space-size=${childHeap}`, "--max-semi-space-size=1"]),
    script,
    "--stream-child",
    `--contender=${run.contender}`,
    `--size=${run.mib * MiB}`,
    `--head=${run.base ? parts.basedHead : parts.head}`,
    `--unit=${parts.unit}`,
    `--url=${generatedURL}`,
    `--docbase=${pathToFileURL(path.join(repo, "dist/links/index.js")).href}`,
    `--lol-html=${path.join(repo, "node_modules/html-rewriter-wasm/dist/html_rewriter.js")}`,
    `--rows=${JSON.stringify(rows)}`,
    ...(process.argv.includes("--live-heap") ? ["--live-heap"] : []),
  ];
  const result = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 24, timeout: 60 * 60_000 });
  if (result.status !== 0) {
    if (childHeap !== undefined && result.stderr.includes("heap out of memory")) return `out of memory with --max-old-space-size=${childHeap}`;
    throw new Error(`child ${run.contender} ${run.mib} MiB failed (${result.status ?? result.signal}): ${result.stderr.slice(-2000)}`);
  }
  return JSON.parse(result.stdout.trim().split("\n").pop()!) as ChildResult;
}

const labels: Record<ChildContender, string> = {
  none: "(reading the page only)",
  linkstream: "docbase LinkStream",
  web: "docbase createLinkRewriter",
  "lol-html": "html-rewriter-wasm",
  "rewrite-links": "docbase rewriteLinks (whole)",
};

function mb(bytes: number): string {
  return (bytes / MiB).toFixed(bytes < 10 * MiB ? 1 : 0);
}

const liveHeap = process.argv.includes("--live-heap");
/** `--child-heap=MB`: the streaming children's old space capped at MB, the young generation at 1 MB semi-spaces. */
const childHeap = flag("child-heap");

function memory(): (ChildResult | string)[] {
  const sizes = (flag("sizes") ?? (quick ? "10" : "10,100,1000")).split(",").map(Number);
  heading(`Peak memory and first output on generated pages of ${sizes.join(", ")} MiB (a fresh process each, output discarded)`);
  build();
  const dir = path.join(os.tmpdir(), "docbase-bench-stream-rewrite");
  const parts = writeGeneratedParts(dir);
  checkGenerated(parts);
  const script = childScript(dir);
  const runs: MemoryRun[] = [];
  const streamers: ChildContender[] = ["linkstream", ...(process.argv.includes("--web-memory") ? (["web"] as const) : []), "lol-html"];
  for (const mib of sizes) {
    if (mib === sizes[0]) runs.push({ contender: "none", base: false, mib });
    for (const contender of streamers) for (const base of [false, true]) runs.push({ contender, base, mib });
    if (mib <= 100) runs.push({ contender: "rewrite-links", base: false, mib });
  }
  const only = flag("memory-contenders")?.split(",");
  if (only !== undefined) runs.splice(0, runs.length, ...runs.filter((run) => only.includes(run.contender)));
  console.log(
    `${"contender".padEnd(30)} ${"MiB".padStart(5)} <base>  ${"time".padStart(8)}  ${"MB/s".padStart(6)}  ${"1st out".padStart(9)}  ${"after".padStart(9)}  ` +
      `${"peak RSS".padStart(9)}  ${"before".padStart(7)}  ${"growth".padStart(7)}  ${"heap used".padStart(9)}  ${"heap total".padStart(10)}  ${"external".padStart(8)}  ${"malloced".padStart(8)}  rewrites  warnings${liveHeap ? "  live heap" : ""}`,
  );
  const results: (ChildResult | string)[] = [];
  for (const run of runs) {
    const r = runChild(script, parts, run);
    results.push(r);
    const label = `${labels[run.contender].padEnd(30)} ${String(run.mib).padStart(5)} ${(run.base ? "yes" : "no").padEnd(6)}`;
    if (typeof r === "string") {
      console.log(`${label}  ${r}`);
      continue;
    }
    console.log(
      `${label}  ${`${(r.ms / 1000).toFixed(2)} s`.padStart(8)}  ` +
        `${(r.size / 1e3 / r.ms).toFixed(1).padStart(6)}  ${`${r.firstOutputMs.toFixed(1)} ms`.padStart(9)}  ${`${Math.round(r.firstOutputAfter / 1024).toLocaleString("en-US")} KiB`.padStart(9)}  ` +
        `${`${mb(r.maxRSS)} MiB`.padStart(9)}  ${mb(r.baselineMaxRSS).padStart(7)}  ${mb(r.maxRSS - r.baselineMaxRSS).padStart(7)}  ${mb(r.heapUsedPeak).padStart(9)}  ` +
        `${mb(r.heapTotalPeak).padStart(10)}  ${mb(r.externalPeak).padStart(8)}  ${mb(r.mallocedPeak).padStart(8)}  ${r.rewrites.toLocaleString("en-US").padStart(8)}  ${String(r.warnings).padStart(8)}${liveHeap ? mb(r.liveHeapPeak).padStart(11) : ""}`,
    );
  }
  heading("Time to the first output chunk (from the first chunk written; cold process)");
  for (const mib of sizes) {
    const line = results
      .map((r, i) => ({ r, run: runs[i]! }))
      .filter(({ run }) => run.mib === mib && (run.contender === "linkstream" || run.contender === "web" || run.contender === "lol-html"))
      .map(({ r, run }) => `${labels[run.contender]}${run.base ? " <base>" : ""} ${typeof r === "string" ? "failed" : `${r.firstOutputMs.toFixed(1)} ms`}`);
    console.log(`${String(mib).padStart(5)} MiB: ${line.join(", ")}`);
  }
  const largest = Math.max(...sizes);
  for (const r of results) {
    if (typeof r === "string" || r.contender !== "linkstream" || r.size !== largest * MiB) continue;
    const meets = r.maxRSS <= 64 * MiB;
    console.log(`target peak <= 64 MiB at ${largest} MiB: docbase LinkStream ${mb(r.maxRSS)} MiB: ${meets ? "MET" : "MISSED"} (growth over the loaded process: ${mb(r.maxRSS - r.baselineMaxRSS)} MiB)`);
  }
  return results;
}

// --- Main -----------------------------------------------------------------------

printEnvironment("stream-rewrite: streaming link rewriting vs rewriteLinks and html-rewriter-wasm (lol-html)", defaultOptions());
console.log(`html-rewriter-wasm ${readFileSync(path.join(repo, "node_modules/html-rewriter-wasm/package.json"), "utf8").match(/"version": "([^"]+)"/)?.[1] ?? "?"}; load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; LinkStream's default maxHold ${DEFAULT_MAX_HOLD.toLocaleString("en-US")} bytes`);
console.log(`rewritten attributes: ${rows.map((r) => `${r.namespace === "svg" ? "svg " : ""}${r.elements === "*" ? "*" : r.elements.join("|")}[${r.attribute}]`).join(", ")}`);
if (!process.argv.includes("--memory-only")) {
  const all = await throughput();
  heading("Summary (how many times as fast the subject is as the peer; target >= 1 against lol-html)");
  for (const r of all) console.log(`${r.subject.padEnd(52)} vs ${r.peer.padEnd(22)} ${r.speed.toFixed(2)}x${r.target === undefined ? "" : r.meets === true ? "  MET" : "  MISSED"}`);
}
if (!process.argv.includes("--no-memory")) memory();
console.log(`\n(sink ${sinkValue()})`);
