// The treeless parse (parseWithPositions, what link work parses with: tree-construction.ts, or parse5's tree kept
// for a document with two base elements with an href) against parse5's own parse with its whole tree: the same
// facts read from the elements it made — the fragment targets and the first base element with an href — over
// html5lib-tests' tree-construction documents (vendored in test/fixtures/html5lib-tests, or DOCBASE_HTML5LIB_TESTS: see tree-trace.ts) and over generated tree soup
// (fast-check; DOCBASE_PROPERTY_RUNS cases, default 300, seeded with DOCBASE_PROPERTY_SEED, default 23).
// tree-construction.test.ts compares the elements themselves.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentFragmentTargets } from "../../src/links/fragment-targets.ts";
import { isInDocumentTree, type LeanElement, type LeanParent, parseWithPositions } from "../../src/links/html-source.ts";
import { html5libAvailable, html5libCases, html5libFiles, parse5Trace, scriptingFlags, type TraceNode, treeFacts, treeSoupUnits } from "./tree-trace.ts";

const runs = Number(process.env["DOCBASE_PROPERTY_RUNS"] ?? 300);
const seed = Number(process.env["DOCBASE_PROPERTY_SEED"] ?? 23);

/** The facts from the treeless parse (parseWithPositions, as link work reads them). */
function treelessFacts(html: string, scripting: boolean): { ids: string[]; names: string[]; firstBase: string | null } {
  const parsed = parseWithPositions(html, scripting);
  const { ids, names } = documentFragmentTargets(parsed);
  const base = parsed.document.childNodes.find((node) => node.nodeName === "base") as LeanElement | undefined;
  let firstBase: string | null = null;
  if (parsed.document.childNodes.length > 0 && base === undefined) {
    // Parsed again with the tree kept (two candidates): read the tree.
    return { ...treeFacts(parsed.document as unknown as TraceNode), ids: [...ids].sort(), names: [...names].sort() };
  }
  if (base !== undefined) firstBase = base.attrs.find((attr) => attr.name === "href" && attr.namespace === undefined)!.value;
  return { ids: [...ids].sort(), names: [...names].sort(), firstBase };
}

function expectSameFacts(html: string, scripting: boolean): void {
  expect(treelessFacts(html, scripting), JSON.stringify(html)).toEqual(treeFacts(parse5Trace(html, scripting).document));
}

describe.skipIf(!html5libAvailable)("html5lib-tests tree construction: the treeless parse's facts are those of parse5's whole tree", () => {
  const files = html5libFiles();
  it("reads the data's files", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(file, () => {
      const { cases } = html5libCases(file);
      for (const { data, scripting } of cases) for (const flag of scriptingFlags(scripting)) expectSameFacts(data, flag);
    });
  }
});

const treeSoup = fc.array(fc.constantFrom(...treeSoupUnits), { minLength: 1, maxLength: 40 }).map((units) => units.join(""));

describe(`tree soup (fast-check, seed ${seed}): the treeless parse against parse5's whole tree`, () => {
  it(`has the same fragment targets and first base (${runs * 2} runs)`, () => {
    fc.assert(
      fc.property(treeSoup, fc.boolean(), (html, scripting) => expectSameFacts(html, scripting)),
      { numRuns: runs * 2, seed },
    );
  });
});

describe("the treeless parse", () => {
  it("keeps no element's children but an SVG style's", () => {
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
