/**
 * Question: what does the base URL of every element of a document cost
 * with docbase, cold (a new document context: the first-base search and
 * every element's cache entry included) and warm (the same context again),
 * and does it stay linear from 25,000 to 100,000 elements, wide or deep?
 * Next to the named peer, jsdom's own `node.baseURI`, over the same jsdom
 * documents.
 *
 * Corpus:
 * - generated documents of 25,000, 50,000 and 100,000 elements: a head
 *   (title, stylesheet link) and a body of identical 10-element sections
 *   (section, h2, p, a, em, ul, li, a, li, img), no `<base>`, so that the
 *   first-base search walks the whole tree (the worst case). The xml:base
 *   rows give every 10th element in tree order `xml:base="s/"` (so most
 *   base URLs are resolved chains, not the document's);
 * - a deep shape: a chain of 25,000 / 50,000 / 100,000 nested divs (parse5
 *   and htmlparser2 trees only: jsdom cannot build one in reasonable time,
 *   see test/document-base/mini-dom.ts), xml:base on every 100th;
 * - the real page `html-whatwg-html5-spec-2009.html.gz` (the WHATWG HTML5
 *   spec, single page, 2009; ../shared/corpus/README.md), at
 *   https://www.whatwg.org/specs/web-apps/current-work/, xml:base rows as
 *   for the generated documents.
 *
 * Every contender walks the same precomputed list of elements (tree order)
 * and adds up the length of each base URL string (docbase `baseURI`, jsdom
 * `element.baseURI`), so they do the same consumer work. Cold contenders
 * create and dispose their context in every pass, on their own copy of the
 * document (a document has one context at a time).
 *
 * Each tree runs in its own process (`--tree=parse5|htmlparser2|dom`; the
 * script without `--tree` runs the three and sums up): docbase's code is
 * shared by the three adapters, and measuring them in one process would
 * make its property accesses megamorphic, which a program using one kind
 * of tree never sees. jsdom's `baseURI` is measured beside docbase's DOM
 * adapter, in the same process, over the same documents (paired ratios);
 * the parse5 and htmlparser2 figures are set against it in the summary
 * (ratios of medians across processes).
 *
 *   node_modules/.bin/node --expose-gc bench/document-base.ts [--quick] [--rounds=N]
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { JSDOM } from "jsdom";
import { type DefaultTreeAdapterMap, defaultTreeAdapter, html as parse5Html, parse, type TreeAdapter, type TreeAdapterTypeMap } from "parse5";
import { adapter as htmlparser2Builder, type Htmlparser2TreeAdapterMap } from "parse5-htmlparser2-tree-adapter";
import {
  baseURI,
  createDocumentContext,
  type DocumentBaseTreeAdapter,
  type DocumentContext,
  domTreeAdapter,
  htmlparser2TreeAdapter,
  parse5TreeAdapter,
  XML_NAMESPACE,
} from "../src/document-base/index.ts";
import {
  type Comparison,
  compare,
  type Contender,
  defaultOptions,
  flag,
  formatNs,
  formatRatio,
  heading,
  measure,
  printComparisons,
  printEnvironment,
  printTable,
  quick,
  readCorpus,
  sinkValue,
} from "./harness.ts";

const URL_OF_GENERATED = "https://example.com/docs/page.html";

// --- Fixtures -------------------------------------------------------------------------

type AnyAdapter = DocumentBaseTreeAdapter<never>;

/** One tree of a document: the document and its elements in tree order. */
interface Tree {
  readonly adapter: AnyAdapter;
  readonly document: unknown;
  readonly elements: readonly unknown[];
}

/** Elements in tree order, template contents excluded, with an explicit stack. */
function elementsOf(adapter: AnyAdapter, document: unknown): unknown[] {
  const a = adapter as unknown as DocumentBaseTreeAdapter;
  const out: unknown[] = [];
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (a.isElementNode(node)) out.push(node);
    const children = a.getChildNodes(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

function tree(adapter: AnyAdapter, document: unknown): Tree {
  return { adapter, document, elements: elementsOf(adapter, document) };
}

function generatedHTML(elements: number): string {
  const section =
    '<section><h2>Title</h2><p>Text with <a href="page/next.html">a link</a> and <em>emphasis</em>.</p>' +
    '<ul><li><a href="#frag">fragment</a></li><li><img src="img/pic.png" alt=""></li></ul></section>';
  // html, head, title, link, body = 5 elements; then 10 per section.
  return `<!doctype html><html><head><title>t</title><link rel="stylesheet" href="a.css"></head><body>${section.repeat((elements - 5) / 10)}</body></html>`;
}

/**
 * Gives every 10th element in tree order an xml:base (through the adapter,
 * as the HTML parser never puts one in the XML namespace).
 */
function addXMLBases(t: Tree): void {
  const a = t.adapter as unknown as DocumentBaseTreeAdapter;
  for (let i = 10; i < t.elements.length; i += 10) a.setAttribute(t.elements[i], XML_NAMESPACE, "base", "s/", "xml");
}

function parse5Tree(html: string): Tree {
  return tree(parse5TreeAdapter as AnyAdapter, parse(html));
}

function htmlparser2Tree(html: string): Tree {
  return tree(htmlparser2TreeAdapter as AnyAdapter, parse(html, { treeAdapter: htmlparser2Builder }));
}

function jsdomTree(html: string, url: string): Tree {
  return tree(domTreeAdapter as AnyAdapter, new JSDOM(html, { url }).window.document);
}

/** A chain of `depth` nested divs in body, built through parse5's tree adapter (no parsing). */
function deepTree<M extends TreeAdapterTypeMap>(adapter: AnyAdapter, builder: TreeAdapter<M>, depth: number): Tree {
  const document = parse<M>("<!doctype html><html><head></head><body></body></html>", { treeAdapter: builder });
  const a = adapter as unknown as DocumentBaseTreeAdapter;
  const html = a.getChildNodes(document)[1]!;
  let leaf: unknown = a.getChildNodes(html)[1]!;
  for (let i = 0; i < depth; i++) {
    const div = builder.createElement("div", parse5Html.NS.HTML, []);
    if (i % 100 === 0) a.setAttribute(div, XML_NAMESPACE, "base", "d/", "xml");
    builder.appendChild(leaf as M["parentNode"], div as M["childNode"]);
    leaf = div;
  }
  return tree(adapter, document);
}

// --- Contenders --------------------------------------------------------------------------

interface Fixture {
  readonly url: string;
  /** Trees for the cold contenders (a new context per pass). */
  readonly cold: Readonly<Record<string, Tree>>;
  /** Trees for the warm contenders, with their context made (and filled) once. */
  readonly warm: Readonly<Record<string, { readonly tree: Tree; readonly context: DocumentContext<never> }>>;
  /** For the WeakMap baseline: every element of the warm plain tree. */
  readonly lookup: WeakMap<object, string>;
}

/** Each contender is its own closure with its own loop (see harness.ts on fairness). */
function cold(name: string, key: string, xmlBase: boolean): Contender<Fixture> {
  return {
    name,
    run(f) {
      const t = f.cold[key]!;
      const context = createDocumentContext(t.adapter, t.document as never, { url: f.url, xmlBase });
      const elements = t.elements;
      let sum = 0;
      for (let i = 0; i < elements.length; i++) sum += baseURI(context, elements[i] as never).length;
      context.dispose();
      return sum;
    },
  };
}

function warm(name: string, key: string): Contender<Fixture> {
  return {
    name,
    run(f) {
      const { tree: t, context } = f.warm[key]!;
      const elements = t.elements;
      let sum = 0;
      for (let i = 0; i < elements.length; i++) sum += baseURI(context, elements[i] as never).length;
      return sum;
    },
  };
}

const jsdomPeer: Contender<Fixture> = {
  name: "jsdom element.baseURI",
  run(f) {
    const elements = f.warm["plain"]!.tree.elements as readonly { readonly baseURI: string }[];
    let sum = 0;
    for (let i = 0; i < elements.length; i++) sum += elements[i]!.baseURI.length;
    return sum;
  },
};

/**
 * The floor: the same loop over the same elements, reading one string
 * property of each (its local name) instead of its base URL. Its time per
 * element grows with the document as well, because 100,000 scattered
 * elements no longer fit in the processor's caches; a contender that grows
 * like it is linear in the algorithmic sense.
 */
function baseline(t: TreeName): Contender<Fixture> {
  const name = `baseline: ${label[t]} local name`;
  if (t === "parse5") {
    return {
      name,
      run(f) {
        const elements = f.warm["plain"]!.tree.elements as readonly { readonly tagName: string }[];
        let sum = 0;
        for (let i = 0; i < elements.length; i++) sum += elements[i]!.tagName.length;
        return sum;
      },
    };
  }
  if (t === "htmlparser2") {
    return {
      name,
      run(f) {
        const elements = f.warm["plain"]!.tree.elements as readonly { readonly name: string }[];
        let sum = 0;
        for (let i = 0; i < elements.length; i++) sum += elements[i]!.name.length;
        return sum;
      },
    };
  }
  return {
    name,
    run(f) {
      const elements = f.warm["plain"]!.tree.elements as readonly { readonly localName: string }[];
      let sum = 0;
      for (let i = 0; i < elements.length; i++) sum += elements[i]!.localName.length;
      return sum;
    },
  };
}

/**
 * The second floor: one WeakMap lookup per element (a map filled beforehand
 * with every element), which is what a warm docbase query costs at heart.
 * Its time per element grows with the document too: the map's table no
 * longer fits in the caches.
 */
function lookupBaseline(t: TreeName): Contender<Fixture> {
  return {
    name: `baseline: ${label[t]} WeakMap lookup`,
    run(f) {
      const map = f.lookup;
      const elements = f.warm["plain"]!.tree.elements as readonly object[];
      let sum = 0;
      for (let i = 0; i < elements.length; i++) sum += map.get(elements[i]!)!.length;
      return sum;
    },
  };
}

function lookupOf(t: Tree, url: string): WeakMap<object, string> {
  const map = new WeakMap<object, string>();
  for (const el of t.elements) map.set(el as object, url);
  return map;
}

function makeWarm(t: Tree, url: string, xmlBase: boolean) {
  const context = createDocumentContext(t.adapter, t.document as never, { url, xmlBase });
  for (const el of t.elements) baseURI(context, el as never); // fill the caches
  return { tree: t, context };
}

function disposeAll(f: Fixture): void {
  for (const w of Object.values(f.warm)) w.context.dispose();
}

type TreeName = "parse5" | "htmlparser2" | "dom";

const label: Record<TreeName, string> = { parse5: "parse5", htmlparser2: "htmlparser2", dom: "DOM (jsdom)" };

function names(t: TreeName) {
  return {
    cold: `docbase ${label[t]} cold`,
    warm: `docbase ${label[t]} warm`,
    xmlCold: `docbase ${label[t]} xmlBase cold`,
    xmlWarm: `docbase ${label[t]} xmlBase warm`,
  };
}

/** The wide fixture (generated or real HTML) for one tree: plain and, but for the DOM, xml:base. */
function wideFixture(t: TreeName, html: string, url: string): Fixture {
  const make = (): Tree => (t === "parse5" ? parse5Tree(html) : t === "htmlparser2" ? htmlparser2Tree(html) : jsdomTree(html, url));
  const plain = makeWarm(make(), url, false);
  if (t === "dom") return { url, cold: { plain: make() }, warm: { plain }, lookup: lookupOf(plain.tree, url) };
  const xmlCold = make();
  const xmlWarm = make();
  addXMLBases(xmlCold);
  addXMLBases(xmlWarm);
  return { url, cold: { plain: make(), xml: xmlCold }, warm: { plain, xml: makeWarm(xmlWarm, url, true) }, lookup: lookupOf(plain.tree, url) };
}

function deepFixture(t: "parse5" | "htmlparser2", depth: number): Fixture {
  const make = (): Tree =>
    t === "parse5"
      ? deepTree(parse5TreeAdapter as AnyAdapter, defaultTreeAdapter as TreeAdapter<DefaultTreeAdapterMap>, depth)
      : deepTree(htmlparser2TreeAdapter as AnyAdapter, htmlparser2Builder as TreeAdapter<Htmlparser2TreeAdapterMap>, depth);
  const url = URL_OF_GENERATED;
  const plain = makeWarm(make(), url, false);
  return { url, cold: { plain: make(), xml: make() }, warm: { plain, xml: makeWarm(make(), url, true) }, lookup: lookupOf(plain.tree, url) };
}

function contendersFor(t: TreeName): readonly Contender<Fixture>[] {
  const n = names(t);
  if (t === "dom") return [cold(n.cold, "plain", false), warm(n.warm, "plain"), jsdomPeer, baseline(t), lookupBaseline(t)];
  return [cold(n.cold, "plain", false), warm(n.warm, "plain"), cold(n.xmlCold, "xml", true), warm(n.xmlWarm, "xml"), baseline(t), lookupBaseline(t)];
}

function comparisonsFor(t: TreeName): readonly Comparison[] {
  const n = names(t);
  if (t === "dom") return [
    { subject: n.warm, peer: jsdomPeer.name },
    { subject: n.cold, peer: jsdomPeer.name },
  ];
  return [
    { subject: n.warm, peer: n.cold },
    { subject: n.xmlWarm, peer: n.xmlCold },
  ];
}

// --- One tree (a child process) ----------------------------------------------------------------

const sizes = [25_000, 50_000, 100_000] as const;
const options = defaultOptions();

/** ns per element: shape → contender → size (0 for the real page). */
type Figures = Record<string, Record<string, Record<number, number>>>;

function runShape(figures: Figures, shape: string, size: number, fixture: Fixture, t: TreeName): void {
  const elements = Object.values(fixture.cold)[0]!.elements.length;
  heading(`${label[t]} — ${shape}: ${elements.toLocaleString("en-US")} elements`);
  const m = measure(fixture, elements, contendersFor(t), options);
  printTable(m, "element");
  console.log("");
  printComparisons(compare(m, comparisonsFor(t)));
  const byContender = (figures[shape] ??= {});
  for (const r of m.results) (byContender[r.name] ??= {})[size] = r.median;
}

const REAL_PAGE = "real page (html-whatwg-html5-spec-2009)";

function runTree(t: TreeName): Figures {
  const figures: Figures = {};
  for (const size of sizes) {
    const fixture = wideFixture(t, generatedHTML(size), URL_OF_GENERATED);
    runShape(figures, "wide", size, fixture, t);
    disposeAll(fixture);
  }
  if (t !== "dom") {
    for (const size of sizes) {
      const fixture = deepFixture(t, size);
      runShape(figures, "deep", size, fixture, t);
      disposeAll(fixture);
    }
  }
  if (!quick) {
    const fixture = wideFixture(t, readCorpus("html-whatwg-html5-spec-2009.html.gz"), "https://www.whatwg.org/specs/web-apps/current-work/");
    runShape(figures, REAL_PAGE, 0, fixture, t);
    disposeAll(fixture);
  }
  return figures;
}

// --- Main: the three trees, then the summary --------------------------------------------------------

const RESULT_PREFIX = "#figures ";
const only = flag("tree") as TreeName | undefined;

if (only !== undefined) {
  if (!(only in label)) throw new Error(`--tree must be parse5, htmlparser2 or dom, not ${JSON.stringify(only)}`);
  const figures = runTree(only);
  console.log(`\n(sink ${sinkValue()})`);
  console.log(RESULT_PREFIX + JSON.stringify(figures));
} else {
  printEnvironment("document-base: the base URL of every element of a document", options);
  console.log(`jsdom ${(await import("jsdom/package.json", { with: { type: "json" } })).default.version}; one process per tree (see the module comment)`);
  const all: Figures = {};
  for (const t of ["parse5", "htmlparser2", "dom"] as const) {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...process.argv.slice(2), `--tree=${t}`], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (child.status !== 0) throw new Error(`the ${t} run failed (exit ${child.status})`);
    for (const line of child.stdout.split("\n")) {
      if (line.startsWith(RESULT_PREFIX)) {
        const figures = JSON.parse(line.slice(RESULT_PREFIX.length)) as Figures;
        for (const [shape, byContender] of Object.entries(figures)) Object.assign((all[shape] ??= {}), byContender);
      } else {
        console.log(line);
      }
    }
  }

  heading("linearity: median ns per element at each size, and the 100k / 25k ratio (1.00 = linear)");
  for (const shape of ["wide", "deep"]) {
    const byContender = all[shape];
    if (byContender === undefined) continue;
    console.log(`\n${shape === "wide" ? "wide (generated sections)" : "deep (nested divs)"}`);
    const w = Math.max(...Object.keys(byContender).map((k) => k.length));
    console.log(`${"contender".padEnd(w)}  ${sizes.map((s) => `${s / 1000}k`.padStart(8)).join("  ")}  100k/25k`);
    for (const [name, bySize] of Object.entries(byContender)) {
      const cells = sizes.map((s) => formatNs(bySize[s] ?? NaN).padStart(8));
      console.log(`${name.padEnd(w)}  ${cells.join("  ")}  ${formatRatio((bySize[100_000] ?? NaN) / (bySize[25_000] ?? NaN)).padStart(8)}`);
    }
  }

  heading("against jsdom's element.baseURI (ratios of medians; parse5 and htmlparser2 measured in their own processes)");
  for (const [shape, size] of [["wide", 100_000], [REAL_PAGE, 0]] as const) {
    const byContender = all[shape];
    const peer = byContender?.[jsdomPeer.name]?.[size];
    if (byContender === undefined || peer === undefined) continue;
    console.log(`\n${shape}${size > 0 ? `, ${size.toLocaleString("en-US")} elements` : ""}: jsdom element.baseURI ${formatNs(peer)} ns/element`);
    for (const [name, bySize] of Object.entries(byContender)) {
      const ns = bySize[size];
      if (name === jsdomPeer.name || name.startsWith("baseline") || ns === undefined) continue;
      console.log(`  ${name.padEnd(36)} ${formatNs(ns).padStart(8)} ns/element  ${formatRatio(peer / ns).padStart(6)}x as fast as jsdom`);
    }
  }
  console.log(`\n(sink ${sinkValue()})`);
}
