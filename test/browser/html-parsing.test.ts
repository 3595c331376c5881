/**
 * Browser agreement of the parse that link extraction relies on: docbase's
 * HTML Standard tokenizer (src/links/html-tokenizer.ts) driving parse5's tree
 * construction must build the tree Chromium builds.
 * https://html.spec.whatwg.org/multipage/parsing.html
 *
 * test/links/html-tokenizer.test.ts holds runTokenizer to parse5's own
 * tokenizer; that says nothing about whether the two are right. Here every
 * input of its case list (../links/html-tokenizer-cases.ts), a few hundred
 * strings from its generator (seeded), and the real pages of test/fixtures/corpus
 * are parsed
 *
 * - in headless Chromium, by `new DOMParser().parseFromString(html, "text/html")`
 *   (a DOMParser document has scripting disabled), on about:blank, and
 * - in Node, by runTokenizer and parse5's default tree adapter, scripting off;
 *
 * and both trees are dumped to the same lines (document mode, doctype, element
 * namespaces and local names, attributes in order with their namespaces and
 * prefixes, text, comments, processing instructions, template contents) and
 * compared input by input. `compatMode` cannot tell limited-quirks from
 * no-quirks, so both count as CSS1Compat.
 *
 * Every difference must be listed, with its cause (one sentence and the spec
 * reference each), in known-parsing-differences.json, and every listed input
 * must still differ: an input that now agrees fails until it is removed from
 * the list. Where a cause blames DOMParser's own shortcut rather than
 * Chromium's parser, the same input written with `document.write` must agree
 * with docbase. The generated inputs depend on fast-check's generator: a new
 * fast-check may change them, and the list's hygiene test says so.
 *
 * Needs Debian's chromium at /usr/bin/chromium. Without it the suite is
 * skipped (test/global-setup.ts says so in one line) — unless
 * DOCBASE_REQUIRE_CHROMIUM=1, as in .ci/run, where it fails
 * (.ci/run installs chromium first).
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { TextDecoder } from "@exodus/bytes/encoding.js";
import fc from "fast-check";
import { defaultTreeAdapter, parse as parse5Parse, Parser, type DefaultTreeAdapterMap } from "parse5";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sniffEncoding } from "../../src/links/encoding-sniffing.ts";
import { runTokenizer } from "../../src/links/html-tokenizer.ts";
import { corpusPages, readCorpusFile } from "../corpus-data.ts";
import { cases, cdataDeviations, htmlish } from "../links/html-tokenizer-cases.ts";
import { browserSuitesRun, chromiumArgs, chromiumAvailable, chromiumPath } from "./chromium-runner.ts";

const available = chromiumAvailable();

// --- The inputs --------------------------------------------------------------

const generatedCount = 300;
const generatorSeed = 20260712;

interface Input {
  readonly group: string;
  readonly html: string;
}

function collectInputs(): Input[] {
  const seen = new Set<string>();
  const inputs: Input[] = [];
  const add = (group: string, html: string): void => {
    if (seen.has(html)) return;
    seen.add(html);
    inputs.push({ group, html });
  };
  for (const [group, list] of Object.entries(cases)) for (const html of list) add(group, html);
  for (const [html, equivalent] of cdataDeviations) {
    add("CDATA sections where the standard opens one and parse5 does not", html);
    add("CDATA sections where the standard opens one and parse5 does not", equivalent);
  }
  // The first `generatedCount` samples not seen before (the grammar repeats short strings).
  let generated = 0;
  for (const html of fc.sample(htmlish, { numRuns: 3 * generatedCount, seed: generatorSeed })) {
    if (generated === generatedCount) break;
    if (seen.has(html)) continue;
    add("generated HTML-ish input", html);
    generated++;
  }
  return inputs;
}

const inputs = collectInputs();

const pages = corpusPages.map((page) => page.file);

function readPage(page: string): string {
  const bytes = readCorpusFile(page);
  return new TextDecoder(sniffEncoding(bytes, undefined).encoding).decode(bytes);
}

// --- The known differences -----------------------------------------------------

interface KnownDifferences {
  /** cause → one sentence: what differs, who is right, with the spec reference. */
  readonly causes: Record<string, string>;
  /** input → cause. */
  readonly inputs: Record<string, string>;
  /** corpus page file name → cause. */
  readonly corpus: Record<string, string>;
}

const knownPath = new URL("./known-parsing-differences.json", import.meta.url);
const known = JSON.parse(readFileSync(knownPath, "utf8")) as KnownDifferences;

/**
 * Causes that blame DOMParser's own path through Chromium: for their inputs,
 * Chromium's full parser (`document.write`) must build docbase's tree, or the
 * diagnosis is wrong.
 */
const domParserOnlyCauses: ReadonlySet<string> = new Set(["chromium-domparser-text-leading-whitespace-references", "chromium-domparser-text-empty-hex-reference"]);

// --- One canonical form for both trees -------------------------------------------

type CanonicalNode =
  | { readonly t: "doctype"; readonly name: string; readonly publicId: string; readonly systemId: string }
  | { readonly t: "text"; readonly data: string }
  | { readonly t: "comment"; readonly data: string }
  | { readonly t: "processing-instruction"; readonly target: string; readonly data: string }
  | {
      readonly t: "element";
      readonly namespace: string | null;
      readonly localName: string;
      /** [namespace, prefix, local name, value], in order. */
      readonly attributes: readonly (readonly [string | null, string | null, string, string])[];
      readonly children: readonly CanonicalNode[];
      /** A template's contents (DocumentFragment), for HTML template elements only. */
      readonly content?: readonly CanonicalNode[];
    }
  | { readonly t: "other"; readonly what: string };

interface CanonicalDocument {
  /** document.compatMode: "BackCompat" (quirks) or "CSS1Compat" (no-quirks and limited-quirks). */
  readonly compatMode: string;
  readonly children: readonly CanonicalNode[];
}

// The tsconfig has no DOM library: the few DOM members read in the page.
interface PageAttr {
  readonly namespaceURI: string | null;
  readonly prefix: string | null;
  readonly localName: string;
  readonly value: string;
}
interface PageDocument extends PageNode {
  open(): void;
  write(html: string): void;
  close(): void;
}
interface PageNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly childNodes: ArrayLike<PageNode>;
  readonly namespaceURI?: string | null;
  readonly localName?: string;
  readonly attributes?: ArrayLike<PageAttr>;
  readonly content?: PageNode;
  readonly data?: string;
  readonly target?: string;
  readonly name?: string;
  readonly publicId?: string;
  readonly systemId?: string;
  readonly compatMode?: string;
}

/** What the page returns for one input. */
interface ChromiumParse {
  /** `new DOMParser().parseFromString(html, "text/html")`: the parse compared. */
  readonly parsed: CanonicalDocument;
  /**
   * The same input through `document.write` into a new document (no browsing
   * context, so scripting is disabled too): Chromium's full parser, which
   * DOMParser bypasses for some text-only input (see the known differences).
   */
  readonly written?: CanonicalDocument;
}

/**
 * Runs in the page (Playwright sends its source text): parses each input and
 * returns the canonical documents as JSON, which escapes lone surrogates both
 * ways. Self-contained: nothing from outside this function.
 */
function parseInPage({ inputsJSON, write }: { inputsJSON: string; write: boolean }): string {
  const html = "http://www.w3.org/1999/xhtml";
  const page = globalThis as unknown as {
    DOMParser: new () => { parseFromString(s: string, type: string): PageNode };
    document: { implementation: { createHTMLDocument(title: string): PageDocument } };
  };
  const parser = new page.DOMParser();
  const canonical = (node: PageNode): CanonicalNode => {
    switch (node.nodeType) {
      case 1: {
        const children = Array.from(node.childNodes, canonical);
        const attributes = Array.from(node.attributes ?? [], (a) => [a.namespaceURI, a.prefix, a.localName, a.value] as const);
        const base = { t: "element" as const, namespace: node.namespaceURI ?? null, localName: node.localName ?? "", attributes, children };
        if (node.namespaceURI === html && node.localName === "template" && node.content !== undefined) {
          return { ...base, content: Array.from(node.content.childNodes, canonical) };
        }
        return base;
      }
      case 3:
        return { t: "text", data: node.data ?? "" };
      case 7:
        return { t: "processing-instruction", target: node.target ?? "", data: node.data ?? "" };
      case 8:
        return { t: "comment", data: node.data ?? "" };
      case 10:
        return { t: "doctype", name: node.name ?? "", publicId: node.publicId ?? "", systemId: node.systemId ?? "" };
      default:
        return { t: "other", what: `nodeType ${node.nodeType} ${node.nodeName}` };
    }
  };
  const document = (doc: PageNode): CanonicalDocument => ({ compatMode: doc.compatMode ?? "", children: Array.from(doc.childNodes, canonical) });
  const parses: ChromiumParse[] = (JSON.parse(inputsJSON) as string[]).map((input) => {
    const parsed = document(parser.parseFromString(input, "text/html"));
    if (!write) return { parsed };
    const doc = page.document.implementation.createHTMLDocument("");
    doc.open();
    doc.write(input);
    doc.close();
    return { parsed, written: document(doc) };
  });
  return JSON.stringify(parses);
}

type Parse5Node = DefaultTreeAdapterMap["childNode"] | DefaultTreeAdapterMap["documentType"];

function fromParse5(node: Parse5Node): CanonicalNode {
  if (defaultTreeAdapter.isElementNode(node)) {
    const attributes = node.attrs.map((a) => [a.namespace ?? null, a.prefix === undefined || a.prefix === "" ? null : a.prefix, a.name, a.value] as const);
    const children = node.childNodes.map(fromParse5);
    const base = { t: "element" as const, namespace: node.namespaceURI, localName: node.tagName, attributes, children };
    if (node.namespaceURI === "http://www.w3.org/1999/xhtml" && node.tagName === "template" && "content" in node) {
      return { ...base, content: node.content.childNodes.map(fromParse5) };
    }
    return base;
  }
  if (defaultTreeAdapter.isTextNode(node)) return { t: "text", data: node.value };
  if (defaultTreeAdapter.isCommentNode(node)) return { t: "comment", data: node.data };
  if (defaultTreeAdapter.isDocumentTypeNode(node)) return { t: "doctype", name: node.name, publicId: node.publicId, systemId: node.systemId };
  return { t: "other", what: (node as { nodeName: string }).nodeName };
}

const compatMode = { quirks: "BackCompat", "no-quirks": "CSS1Compat", "limited-quirks": "CSS1Compat" } as const;

function canonicalDocument(document: DefaultTreeAdapterMap["document"]): CanonicalDocument {
  return { compatMode: compatMode[document.mode], children: document.childNodes.map(fromParse5) };
}

/** docbase's parse: runTokenizer driving parse5's tree construction, scripting off as in a DOMParser document. */
function parseWithDocbase(html: string): CanonicalDocument {
  const parser = new Parser({ treeAdapter: defaultTreeAdapter, scriptingEnabled: false });
  runTokenizer(parser, html);
  return canonicalDocument(parser.document);
}

/** parse5 alone, to tell parse5's tree construction from docbase's tokenizer when they differ from Chromium. */
function parseWithParse5(html: string): CanonicalDocument {
  return canonicalDocument(parse5Parse(html, { scriptingEnabled: false }));
}

// --- Dumping and comparing ---------------------------------------------------------

const namespaceNames: Record<string, string> = {
  "http://www.w3.org/1999/xhtml": "html",
  "http://www.w3.org/2000/svg": "svg",
  "http://www.w3.org/1998/Math/MathML": "math",
  "http://www.w3.org/1999/xlink": "xlink",
  "http://www.w3.org/XML/1998/namespace": "xml",
  "http://www.w3.org/2000/xmlns/": "xmlns",
};

/** A string as JSON (lone surrogates and controls escaped). */
function quote(s: string): string {
  return JSON.stringify(s);
}

/** A name, escaped as in a JSON string but without the quotes. */
function bare(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

function namespaceName(namespace: string | null): string {
  return namespace === null ? "(no namespace)" : (namespaceNames[namespace] ?? `{${namespace}}`);
}

/** The document as lines, html5lib-style: one node or attribute a line, indented by depth. */
function dump(document: CanonicalDocument): string[] {
  const lines = [`compatMode ${document.compatMode}`];
  const walk = (nodes: readonly CanonicalNode[], indent: string): void => {
    for (const node of nodes) {
      switch (node.t) {
        case "doctype":
          lines.push(`${indent}<!DOCTYPE ${quote(node.name)} ${quote(node.publicId)} ${quote(node.systemId)}>`);
          break;
        case "text":
          lines.push(`${indent}${quote(node.data)}`);
          break;
        case "comment":
          lines.push(`${indent}<!-- ${quote(node.data)} -->`);
          break;
        case "processing-instruction":
          lines.push(`${indent}<?${bare(node.target)} ${quote(node.data)}>`);
          break;
        case "element": {
          const ns = node.namespace === "http://www.w3.org/1999/xhtml" ? "" : `${namespaceName(node.namespace)} `;
          lines.push(`${indent}<${ns}${bare(node.localName)}>`);
          for (const [namespace, prefix, localName, value] of node.attributes) {
            const attrNs = namespace === null ? "" : `${namespaceName(namespace)} `;
            lines.push(`${indent}  ${attrNs}${prefix === null ? "" : `${bare(prefix)}:`}${bare(localName)}=${quote(value)}`);
          }
          walk(node.children, `${indent}  `);
          if (node.content !== undefined) {
            lines.push(`${indent}  content`);
            walk(node.content, `${indent}    `);
          }
          break;
        }
        case "other":
          lines.push(`${indent}?? ${node.what}`);
          break;
      }
    }
  };
  walk(document.children, "| ");
  return lines;
}

function cut(s: string | undefined, max = 200): string {
  if (s === undefined) return "(none: the dump ends here)";
  return s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s;
}

/** The first line where the dumps differ, with the line before it, or null when they are the same. */
function firstDifference(chromiumLines: readonly string[], docbaseLines: readonly string[]): string | null {
  let i = 0;
  while (i < chromiumLines.length && i < docbaseLines.length && chromiumLines[i] === docbaseLines[i]) i++;
  if (i === chromiumLines.length && i === docbaseLines.length) return null;
  return [
    `line ${i + 1} of the dumps (Chromium ${chromiumLines.length} lines, docbase ${docbaseLines.length}):`,
    `    after:    ${i === 0 ? "(the start)" : cut(chromiumLines[i - 1])}`,
    `    Chromium: ${cut(chromiumLines[i])}`,
    `    docbase:  ${cut(docbaseLines[i])}`,
  ].join("\n");
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** Whom parse5 alone sides with: the line that tells a parse5 difference from a docbase one. */
function parse5Verdict(html: string, chromiumLines: readonly string[], docbaseLines: readonly string[]): string {
  const parse5Lines = dump(parseWithParse5(html));
  if (same(parse5Lines, docbaseLines)) return "parse5 alone builds docbase's tree (a difference of parse5 itself, tree construction or tokenizer)";
  if (same(parse5Lines, chromiumLines)) return "parse5 alone builds Chromium's tree: docbase's tokenizer departs from parse5 here — a docbase bug?";
  return "parse5 alone builds a third tree";
}

/**
 * Holds one parse to the list, both ways: an unlisted difference fails with
 * the first differing line; a listed input that agrees fails too.
 */
function expectListed(label: string, html: string, listedCause: string | undefined, chromiumDocument: CanonicalDocument | undefined, docbaseDocument: CanonicalDocument, listName: string, key: string): void {
  if (chromiumDocument === undefined) throw new Error(`no Chromium parse for ${label}`);
  const chromiumLines = dump(chromiumDocument);
  const docbaseLines = dump(docbaseDocument);
  const difference = firstDifference(chromiumLines, docbaseLines);
  if (listedCause !== undefined) {
    if (difference === null) expect.fail(`${label} is listed in known-parsing-differences.json (${listName}, "${listedCause}") but Chromium and docbase now agree on it: remove it from the list`);
    return;
  }
  if (difference !== null) {
    expect.fail(
      [
        `Chromium and docbase parse ${label} differently, and it is not in known-parsing-differences.json:`,
        `  input: ${cut(quote(html), 400)}`,
        `  ${difference}`,
        `  ${parse5Verdict(html, chromiumLines, docbaseLines)}`,
        `If it is understood, list it: "${listName}": { ${quote(key)}: "<cause>" }`,
      ].join("\n"),
    );
  }
}

// --- The suite -----------------------------------------------------------------------

describe.skipIf(!browserSuitesRun())("HTML parsing: docbase (runTokenizer + parse5) builds the tree Chromium's DOMParser builds", () => {
  let browser: Browser | undefined;
  let version = "";
  let chromiumParses: Map<string, ChromiumParse> | undefined;
  /** Corpus page → its Chromium parse, one page.evaluate each (they are large). */
  const chromiumPages = new Map<string, CanonicalDocument>();

  beforeAll(async () => {
    if (!available) return;
    browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
    version = browser.version();
    const context = await browser.newContext();
    // Nothing is loaded but about:blank; anything else would be a mistake of this file.
    await context.route(
      (url) => url.href !== "about:blank",
      (route) => route.abort("blockedbyclient"),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto("about:blank");
    const parses = new Map<string, ChromiumParse>();
    const batchSize = 250;
    for (let i = 0; i < inputs.length; i += batchSize) {
      const batch = inputs.slice(i, i + batchSize).map((input) => input.html);
      const results = JSON.parse(await page.evaluate(parseInPage, { inputsJSON: JSON.stringify(batch), write: true })) as ChromiumParse[];
      if (results.length !== batch.length) throw new Error(`Chromium returned ${results.length} documents for ${batch.length} inputs`);
      batch.forEach((html, n) => parses.set(html, results[n]!));
    }
    chromiumParses = parses;
    for (const file of pages) {
      const json = await page.evaluate(parseInPage, { inputsJSON: JSON.stringify([readPage(file)]), write: false });
      chromiumPages.set(file, (JSON.parse(json) as ChromiumParse[])[0]!.parsed);
    }
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  function done(): Map<string, ChromiumParse> {
    if (chromiumParses === undefined) throw new Error(`${chromiumPath} is missing, and DOCBASE_REQUIRE_CHROMIUM=1: the browser suite must run (.ci/run installs chromium).`);
    return chromiumParses;
  }

  it("runs in Chromium", () => {
    expect(available, `${chromiumPath} must exist when DOCBASE_REQUIRE_CHROMIUM=1`).toBe(true);
    expect(done().size).toBe(inputs.length);
    console.info(`Chromium ${version}: ${inputs.length} inputs, ${pages.length} corpus pages`);
  });

  it("has inputs from every source", () => {
    expect(inputs.filter((i) => i.group === "generated HTML-ish input")).toHaveLength(generatedCount);
    expect(inputs.length).toBeGreaterThan(700);
  });

  it("lists only inputs of this run, each with a stated cause", () => {
    const htmls = new Set(inputs.map((i) => i.html));
    const stale = Object.keys(known.inputs).filter((html) => !htmls.has(html));
    expect(stale.map(quote), "listed inputs that are no longer among the inputs (has the case list or the generator changed?): remove them").toEqual([]);
    const stalePages = Object.keys(known.corpus).filter((file) => !pages.includes(file));
    expect(stalePages, "listed corpus pages that are not in the corpus").toEqual([]);
    const used = [...Object.values(known.inputs), ...Object.values(known.corpus)];
    expect(used.filter((cause) => known.causes[cause] === undefined), "causes without an explanation in known-parsing-differences.json").toEqual([]);
    expect(Object.keys(known.causes).filter((cause) => !used.includes(cause)), "explained causes no input shows").toEqual([]);
    expect([...domParserOnlyCauses].filter((cause) => known.causes[cause] === undefined), "causes checked against document.write that the list no longer has").toEqual([]);
  });

  const groups = new Map<string, Input[]>();
  for (const input of inputs) groups.set(input.group, [...(groups.get(input.group) ?? []), input]);
  for (const [group, list] of groups) {
    describe(group, () => {
      for (const [n, { html }] of list.entries()) {
        const shown = quote(html);
        const name = group === "generated HTML-ish input" ? `#${n}: ${shown}` : shown;
        it(name.length > 90 ? `${name.slice(0, 90)}…` : name, () => {
          const chromiumParse = done().get(html);
          const docbase = parseWithDocbase(html);
          const cause = known.inputs[html];
          expectListed(shown, html, cause, chromiumParse?.parsed, docbase, "inputs", html);
          if (cause !== undefined && domParserOnlyCauses.has(cause)) {
            const written = chromiumParse?.written;
            if (written === undefined) throw new Error(`no document.write parse for ${shown}`);
            const difference = firstDifference(dump(written), dump(docbase));
            if (difference !== null) expect.fail(`${shown} is listed as "${cause}", a DOMParser-only difference, but Chromium's document.write parse differs from docbase's too: ${difference}`);
          }
        });
      }
    });
  }

  describe("the real pages of the corpus", () => {
    it("are all there", () => expect(pages).toHaveLength(4));
    for (const file of pages) {
      it(file, () => {
        done();
        const html = readPage(file);
        expectListed(file, html, known.corpus[file], chromiumPages.get(file), parseWithDocbase(html), "corpus", file);
      });
    }
  });
});
