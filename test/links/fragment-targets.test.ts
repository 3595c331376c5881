// Fragment targets: which ids and a[name]s a document has (from the same parse as its links), and the
// HTML Standard's "select the indicated part" over them.
import { describe, expect, it } from "vitest";
import { prepareDocument } from "../../src/links/prepare-document.ts";
import { documentFragmentTargets, extractLinksAndTargets } from "../../src/links/fragment-targets.ts";
import { findPotentialIndicatedElement, removeFragmentDirective, selectIndicatedPart } from "../../src/links/indicated-part.ts";
import { extractLinks } from "../../src/links/index.ts";

const url = "https://example.com/dir/page.html";

function targetsOf(html: string): { ids: string[]; names: string[] } {
  const { ids, names } = documentFragmentTargets(prepareDocument(html, { url }).parsed);
  return { ids: [...ids].sort(), names: [...names].sort() };
}

describe("documentFragmentTargets: the ids and a[name]s of the document tree", () => {
  it("takes the id of every element, in any namespace, and the name of HTML a elements only", () => {
    const html =
      '<h1 id="title">t</h1><p><span id="deep">x</span></p><a name="old">o</a><img name="pic"><form name="f"></form>' +
      '<svg><g id="icon"/><a name="svg-a"/></svg><math><mi id="m"/></math><table><tr><td id="cell">c</td></tr></table>';
    expect(targetsOf(html)).toEqual({ ids: ["cell", "deep", "icon", "m", "title"], names: ["old"] });
  });

  it("leaves out template contents and declarative shadow roots (not in the document tree)", () => {
    const html = '<div id="host"><template shadowrootmode="open"><p id="shadow">s</p></template></div><template><a name="t" id="in-template"></a></template><p id="after">';
    expect(targetsOf(html)).toEqual({ ids: ["after", "host"], names: [] });
  });

  it("skips empty ids and namespaced attributes, keeps ids the parser moved (foster parenting, a second <body>)", () => {
    const html = '<table><div id="fostered">x</div><tr><td>c</td></tr></table><p id="">e</p><svg><g xlink:id="x"/></svg><body id="late-body">';
    expect(targetsOf(html)).toEqual({ ids: ["fostered", "late-body"], names: [] });
  });

  it("reads ids as the parser decodes them: character references, a legacy encoding", () => {
    expect(targetsOf('<h2 id="caf&eacute;">x</h2><h2 id="a&amp;b">y</h2>').ids).toEqual(["a&b", "café"]);
    const bytes = Uint8Array.from([...new TextEncoder().encode('<meta charset="windows-1252"><h2 id="caf'), 0xe9, ...new TextEncoder().encode('">x</h2>')]);
    const { documents } = extractLinksAndTargets(bytes, { url });
    expect([...documents[0]!.targets.ids]).toEqual(["café"]);
  });
});

describe("selectIndicatedPart: the HTML Standard's order", () => {
  const targets = { ids: new Set(["intro", "café", "50%", "%41", "Top-Level", "\uFEFFbom"]), names: new Set(["legacy", "both"]) };

  it("finds an id, then an a[name]; exact and case-sensitive", () => {
    expect(selectIndicatedPart(targets, "intro")).toBe("id");
    expect(selectIndicatedPart(targets, "legacy")).toBe("name");
    expect(selectIndicatedPart(targets, "Intro")).toBeNull();
    expect(selectIndicatedPart(targets, "nope")).toBeNull();
    expect(findPotentialIndicatedElement({ ids: new Set(["both"]), names: new Set(["both"]) }, "both")).toBe("id");
  });

  it("tries the fragment as it is before its percent-decoding (UTF-8, without BOM)", () => {
    expect(selectIndicatedPart(targets, "caf%C3%A9")).toBe("id");
    expect(selectIndicatedPart(targets, "caf%c3%a9")).toBe("id");
    // "%41" is an id as it is: found before decoding would make it "A".
    expect(selectIndicatedPart(targets, "%41")).toBe("id");
    expect(selectIndicatedPart(targets, "50%")).toBe("id");
    expect(selectIndicatedPart(targets, "50%25")).toBe("id");
    // Latin-1 bytes are not UTF-8: U+FFFD, not é.
    expect(selectIndicatedPart(targets, "caf%E9")).toBeNull();
    expect(selectIndicatedPart({ ids: new Set(["caf\uFFFD"]), names: new Set() }, "caf%E9")).toBe("id");
    // Without BOM: a leading EF BB BF stays U+FEFF.
    expect(selectIndicatedPart(targets, "%EF%BB%BFbom")).toBe("id");
  });

  it("the empty fragment and top (ASCII case-insensitive, after the lookups, decoded) are the top of the document", () => {
    expect(selectIndicatedPart(targets, "")).toBe("top");
    expect(selectIndicatedPart(targets, "top")).toBe("top");
    expect(selectIndicatedPart(targets, "TOP")).toBe("top");
    expect(selectIndicatedPart(targets, "%54op")).toBe("top");
    expect(selectIndicatedPart({ ids: new Set(["top"]), names: new Set() }, "top")).toBe("id");
    expect(selectIndicatedPart(targets, "topp")).toBeNull();
    expect(selectIndicatedPart(targets, "\u0130op")).toBeNull();
  });

  it("removes the fragment directive: a text fragment names no element", () => {
    expect(removeFragmentDirective("intro:~:text=x")).toBe("intro");
    expect(removeFragmentDirective(":~:text=x")).toBe("");
    expect(removeFragmentDirective("a:~b")).toBe("a:~b");
  });
});

describe("extractLinksAndTargets: one parse for links and ids", () => {
  it("gives the same links as extractLinks, and each srcdoc document's targets with its own links", () => {
    const html = '<h2 id="top-id">x</h2><iframe srcdoc="<p id=inner>i</p><a href=about:srcdoc#inner>in</a><a href=#top-id>out</a>"></iframe><a href="#inner">x</a>';
    const { links, documents } = extractLinksAndTargets(html, { url, validate: true });
    expect(links).toEqual(extractLinks(html, { url, validate: true }));
    expect(documents.map((d) => [d.depth, [...d.targets.ids], d.links?.map((l) => l.url) ?? null])).toEqual([
      [0, ["top-id"], null],
      [1, ["inner"], ["about:srcdoc#inner", "https://example.com/dir/page.html#top-id"]],
    ]);
  });
});

// The documents and fragments of wpt's html/browsers/browsing-the-web/scroll-to-fragid/ tests on encoding
// (wpt 12d1939c9d3ae6c62dd90f830633dd24fd12d16f: fragment-and-encoding.html, fragment-and-encoding-2.html;
// 75d58d918a34a69ee75155aafc01b903cbd6cf30: scroll-frag-non-utf8-encoded-document.html): the element ids as
// those pages write them, in their legacy encoding, and what each location.hash they set scrolls to (an
// element: "id"; scrollY 0 after "top": null). The fragment is the URL's, as location.hash serializes it.
describe("selectIndicatedPart over a parsed legacy-encoded page: wpt's scroll-to-fragid encoding tests", () => {
  const indicated = (page: string, fragments: readonly string[]): ("top" | "id" | "name" | null)[] => {
    const { documents } = extractLinksAndTargets(new TextEncoder().encode(page), { url });
    return fragments.map((f) => selectIndicatedPart(documents[0]!.targets, f));
  };

  it("fragment-and-encoding.html: UTF-8 whatever the page's encoding, a BOM kept", () => {
    const page = "<!doctype html>\n<meta charset=windows-1252>\n<div id=&#xFF;></div>\n<div id=&#xFEFF;></div>\n";
    // location.hash = "\u00FF" (#%C3%BF), "top", "%EF%BB%BF", "%FF".
    expect(indicated(page, ["%C3%BF", "top", "%EF%BB%BF", "%FF"])).toEqual(["id", "top", "id", null]);
  });

  it("fragment-and-encoding-2.html: an invalid byte is U+FFFD", () => {
    const page = "<!doctype html>\n<meta charset=windows-1252>\n<div id=&#xFFFD;></div>\n";
    expect(indicated(page, ["%C2", "top", "%EF%BB%BF%C2", "%EF%BF%BD"])).toEqual(["id", "top", null, "id"]);
  });

  it("scroll-frag-non-utf8-encoded-document.html: a fragment is not decoded with the page's encoding (gbk)", () => {
    const page = '<!doctype html>\n<meta http-equiv="Content-Type" content="text/html; charset=gbk"/>\n<body>\n<div></div>\n<div id="&#x586f" style="position:absolute; top:100px;"></div>\n';
    // %89g is 塯 (U+586F) in gbk: the page's id, yet not found.
    expect(indicated(page, ["%89g"])).toEqual([null]);
    expect(new TextDecoder("gbk").decode(Uint8Array.from([0x89, 0x67]))).toBe("\u586f");
  });
});
