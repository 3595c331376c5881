/**
 * Question: how fast does docbase parse real absolute URLs, next to Node's
 * native URL (ada) and whatwg-url?
 *
 * Corpus: the real URL lists `urls-kasztp.txt.gz` (48,010 URLs) and
 * `urls-userbait.txt.gz` (11,430) from ada-url/url-various-datasets (see
 * ../shared/corpus/README.md), every line kept, invalid ones included, a
 * leading BOM stripped. Every contender sees the same array of strings.
 *
 * Consumer work, the same for like with like: the URL classes add
 * `href.length` (0 for a failure, caught); the record parsers add
 * `scheme.length` of the record, or `serializeURL(record).length` in the
 * "+ serializeURL" variants (the fair match for the classes, whose href is
 * the serialization).
 *
 * Targets: docbase parseURL at least 0.5x Node's speed (at most 2x its time)
 * and at least 20x whatwg-url's.
 *
 *   node_modules/.bin/node --expose-gc bench/parse-absolute.ts [--quick] [--rounds=N]
 *
 * @module
 */

import {
  URL as WhatwgURL,
  parseURL as whatwgParseURL,
  serializeURL as whatwgSerializeURL,
} from "whatwg-url";
import { parseURL, serializeURL, URL as DocbaseURL } from "../src/core/index.ts";
import {
  compare,
  defaultOptions,
  heading,
  measure,
  printComparisons,
  printEnvironment,
  printTable,
  quickSample,
  readCorpusLines,
  sinkValue,
  type Comparison,
  type ComparisonResult,
  type Contender,
} from "./harness.ts";

const NodeURL = globalThis.URL;

const names = {
  node: "Node new URL (ada)",
  nodeParse: "Node URL.parse (ada)",
  docbase: "docbase parseURL",
  docbaseSerialize: "docbase parseURL + serializeURL",
  docbaseClass: "docbase new URL",
  whatwg: "whatwg-url parseURL",
  whatwgSerialize: "whatwg-url parseURL + serializeURL",
  whatwgClass: "whatwg-url new URL",
} as const;

/** Each contender has its own loop (see harness.ts on fairness). */
const contenders: readonly Contender<readonly string[]>[] = [
  {
    name: names.node,
    run(urls) {
      let sum = 0;
      for (let i = 0; i < urls.length; i++) {
        try {
          sum += new NodeURL(urls[i]!).href.length;
        } catch {
          sum += 0;
        }
      }
      return sum;
    },
  },
  {
    name: names.nodeParse,
    run(urls) {
      let sum = 0;
      for (let i = 0; i < urls.length; i++) {
        const u = NodeURL.parse(urls[i]!);
        if (u !== null) sum += u.href.length;
      }
      return sum;
    },
  },
  {
    name: names.docbase,
    run(urls) {
      let sum = 0;
      for (let i = 0; i < urls.length; i++) {
        const r = parseURL(urls[i]!);
        if (r !== null) sum += r.scheme.length;
      }
      return sum;
    },
  },
  {
    name: names.docbaseSerialize,
    run(urls) {
      let sum = 0;
      for (let i = 0; i < urls.length; i++) {
        const r = parseURL(urls[i]!);
        if (r !== null) sum += serializeURL(r).length;
      }
      return sum;
    },
  },
  {
    name: names.docbaseClass,
    run(urls) {
      let sum = 0;
      for (let i = 0; i < urls.length; i++) {
        try {
          sum += new DocbaseURL(urls[i]!).href.length;
        } catch {
          sum += 0;
        }
      }
      return sum;
    },
  },
  {
    name: names.whatwg,
    run(urls) {
      let sum = 0;
      for (let i = 0; i < urls.length; i++) {
        const r = whatwgParseURL(urls[i]!);
        if (r !== null) sum += r.scheme.length;
      }
      return sum;
    },
  },
  {
    name: names.whatwgSerialize,
    run(urls) {
      let sum = 0;
      for (let i = 0; i < urls.length; i++) {
        const r = whatwgParseURL(urls[i]!);
        if (r !== null) sum += whatwgSerializeURL(r).length;
      }
      return sum;
    },
  },
  {
    name: names.whatwgClass,
    run(urls) {
      let sum = 0;
      for (let i = 0; i < urls.length; i++) {
        try {
          sum += new WhatwgURL(urls[i]!).href.length;
        } catch {
          sum += 0;
        }
      }
      return sum;
    },
  },
];

const comparisons: readonly Comparison[] = [
  { subject: names.docbase, peer: names.node, target: 0.5 },
  { subject: names.docbaseSerialize, peer: names.node, target: 0.5 },
  { subject: names.docbaseClass, peer: names.node },
  { subject: names.docbaseSerialize, peer: names.nodeParse },
  { subject: names.docbase, peer: names.whatwg, target: 20 },
  { subject: names.docbaseSerialize, peer: names.whatwgSerialize, target: 20 },
  { subject: names.docbaseClass, peer: names.whatwgClass },
];

/**
 * Before timing: the hrefs of the three implementations, compared, so the
 * report says whether they did the same work (a parser that fails more
 * often, or differently, would look faster than it is).
 */
function agreement(urls: readonly string[]): string {
  let docbaseFailures = 0;
  let nodeFailures = 0;
  let whatwgFailures = 0;
  let vsNode = 0;
  let vsWhatwg = 0;
  let example = "";
  for (const s of urls) {
    const d = parseURL(s);
    const dh = d === null ? null : serializeURL(d);
    const nh = NodeURL.parse(s)?.href ?? null;
    const w = whatwgParseURL(s);
    const wh = w === null ? null : whatwgSerializeURL(w);
    if (dh === null) docbaseFailures++;
    if (nh === null) nodeFailures++;
    if (wh === null) whatwgFailures++;
    if (dh !== nh) vsNode++;
    if (dh !== wh) {
      vsWhatwg++;
      if (example === "") example = ` (e.g. ${JSON.stringify(s.slice(0, 80))}: docbase ${JSON.stringify(dh?.slice(0, 80) ?? null)}, whatwg-url ${JSON.stringify(wh?.slice(0, 80) ?? null)})`;
    }
  }
  return (
    `failures: docbase ${docbaseFailures}, Node ${nodeFailures}, whatwg-url ${whatwgFailures}; ` +
    `hrefs differing from docbase's: Node ${vsNode}, whatwg-url ${vsWhatwg}${example}`
  );
}

const corpora = ["urls-kasztp.txt.gz", "urls-userbait.txt.gz"] as const;
const options = defaultOptions();
printEnvironment("parse-absolute: parsing real absolute URLs", options);

const summary: { corpus: string; results: ComparisonResult[] }[] = [];
for (const file of corpora) {
  const all = readCorpusLines(file);
  const urls = quickSample(all);
  const chars = urls.reduce((n, s) => n + s.length, 0);
  const sampled = urls.length === all.length ? "" : ` (--quick: every 8th of ${all.length.toLocaleString("en-US")})`;
  heading(`corpus ${file}: ${urls.length.toLocaleString("en-US")} URLs${sampled}, average ${(chars / urls.length).toFixed(1)} code units`);
  console.log(agreement(urls));
  const m = measure(urls, urls.length, contenders, options);
  printTable(m, "URL");
  console.log("");
  const results = compare(m, comparisons);
  printComparisons(results);
  summary.push({ corpus: file, results });
}

heading("targets");
for (const { corpus, results } of summary) {
  for (const r of results) {
    if (r.target === undefined) continue;
    console.log(`${corpus}: ${r.subject} vs ${r.peer}: ${r.speed.toFixed(2)}x as fast, target >= ${r.target}x: ${r.meets === true ? "MET" : "MISSED"}`);
  }
}
console.log(`\n(sink ${sinkValue()})`);
