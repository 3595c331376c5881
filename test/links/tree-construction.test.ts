// The tree construction of link work (src/links/tree-construction.ts) against parse5's, on every document of
// html5lib-tests' tree-construction files (vendored in test/fixtures/html5lib-tests, or DOCBASE_HTML5LIB_TESTS: see tree-trace.ts) and on generated tree soup
// (fast-check; DOCBASE_PROPERTY_RUNS cases, default 300, seeded with DOCBASE_PROPERTY_SEED, default 27): the same
// elements made in the same order, each with the same name, namespace, place, template depth and ancestors (see
// tree-trace.ts), and the same records of start tags (what the document reader reads) as parse5's tree
// construction over the same tokenizer, keeping its whole tree.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SVG_NAMESPACE } from "../../src/html/index.ts";
import { documentFragmentTargets } from "../../src/links/fragment-targets.ts";
import { type BaseElement, baseElements } from "../../src/links/base-elements.ts";
import { extractSites } from "../../src/links/extract-links.ts";
import { isInDocumentTree, type LeanElement, parseWithPositions, type ParsedSource } from "../../src/links/html-source.ts";
import { extractLinks, type Link } from "../../src/links/index.ts";
import { prepareDocument } from "../../src/links/prepare-document.ts";
import { readLinks } from "../../src/links/read-links.ts";
import { type ConstructedElement, parseTreeless, TreeConstruction } from "../../src/links/tree-construction.ts";
import { html5libAvailable, html5libCases, html5libDirectory, html5libFiles, html5libFromEnvironment, parse5Trace, scriptingFlags, traceLine, treeFacts, treeSoupUnits } from "./tree-trace.ts";

const runs = Number(process.env["DOCBASE_PROPERTY_RUNS"] ?? 300);
const seed = Number(process.env["DOCBASE_PROPERTY_SEED"] ?? 27);

/** The construction's trace: each element as it is made, with the template contents it is made in. */
function constructionTrace(html: string, scripting: boolean): { trace: string[]; parsed: ParsedSource | null } {
  const made: [ConstructedElement, number][] = [];
  const parsed = parseTreeless(html, scripting, { onElement: (element, depth) => made.push([element, depth]) });
  return { trace: made.map(([element, depth]) => traceLine(element, depth)), parsed };
}

/** The records of a parse as plain data: what the document reader reads of each, and the facts beside them. */
function records(parsed: ParsedSource): unknown {
  return {
    tags: parsed.tags.map((tag) => ({
      element: `${tag.element.namespaceURI} ${tag.element.tagName}`,
      attrs: tag.tokenAttrs.slice(0, tag.attrCount).map((attr) => [attr.name, attr.value, attr.namespace ?? null, attr.prefix ?? null]),
      adopted: tag.adopted === null ? null : [...tag.adopted].map((attr) => attr.name),
      positions: [...parsed.positions.subarray(tag.positionsAt, tag.positionsAt + tag.attrCount * 5)],
      at: [tag.tagNameEnd, tag.tagEnd],
      where: [tag.inTemplate, tag.inShadowTree],
      // An SVG style's children (its text is read): the only ones kept.
      children:
        tag.element.tagName === "style" && tag.element.namespaceURI === SVG_NAMESPACE
          ? tag.element.childNodes.map((child) => (child.nodeName === "#text" ? `text ${(child as { value: string }).value}` : child.nodeName))
          : null,
    })),
    hasBaseWithHref: parsed.hasBaseWithHref,
    targets: documentFragmentTargets(parsed),
    candidates: (parsed.targetCandidates ?? []).filter(isInDocumentTree).length,
  };
}

/** The links and base elements of `html` read from parse5's whole tree (readLinks' `{ bases: true }` with the tree always kept). */
function keptTreeReading(html: string, options: { url: string; validate: boolean }): { links: readonly Link[]; bases: BaseElement[] } {
  const document = prepareDocument(html, options, "tree");
  const baseLinks = new Map<LeanElement, Link>();
  const read = extractSites(document, false, { baseLinks });
  return { links: read.links, bases: baseElements(document.parsed, baseLinks, read.urls, document.encoding) };
}

function expectSameAsParse5(html: string, scripting: boolean): void {
  const label = `${JSON.stringify(html)} (scripting ${scripting ? "on" : "off"})`;
  const reference = parse5Trace(html, scripting);
  const { trace, parsed } = constructionTrace(html, scripting);
  expect(trace, label).toEqual(reference.trace);
  // parse5's tree construction over the same tokenizer, keeping its tree: the same records.
  const kept = parseWithPositions(html, scripting, "tree");
  const facts = treeFacts(reference.document);
  if (parsed === null) {
    // Two base elements with an href in the tree: which is first only the tree tells.
    expect(treeFacts(kept.document as never).firstBase, label).not.toBeNull();
    return;
  }
  expect(records(parsed), label).toEqual(records(kept));
  const base = parsed.document.childNodes[0] as { attrs: { name: string; value: string }[] } | undefined;
  expect(base?.attrs.find((attr) => attr.name === "href")?.value ?? null, label).toBe(facts.firstBase);
}

// --- The data's integrity ------------------------------------------------------------------

const sums = (html5libAvailable ? readFileSync(join(html5libDirectory, "SHA256SUMS"), "utf8") : "")
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    const [digest, path] = line.split(/\s+/);
    return { digest: digest!, path: path! };
  });

describe.skipIf(!html5libAvailable)(`html5lib-tests data (${html5libFromEnvironment ? html5libDirectory : "vendored"})`, () => {
  it("holds no file that SHA256SUMS does not list, and lists the .dat files with their commit in ORIGIN.md", () => {
    const files = readdirSync(html5libDirectory, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(html5libDirectory, join(entry.parentPath, entry.name)))
      .filter((path) => ![".gitattributes", "LICENSE", "ORIGIN.md", "SHA256SUMS"].includes(path));
    expect(files.sort()).toEqual(sums.map((entry) => entry.path).sort());
    expect(files.length).toBeGreaterThan(0);
    const origin = readFileSync(join(html5libDirectory, "ORIGIN.md"), "utf8");
    for (const path of files) expect(origin, path).toMatch(new RegExp(`\\| \`${path.replaceAll(".", "\\.")}\` \\| \\d+ \\| [0-9a-f]{40} \\|`));
    expect(readFileSync(join(html5libDirectory, "LICENSE"), "utf8")).toContain("Permission is hereby granted, free of charge");
  });

  for (const { digest, path } of sums) {
    it(`${path} has its pinned SHA-256`, () => {
      expect(createHash("sha256").update(readFileSync(join(html5libDirectory, path))).digest("hex")).toBe(digest);
    });
  }
});

// --- html5lib-tests' documents ----------------------------------------------------------------

describe.skipIf(!html5libAvailable)("html5lib-tests tree construction: the construction's elements and records are parse5's", () => {
  let documents = 0;
  for (const file of html5libFiles()) {
    it(file, () => {
      const { cases, fragments } = html5libCases(file);
      expect(cases.length + fragments).toBeGreaterThan(0);
      for (const { data, scripting } of cases) {
        for (const flag of scriptingFlags(scripting)) {
          expectSameAsParse5(data, flag);
          documents++;
        }
      }
    });
  }
  // The vendored set's count; another folder (DOCBASE_HTML5LIB_TESTS) has its own.
  it.skipIf(html5libFromEnvironment)("ran every document of every vendored file (2,261 runs: scripting on and off where a test names neither)", () => {
    expect(documents).toBe(2261);
  });
});

// --- Tree soup ------------------------------------------------------------------------------

const treeSoup = fc.array(fc.constantFrom(...treeSoupUnits), { minLength: 1, maxLength: 40 }).map((units) => units.join(""));

/** Tree soup with one more base element with an href, anywhere. */
const treeSoupWithBase = fc
  .tuple(fc.array(fc.constantFrom(...treeSoupUnits), { minLength: 1, maxLength: 40 }), fc.nat())
  .map(([units, at]) => [...units.slice(0, at % (units.length + 1)), "<base href=b/>", ...units.slice(at % (units.length + 1))].join(""));

describe(`tree soup (fast-check, seed ${seed}): the construction against parse5`, () => {
  it(`makes the same elements in the same places, with the same records (${runs * 2} runs)`, () => {
    fc.assert(
      fc.property(treeSoup, fc.boolean(), (html, scripting) => expectSameAsParse5(html, scripting)),
      { numRuns: runs * 2, seed },
    );
  });

  it(`reads the same links and base elements as a parse that keeps parse5's whole tree (${runs * 2} runs)`, () => {
    const url = "https://example.com/dir/page.html";
    let treeless = 0;
    fc.assert(
      fc.property(treeSoupWithBase, (html) => {
        const label = JSON.stringify(html);
        const kept = keptTreeReading(html, { url, validate: true });
        expect(extractLinks(html, { url, validate: true }), label).toEqual(kept.links);
        // readLinks with bases keeps no tree where at most one base element with an href is in it, none in template contents.
        const read = readLinks(html, { url, validate: true }, { bases: true });
        expect(read.links, label).toEqual(kept.links);
        expect(read.bases, label).toEqual(kept.bases);
        const lean = parseWithPositions(html, true, "bases");
        if (lean.basesInOrder === true && lean.hasBaseWithHref) treeless++;
      }),
      { numRuns: runs * 2, seed },
    );
    // Each document has a base element with an href more: the treeless path with one is taken in most.
    expect(treeless).toBeGreaterThan(runs / 2);
  });
});

// --- Text runs ------------------------------------------------------------------------------

// The tokenizer hands a run of text to the construction as one token where the construction treats its classes
// alike (TreeConstruction.wholeTextRuns): a run with anything but whitespace in it sets frameset-ok to "not ok",
// one of whitespace or U+0000 alone does not, and a <frameset> after it is or is not honoured. Each text in each
// place, then a frameset, against parse5 (which splits every run by class).
const textRuns = ["x", " ", "\n", "\0", " \0 ", "a\0", "\0a", " x ", "\r\n", "&amp;", " &amp; ", "&#0;", "&#32;", "\n\nx", "&nbsp;", "x&"];
const textPlaces = [
  "",
  "<!doctype html>",
  "<!doctype html><body>",
  "<p>",
  "<b>",
  "<pre>",
  "<listing>\n",
  "<textarea>",
  "<title>",
  "<table><td>",
  "<table><caption>",
  "<table>",
  "<table><tr>",
  "<template>",
  "<body><template>",
  "<svg><desc>",
  "<svg>",
  "<math><mi>",
  "<select>",
  "<plaintext>",
  "<head>",
  "<head><noscript>",
  "</body>",
  "</html>",
  // After a frameset, the active formatting elements are still listed: whitespace goes by the "in body" rules and
  // reconstructs them, anything else is ignored, so there a run's classes decide which elements are made.
  "<b><frameset></frameset>",
  "<b><frameset></frameset></html>",
  "<i><table><col>",
];

describe("text runs against parse5: frameset-ok and the classes of a run's characters", () => {
  it(`agrees on every text in every place before a frameset (${textRuns.length * textPlaces.length * 2} documents)`, () => {
    for (const place of textPlaces) {
      for (const text of textRuns) {
        expectSameAsParse5(`${place}${text}<frameset><frame src=f.html></frameset>`, true);
        expectSameAsParse5(`${place}${text}</p><frameset><frame src=f.html>`, false);
      }
    }
  });

  const textSoup = fc
    .array(fc.constantFrom(...textRuns, ...textPlaces.filter(Boolean), "<frameset>", "<frame src=f.html>", "</frameset>", "</td>", "</table>", "</template>", "</svg>", "<img src=i.png>", "<a href=a.html>"), {
      minLength: 1,
      maxLength: 24,
    })
    .map((units) => units.join(""));

  it(`agrees on text soup with framesets (fast-check, seed ${seed}, ${runs} runs)`, () => {
    fc.assert(
      fc.property(textSoup, fc.boolean(), (html, scripting) => expectSameAsParse5(html, scripting)),
      { numRuns: runs, seed },
    );
  });
});

describe("the construction", () => {
  it("keeps no element's children but an SVG style's, and tells the tokenizer what the standard says", () => {
    const construction = new TreeConstruction(true);
    construction.tokenizer.run("<div><p><a href=x>t</a></p></div><svg><style>a{}</style><![CDATA[<b>]]></svg><title><a href=no></title><noscript><a href=no></noscript>");
    const parsed = construction.result()!;
    const a = parsed.tags.find((tag) => tag.element.tagName === "a")!.element;
    expect(a.childNodes).toEqual([]);
    expect(a.parentNode!.nodeName).toBe("p");
    const style = parsed.tags.find((tag) => tag.element.tagName === "style")!.element;
    expect(style.childNodes.map((child) => child.nodeName)).toEqual(["#text"]);
    // RCDATA in title, raw text in noscript (scripting on), a CDATA section in SVG: no element made of "<a" or "<b".
    expect(parsed.tags.map((tag) => tag.element.tagName)).toEqual(["a", "style"]);
  });

  it("parses noscript content as markup with scripting off", () => {
    expect(parseTreeless("<noscript><img src=x></noscript>", false)!.tags.map((tag) => tag.element.tagName)).toEqual(["img"]);
    expect(parseTreeless("<noscript><img src=x></noscript>", true)!.tags).toEqual([]);
  });

  it("gives null when two base elements with an href are in the tree (tree order decides which is first)", () => {
    expect(parseTreeless("<table><tr><td><base href=/1/></td></tr><base href=/2/></table>")).toBeNull();
    expect(parseTreeless("<p><base href=/only/>")!.document.childNodes.map((node) => node.nodeName)).toEqual(["base"]);
  });
});
