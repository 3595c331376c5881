/**
 * Question: what does reading every one of the eleven HTMLHyperlinkElementUtils
 * attributes (href, origin, protocol, username, password, host, hostname,
 * port, pathname, search, hash) of every `<a>` of a 100,000-anchor parse5
 * tree cost with docbase/url-utils, cold (a new document context: every
 * href parsed once, the other ten getters hit the element's cache) and warm
 * (every read a cache hit), next to parsing each href yourself (docbase's
 * core `parseURL`, Node's `URL`) and next to jsdom's own `HTMLAnchorElement`
 * getters on a smaller document?
 *
 * Corpus: the `<a href>` values of the four `html-*.html.gz` documents of
 * ../shared/corpus/ (as parse5 gives them), taken in turn (one from each
 * document, round-robin, each list cycled) until there are 100,000, in one
 * document at https://html.spec.whatwg.org/multipage/index.html with
 * `<base href="https://html.spec.whatwg.org/multipage/">`. The same is
 * measured again on the first 2,000 (a page's size, where the processor's
 * caches hold the whole document: on 100,000 anchors every first touch of
 * an anchor's objects is a cache miss, for docbase's cached state as for
 * the peers' attribute reads). The jsdom part
 * uses the first 2,000 of them (jsdom parses again on every get, some
 * microseconds each). Parsing the HTML is not timed.
 *
 * Contenders (each its own loop; consumer work: the sum of the eleven
 * strings' lengths):
 * - docbase cold: each pass disposes the document's context and creates a
 *   new one (its `<base>` search is timed too), then reads the eleven
 *   attributes of every anchor with `getHyperlinkAttribute`.
 * - docbase context creation only: that first step alone, for reference.
 * - docbase warm: a context made once; every read is a cache hit.
 * - docbase warm through the `hyperlink(context, a)` object.
 * - peers: read the href attribute and parse it against the parsed base
 *   with docbase's core `parseURL`, then compute the eleven strings from
 *   the record (no element rules, no cache); the same with a parse for
 *   every read (what a getter without a cache does, as jsdom's do); Node's
 *   `new URL(href, base)` and its eleven getters.
 * - jsdom (2,000 anchors): jsdom's `HTMLAnchorElement` getters (which parse
 *   again on every get), and docbase warm and cold over the same jsdom
 *   document through the DOM adapter (an observing context, as with a live
 *   window).
 *
 * Before timing, it checks that docbase's href agrees with Node's URL on
 * every anchor, and all eleven attributes with jsdom's, and prints the
 * number of differences.
 *
 * Samples are at least 300 ms (40 ms with --quick) rather than the usual
 * 80 ms: the harness collects garbage before every sample, and the pass
 * right after a full collection runs with cold caches (about twice as long
 * for the warm contenders, whose pass is short); several passes per sample
 * keep that one pass from deciding the figure.
 *
 *   node_modules/.bin/node --expose-gc bench/url-utils.ts [--quick] [--rounds=N] [--only=TEXT]
 *
 * `--only=TEXT` keeps the contenders whose name contains TEXT (to profile one).
 *
 * @module
 */

import { JSDOM } from "jsdom";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { parseURL, serializeOrigin, serializeURL, urlOrigin, type URLRecord } from "../src/core/index.ts";
import {
  createDocumentContext,
  type DocumentContext,
  documentContextOf,
  type DOMTreeAdapterMap,
  domTreeAdapter,
  type Parse5TreeAdapterMap,
  parse5TreeAdapter,
} from "../src/document-base/index.ts";
import { getHyperlinkAttribute, hyperlink, hyperlinkAttributeNames } from "../src/url-utils/index.ts";
import {
  compare,
  type Comparison,
  type ComparisonResult,
  type Contender,
  defaultOptions,
  flag,
  heading,
  type Measurement,
  measure,
  printComparisons,
  printEnvironment,
  printTable,
  quick,
  readCorpus,
  sinkValue,
} from "./harness.ts";

const NodeURL = globalThis.URL;

const corpusFiles = [
  "html-whatwg-html5-spec-2009.html.gz",
  "html-whatwg-spec-excerpt-2015.html.gz",
  "html-wikipedia-911-victims-list.html.gz",
  "html-wikipedia-new-zealand.html.gz",
] as const;

const documentURL = "https://html.spec.whatwg.org/multipage/index.html";
const baseHref = "https://html.spec.whatwg.org/multipage/";
const anchorCount = quick ? 12_500 : 100_000;
const jsdomAnchorCount = quick ? 500 : 2_000;
const smallAnchorCount = quick ? 500 : 2_000;

type P5Node = DefaultTreeAdapterMap["node"];
type P5Element = DefaultTreeAdapterMap["element"];

/** The `<a href>` elements of a parse5 tree, in document order (template contents included). */
function anchorsOf(root: P5Node): P5Element[] {
  const anchors: P5Element[] = [];
  const stack: P5Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ("tagName" in node && node.tagName === "a" && node.attrs.some((a) => a.name === "href")) anchors.push(node);
    if ("content" in node) stack.push(node.content);
    if ("childNodes" in node) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return anchors;
}

function hrefOf(a: P5Element): string {
  return a.attrs.find((x) => x.name === "href")!.value;
}

/** The corpus hrefs, round-robin over the documents, `count` of them. */
function corpusHrefs(count: number): string[] {
  const lists = corpusFiles.map((file) => anchorsOf(parse(readCorpus(file))).map(hrefOf));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const list = lists[i % lists.length]!;
    out.push(list[Math.floor(i / lists.length) % list.length]!);
  }
  return out;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

function documentHTML(hrefs: readonly string[]): string {
  return `<!doctype html><html><head><base href="${baseHref}"><title>anchors</title></head><body>\n${hrefs
    .map((href) => `<a href="${escapeAttribute(href)}">x</a>`)
    .join("\n")}\n</body></html>`;
}

/** A parse5 page as the contenders see it: two copies of the document, one per context owner. */
interface Page {
  readonly coldDocument: DefaultTreeAdapterMap["document"];
  readonly coldAnchors: readonly P5Element[];
  readonly warmAnchors: readonly P5Element[];
  readonly warmContext: P5Context;
}

type P5Context = DocumentContext<Parse5TreeAdapterMap>;
type DOMContext = DocumentContext<DOMTreeAdapterMap>;

/** A document whose context a contender replaces on every pass. */
interface Owned<T> {
  context: T;
}

const names = {
  cold: "docbase cold: new context + 11 getHyperlinkAttribute per anchor",
  context: "docbase context creation only (per anchor of the document)",
  warm: "docbase warm: 11 getHyperlinkAttribute per anchor (cached)",
  object: "docbase warm: 11 getters of hyperlink(context, a)",
  core: "peer: core parseURL(href, {base}) once + 11 fields by hand",
  reparse: "peer: core parseURL(href, {base}) on every read (no cache)",
  node: "peer: Node new URL(href, base) + 11 getters",
  jsdom: "peer: jsdom HTMLAnchorElement, 11 getters",
  jsdomWarm: "docbase over jsdom DOM, warm",
  jsdomCold: "docbase over jsdom DOM, cold (new context)",
} as const;

/** The eleven strings of a URL record, as the getters return them (for the hand-rolled peer). */
function sumOfFields(url: URLRecord): number {
  const host = url.host === null ? "" : url.port === null ? url.host : url.host + ":" + url.port;
  return (
    serializeURL(url).length +
    serializeOrigin(urlOrigin(url)).length +
    (url.scheme.length + 1) +
    url.username.length +
    url.password.length +
    host.length +
    (url.host ?? "").length +
    (url.port === null ? 0 : String(url.port).length) +
    url.path.length +
    (url.query === null || url.query === "" ? 0 : url.query.length + 1) +
    (url.fragment === null || url.fragment === "" ? 0 : url.fragment.length + 1)
  );
}

/** The length of the k-th of the eleven strings of a URL record (for the no-cache peer). */
function fieldLength(url: URLRecord, k: number): number {
  switch (k) {
    case 0:
      return serializeURL(url).length;
    case 1:
      return serializeOrigin(urlOrigin(url)).length;
    case 2:
      return url.scheme.length + 1;
    case 3:
      return url.username.length;
    case 4:
      return url.password.length;
    case 5:
      return url.host === null ? 0 : url.port === null ? url.host.length : (url.host + ":" + url.port).length;
    case 6:
      return (url.host ?? "").length;
    case 7:
      return url.port === null ? 0 : String(url.port).length;
    case 8:
      return url.path.length;
    case 9:
      return url.query === null || url.query === "" ? 0 : url.query.length + 1;
    default:
      return url.fragment === null || url.fragment === "" ? 0 : url.fragment.length + 1;
  }
}

const options = { ...defaultOptions(), sampleMs: quick ? 40 : 300 };

/** `--only=TEXT`: keep the contenders whose name contains TEXT (to profile one of them). */
const onlyText = flag("only");
function only<T>(contenders: readonly Contender<T>[]): readonly Contender<T>[] {
  return onlyText === undefined ? contenders : contenders.filter((c) => c.name.includes(onlyText));
}
function comparable(m: { readonly results: readonly { readonly name: string }[] }, comparisons: readonly Comparison[]): readonly Comparison[] {
  const present = new Set(m.results.map((r) => r.name));
  return comparisons.filter((c) => present.has(c.subject) && present.has(c.peer));
}
printEnvironment("url-utils: the eleven HTMLHyperlinkElementUtils attributes of every <a> of a document", options);

const hrefs = corpusHrefs(anchorCount);

// --- parse5 ---------------------------------------------------------------------------

const baseRecord = parseURL(baseHref)!;

/** A new context for the page's cold document (the previous one disposed). */
function newColdContext(page: Page): P5Context {
  documentContextOf<Parse5TreeAdapterMap>(page.coldDocument)?.dispose();
  return createDocumentContext(parse5TreeAdapter, page.coldDocument, { url: documentURL });
}

const parse5Contenders: readonly Contender<Page>[] = [
  {
    name: names.cold,
    run(page) {
      const context = newColdContext(page);
      const anchors = page.coldAnchors;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const a = anchors[i]!;
        sum +=
          getHyperlinkAttribute(context, a, "href").length +
          getHyperlinkAttribute(context, a, "origin").length +
          getHyperlinkAttribute(context, a, "protocol").length +
          getHyperlinkAttribute(context, a, "username").length +
          getHyperlinkAttribute(context, a, "password").length +
          getHyperlinkAttribute(context, a, "host").length +
          getHyperlinkAttribute(context, a, "hostname").length +
          getHyperlinkAttribute(context, a, "port").length +
          getHyperlinkAttribute(context, a, "pathname").length +
          getHyperlinkAttribute(context, a, "search").length +
          getHyperlinkAttribute(context, a, "hash").length;
      }
      return sum;
    },
  },
  {
    name: names.context,
    run(page) {
      return newColdContext(page).url.length;
    },
  },
  {
    name: names.warm,
    run(page) {
      const context = page.warmContext;
      const anchors = page.warmAnchors;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const a = anchors[i]!;
        sum +=
          getHyperlinkAttribute(context, a, "href").length +
          getHyperlinkAttribute(context, a, "origin").length +
          getHyperlinkAttribute(context, a, "protocol").length +
          getHyperlinkAttribute(context, a, "username").length +
          getHyperlinkAttribute(context, a, "password").length +
          getHyperlinkAttribute(context, a, "host").length +
          getHyperlinkAttribute(context, a, "hostname").length +
          getHyperlinkAttribute(context, a, "port").length +
          getHyperlinkAttribute(context, a, "pathname").length +
          getHyperlinkAttribute(context, a, "search").length +
          getHyperlinkAttribute(context, a, "hash").length;
      }
      return sum;
    },
  },
  {
    name: names.object,
    run(page) {
      const context = page.warmContext;
      const anchors = page.warmAnchors;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const link = hyperlink(context, anchors[i]!);
        sum +=
          link.href.length +
          link.origin.length +
          link.protocol.length +
          link.username.length +
          link.password.length +
          link.host.length +
          link.hostname.length +
          link.port.length +
          link.pathname.length +
          link.search.length +
          link.hash.length;
      }
      return sum;
    },
  },
  {
    name: names.core,
    run(page) {
      const anchors = page.warmAnchors;
      const base = baseRecord;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const href = parse5TreeAdapter.getAttribute(anchors[i]!, null, "href");
        if (href === null) continue;
        const url = parseURL(href, { base });
        // A failure: href is the raw value, protocol ":", the rest "".
        sum += url === null ? href.length + 1 : sumOfFields(url);
      }
      return sum;
    },
  },
  {
    name: names.reparse,
    run(page) {
      const anchors = page.warmAnchors;
      const base = baseRecord;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const a = anchors[i]!;
        // What a getter without a cache does: read the attribute and parse it, for every getter.
        for (let k = 0; k < 11; k++) {
          const href = parse5TreeAdapter.getAttribute(a, null, "href");
          if (href === null) continue;
          const url = parseURL(href, { base });
          sum += url === null ? (k === 0 ? href.length : k === 2 ? 1 : 0) : fieldLength(url, k);
        }
      }
      return sum;
    },
  },
  {
    name: names.node,
    run(page) {
      const anchors = page.warmAnchors;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const href = parse5TreeAdapter.getAttribute(anchors[i]!, null, "href");
        if (href === null) continue;
        const url = NodeURL.parse(href, baseHref);
        if (url === null) {
          sum += href.length + 1;
          continue;
        }
        sum +=
          url.href.length +
          url.origin.length +
          url.protocol.length +
          url.username.length +
          url.password.length +
          url.host.length +
          url.hostname.length +
          url.port.length +
          url.pathname.length +
          url.search.length +
          url.hash.length;
      }
      return sum;
    },
  },
];

const parse5Comparisons: readonly Comparison[] = [
  { subject: names.warm, peer: names.cold },
  { subject: names.warm, peer: names.reparse },
  { subject: names.cold, peer: names.reparse },
  { subject: names.cold, peer: names.core },
  { subject: names.cold, peer: names.node },
  { subject: names.warm, peer: names.core },
  { subject: names.warm, peer: names.node },
  { subject: names.object, peer: names.warm },
  { subject: names.context, peer: names.cold },
];

/** Before timing: does docbase's href agree with Node's URL on every anchor? */
function nodeAgreement(page: Page): string {
  let differ = 0;
  let failures = 0;
  let example = "";
  for (const a of page.warmAnchors) {
    const href = hrefOf(a);
    const ours = getHyperlinkAttribute(page.warmContext, a, "href");
    const theirs = NodeURL.parse(href, baseHref)?.href ?? href;
    if (getHyperlinkAttribute(page.warmContext, a, "protocol") === ":") failures++;
    if (ours !== theirs) {
      differ++;
      if (example === "") example = ` (e.g. ${JSON.stringify(href.slice(0, 60))}: docbase ${JSON.stringify(ours.slice(0, 60))}, Node ${JSON.stringify(theirs.slice(0, 60))})`;
    }
  }
  return `hrefs that do not parse: ${failures}; hrefs differing from Node's URL: ${differ}${example}`;
}

/** Builds a page of the first `count` hrefs and measures it. */
function measureParse5(count: number, why: string): { measurement: Measurement; results: ComparisonResult[] } {
  const pageHTML = documentHTML(hrefs.slice(0, count));
  const coldDocument = parse(pageHTML);
  const warmDocument = parse(pageHTML);
  const page: Page = {
    coldDocument,
    coldAnchors: anchorsOf(coldDocument),
    warmAnchors: anchorsOf(warmDocument),
    warmContext: createDocumentContext(parse5TreeAdapter, warmDocument, { url: documentURL }),
  };
  if (page.coldAnchors.length !== count || page.warmAnchors.length !== count) throw new Error("the page has the wrong number of anchors");
  heading(`parse5 tree, ${why}: ${count.toLocaleString("en-US")} <a href> (corpus hrefs, round-robin over ${corpusFiles.length} documents), <base href="${baseHref}">`);
  console.log(nodeAgreement(page));
  const measurement = measure<Page>(page, count, only(parse5Contenders), options);
  printTable(measurement, "anchor");
  console.log(`(one anchor = 11 attribute reads; the context-creation row is per anchor of the document too)\n`);
  const results = compare(measurement, comparable(measurement, parse5Comparisons));
  printComparisons(results);
  documentContextOf<Parse5TreeAdapterMap>(coldDocument)?.dispose();
  page.warmContext.dispose();
  return { measurement, results };
}

const large = measureParse5(anchorCount, "the question's size");
const small = measureParse5(smallAnchorCount, "a page's size (caches hold the whole document)");

// --- jsdom: 10,000 anchors ------------------------------------------------------------

const jsdomHTML = documentHTML(hrefs.slice(0, jsdomAnchorCount));
const jsdomWindow = new JSDOM(jsdomHTML, { url: documentURL }).window;
const jsdomAnchors = Array.from(jsdomWindow.document.querySelectorAll("a")) as HTMLAnchorElement[];
const jsdomColdWindow = new JSDOM(jsdomHTML, { url: documentURL }).window;
const jsdomColdAnchors = Array.from(jsdomColdWindow.document.querySelectorAll("a")) as HTMLAnchorElement[];
const jsdomWarmContext: DOMContext = createDocumentContext(domTreeAdapter, jsdomWindow.document as never, { observe: true });
const jsdomCold: Owned<DOMContext> = {
  context: createDocumentContext(domTreeAdapter, jsdomColdWindow.document as never, { observe: true }),
};

interface DOMInput {
  readonly anchors: readonly HTMLAnchorElement[];
}

const jsdomContenders: readonly Contender<DOMInput>[] = [
  {
    name: names.jsdom,
    run(input) {
      const anchors = input.anchors;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const a = anchors[i]!;
        sum +=
          a.href.length +
          a.origin.length +
          a.protocol.length +
          a.username.length +
          a.password.length +
          a.host.length +
          a.hostname.length +
          a.port.length +
          a.pathname.length +
          a.search.length +
          a.hash.length;
      }
      return sum;
    },
  },
  {
    name: names.jsdomWarm,
    run(input) {
      const context = jsdomWarmContext;
      const anchors = input.anchors;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const a = anchors[i]! as never;
        sum +=
          getHyperlinkAttribute(context, a, "href").length +
          getHyperlinkAttribute(context, a, "origin").length +
          getHyperlinkAttribute(context, a, "protocol").length +
          getHyperlinkAttribute(context, a, "username").length +
          getHyperlinkAttribute(context, a, "password").length +
          getHyperlinkAttribute(context, a, "host").length +
          getHyperlinkAttribute(context, a, "hostname").length +
          getHyperlinkAttribute(context, a, "port").length +
          getHyperlinkAttribute(context, a, "pathname").length +
          getHyperlinkAttribute(context, a, "search").length +
          getHyperlinkAttribute(context, a, "hash").length;
      }
      return sum;
    },
  },
  {
    name: names.jsdomCold,
    run() {
      jsdomCold.context.dispose();
      const context = createDocumentContext(domTreeAdapter, jsdomColdWindow.document as never, { observe: true });
      jsdomCold.context = context;
      const anchors = jsdomColdAnchors;
      let sum = 0;
      for (let i = 0; i < anchors.length; i++) {
        const a = anchors[i]! as never;
        sum +=
          getHyperlinkAttribute(context, a, "href").length +
          getHyperlinkAttribute(context, a, "origin").length +
          getHyperlinkAttribute(context, a, "protocol").length +
          getHyperlinkAttribute(context, a, "username").length +
          getHyperlinkAttribute(context, a, "password").length +
          getHyperlinkAttribute(context, a, "host").length +
          getHyperlinkAttribute(context, a, "hostname").length +
          getHyperlinkAttribute(context, a, "port").length +
          getHyperlinkAttribute(context, a, "pathname").length +
          getHyperlinkAttribute(context, a, "search").length +
          getHyperlinkAttribute(context, a, "hash").length;
      }
      return sum;
    },
  },
];

const jsdomComparisons: readonly Comparison[] = [
  { subject: names.jsdomWarm, peer: names.jsdom },
  { subject: names.jsdomCold, peer: names.jsdom },
  { subject: names.jsdomWarm, peer: names.jsdomCold },
];

/** Before timing: do docbase (over the DOM) and jsdom agree on all eleven attributes of every anchor? */
function jsdomAgreement(): string {
  let differ = 0;
  let example = "";
  for (const a of jsdomAnchors) {
    for (const name of hyperlinkAttributeNames) {
      const ours = getHyperlinkAttribute(jsdomWarmContext, a as never, name);
      const theirs = a[name];
      if (ours !== theirs) {
        differ++;
        if (example === "") example = ` (e.g. ${name} of ${JSON.stringify(a.getAttribute("href")!.slice(0, 60))}: docbase ${JSON.stringify(ours.slice(0, 60))}, jsdom ${JSON.stringify(theirs.slice(0, 60))})`;
      }
    }
  }
  return `attribute values differing from jsdom's: ${differ} of ${jsdomAnchors.length * hyperlinkAttributeNames.length}${example}`;
}

heading(`jsdom document: ${jsdomAnchors.length.toLocaleString("en-US")} <a href> (the first of the same hrefs), the same <base>`);
console.log(jsdomAgreement());
const jsdomMeasurement = measure<DOMInput>({ anchors: jsdomAnchors }, jsdomAnchors.length, only(jsdomContenders), options);
printTable(jsdomMeasurement, "anchor");
console.log("");
const jsdomResults = compare(jsdomMeasurement, comparable(jsdomMeasurement, jsdomComparisons));
printComparisons(jsdomResults);

// --- Summary ---------------------------------------------------------------------------

function perAttribute(measurement: Measurement, name: string): string {
  const r = measurement.results.find((x) => x.name === name);
  if (r === undefined) return "(not run)";
  return `${(r.median / 11).toFixed(1)} ns per attribute read (${(r.median / 1000).toFixed(2)} µs per anchor)`;
}

heading("summary");
for (const [label, m] of [
  [`parse5, ${anchorCount.toLocaleString("en-US")} anchors`, large.measurement],
  [`parse5, ${smallAnchorCount.toLocaleString("en-US")} anchors`, small.measurement],
] as const) {
  console.log(`${label}: docbase cold ${perAttribute(m, names.cold)}; warm ${perAttribute(m, names.warm)}; hyperlink() object ${perAttribute(m, names.object)}`);
}
console.log(`jsdom, ${jsdomAnchors.length.toLocaleString("en-US")} anchors: jsdom's own getters ${perAttribute(jsdomMeasurement, names.jsdom)}; docbase warm over the DOM ${perAttribute(jsdomMeasurement, names.jsdomWarm)}`);
const all: { label: string; r: ComparisonResult }[] = [
  ...large.results.map((r) => ({ label: `${anchorCount} anchors`, r })),
  ...small.results.map((r) => ({ label: `${smallAnchorCount} anchors`, r })),
  ...jsdomResults.map((r) => ({ label: "jsdom", r })),
];
for (const { label, r } of all) console.log(`[${label}] ${r.subject} vs ${r.peer}: ${r.speed.toFixed(2)}x as fast`);
console.log(`\n(sink ${sinkValue()})`);
