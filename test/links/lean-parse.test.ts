// The treeless parse (html-source.ts's treelessTreeAdapter, what link work parses with) against parse5's own
// parse with its whole tree: the same elements, made in the same order, each with the same name, namespace,
// place (the document's tree, template contents, or out of the tree), template depth and ancestors (but the
// formatting elements the adoption agency puts between a furthest block and its children, which the treeless
// tree leaves where they were); and the same facts read from them: the fragment targets and the first base
// element with an href. Over html5lib-tests' tree-construction documents (when the data is there, see
// html5libTreeConstructionDirectory) and over generated tree soup (fast-check; DOCBASE_PROPERTY_RUNS cases,
// default 300, seeded with DOCBASE_PROPERTY_SEED, default 23).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { defaultTreeAdapter, type DefaultTreeAdapterMap, parse as parse5Parse, Parser, type TreeAdapter } from "parse5";
import { describe, expect, it } from "vitest";
import { HTML_NAMESPACE, MATHML_NAMESPACE, SVG_NAMESPACE } from "../../src/html/index.ts";
import { documentFragmentTargets } from "../../src/links/fragment-targets.ts";
import {
  isInDocumentTree,
  type LeanElement,
  type LeanParent,
  newParse,
  parseWithPositions,
  treelessTreeAdapter,
  withParse,
} from "../../src/links/html-source.ts";
import { installTokenizer } from "../../src/links/html-tokenizer.ts";
import { extractLinks } from "../../src/links/index.ts";
import { readLinks } from "../../src/links/read-links.ts";

const runs = Number(process.env["DOCBASE_PROPERTY_RUNS"] ?? 300);
const seed = Number(process.env["DOCBASE_PROPERTY_SEED"] ?? 23);

/** The formatting elements (https://html.spec.whatwg.org/multipage/parsing.html#formatting). */
const formatting = new Set(["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"]);

const prefixes: Record<string, string> = { [HTML_NAMESPACE]: "", [SVG_NAMESPACE]: "svg ", [MATHML_NAMESPACE]: "math " };

interface Node {
  nodeName: string;
  tagName?: string;
  namespaceURI?: string;
  parentNode?: Node | null;
  content?: Node;
}

/**
 * One element's line of the trace: its name and namespace, where its parents lead, how many template
 * contents it is in, and its ancestors up to the document or its template contents, formatting elements left out.
 */
function traceLine(element: Node, templateDepth: number): string {
  const ancestors: string[] = [];
  let node = element.parentNode ?? null;
  while (node !== null && node.tagName !== undefined) {
    if (!(node.namespaceURI === HTML_NAMESPACE && formatting.has(node.tagName))) ancestors.push(prefixes[node.namespaceURI!]! + node.tagName);
    node = node.parentNode ?? null;
  }
  const place = node === null ? "out of the tree" : node.nodeName === "#document" ? "document" : "template contents";
  return `${prefixes[element.namespaceURI!]}${element.tagName} | ${place} | templates ${templateDepth} | ${ancestors.join(" < ")}`;
}

/** parse5's own parse (its tokenizer, its whole tree): the trace of its elements in the order made. */
function parse5Trace(html: string, scripting: boolean): { trace: string[]; document: Node } {
  const made: Node[] = [];
  const adapter = {
    ...defaultTreeAdapter,
    createElement(tagName: string, namespaceURI: string, attrs: never) {
      const element = defaultTreeAdapter.createElement(tagName, namespaceURI as never, attrs);
      made.push(element as unknown as Node);
      return element;
    },
  } as TreeAdapter<DefaultTreeAdapterMap>;
  const document = parse5Parse(html, { treeAdapter: adapter, scriptingEnabled: scripting }) as unknown as Node;
  // Template contents do not know their template: find it for each, to count the contents an element is in.
  const templateOf = new Map<Node, Node>();
  for (const element of made) if (element.content !== undefined) templateOf.set(element.content, element);
  const trace = made.map((element) => {
    let depth = 0;
    let node: Node | null | undefined = element.parentNode;
    while (node !== null && node !== undefined) {
      const template = templateOf.get(node);
      if (template !== undefined) depth++;
      node = template ?? node.parentNode;
    }
    return traceLine(element, depth);
  });
  return { trace, document };
}

/** The treeless parse (docbase's tokenizer, parse5's tree construction, no tree kept): the same trace. */
function treelessTrace(html: string, scripting: boolean): string[] {
  const made: { element: LeanElement; depth: number }[] = [];
  const parse = newParse();
  const adapter = {
    ...(treelessTreeAdapter as unknown as Record<string, unknown>),
    createElement(tagName: string, namespaceURI: string, attrs: never): LeanElement {
      const element = (treelessTreeAdapter as unknown as { createElement(t: string, n: string, a: never): LeanElement }).createElement(tagName, namespaceURI, attrs);
      made.push({ element, depth: parse.openTemplates.length });
      return element;
    },
  } as unknown as TreeAdapter<DefaultTreeAdapterMap>;
  withParse(parse, () => {
    const parser = new Parser<DefaultTreeAdapterMap>({ treeAdapter: adapter, scriptingEnabled: scripting });
    parse.parser = parser;
    parse.tokenizer = installTokenizer(parser);
    parse.tokenizer.run(html);
  });
  return made.map(({ element, depth }) => traceLine(element as unknown as Node, depth));
}

/** From parse5's whole tree: the ids and a[name]s of the document tree, and the first base element's href, in tree order. */
function treeFacts(document: Node): { ids: string[]; names: string[]; firstBase: string | null } {
  const ids = new Set<string>();
  const names = new Set<string>();
  let firstBase: string | null = null;
  const stack: Node[] = [document];
  while (stack.length > 0) {
    const node = stack.pop()! as Node & { childNodes?: Node[]; attrs?: { name: string; value: string; namespace?: string }[] };
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

/** The same facts from the treeless parse (parseWithPositions, as link work reads them). */
function treelessFacts(html: string, scripting: boolean): { ids: string[]; names: string[]; firstBase: string | null } {
  const parsed = parseWithPositions(html, scripting);
  const { ids, names } = documentFragmentTargets(parsed);
  const base = parsed.document.childNodes.find((node) => node.nodeName === "base") as LeanElement | undefined;
  let firstBase: string | null = null;
  if (parsed.document.childNodes.length > 0 && base === undefined) {
    // Parsed again with the tree kept (two candidates): read the tree.
    return { ...treeFacts(parsed.document as unknown as Node), ids: [...ids].sort(), names: [...names].sort() };
  }
  if (base !== undefined) firstBase = base.attrs.find((attr) => attr.name === "href" && attr.namespace === undefined)!.value;
  return { ids: [...ids].sort(), names: [...names].sort(), firstBase };
}

function expectSameStructure(html: string, scripting: boolean): void {
  const reference = parse5Trace(html, scripting);
  expect(treelessTrace(html, scripting), JSON.stringify(html)).toEqual(reference.trace);
  expect(treelessFacts(html, scripting), JSON.stringify(html)).toEqual(treeFacts(reference.document));
}

// --- html5lib-tests' tree-construction documents ----------------------------------

/**
 * Where html5lib-tests' tree-construction/*.dat files are: DOCBASE_HTML5LIB_TESTS, else
 * ../shared/html5lib-tests/tree-construction beside the checkout (as the bench's corpus is).
 */
function html5libTreeConstructionDirectory(): string {
  return process.env["DOCBASE_HTML5LIB_TESTS"] ?? join(import.meta.dirname, "../../../shared/html5lib-tests/tree-construction");
}

interface TreeConstructionCase {
  readonly file: string;
  readonly data: string;
  /** null: run with scripting both on and off (the test has no #script-on or #script-off). */
  readonly scripting: boolean | null;
}

/** The whole-document cases of a .dat file (https://github.com/html5lib/html5lib-tests/tree/master/tree-construction's format). */
function treeConstructionCases(file: string, text: string): TreeConstructionCase[] {
  const cases: TreeConstructionCase[] = [];
  for (const block of text.split(/^#data\n/m).slice(1)) {
    const sections = new Map<string, string>();
    const data = block.slice(0, block.search(/^#errors\n/m) - 1);
    for (const match of block.matchAll(/^#([a-z-]+)\n?/gm)) sections.set(match[1]!, "");
    if (sections.has("document-fragment")) continue; // A fragment parse: link work parses whole documents only.
    cases.push({ file, data, scripting: sections.has("script-on") ? true : sections.has("script-off") ? false : null });
  }
  return cases;
}

const directory = html5libTreeConstructionDirectory();
const datFiles = existsSync(directory) ? readdirSync(directory).filter((name) => name.endsWith(".dat")).sort() : [];

describe.skipIf(datFiles.length === 0)(`html5lib-tests tree construction (${directory}): the treeless parse's structure is parse5's`, () => {
  for (const file of datFiles) {
    it(file, () => {
      const cases = treeConstructionCases(file, readFileSync(join(directory, file), "utf8"));
      expect(cases.length + readFileSync(join(directory, file), "utf8").split(/^#document-fragment$/m).length - 1).toBeGreaterThan(0);
      for (const { data, scripting } of cases) {
        for (const flag of scripting === null ? [true, false] : [scripting]) expectSameStructure(data, flag);
      }
    });
  }
});

// --- Tree soup ---------------------------------------------------------------------

const soupUnit = fc.constantFrom(
  ...["<b>", "</b>", "<i id=i>", "</i>", "<a href=f.html name=n>", "</a>", "<nobr>", "<p id=p>", "</p>", "<div>", "</div>", "<li>", "<h1>", "<form id=f>", "</form>"],
  ...["<table id=t>", "</table>", "<tr>", "<td>", "</td>", "</tr>", "<caption>", "</caption>", "<colgroup>", "<col>", "<tbody>", "<select>", "</select>", "<option>", "<optgroup>", "<input>"],
  ...["<template>", "</template>", "<div id=host><template shadowrootmode=open>", "<svg>", "</svg>", "<g id=g>", "<foreignObject>", "<desc>", "<title>", "<style>", "</style>"],
  ...["<math><mi>", "</mi></math>", "<math><annotation-xml encoding=text/html>", "<math><annotation-xml>", "<mtext>", "<font color=red>", "<font>"],
  ...["<frameset>", "</frameset>", "<frame src=fr.html>", "<head>", "</head>", "<body id=body>", "</body>", "<html id=h>", "</html>", "<noscript>", "</noscript>", "<textarea>", "</textarea>"],
  ...["x", " ", "\n", "\0", "<base href=/1/>", "<base href=/2/>", "<img src=i.png id=img>", "<base target=t>", "<!-- c -->", "<!doctype html>", "<plaintext>", "<xmp>", "<script>", "</script>"],
);
const treeSoup = fc.array(soupUnit, { minLength: 1, maxLength: 40 }).map((units) => units.join(""));

describe(`tree soup (fast-check, seed ${seed}): the treeless parse against parse5's whole tree`, () => {
  it(`makes the same elements, in the same places, with the same fragment targets and first base (${runs * 2} runs)`, () => {
    fc.assert(
      fc.property(treeSoup, fc.boolean(), (html, scripting) => expectSameStructure(html, scripting)),
      { numRuns: runs * 2, seed },
    );
  });

  it(`reads the same links as a parse that keeps the tree (${runs} runs)`, () => {
    const url = "https://example.com/dir/page.html";
    fc.assert(
      fc.property(treeSoup, (html) => {
        // readLinks with bases parses keeping the whole tree.
        expect(extractLinks(html, { url, validate: true })).toEqual(readLinks(html, { url, validate: true }, { bases: true }).links);
      }),
      { numRuns: runs, seed },
    );
  });
});

describe("the treeless parse", () => {
  it("keeps no element's children but the document's and an SVG style's", () => {
    const parsed = parseWithPositions("<div><p><a href=x>t</a></p></div><svg><style>a{}</style></svg>");
    const a = parsed.tags.find((tag) => tag.element.tagName === "a")!.element;
    expect(a.childNodes).toEqual([]);
    expect(a.parentNode!.nodeName).toBe("p");
    expect((a.parentNode as LeanElement).childNodes).toEqual([]);
    const style = parsed.tags.find((tag) => tag.element.tagName === "style")!.element;
    expect(style.childNodes.map((child) => child.nodeName)).toEqual(["#text"]);
  });

  it("tells elements in the document's tree from those in template contents and those a frameset took out", () => {
    const parsed = parseWithPositions("<p id=a><template><p id=b></template><span id=c>");
    expect(parsed.targetCandidates!.map((element) => [element.attrs[0]!.value, isInDocumentTree(element)])).toEqual([
      ["a", true],
      ["c", true],
    ]);
    const framed = parseWithPositions("<p id=gone><frameset>");
    expect(framed.targetCandidates!.map(isInDocumentTree)).toEqual([false]);
  });

  it("parses again, keeping the tree, when two base elements with an href are in it (tree order decides)", () => {
    // The second base is foster-parented before the table that holds the first.
    const html = "<table><tr><td><base href=/1/></td></tr><base href=/2/></table>";
    const parsed = parseWithPositions(html);
    expect(parsed.document.childNodes.map((node) => node.nodeName)).toEqual(["html"]);
    expect(treelessFacts(html, true).firstBase).toBe("/2/");
    const one = parseWithPositions("<p><base href=/only/>");
    expect((one.document.childNodes as LeanParent[]).map((node) => node.nodeName)).toEqual(["base"]);
  });
});
