/**
 * Question: how fast does docbase resolve the references of real HTML pages
 * against the page's already-parsed base URL, next to Node's native URL
 * (ada) and whatwg-url?
 *
 * Corpus: the four `html-*.html.gz` documents of ../shared/corpus/ (see its
 * README), each with the base URL that README lists (none has a
 * `<base href>`). The references are the values of every `href` and `src`
 * attribute, as parse5 gives them (character references decoded), in
 * document order, kept as they are (the URL parser strips what it strips).
 * Parsing the HTML is not timed.
 *
 * Each document is its own measurement. The base is parsed once, outside the
 * timing, for the implementations that accept a parsed base: docbase and
 * whatwg-url take its record; Node's URL takes a string or a URL object
 * (which it serializes and parses again on every call: that is Node's API).
 *
 * Consumer work: the resolved href's length (`serializeURL(record)` for the
 * record parsers, `.href` for the classes; 0 for a failure), or the record's
 * `scheme.length` in the record-only variant.
 *
 * Target: docbase at least as fast as Node's `new URL(ref, base)`.
 *
 *   node_modules/.bin/node --expose-gc bench/resolve-relative.ts [--quick] [--rounds=N]
 *
 * @module
 */

import { parse, type DefaultTreeAdapterMap } from "parse5";
import {
  URL as WhatwgURL,
  parseURL as whatwgParseURL,
  serializeURL as whatwgSerializeURL,
  type URLRecord as WhatwgURLRecord,
} from "whatwg-url";
import { parseURL, serializeURL, URL as DocbaseURL, type URLRecord } from "../src/core/index.ts";
import {
  compare,
  defaultOptions,
  heading,
  measure,
  printComparisons,
  printEnvironment,
  printTable,
  quick,
  quickSample,
  readCorpus,
  sinkValue,
  type Comparison,
  type ComparisonResult,
  type Contender,
} from "./harness.ts";

const NodeURL = globalThis.URL;

/** The documents and their base URLs, as ../shared/corpus/README.md lists them. */
const documents = [
  { file: "html-whatwg-html5-spec-2009.html.gz", base: "https://www.whatwg.org/specs/web-apps/current-work/" },
  { file: "html-whatwg-spec-excerpt-2015.html.gz", base: "https://html.spec.whatwg.org/multipage/" },
  { file: "html-wikipedia-911-victims-list.html.gz", base: "https://en.wikipedia.org/wiki/List_of_victims_of_the_September_11_attacks" },
  { file: "html-wikipedia-new-zealand.html.gz", base: "https://en.wikipedia.org/wiki/New_Zealand" },
] as const;

/** One document's references and its base in every form the contenders take. */
interface Page {
  readonly refs: readonly string[];
  readonly baseString: string;
  readonly docbaseBase: URLRecord;
  readonly nodeBase: URL;
  readonly whatwgBase: WhatwgURLRecord;
}

type Node = DefaultTreeAdapterMap["node"];

/** The values of every href and src attribute, in document order (template contents included). */
function extractReferences(html: string): string[] {
  const refs: string[] = [];
  const stack: Node[] = [parse(html)];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ("attrs" in node) {
      for (const a of node.attrs) if (a.name === "href" || a.name === "src") refs.push(a.value);
    }
    if ("content" in node) stack.push(node.content);
    if ("childNodes" in node) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return refs;
}

/** What kinds of reference a page has, for the report. */
function kinds(refs: readonly string[]): string {
  const counts = { "#fragment": 0, "?query": 0, "//host": 0, "/path": 0, "scheme:": 0, "relative path": 0, empty: 0 };
  for (const raw of refs) {
    const r = raw.trim();
    if (r === "") counts.empty++;
    else if (r.startsWith("#")) counts["#fragment"]++;
    else if (r.startsWith("?")) counts["?query"]++;
    else if (r.startsWith("//")) counts["//host"]++;
    else if (r.startsWith("/")) counts["/path"]++;
    else if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(r)) counts["scheme:"]++;
    else counts["relative path"]++;
  }
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
}

const names = {
  docbaseSerialize: "docbase parseURL(ref, {base: record}) + serializeURL",
  docbase: "docbase parseURL(ref, {base: record})",
  docbaseClass: "docbase new URL(ref, baseString)",
  nodeString: "Node new URL(ref, baseString)",
  nodeObject: "Node new URL(ref, baseURLObject)",
  whatwgSerialize: "whatwg-url parseURL(ref, {baseURL: record}) + serializeURL",
  whatwgClass: "whatwg-url new URL(ref, baseString)",
} as const;

/** Each contender has its own loop (see harness.ts on fairness). */
const contenders: readonly Contender<Page>[] = [
  {
    name: names.docbaseSerialize,
    run(page) {
      const { refs, docbaseBase } = page;
      let sum = 0;
      for (let i = 0; i < refs.length; i++) {
        const r = parseURL(refs[i]!, { base: docbaseBase });
        if (r !== null) sum += serializeURL(r).length;
      }
      return sum;
    },
  },
  {
    name: names.docbase,
    run(page) {
      const { refs, docbaseBase } = page;
      let sum = 0;
      for (let i = 0; i < refs.length; i++) {
        const r = parseURL(refs[i]!, { base: docbaseBase });
        if (r !== null) sum += r.scheme.length;
      }
      return sum;
    },
  },
  {
    name: names.docbaseClass,
    run(page) {
      const { refs, baseString } = page;
      let sum = 0;
      for (let i = 0; i < refs.length; i++) {
        try {
          sum += new DocbaseURL(refs[i]!, baseString).href.length;
        } catch {
          sum += 0;
        }
      }
      return sum;
    },
  },
  {
    name: names.nodeString,
    run(page) {
      const { refs, baseString } = page;
      let sum = 0;
      for (let i = 0; i < refs.length; i++) {
        try {
          sum += new NodeURL(refs[i]!, baseString).href.length;
        } catch {
          sum += 0;
        }
      }
      return sum;
    },
  },
  {
    name: names.nodeObject,
    run(page) {
      const { refs, nodeBase } = page;
      let sum = 0;
      for (let i = 0; i < refs.length; i++) {
        try {
          sum += new NodeURL(refs[i]!, nodeBase).href.length;
        } catch {
          sum += 0;
        }
      }
      return sum;
    },
  },
  {
    name: names.whatwgSerialize,
    run(page) {
      const { refs, whatwgBase } = page;
      let sum = 0;
      for (let i = 0; i < refs.length; i++) {
        const r = whatwgParseURL(refs[i]!, { baseURL: whatwgBase });
        if (r !== null) sum += whatwgSerializeURL(r).length;
      }
      return sum;
    },
  },
  {
    name: names.whatwgClass,
    run(page) {
      const { refs, baseString } = page;
      let sum = 0;
      for (let i = 0; i < refs.length; i++) {
        try {
          sum += new WhatwgURL(refs[i]!, baseString).href.length;
        } catch {
          sum += 0;
        }
      }
      return sum;
    },
  },
];

const comparisons: readonly Comparison[] = [
  { subject: names.docbaseSerialize, peer: names.nodeString, target: 1 },
  { subject: names.docbaseSerialize, peer: names.nodeObject, target: 1 },
  { subject: names.docbase, peer: names.nodeString },
  { subject: names.docbaseClass, peer: names.nodeString },
  { subject: names.docbaseSerialize, peer: names.whatwgSerialize },
  { subject: names.docbaseClass, peer: names.whatwgClass },
];

/** Before timing: do the three implementations resolve every reference alike? */
function agreement(page: Page): string {
  let docbaseFailures = 0;
  let vsNode = 0;
  let vsWhatwg = 0;
  let example = "";
  for (const ref of page.refs) {
    const d = parseURL(ref, { base: page.docbaseBase });
    const dh = d === null ? null : serializeURL(d);
    const nh = NodeURL.parse(ref, page.baseString)?.href ?? null;
    const w = whatwgParseURL(ref, { baseURL: page.whatwgBase });
    const wh = w === null ? null : whatwgSerializeURL(w);
    if (dh === null) docbaseFailures++;
    if (dh !== nh) vsNode++;
    if (dh !== wh) {
      vsWhatwg++;
      if (example === "") example = ` (e.g. ${JSON.stringify(ref.slice(0, 80))}: docbase ${JSON.stringify(dh?.slice(0, 80) ?? null)}, whatwg-url ${JSON.stringify(wh?.slice(0, 80) ?? null)})`;
    }
  }
  return `failures: docbase ${docbaseFailures}; resolved hrefs differing from docbase's: Node ${vsNode}, whatwg-url ${vsWhatwg}${example}`;
}

const options = defaultOptions();
printEnvironment("resolve-relative: resolving the href/src references of real HTML pages against the page's base", options);

const summary: { file: string; results: ComparisonResult[] }[] = [];
for (const { file, base } of documents) {
  const all = extractReferences(readCorpus(file));
  const refs = quickSample(all);
  const page: Page = {
    refs,
    baseString: base,
    docbaseBase: parseURL(base)!,
    nodeBase: new NodeURL(base),
    whatwgBase: whatwgParseURL(base)!,
  };
  const sampled = quick ? ` (--quick: every 8th of ${all.length.toLocaleString("en-US")})` : "";
  heading(`${file}: ${refs.length.toLocaleString("en-US")} href/src references${sampled}, base ${base}`);
  console.log(`references: ${kinds(refs)}`);
  console.log(agreement(page));
  const m = measure(page, refs.length, contenders, options);
  printTable(m, "ref");
  console.log("");
  const results = compare(m, comparisons);
  printComparisons(results);
  summary.push({ file, results });
}

heading("targets");
for (const { file, results } of summary) {
  for (const r of results) {
    if (r.target === undefined) continue;
    console.log(`${file}: ${r.subject} vs ${r.peer}: ${r.speed.toFixed(2)}x as fast, target >= ${r.target}x: ${r.meets === true ? "MET" : "MISSED"}`);
  }
}
console.log(`\n(sink ${sinkValue()})`);
