// The attribute writer (src/links/attribute-writer.ts): every rewrite goes through it, and a rewritten
// document parses to the same elements and attributes, keeps every list's item count, and every rewritten
// link resolves to the URL its returned value resolves to — or the rewrite throws UnwritableValueError.
//
// The property runs DOCBASE_PROPERTY_RUNS cases (default 300 in npm test; 100,000 for a nightly-sized run:
//   DOCBASE_PROPERTY_RUNS=100000 npx vitest run test/links/attribute-writer.test.ts
// ), seeded with DOCBASE_PROPERTY_SEED (default 16).
import fc from "fast-check";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { describe, expect, it } from "vitest";
import { parseURL, serializeURL } from "../../src/core/index.ts";
import { isUnwritableValueError, refreshQuoteFor, urlTextForItem } from "../../src/links/attribute-writer.ts";
import { absolutize, extractLinks, extractStylesheetLinks, isLinksError, relativize, rewriteLinks, rewriteStylesheetLinks, type Link } from "../../src/links/index.ts";
import { corpusPages, readCorpusFile } from "../corpus-data.ts";

const url = "https://example.com/docs/";
const rewriteAll = (html: string, rewrite: (link: Link) => string | undefined): string => rewriteLinks(html, { url, rewrite });

describe("the reproductions of issue 16", () => {
  it("gives a valueless attribute its =\"…\", in the document and in srcdoc", () => {
    expect(rewriteAll(`<a href>self</a><img src alt=x><form action>`, absolutize())).toBe(
      `<a href="https://example.com/docs/">self</a><img src="https://example.com/docs/" alt=x><form action="https://example.com/docs/">`,
    );
    expect(rewriteAll(`<iframe srcdoc="<a href>x</a>"></iframe>`, absolutize())).toBe(`<iframe srcdoc="<a href=&quot;https://example.com/docs/&quot;>x</a>"></iframe>`);
  });

  it("writes an empty unquoted value's new text inside the quotes it adds", () => {
    expect(rewriteAll(`<a href=>x</a>`, () => "x onmouseover=alert(1)")).toBe(`<a href="x onmouseover=alert(1)">x</a>`);
    expect(rewriteAll(`<a href=>x</a>`, () => "x><script>alert(1)</script>")).toBe(`<a href="x><script>alert(1)</script>">x</a>`);
    expect(rewriteAll(`<a href=y>x</a>`, () => "x><script>")).toBe(`<a href="x><script>">x</a>`);
  });

  it("keeps a srcset candidate one candidate, or refuses", () => {
    const out = rewriteAll(`<img srcset="a.png 1x, b.png 2x">`, (l) => (l.value === "a.png" ? "sp ace.png" : undefined));
    expect(out).toBe(`<img srcset="sp%20ace.png 1x, b.png 2x">`);
    expect(extractLinks(out, { url }).map((l) => l.url)).toEqual([`${url}sp%20ace.png`, `${url}b.png`]);
    expect(rewriteAll(`<img srcset="a.png 1x">`, () => ",lead.png")).toBe(`<img srcset="./,lead.png 1x">`);
    expect(rewriteAll(`<img srcset="a.png 1x">`, () => "a,b.png")).toBe(`<img srcset="a,b.png 1x">`);
    expect(() => rewriteAll(`<img srcset="a.png 1x, b.png 2x">`, (l) => (l.value === "a.png" ? "x.png," : undefined))).toThrow(/trailing comma/);
    try {
      rewriteAll(`<img srcset="a.png 1x">`, () => "x.png,");
    } catch (error) {
      expect(isUnwritableValueError(error)).toBe(true);
      expect(isLinksError(error)).toBe(true);
    }
  });

  it("keeps a ping item one item", () => {
    const out = rewriteAll(`<a ping="a b" href=x>`, (l) => (l.value === "a" ? "c d" : undefined));
    expect(out).toBe(`<a ping="c%20d b" href=x>`);
    expect(extractLinks(out, { url }).filter((l) => l.attribute === "ping")).toHaveLength(2);
    expect(rewriteAll(`<a ping="a b">`, (l) => (l.value === "a" ? "" : undefined))).toBe(`<a ping="${url} b">`);
  });

  it("writes a refresh URL in a quote it does not contain", () => {
    const out = rewriteAll(`<meta http-equiv=refresh content="0; url='a.html'">`, () => "https://new.example/it's/");
    expect(extractLinks(out, { url })[0]!.url).toBe("https://new.example/it's/");
    expect(refreshQuoteFor("a'b\"c", "'")).toBe("");
    expect(() => refreshQuoteFor("'a\"", "'")).toThrow(/both quote/);
    const prefixed = rewriteAll(`<meta http-equiv=refresh content="0; a.html">`, () => "url=b.html");
    expect(extractLinks(prefixed, { url })[0]!.url).toBe(`${url}url=b.html`);
  });

  it("relativize never empties a resource's reference", () => {
    const out = rewriteLinks(
      `<img src="p.html"><iframe src="p.html"></iframe><script src="p.html"></script><link href="p.html"><img srcset="p.html 1x, b.png 2x"><a ping="p.html x" href="p.html">a</a><div style="background:url(p.html)"></div><form action="p.html"></form>`,
      { url: "https://example.com/d/p.html", rewrite: relativize() },
    );
    expect(out).toBe(
      `<img src="p.html"><iframe src="p.html"></iframe><script src="p.html"></script><link href="p.html"><img srcset="p.html 1x, b.png 2x"><a ping="p.html x" href="">a</a><div style="background:url(p.html)"></div><form action="p.html"></form>`,
    );
  });

  it("writes & and < into an SVG style element's text as CSS escapes: its text is markup, not raw text", () => {
    const out = rewriteAll(`<svg><style>rect { fill: url(a.svg) }</style></svg>`, () => "?a=1&lt;b=<x");
    expect(out).toBe(`<svg><style>rect { fill: url(?a=1\\26 lt;b=\\3c x) }</style></svg>`);
    expect(extractLinks(out, { url })[0]!.url).toBe(`${url}?a=1&lt;b=%3Cx`);
    // An HTML style element is raw text: & stays as it is.
    expect(rewriteAll(`<style>p { background: url(a.png) }</style>`, () => "?a=1&lt;b")).toBe(`<style>p { background: url(?a=1&lt;b) }</style>`);
  });

  it("urlTextForItem refuses what no spelling can carry", () => {
    const resolution = { base: "https://example.com/", encoding: "UTF-8" as const };
    expect(urlTextForItem("srcset", "a\tb\nc.png", resolution)).toBe("abc.png");
    expect(urlTextForItem("srcset", "a\fb.png", resolution)).toBe("a%0Cb.png");
    expect(() => urlTextForItem("list", "mailto:a b", resolution)).toThrow(/no spelling/);
    expect(urlTextForItem("single", " a b ", resolution)).toBe(" a b ");
  });

  it("reads a document in the replacement encoding as one U+FFFD: no links, no throw, rewritten as it was", () => {
    for (const label of ["iso-2022-kr", "csiso2022kr", "hz-gb-2312", "iso-2022-cn"]) {
      const bytes = new TextEncoder().encode(`<meta charset=${label}><a href=x>`);
      expect(extractLinks(bytes, { url })).toEqual([]);
      expect(rewriteLinks(bytes, { url, rewrite: absolutize() })).toEqual(bytes);
    }
    expect(extractLinks(new TextEncoder().encode("<a href=x>"), { url, encoding: "iso-2022-kr" })).toEqual([]);
  });
});

// --- The round trip, on random documents and hostile values ------------------------------------------

type Form = "double" | "single" | "unquoted" | "valueless";

/** The attribute `name` with decoded value `value`, written in `form` (valueless only for ""). */
function attribute(name: string, value: string, form: Form): string {
  if (form === "valueless") return value === "" ? ` ${name}` : attribute(name, value, "double");
  const refs = (text: string, also: RegExp): string => text.replace(/&/g, "&amp;").replace(also, (c) => `&#${c.charCodeAt(0)};`);
  if (form === "double") return ` ${name}="${refs(value, /"/g)}"`;
  if (form === "single") return ` ${name}='${refs(value, /'/g)}'`;
  if (value === "") return ` ${name}=`;
  return ` ${name}=${refs(value, /[\t\n\f\r "'<=`>]/g)}`;
}

const forms = fc.constantFrom<Form>("double", "single", "unquoted", "valueless");

/** One piece of a document, holding one or more links. */
const piece = fc.oneof(
  fc.tuple(forms, fc.constantFrom("", "a.html", " lead.html ", "a&b.html?x=1&y=\"2\"")).map(([f, v]) => `<a${attribute("href", v, f)}>t</a>`),
  fc.tuple(forms, forms).map(([f, g]) => `<img${attribute("src", "i.png", f)}${attribute("srcset", "a.png 1x, b.png 2x", g === "valueless" ? "double" : g)} alt=x>`),
  fc.tuple(forms).map(([f]) => `<a${attribute("ping", "p q", f === "valueless" ? "single" : f)} href=x>t</a>`),
  fc.tuple(forms, fc.constantFrom("0; url='r.html'", '0; URL="r.html"', "0; url=r.html", "5;r.html")).map(([f, c]) => `<meta http-equiv=refresh${attribute("content", c, f === "valueless" ? "double" : f)}>`),
  fc.tuple(forms, fc.constantFrom("background:url(s.png)", 'background:url("s.png")', "background:url('s.png')")).map(([f, c]) => `<div${attribute("style", c, f === "valueless" ? "double" : f)}></div>`),
  fc.tuple(forms, forms).map(([f, g]) => `<iframe${attribute("srcdoc", `<a${attribute("href", "in.html", g)}>i</a><img srcset="c.png 1x">`, f === "valueless" ? "double" : f)}></iframe>`),
  fc.tuple(forms).map(([f]) => `<form${attribute("action", "f.html", f)}></form>`),
  // A form without an action (the rewrite adds one), a <style> element (CSS escapes, no character references),
  // SVG's xlink:href, template contents.
  fc.constant(`<form><button formaction=b.html>b</button></form>`),
  fc.constantFrom(`<style>p { background: url(st.png) } @import "imp.css";</style>`, `<svg><style>rect { fill: url(#g) }</style><a xlink:href="sv.html"><rect/></a></svg>`),
  fc.tuple(forms).map(([f]) => `<template><a${attribute("href", "tp.html", f)}>t</a></template>`),
  fc.constant(`<base href="/b/">`),
);

const document = fc.array(piece, { minLength: 1, maxLength: 8 }).map((pieces) => `<!doctype html><html><head></head><body>${pieces.join("\n")}</body></html>`);

/** Rewrite values drawn from a hostile alphabet. */
const hostile = fc.oneof(
  fc.constant(""),
  fc
    .array(
      fc.constantFrom('"', "'", "&", "&amp;", "&lt", "<", ">", " ", "\t", "\n", "\r", "\f", ",", "#", "%", "%2", "é", "😀", "\u00a0", "=", "`", ";", "/", "?", "a", "b.png", "url(", ")", "\\", "url=", "http://", "//h/", ":", "\uFFFD", "</style>", "ア", "€", "\u0100"),
      { minLength: 1, maxLength: 10 },
    )
    .map((parts) => parts.join("")),
  fc.constantFrom("https://new.example/it's/", "x onmouseover=alert(1)", "x><script>alert(1)</script>", "sp ace.png", "c d", "a.png,", ",b", "mailto:a b", "?q=café&ア=😀"),
);

/** The elements of a document in tree order (template contents included), with where their attributes are. */
interface Outline {
  /** `name[attribute,…]` per element: what a rewrite must not change (but for an action it adds). */
  readonly shape: string[];
  /** Where each element's start tag starts (-1 for an element the parser made without a tag). */
  readonly tagStarts: number[];
  /** Every attribute's source range, keyed by element index and name, and a style element's text (`#text`). */
  readonly spans: Map<string, { start: number; end: number }>;
}

function outline(html: string): Outline {
  const result: Outline = { shape: [], tagStarts: [], spans: new Map() };
  const walk = (node: DefaultTreeAdapterMap["parentNode"]): void => {
    for (const child of node.childNodes) {
      if (!("tagName" in child)) continue;
      const index = result.shape.length;
      result.shape.push(`${child.tagName}[${child.attrs.map((a) => a.name).join(",")}]`);
      result.tagStarts.push(child.sourceCodeLocation?.startTag?.startOffset ?? -1);
      const attrs = child.sourceCodeLocation?.attrs ?? {};
      for (const name of Object.keys(attrs)) result.spans.set(`${index} ${name}`, { start: attrs[name]!.startOffset, end: attrs[name]!.endOffset });
      // A style element's text, where its CSS links are.
      const { startTag, endTag } = child.sourceCodeLocation ?? {};
      // (An unclosed one, in a window of a page, runs to the end.)
      if (child.tagName === "style" && startTag) result.spans.set(`${index} #text`, { start: startTag.endOffset, end: endTag?.startOffset ?? html.length });
      walk(child);
      if (child.tagName === "template") walk((child as DefaultTreeAdapterMap["template"]).content);
    }
  };
  walk(parse(html, { sourceCodeLocationInfo: true }));
  return result;
}

/**
 * The output has the input's elements and attributes, and every character outside the attributes that hold a
 * rewritten link is the same, in the same order: input and output are cut at those attributes (found by element
 * and name) and the pieces between compared. A form without an action gets one, written as its first
 * attribute: ` action="…"` right after the tag name, where the link's empty range is.
 */
function expectSameOutsideRewrites(input: string, output: string, written: readonly Link[]): void {
  const before = outline(input);
  const after = outline(output);
  const expectedShape = [...before.shape];
  const cuts: { inStart: number; inEnd: number; outStart: number; outEnd: number }[] = [];
  const seen = new Set<string>();
  for (const link of written) {
    if (link.missing === true) {
      const index = before.tagStarts.findIndex((start, i) => start + "<form".length === link.start && before.shape[i]!.startsWith("form["));
      expect(index, `no form for ${JSON.stringify(link)}`).toBeGreaterThanOrEqual(0);
      expectedShape[index] = expectedShape[index]!.replace(/^form\[/, "form[action").replace(/^form\[action(?!\])/, "form[action,");
      const span = after.spans.get(`${index} action`)!;
      cuts.push({ inStart: link.start, inEnd: link.start, outStart: span.start - 1, outEnd: span.end });
      continue;
    }
    // The attribute (or style text) the link is in: the last to start at or before it. (parse5 ends an empty
    // unquoted value's attribute, `href=`, before the `=`'s end, where the link's empty range is.)
    let key: string | undefined;
    for (const [k, span] of before.spans) if (span.start <= link.start && (key === undefined || span.start > before.spans.get(key)!.start)) key = k;
    expect(key, `a written link before every attribute and style text: ${JSON.stringify(link)}`).toBeDefined();
    const inSpan = before.spans.get(key!)!;
    expect(link.end, `a written link after its attribute: ${JSON.stringify(link)}`).toBeLessThanOrEqual(inSpan.end + 1);
    if (seen.has(key!)) continue;
    seen.add(key!);
    const outSpan = after.spans.get(key!)!;
    cuts.push({ inStart: inSpan.start, inEnd: Math.max(inSpan.end, link.end), outStart: outSpan.start, outEnd: outSpan.end });
  }
  expect(after.shape, output).toEqual(expectedShape);
  cuts.sort((x, y) => x.inStart - y.inStart);
  let inAt = 0;
  let outAt = 0;
  for (const cut of cuts) {
    expect(output.slice(outAt, cut.outStart), output).toBe(input.slice(inAt, cut.inStart));
    [inAt, outAt] = [cut.inEnd, cut.outEnd];
  }
  expect(output.slice(outAt), output).toBe(input.slice(inAt));
}

function resolve(value: string, link: Link): string | null {
  const record = link.base === null ? parseURL(value) : parseURL(value, { base: link.base, encoding: link.encoding });
  return record === null ? null : serializeURL(record);
}

const runs = Number(process.env["DOCBASE_PROPERTY_RUNS"] ?? 300);
const seed = Number(process.env["DOCBASE_PROPERTY_SEED"] ?? 16);
/** Room for a nightly-sized run (about 5 ms a case on a loaded machine). */
const timeout = 60_000 + runs * 10;

/** What one case of the round trip did. */
type Outcome = "written" | "refused";

/**
 * Rewrites `html` (text, or bytes in a legacy encoding) with the hostile `choices`, one per link in turn, and
 * checks the round trip: same elements and attributes, every byte outside the rewritten attributes as it was,
 * the same links in the same order (every list keeps its item count), and each rewritten link resolving to the
 * URL its new value resolves to. A refusal must be an UnwritableValueError.
 */
function roundTrip(html: string | Uint8Array, choices: readonly (string | null)[], decode: (bytes: Uint8Array) => string = (b) => new TextDecoder().decode(b)): Outcome {
  const before = extractLinks(html, { url });
  let index = 0;
  const returned: (string | undefined)[] = [];
  let out: string | Uint8Array;
  try {
    out = rewriteLinks(html, {
      url,
      // A <base href> is left as it is: a new base would move every other link, and a respelt item
      // (an empty srcset URL written absolute) is the same URL against the base it was resolved against.
      rewrite: (link) => {
        const choice = choices[index++ % choices.length] ?? undefined;
        const value = link.element === "base" ? undefined : choice;
        returned.push(value);
        return value;
      },
    });
  } catch (error) {
    if (!isUnwritableValueError(error)) throw error;
    return "refused";
  }
  const inText = typeof html === "string" ? html : decode(html);
  const outText = typeof out === "string" ? out : decode(out);
  expectSameOutsideRewrites(inText, outText, before.filter((link, i) => returned[i] !== undefined && returned[i] !== link.value));
  const after = extractLinks(out, { url });
  expect(after.map((l) => [l.element, l.attribute, l.kind, l.srcdoc]), outText).toEqual(before.map((l) => [l.element, l.attribute, l.kind, l.srcdoc]));
  after.forEach((link, i) => {
    const value = returned[i] === undefined || returned[i] === before[i]!.value ? before[i]!.value : returned[i]!;
    // "If action is the empty string, let action be the URL of the form document."
    const emptyAction = (link.attribute === "action" || link.attribute === "formaction" || link.missing === true) && value === "";
    const expected = emptyAction ? link.url : resolve(value, link);
    expect(link.url, `link ${i} (${link.element} ${link.attribute}) given ${JSON.stringify(value)} in ${outText}`).toBe(expected);
  });
  return "written";
}

const choices = fc.array(fc.option(hostile, { freq: 2 }), { minLength: 40, maxLength: 40 });

describe(`the round trip (fast-check, seed ${seed})`, () => {
  it(`on generated documents (${runs} runs): same elements and attributes, untouched bytes, same links, each resolving to the URL its new value resolves to`, () => {
    const outcomes: Outcome[] = [];
    fc.assert(
      fc.property(document, choices, (html, picked) => {
        outcomes.push(roundTrip(html, picked));
      }),
      { numRuns: runs, seed },
    );
    // The property must mostly write, or it proves little.
    expect(outcomes.filter((o) => o === "written").length).toBeGreaterThan(outcomes.length / 2);
  }, timeout);

  const pages = corpusPages.map((page) => new TextDecoder().decode(readCorpusFile(page.file)));
  it(`on windows of the real pages (${Math.ceil(runs / 3)} runs): the same`, () => {
    const window = fc
      .tuple(fc.nat({ max: pages.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 256, max: 24_576 }))
      .map(([p, at, length]) => {
        const page = pages[p]!;
        const start = Math.max(0, page.indexOf("<", Math.floor(at * page.length)));
        return page.slice(start, start + length);
      });
    const outcomes: Outcome[] = [];
    fc.assert(
      fc.property(window, choices, (html, picked) => {
        outcomes.push(roundTrip(html, picked));
      }),
      { numRuns: Math.ceil(runs / 3), seed },
    );
    expect(outcomes.filter((o) => o === "written").length).toBeGreaterThan(outcomes.length / 2);
  }, timeout);

  // Legacy encodings: an unmappable character becomes a character reference in an attribute and a CSS escape in
  // a <style> element, and both read back as the character.
  const encodings = ["windows-1252", "shift_jis", "euc-kr", "iso-2022-jp", "gb18030", "big5", "utf-8"];
  it(`on generated documents as bytes in ${encodings.join(", ")} (${Math.ceil(runs / 2)} runs): the same`, () => {
    const outcomes: Outcome[] = [];
    fc.assert(
      fc.property(fc.constantFrom(...encodings), document, choices, (encoding, html, picked) => {
        // The generated documents are ASCII, so their bytes are the same in every one of these encodings.
        const bytes = new TextEncoder().encode(`<meta charset="${encoding}">${html}`);
        const decoder = new TextDecoder(encoding);
        outcomes.push(roundTrip(bytes, picked, (b) => decoder.decode(b)));
      }),
      { numRuns: Math.ceil(runs / 2), seed },
    );
    expect(outcomes.filter((o) => o === "written").length).toBeGreaterThan(outcomes.length / 2);
  }, timeout);
});

describe("legacy encodings", () => {
  it("writes a code point ISO-2022-JP cannot encode as a character reference, which reads back as it", () => {
    const bytes = new Uint8Array(Buffer.from('<meta charset="iso-2022-jp"><a href="a.html">x</a>', "latin1"));
    const out = rewriteLinks(bytes, { url, rewrite: () => "café.html" });
    expect(Buffer.from(out).toString("latin1")).toBe('<meta charset="iso-2022-jp"><a href="caf&#233;.html">x</a>');
    expect(extractLinks(out, { url })[0]!.value).toBe("café.html");
  });
});

// --- The round trip of a CSS file (extractStylesheetLinks, rewriteStylesheetLinks) ---------------------

/** One piece of a style sheet, holding zero or more URL references (a comment and @namespace hold none). */
const sheetPiece = fc.constantFrom(
  "p { background: url(a.png) }",
  'p { background: url("b c.png") }',
  "p { background: url('d&e.png') }",
  "p { background: url( spaced.png ) }",
  "p { background: url(esc\\28 aped\\29 .png) }",
  '@import "imp.css" screen;',
  "@import url(imp2.css);",
  '.x { background-image: image-set("s.png" 1x, "s@2x.png" 2x) }',
  "@font-face { src: url(f.woff2) format('woff2') }",
  "/* url(commented.png) */",
  "@namespace svg url(http://www.w3.org/2000/svg);",
  "a::after { content: 'url(in-a-string.png)' }",
);

const sheet = fc.array(sheetPiece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join("\n"));

const sheetURL = "https://example.com/css/site.css";

/**
 * Rewrites style sheet `css` (text, or bytes) with the hostile `choices`, one per link in turn, and checks the
 * round trip: the same links (kinds and order), each rewritten one holding exactly the value given and resolving to
 * the URL that value resolves to against the style sheet's URL, and every character outside the rewritten URLs as
 * it was.
 */
function sheetRoundTrip(css: string | Uint8Array, choices: readonly (string | null)[], decode: (bytes: Uint8Array) => string): void {
  const before = extractStylesheetLinks(css, { url: sheetURL });
  let index = 0;
  const returned: (string | undefined)[] = [];
  const out = rewriteStylesheetLinks(css, {
    url: sheetURL,
    rewrite: () => {
      const value = choices[index++ % choices.length] ?? undefined;
      returned.push(value);
      return value;
    },
  });
  const inText = typeof css === "string" ? css : decode(css);
  const outText = typeof out === "string" ? out : decode(out);
  const after = extractStylesheetLinks(out, { url: sheetURL });
  expect(after.map((l) => l.kind), outText).toEqual(before.map((l) => l.kind));
  // The text between URLs (a BOM is not part of the text the offsets are in). An empty unquoted url( ) has no
  // place of its own between its spaces: the spaces around an empty URL are compared without it.
  const between = (text: string, from: number, to: number, trimStart: boolean, trimEnd: boolean): string => {
    let piece = text.slice(from, to).replace(/^\uFEFF/, "");
    if (trimStart) piece = piece.trimStart();
    return trimEnd ? piece.trimEnd() : piece;
  };
  let inAt = 0;
  let outAt = 0;
  let wasEmpty = false;
  after.forEach((link, i) => {
    const value = returned[i] ?? before[i]!.value;
    expect(link.value, outText).toBe(value);
    expect(link.url, `${JSON.stringify(value)} in ${outText}`).toBe(resolve(value, before[i]!));
    const empty = value === "" || before[i]!.value === "";
    expect(between(outText, outAt, link.start, wasEmpty, empty), outText).toBe(between(inText, inAt, before[i]!.start, wasEmpty, empty));
    inAt = before[i]!.end;
    outAt = link.end;
    wasEmpty = empty;
  });
  expect(between(outText, outAt, outText.length, wasEmpty, false), outText).toBe(between(inText, inAt, inText.length, wasEmpty, false));
}

describe(`the round trip of a CSS file (fast-check, seed ${seed})`, () => {
  it(`on generated style sheets (${runs} runs): the same links, each the value given, every other character kept`, () => {
    fc.assert(
      fc.property(sheet, choices, (css, picked) => sheetRoundTrip(css, picked, (b) => new TextDecoder().decode(b))),
      { numRuns: runs, seed },
    );
  }, timeout);

  // An @charset names the file's encoding (a BOM would win over it): a code point it lacks is written as a CSS escape.
  const encodings = ["windows-1252", "shift_jis", "euc-kr", "iso-2022-jp", "gb18030", "big5", "utf-8", "utf-8 with a BOM"];
  it(`on generated style sheets as bytes in ${encodings.join(", ")} (${Math.ceil(runs / 2)} runs): the same`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...encodings), sheet, choices, (encoding, css, picked) => {
        const withBOM = encoding.endsWith("with a BOM");
        const label = withBOM ? "windows-1252" : encoding;
        // ASCII, so the same bytes in every one of these encodings; with a BOM, the file is UTF-8 whatever it declares.
        const text = `@charset "${label}";\n${css}`;
        const bytes = withBOM ? new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]) : new TextEncoder().encode(text);
        const decoder = new TextDecoder(withBOM ? "utf-8" : encoding);
        sheetRoundTrip(bytes, picked, (b) => decoder.decode(b));
      }),
      { numRuns: Math.ceil(runs / 2), seed },
    );
  }, timeout);
});
