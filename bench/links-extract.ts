/**
 * Question: what does `extractLinks` cost on real pages, next to a bare
 * parse5 parse of the same page (target: at most 1.2x its time) and to the
 * usual way of getting links with cheerio (`cheerio.load`, select every
 * element with an href or src, `new URL(value, pageURL)`; target: no
 * slower), with jsdom (`new JSDOM(html, { url })`, then `querySelectorAll`
 * and the `href`/`src` getters) and linkedom (`parseHTML`, then the same
 * selection and `new URL`) for comparison? And how much memory does it
 * take on a 100 MB document?
 *
 * Corpus: the four `html-*.html.gz` documents of ../shared/corpus/ (see its
 * README), each with the base URL the README lists, as strings (decoding is
 * not timed). Each document is its own interleaved measurement (see
 * harness.ts) of extractLinks, parse5, cheerio and linkedom; jsdom comes
 * after all of them, paired with extractLinks again, because the memory
 * it keeps after its windows are closed slows every later collection in
 * the process (see jsdomContenders). The peers do less than extractLinks (no srcset, CSS, srcdoc,
 * positions, or `<base>` for cheerio and linkedom); the comparison is of
 * the work a user would do to get the links.
 *
 * Consumer work: the number of links plus the length of every resolved URL.
 *
 * Every contender's parser is kept alive for the run (see keptPeerParsers),
 * as docbase keeps its own: the harness's forced collections would
 * otherwise throw away a peer's optimised parser code before each sample.
 *
 * Memory: a generated document of about 100 MB (the 2015 excerpt repeated,
 * with a `<base>` at the end), in a child process: its peak RSS with
 * extractLinks, and with a bare parse5.parse for scale.
 *
 *   node_modules/.bin/node --expose-gc bench/links-extract.ts [--quick] [--rounds=N] [--page=SUBSTRING] [--no-memory | --memory-only] [--memory-mb=100] [--no-jsdom]
 *
 * @module
 */

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as cheerio from "cheerio";
import { JSDOM } from "jsdom";
import { parseHTML } from "linkedom";
import { parse, Parser } from "parse5";
import { extractLinks } from "../src/links/index.ts";
import {
  compare,
  defaultOptions,
  flag,
  heading,
  measure,
  printComparisons,
  printEnvironment,
  printTable,
  quick,
  readCorpus,
  sinkValue,
  type Comparison,
  type ComparisonResult,
  type Contender,
} from "./harness.ts";

const documents = [
  { file: "html-whatwg-html5-spec-2009.html.gz", base: "https://www.whatwg.org/specs/web-apps/current-work/" },
  { file: "html-whatwg-spec-excerpt-2015.html.gz", base: "https://html.spec.whatwg.org/multipage/" },
  { file: "html-wikipedia-911-victims-list.html.gz", base: "https://en.wikipedia.org/wiki/List_of_victims_of_the_September_11_attacks" },
  { file: "html-wikipedia-new-zealand.html.gz", base: "https://en.wikipedia.org/wiki/New_Zealand" },
];

const NodeURL = globalThis.URL;

function tryURL(value: string, base: string): string | null {
  try {
    return new NodeURL(value, base).href;
  } catch {
    return null;
  }
}

// --- Every contender's parser kept alive -------------------------------------

/**
 * The ESM module a peer package itself imports as `dependency` (its own copy:
 * cheerio has a parse5 7 of its own), found from `peer`'s folder.
 */
async function peerDependency(peer: string, dependency: string): Promise<Record<string, unknown>> {
  const require = createRequire(import.meta.url);
  const peerDir = dirname(require.resolve(`${peer}/package.json`));
  const entry = require.resolve(dependency, { paths: [peerDir] });
  const marker = `${sep}node_modules${sep}${dependency}${sep}`;
  const root = entry.slice(0, entry.lastIndexOf(marker) + marker.length);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports?: unknown; module?: string };
  const exports = pkg.exports as { ".": unknown; import: unknown } | undefined;
  const esm = (exports?.["."] ?? exports) as { import?: string | { default: string } } | undefined;
  const path = typeof esm?.import === "string" ? esm.import : (esm?.import?.default ?? pkg.module);
  return (await import(pathToFileURL(join(root, path!)).href)) as Record<string, unknown>;
}

/**
 * Fairness: one parser of each contender's, kept alive for the whole run,
 * as docbase keeps one of its own (`retainedShapes` in
 * src/links/html-source.ts). The harness forces a full collection before
 * every sample, and V8 then throws away optimised code whose object shapes
 * died with their last objects ("embedded weak objects cleared"); a parser
 * that dies with its parse takes its shapes with it. Measured on the New
 * Zealand page: `parse5.parse` right after a collection took 44–76 ms with
 * no parse5 parser alive, 29 ms with one. Kept: parse5 8's parser
 * (parse5.parse, jsdom), cheerio's own parse5 7 parser and a loaded
 * document, htmlparser2's parser (linkedom's) and a linkedom document.
 */
const keptPeerParsers: readonly unknown[] = await (async () => {
  const sample = '<!doctype html><title>t</title><p class=c><a href="x">a</a><b>b<i>i</b></i><table><tr><td>x</td></tr></table><svg><a href=s /></svg>';
  const parse5Parser = new Parser();
  parse5Parser.tokenizer.write(sample, true);
  const cheerioParse5 = (await peerDependency("cheerio", "parse5")) as { Parser: new () => { tokenizer: { write(html: string, last: boolean): void } } };
  const cheerioParser = new cheerioParse5.Parser();
  cheerioParser.tokenizer.write(sample, true);
  const htmlparser2 = (await peerDependency("linkedom", "htmlparser2")) as { Parser: new (handler: object) => { end(html: string): void } };
  const linkedomParser = new htmlparser2.Parser({});
  linkedomParser.end(sample);
  return [parse5Parser, cheerioParser, cheerio.load(sample), linkedomParser, parseHTML(sample)];
})();

// --- Memory (child process) ---------------------------------------------------

if (process.argv.includes("--memory-child")) {
  const mode = flag("mode") ?? "extract";
  const mb = Number(flag("memory-mb") ?? "100");
  const unit = readCorpus("html-whatwg-spec-excerpt-2015.html.gz");
  const body = unit.slice(unit.indexOf("<body"));
  const copies = Math.ceil((mb * 1024 * 1024) / body.length);
  let html = unit.slice(0, unit.indexOf("<body")) + body.repeat(copies) + '<base href="/moved/">';
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  let count = 0;
  if (mode === "extract") count = extractLinks(html, { url: "https://html.spec.whatwg.org/multipage/" }).length;
  else count = (parse(html).childNodes.length);
  const ms = performance.now() - t0;
  const size = html.length;
  html = "";
  const usage = process.resourceUsage();
  console.log(JSON.stringify({ mode, size, count, ms, rssBefore: before, maxRSS: usage.maxRSS * 1024 }));
  process.exit(0);
}

function memory(mb: number): void {
  heading(`Peak memory on a generated ~${mb} MB document (child process, peak RSS)`);
  const self = fileURLToPath(import.meta.url);
  for (const mode of ["parse5", "extract"]) {
    const out = execFileSync(process.execPath, ["--max-old-space-size=16384", self, "--memory-child", `--mode=${mode}`, `--memory-mb=${mb}`], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    });
    const r = JSON.parse(out) as { size: number; count: number; ms: number; rssBefore: number; maxRSS: number };
    const label = mode === "extract" ? "extractLinks" : "parse5.parse (default tree)";
    console.log(
      `${label.padEnd(28)} ${(r.size / 1048576).toFixed(1)} M chars, ${mode === "extract" ? `${r.count.toLocaleString("en-US")} links` : "parsed"}, ` +
        `${(r.ms / 1000).toFixed(1)} s, peak RSS ${(r.maxRSS / 1048576).toFixed(0)} MB (${(r.rssBefore / 1048576).toFixed(0)} MB after building the input string)`,
    );
  }
}

// --- Speed --------------------------------------------------------------------

function docbaseContender(base: string): Contender<string> {
  return {
    name: "docbase extractLinks",
    run: (html) => {
      const links = extractLinks(html, { url: base });
      let sum = links.length;
      for (const link of links) sum += link.url === null ? 0 : link.url.length;
      return sum;
    },
  };
}

function contenders(base: string): Contender<string>[] {
  return [
    docbaseContender(base),
    {
      name: "parse5.parse",
      run: (html) => parse(html).childNodes.length,
    },
    {
      name: "cheerio load+select+URL",
      run: (html) => {
        const $ = cheerio.load(html);
        let sum = 0;
        $("[href], [src]").each((_, el) => {
          const value = $(el).attr("href") ?? $(el).attr("src") ?? "";
          const url = tryURL(value, base);
          sum += 1 + (url === null ? 0 : url.length);
        });
        return sum;
      },
    },
    {
      name: "linkedom parse+select+URL",
      run: (html) => {
        const { document } = parseHTML(html);
        let sum = 0;
        for (const el of document.querySelectorAll("[href], [src]")) {
          const value = el.getAttribute("href") ?? el.getAttribute("src") ?? "";
          const url = tryURL(value, base);
          sum += 1 + (url === null ? 0 : url.length);
        }
        return sum;
      },
    },
  ];
}

/**
 * jsdom, with extractLinks again as the reference. Measured last, in its
 * own interleaved set: jsdom keeps memory of its closed windows alive
 * (measured: the heap after a full collection grew from 38 to 203 MB over
 * six windows of the 9/11 page), which slows every later collection in
 * the process, so measured among the others it would tax them all.
 */
function jsdomContenders(base: string): Contender<string>[] {
  return [
    docbaseContender(base),
    {
      name: "jsdom JSDOM+getters",
      run: (html) => {
        const { window } = new JSDOM(html, { url: base });
        let sum = 0;
        for (const el of window.document.querySelectorAll("[href], [src]")) {
          const url = (el as unknown as { href?: string; src?: string }).href ?? (el as unknown as { src?: string }).src ?? "";
          sum += 1 + url.length;
        }
        window.close();
        return sum;
      },
    },
  ];
}

if (process.argv.includes("--memory-only")) {
  printEnvironment("links-extract: peak memory");
  memory(Number(flag("memory-mb") ?? "100"));
  process.exit(0);
}

const options = defaultOptions();
const pairPage = flag("jsdom-pair");
if (pairPage !== undefined) {
  const doc = documents.find((d) => d.file === pairPage)!;
  const html = readCorpus(doc.file);
  heading(`${doc.file}: extractLinks and jsdom (a process of its own)`);
  const m = measure(html, 1, jsdomContenders(doc.base), quick ? { ...options, rounds: 3 } : { ...options, rounds: Math.min(options.rounds, 7) });
  printTable(m, "page");
  const results = compare(m, [{ subject: "docbase extractLinks", peer: "jsdom JSDOM+getters" }]);
  printComparisons(results);
  console.log(`\nRESULTS ${JSON.stringify(results)}`);
  process.exit(0);
}
printEnvironment("links-extract: extractLinks vs parse5, cheerio, linkedom, jsdom on the corpus pages", options);
const all: ComparisonResult[] = [];
const only = flag("page");
const pages = documents.filter((doc) => only === undefined || doc.file.includes(only));
const pageOptions = quick ? { ...options, rounds: 3 } : { ...options, rounds: Math.min(options.rounds, 7) };
for (const doc of pages) {
  const html = readCorpus(doc.file);
  const links = extractLinks(html, { url: doc.base }).length;
  heading(`${doc.file}: ${(html.length / 1048576).toFixed(2)} M chars, ${links.toLocaleString("en-US")} links`);
  const m = measure(html, 1, contenders(doc.base), pageOptions);
  printTable(m, "page");
  const comparisons: Comparison[] = [
    { subject: "docbase extractLinks", peer: "parse5.parse", target: 1 / 1.2 },
    { subject: "docbase extractLinks", peer: "cheerio load+select+URL", target: 1 },
    { subject: "docbase extractLinks", peer: "linkedom parse+select+URL" },
  ];
  const results = compare(m, comparisons);
  printComparisons(results);
  all.push(...results);
}
// jsdom last, each page in a process of its own (see jsdomContenders): in
// one process the memory its windows keep exhausts a 4 GB heap.
for (const doc of process.argv.includes("--no-jsdom") ? [] : pages) {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), `--jsdom-pair=${doc.file}`, ...process.argv.filter((a) => a === "--quick" || a.startsWith("--rounds="))], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  const marker = out.lastIndexOf("\nRESULTS ");
  process.stdout.write(out.slice(0, marker + 1));
  all.push(...(JSON.parse(out.slice(marker + 9)) as ComparisonResult[]));
}
heading("Summary (time of extractLinks / time of peer; targets: parse5 <= 1.2, cheerio <= 1.0)");
for (const r of all) console.log(`${r.peer.padEnd(28)} ${(1 / r.speed).toFixed(2)}x the time${r.target === undefined ? "" : r.meets === true ? "  MET" : "  MISSED"}`);
if (!process.argv.includes("--no-memory")) memory(Number(flag("memory-mb") ?? (quick ? "20" : "100")));
console.log(`\n(sink ${sinkValue()}; ${keptPeerParsers.length} peer parsers and documents kept alive)`);
