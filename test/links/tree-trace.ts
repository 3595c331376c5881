// What the tree construction tests compare: the elements a parse made, in the order made, each as one line of a
// trace (name, namespace, place, template depth, ancestors), from parse5's whole tree and from the constructions
// that keep none; and html5lib-tests' tree-construction documents, read from their .dat files.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultTreeAdapter, type DefaultTreeAdapterMap, parse as parse5Parse, type TreeAdapter } from "parse5";
import { HTML_NAMESPACE, MATHML_NAMESPACE, SVG_NAMESPACE } from "../../src/html/index.ts";

/** The formatting elements (https://html.spec.whatwg.org/multipage/parsing.html#formatting). */
const formatting = new Set(["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"]);

const prefixes: Record<string, string> = { [HTML_NAMESPACE]: "", [SVG_NAMESPACE]: "svg ", [MATHML_NAMESPACE]: "math " };

export interface TraceNode {
  nodeName: string;
  tagName?: string;
  namespaceURI?: string;
  parentNode?: TraceNode | null;
  content?: TraceNode;
}

/**
 * One element's line of the trace: its name and namespace, where its parents lead, how many template
 * contents it is in, and its ancestors up to the document or its template contents, formatting elements left out
 * (the adoption agency moves a furthest block's children under a new formatting element; a construction that
 * keeps no children leaves them where they were).
 */
export function traceLine(element: TraceNode, templateDepth: number): string {
  const ancestors: string[] = [];
  let node = element.parentNode ?? null;
  while (node !== null && node.tagName !== undefined) {
    if (!(node.namespaceURI === HTML_NAMESPACE && formatting.has(node.tagName))) ancestors.push(prefixes[node.namespaceURI!]! + node.tagName);
    node = node.parentNode ?? null;
  }
  const place = node === null ? "out of the tree" : node.nodeName === "#document" ? "document" : "template contents";
  return `${prefixes[element.namespaceURI!]}${element.tagName} | ${place} | templates ${templateDepth} | ${ancestors.join(" < ")}`;
}

/** parse5's own parse (its tokenizer, its whole tree): the trace of its elements in the order made, and its document. */
export function parse5Trace(html: string, scripting: boolean): { trace: string[]; document: TraceNode } {
  const made: TraceNode[] = [];
  const adapter = {
    ...defaultTreeAdapter,
    createElement(tagName: string, namespaceURI: string, attrs: never) {
      const element = defaultTreeAdapter.createElement(tagName, namespaceURI as never, attrs);
      made.push(element as unknown as TraceNode);
      return element;
    },
  } as TreeAdapter<DefaultTreeAdapterMap>;
  const document = parse5Parse(html, { treeAdapter: adapter, scriptingEnabled: scripting }) as unknown as TraceNode;
  // Template contents do not know their template: find it for each, to count the contents an element is in.
  const templateOf = new Map<TraceNode, TraceNode>();
  for (const element of made) if (element.content !== undefined) templateOf.set(element.content, element);
  const trace = made.map((element) => {
    let depth = 0;
    let node: TraceNode | null | undefined = element.parentNode;
    while (node !== null && node !== undefined) {
      const template = templateOf.get(node);
      if (template !== undefined) depth++;
      node = template ?? node.parentNode;
    }
    return traceLine(element, depth);
  });
  return { trace, document };
}

/** From parse5's whole tree: the ids and a[name]s of the document tree, and the first base element's href, in tree order. */
export function treeFacts(document: TraceNode): { ids: string[]; names: string[]; firstBase: string | null } {
  const ids = new Set<string>();
  const names = new Set<string>();
  let firstBase: string | null = null;
  const stack: TraceNode[] = [document];
  while (stack.length > 0) {
    const node = stack.pop()! as TraceNode & { childNodes?: TraceNode[]; attrs?: { name: string; value: string; namespace?: string }[] };
    if (node.tagName !== undefined) {
      for (const attr of node.attrs!) {
        if (attr.value === "" || (attr.namespace !== undefined && attr.namespace !== "")) continue;
        if (attr.name === "id") ids.add(attr.value);
        else if (attr.name === "name" && node.tagName === "a" && node.namespaceURI === HTML_NAMESPACE) names.add(attr.value);
      }
      if (firstBase === null && node.tagName === "base" && node.namespaceURI === HTML_NAMESPACE) {
        const href = node.attrs!.find((attr) => attr.name === "href" && attr.namespace === undefined);
        if (href !== undefined) firstBase = href.value;
      }
    }
    const children = node.childNodes ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return { ids: [...ids].sort(), names: [...names].sort(), firstBase };
}

/**
 * html5lib-tests' tree-construction data: the vendored copy, test/fixtures/html5lib-tests (read through a
 * stored index of public files; its ORIGIN.md pins each file), or the folder `DOCBASE_HTML5LIB_TESTS` names
 * (e.g. a fuller ../shared/html5lib-tests).
 */
export const html5libFromEnvironment = process.env["DOCBASE_HTML5LIB_TESTS"] !== undefined;
export const html5libDirectory = process.env["DOCBASE_HTML5LIB_TESTS"] ?? join(import.meta.dirname, "../fixtures/html5lib-tests");

/** Whether the html5lib-tests data is there: the vendored copy always is (its absence fails the suites). */
export const html5libAvailable = !html5libFromEnvironment || existsSync(join(html5libDirectory, "tree-construction"));

export interface TreeConstructionCase {
  readonly file: string;
  readonly data: string;
  /** null: run with scripting both on and off (the test has no #script-on or #script-off). */
  readonly scripting: boolean | null;
}

/** The whole-document cases of a .dat file (html5lib-tests' tree-construction format), and how many fragment cases it skipped. */
export function treeConstructionCases(file: string, text: string): { cases: TreeConstructionCase[]; fragments: number } {
  const cases: TreeConstructionCase[] = [];
  let fragments = 0;
  for (const block of text.split(/^#data\n/m).slice(1)) {
    const sections = new Set<string>();
    const data = block.slice(0, block.search(/^#errors\n/m) - 1);
    for (const match of block.matchAll(/^#([a-z-]+)\n?/gm)) sections.add(match[1]!);
    // A fragment parse (with a context element): link work parses whole documents only.
    if (sections.has("document-fragment")) {
      fragments++;
      continue;
    }
    cases.push({ file, data, scripting: sections.has("script-on") ? true : sections.has("script-off") ? false : null });
  }
  return { cases, fragments };
}

/** Every .dat file's name (under tree-construction/), sorted. */
export function html5libFiles(): string[] {
  if (!html5libAvailable) return [];
  return readdirSync(join(html5libDirectory, "tree-construction"))
    .filter((name) => name.endsWith(".dat"))
    .sort();
}

/** The document cases of one .dat file. */
export function html5libCases(file: string): { cases: TreeConstructionCase[]; fragments: number } {
  return treeConstructionCases(file, readFileSync(join(html5libDirectory, "tree-construction", file), "utf8"));
}

/** The scripting flags a case runs with. */
export function scriptingFlags(scripting: boolean | null): boolean[] {
  return scripting === null ? [true, false] : [scripting];
}

/**
 * Tree soup: documents made of the pieces that exercise the tree construction's hard parts — tables and foster
 * parenting, misnested formatting elements (the adoption agency, the Noah's Ark clause), framesets, templates and
 * declarative shadow roots, SVG and MathML with their integration points, select, noscript, raw text, base elements.
 */
export const treeSoupUnits: readonly string[] = [
  ...["<b>", "</b>", "<i id=i>", "</i>", "<a href=f.html name=n>", "</a>", "<nobr>", "</nobr>", "<p id=p>", "</p>", "<div>", "</div>", "<li>", "<dd>", "<dt>", "<h1>", "</h2>"],
  ...["<form id=f action=go>", "</form>", "<button>", "</button>", "<ul>", "</ul>", "<marquee>", "</object>", "<ruby>", "<rt>", "<rb>", "<rtc>", "<span>", "</span>", "<pre>", "\n"],
  ...["<table id=t>", "</table>", "<tr>", "<td>", "</td>", "<th>", "</tr>", "<caption>", "</caption>", "<colgroup>", "<col>", "<tbody>", "</tbody>", "<thead>", "<tfoot>"],
  ...["<select>", "</select>", "<option>", "</option>", "<optgroup>", "</optgroup>", "<input>", "<input type=hidden>", "<keygen>", "<hr>", "<br>", "</br>", "<image src=im.png>"],
  ...["<template>", "</template>", "<div id=host><template shadowrootmode=open>", "<span><template shadowrootmode=closed>", "<svg>", "</svg>", "<g id=g>", "<foreignObject>"],
  ...["<desc>", "<title>", "</title>", "<style>", "</style>", "<svg><style>a{background:url(s.png)}</style>", "<svg><a href=s.html />", "<svg><use xlink:href=#u />", "<font color=red>", "<font>"],
  ...["<math><mi>", "</mi></math>", "<math><annotation-xml encoding=text/html>", "<math><annotation-xml>", "<mtext>", "<mglyph>", "<malignmark>", "<math>", "</math>", "<![CDATA[x]]>"],
  ...["<frameset>", "</frameset>", "<frame src=fr.html>", "<noframes>", "<head>", "</head>", "<body id=body background=bg.png>", "</body>", "<html id=h lang=en>", "</html>"],
  ...["<noscript>", "</noscript>", "<noscript><img src=ns.png></noscript>", "<textarea>", "</textarea>", "<iframe srcdoc='<a href=in.html>'>", "</iframe>", "<xmp>", "<plaintext>"],
  ...["x", " ", "\0", "<base href=/1/>", "<base href=/2/>", "<img src=i.png id=img>", "<base target=t>", "<!-- c -->", "<!doctype html>", "<!DOCTYPE html PUBLIC '-//W3C//DTD HTML 3.2//EN'>"],
  ...["<script>", "</script>", "<link rel=stylesheet href=l.css>", "<meta http-equiv=refresh content='0;url=r.html'>", "<area href=ar.html>", "<applet>", "<embed src=e.swf>"],
];
