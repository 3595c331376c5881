// The html layer's facts on their own: the encoding a <meta> declares, by the HTML Standard's
// algorithm, and the head and base rules over each tree adapter.
import { JSDOM } from "jsdom";
import { parse } from "parse5";
import { adapter as htmlparser2Builder } from "parse5-htmlparser2-tree-adapter";
import { describe, expect, it } from "vitest";
import { domTreeAdapter, htmlparser2TreeAdapter, parse5TreeAdapter } from "../../src/document-base/index.ts";
import {
  changedEncoding,
  extractCharacterEncodingFromMeta,
  headOf,
  HTML_NAMESPACE,
  isBaseElementWithHref,
  isParsedBaseElementWithHref,
  metaDeclaredEncoding,
  type ElementTree,
} from "../../src/html/index.ts";

describe("extractCharacterEncodingFromMeta", () => {
  it("reads the standard's cases", () => {
    const cases: [string, string | null][] = [
      ["text/html; charset=Shift_JIS", "Shift_JIS"],
      ["text/html;CHARSET = latin1 ; x", "windows-1252"],
      ["text/html; charset='koi8-r'", "KOI8-R"],
      ['text/html; charset="koi8-r" x', "KOI8-R"],
      ["text/html; charset='koi8-r", null], // an unmatched quote
      ['text/html; charset="koi8-r', null],
      ["text/html; charset=", null], // no next character
      ["text/html; charset", null],
      ["charset; charset=sjis", "Shift_JIS"], // a "charset" not followed by "=": the loop goes on
      ["xcharset=sjis", "Shift_JIS"], // the match need not start a word
      ["text/html; charset=\tutf-8\f", "UTF-8"],
      ["text/html; charset=\u00a0utf-8", null], // U+00A0 is not ASCII whitespace
      ["text/html; charset=utf-7", null], // not a label
      ["text/html", null],
    ];
    for (const [content, expected] of cases) expect([content, extractCharacterEncodingFromMeta(content)]).toEqual([content, expected]);
  });

  it("matches \"charset\" ASCII case-insensitively only (U+212A KELVIN SIGN is not a k)", () => {
    expect(extractCharacterEncodingFromMeta("CHARSET=\u212Aoi8-r")).toBe(null);
    expect(extractCharacterEncodingFromMeta("ChArSeT=KOI8-r")).toBe("KOI8-R");
  });
});

describe("metaDeclaredEncoding and changedEncoding", () => {
  it("takes charset, else http-equiv=content-type with a content", () => {
    expect(metaDeclaredEncoding("sjis", "content-type", "text/html; charset=koi8-r")).toBe("Shift_JIS");
    expect(metaDeclaredEncoding(null, "CONTENT-TYPE", "text/html; charset=koi8-r")).toBe("KOI8-R");
    expect(metaDeclaredEncoding(null, "refresh", "text/html; charset=koi8-r")).toBe(null);
    expect(metaDeclaredEncoding(null, "content-type", null)).toBe(null);
    // Deviation, as the prescan and Gecko read it: a charset attribute decides alone.
    expect(metaDeclaredEncoding("bogus", "content-type", "text/html; charset=koi8-r")).toBe(null);
  });

  it("changes a tentative encoding by the standard's four steps", () => {
    expect(changedEncoding("UTF-16LE", "Shift_JIS")).toBe(null);
    expect(changedEncoding("windows-1252", "UTF-16BE")).toBe("UTF-8");
    expect(changedEncoding("windows-1252", "x-user-defined")).toBe(null);
    expect(changedEncoding("UTF-8", "x-user-defined")).toBe("windows-1252");
    expect(changedEncoding("windows-1252", "Shift_JIS")).toBe("Shift_JIS");
  });
});

describe("the head and the base elements with an href, over every adapter", () => {
  const html = '<!doctype html><!--c--><html><head><base target=_top><base href="/a/"></head><body><svg><base href="/svg/"/></svg></body></html>';
  const impliedHead = "<!doctype html><html><!--x--><body><base href=/b/></body></html>";
  const trees: [string, (source: string) => { tree: ElementTree<object>; document: object }][] = [
    ["parse5", (source) => ({ tree: parse5TreeAdapter as unknown as ElementTree<object>, document: parse(source) })],
    ["htmlparser2", (source) => ({ tree: htmlparser2TreeAdapter as unknown as ElementTree<object>, document: parse(source, { treeAdapter: htmlparser2Builder }) as object })],
    ["jsdom", (source) => ({ tree: domTreeAdapter as unknown as ElementTree<object>, document: new JSDOM(source).window.document })],
  ];
  for (const [name, make] of trees) {
    it(name, () => {
      const { tree, document } = make(html);
      const head = headOf(tree, document)!;
      expect(tree.getLocalName(head)).toBe("head");
      const bases: object[] = [];
      const walk = (node: object): void => {
        if (isBaseElementWithHref(tree, node)) bases.push(node);
        for (let child = tree.getFirstChild(node); child !== null; child = tree.getNextSibling(child)) walk(child);
      };
      walk(document);
      // Only the HTML base with an href: not the one without, not the SVG element named base.
      expect(bases.map((b) => tree.getAttribute(b, null, "href"))).toEqual(["/a/"]);
      // html's first element child is head even when the parser made it implied; a comment before it is no element.
      const implied = make(impliedHead);
      expect(tree.getLocalName(headOf(implied.tree, implied.document)!)).toBe("head");
      // Below a node whose first element child is not an html element, there is no head.
      expect(headOf(tree, head)).toBe(null);
    });
  }

  it("isParsedBaseElementWithHref reads parse5's element records", () => {
    const attrs = (...names: string[]) => names.map((n) => ({ name: n, value: "" }));
    expect(isParsedBaseElementWithHref({ tagName: "base", namespaceURI: HTML_NAMESPACE, attrs: attrs("target", "href") })).toBe(true);
    expect(isParsedBaseElementWithHref({ tagName: "base", namespaceURI: HTML_NAMESPACE, attrs: attrs("target") })).toBe(false);
    expect(isParsedBaseElementWithHref({ tagName: "base", namespaceURI: "http://www.w3.org/2000/svg", attrs: attrs("href") })).toBe(false);
    expect(isParsedBaseElementWithHref({ tagName: "base", namespaceURI: HTML_NAMESPACE, attrs: [{ name: "href", namespace: "http://www.w3.org/1999/xlink" }] })).toBe(false);
  });
});
