// Question: how much faster does a jsdom window answer URL reads with
// docbase installed than plain jsdom, on the same jsdom, in one process?
//   node_modules/.bin/node --expose-gc bench/jsdom-install.ts [--quick]
// Corpus: a generated document of 16,384 anchors with relative hrefs under a
// <base> (a shape real pages have), plus the HTML5 spec page of the corpus.
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { JSDOM } from "jsdom";
import { install } from "../src/jsdom/index.ts";

const quick = process.argv.includes("--quick");
const anchors = quick ? 4096 : 16384;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * A full collection, then 200 ms in which the main thread is blocked
 * (Atomics.wait: no task, no microtask runs). After gc(), V8 goes on
 * sweeping on its helper threads; on a machine where this process has one
 * core (`taskset -c 1`) they would take it from the timed loop that follows,
 * which costs a short loop (docbase's) proportionally more than a long one.
 */
function collect(): void {
  gc();
  Atomics.wait(pause, 0, 0, 200);
}

function generated(): string {
  let html = '<!doctype html><head><base href="/docs/v1/"></head><body>';
  for (let i = 0; i < anchors; i++) html += `<a href="../page-${i}.html?q=${i}#s${i % 7}">${i}</a>`;
  return html;
}

const corpusPage = gunzipSync(readFileSync(resolve(import.meta.dirname, "../../shared/corpus/html-whatwg-spec-excerpt-2015.html.gz"))).toString("utf8");

interface Measure {
  /** ms for `new JSDOM()` and a first read of a document property: parsing, and with docbase the installation and the document's activation at the end of parsing. */
  construct: number;
  first: number;
  repeat: number;
  alternate: number;
  values: string;
}

function measure(html: string, url: string, withDocbase: boolean): Measure {
  collect();
  let t = performance.now();
  const dom = new JSDOM(html, { url, ...(withDocbase ? { beforeParse: (w: unknown) => void install(w) } : {}) });
  // The first read of a property of the document after parsing makes jsdom
  // build the document's named-property map (a walk of the whole tree, 10-20
  // ms on the spec page): docbase's activation makes that read inside
  // `new JSDOM`, a plain window at its caller's first use of the document.
  // Both timings include it, so that the row shows what docbase adds.
  void dom.window.document.documentElement;
  const construct = performance.now() - t;
  const links = [...dom.window.document.querySelectorAll("a[href]")] as unknown as { href: string; pathname: string; setAttribute(n: string, v: string): void }[];
  collect();
  t = performance.now();
  let check = "";
  for (const a of links) check = a.href;
  const first = (performance.now() - t) / links.length;
  const rounds = 3;
  t = performance.now();
  for (let r = 0; r < rounds; r++) for (const a of links) check = a.href;
  const repeat = (performance.now() - t) / (links.length * rounds);
  const sample = links.slice(0, Math.min(links.length, 2000));
  t = performance.now();
  for (let i = 0; i < sample.length; i++) {
    const a = sample[i]!;
    a.setAttribute("href", `/alt/${i}/x.html`);
    check = a.pathname;
  }
  const alternate = (performance.now() - t) / sample.length;
  const values = links.slice(0, 50).map((a) => a.href).join("\n");
  dom.window.close();
  return { construct, first: first * 1000, repeat: repeat * 1000, alternate: alternate * 1000, values: values + check.slice(0, 0) };
}

console.log(`jsdom ${JSON.stringify((await import("jsdom/package.json", { with: { type: "json" } })).default.version)}, ${anchors} generated anchors; µs per read, median of ${quick ? 3 : 5} interleaved rounds\n`);
for (const [name, html, url] of [
  ["generated anchors", generated(), "https://example.com/a/b.html"],
  ["HTML spec excerpt 2015 (3,819 <a href>)", corpusPage, "https://html.spec.whatwg.org/multipage/"],
] as const) {
  const plain: Measure[] = [];
  const docbase: Measure[] = [];
  for (let round = 0; round < (quick ? 3 : 5); round++) {
    if (round % 2 === 0) {
      plain.push(measure(html, url, false));
      docbase.push(measure(html, url, true));
    } else {
      docbase.push(measure(html, url, true));
      plain.push(measure(html, url, false));
    }
  }
  if (plain[0]!.values !== docbase[0]!.values) console.log("  note: values differ between plain jsdom and docbase on this page");
  const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(name);
  {
    const p = median(plain.map((m) => m.construct));
    const d = median(docbase.map((m) => m.construct));
    console.log(`  ${"new JSDOM + document".padEnd(26)} plain ${p.toFixed(1).padStart(8)} ms   docbase ${d.toFixed(1).padStart(8)} ms   ${d - p >= 0 ? "+" : ""}${(d - p).toFixed(1)} ms`);
  }
  for (const key of ["first", "repeat", "alternate"] as const) {
    const p = median(plain.map((m) => m[key]));
    const d = median(docbase.map((m) => m[key]));
    const label = { first: "a.href, first read", repeat: "a.href, repeated read", alternate: "setAttribute + pathname" }[key];
    console.log(`  ${label.padEnd(26)} plain ${p.toFixed(2).padStart(8)} µs   docbase ${d.toFixed(2).padStart(8)} µs   ${(p / d).toFixed(1)}x faster`);
  }
}
