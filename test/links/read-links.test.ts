// readLinks (src/links/read-links.ts): what one reading of a document tells the command. Over generated
// documents with templates, declarative shadow roots, foster parenting, the adoption agency, framesets,
// srcdoc documents and encoding declarations: its links are extractLinks', each <base href> is one of its
// links, and it is undecodable exactly where the encoding sniffing says so (or a later <meta> does). (The
// command's old second reading, which these properties were checked against, is gone; its values for the
// fixtures and the generated cases stay in test/cli/base-url-report.expected.json.)
//
// DOCBASE_PROPERTY_RUNS cases (default 300), seeded with DOCBASE_PROPERTY_SEED (default 23).
import fc from "fast-check";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { getEncoding } from "../../src/core/index.ts";
import { extractLinksAndTargets, readLinks, sniffEncoding } from "../../src/links/internal.ts";
import { extractLinks } from "../../src/links/index.ts";

const url = "https://example.com/docs/page.html";
const runs = Number(process.env["DOCBASE_PROPERTY_RUNS"] ?? 300);
const seed = Number(process.env["DOCBASE_PROPERTY_SEED"] ?? 23);

/** Href values: relative, absolute, empty, spaced, referenced, and the unusable kinds (data:, javascript:, not parsing). */
const hrefs = ["/b/", "sub/", "", "  /spaced/  ", "&#x2F;ref/", "https://other.example/o/", "?q=é", "data:,x", "javascript:void(0)", "http://[bad/", "JavaScript:x", "#frag"];

const href = fc.constantFrom(...hrefs).map((value) => `"${value}"`);
const base = href.map((value) => `<base href=${value}>`);

/** Places where the tree puts a piece elsewhere than the source, or where it is not the document's. */
function around(inner: string): string[] {
  return [
    inner,
    `<head>${inner}</head>`,
    `<body>${inner}`,
    `<div>${inner}</div>`,
    `<template>${inner}</template>`,
    `<template><template>${inner}</template></template>`,
    `<div><template shadowrootmode=open>${inner}</template></div>`,
    `<div><template shadowrootmode=closed><p>${inner}</p></template><template shadowrootmode=open>${inner}</template></div>`,
    `<a><template shadowrootmode=open>${inner}</template></a>`,
    `<template><div><template shadowrootmode=open>${inner}</template></div></template>`,
    `<div><template shadowrootmode=open><template>${inner}</template></template></div>`,
    `<table><tr><td>${inner}</td></tr>${inner}</table>`,
    `<table>${inner}<tr><td>x</td></tr></table>`,
    `<table><caption>${inner}</caption></table>`,
    `<table><template>${inner}</template></table>`,
    `<a href=x>t<div>${inner}</a>z</div>`,
    `<b><p>${inner}</b>q</p>`,
    `<svg>${inner}<foreignObject>${inner}</foreignObject></svg>`,
    `<math><mi>${inner}</mi></math>`,
    `<noscript>${inner}</noscript>`,
    `<div>${inner}</div><frameset><frame src=f.html></frameset>`,
    `<select>${inner}</select>`,
    `<textarea>${inner}</textarea>`,
    `<iframe srcdoc='${inner.replaceAll("'", "&#39;")}'></iframe>`,
    `</html>${inner}`,
  ];
}

const link = fc.constantFrom(`<a href=a.html>a</a>`, `<img src=i.png srcset="a.png 1x">`, `<link href=l.css>`, `<p style="background:url(s.png)">`, `<form></form>`, `<a href="http://[x">bad</a>`);
const meta = fc.constantFrom(`<meta charset=utf-8>`, `<meta charset=windows-1252>`, `<meta charset=shift_jis>`, `<meta charset=utf-16le>`, `<meta http-equiv=content-type content="text/html; charset=euc-kr">`, `<meta charset=iso-2022-kr>`);
const text = fc.constantFrom("text", "\n", "\r\n", "é", "中", "😀", "&amp;", "<p>", "</p>", "<br>", "<!-- c -->");

const piece = fc.oneof(
  { weight: 5, arbitrary: base.chain((b) => fc.constantFrom(...around(b))) },
  { weight: 2, arbitrary: base },
  { weight: 3, arbitrary: link },
  { weight: 1, arbitrary: meta },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom("<head>", "</head>", "<body>", "<table>", "<td>", "<template>", "</template>", "<svg>", "</svg>", "<frameset>", "<title>t</title>") },
  { weight: 1, arbitrary: fc.constantFrom(200, 1100).map((n) => `<p>${"x".repeat(n)}</p>`) },
);

const document = fc.tuple(fc.constantFrom("", "<!doctype html>", "<!doctype html><html><head>", "\uFEFF"), fc.array(piece, { minLength: 1, maxLength: 10 })).map(([head, pieces]) => head + pieces.join(""));

/** The bytes of `html` in one of the encodings its declarations may name (characters it cannot write become references). */
const bytesOf = fc.tuple(document, fc.constantFrom("utf-8", "windows-1252", "shift_jis")).map(([html, encoding]) => new Uint8Array(iconv.encode(html, encoding)));

const label = fc.constantFrom(undefined, undefined, undefined, "utf-8", "windows-1252", "iso-2022-kr");

describe(`readLinks, one reading (fast-check, seed ${seed})`, () => {
  it(`gives extractLinks' links, each <base href> from its own link, and the base URL the used one sets (${runs} runs)`, () => {
    fc.assert(
      fc.property(bytesOf, label, (bytes, encoding) => {
        const options = { url, encoding };
        const links = extractLinks(bytes, options);
        const read = readLinks(bytes, options, { bases: true });
        expect(read.links).toEqual(links);
        for (const b of read.bases!) {
          const own = links.find((l) => l.start === b.start && l.element === "base" && l.srcdoc === 0)!;
          expect([b.href, b.raw, b.url, b.line, b.column]).toEqual([own.value, own.raw, own.url, own.line, own.column]);
        }
        const used = read.bases!.filter((b) => b.status === "used" || b.status === "unusable");
        expect(used.length).toBeLessThanOrEqual(1);
        expect(read.documentBaseURL).toBe(used[0]?.status === "used" ? used[0].url : read.fallbackBaseURL);
        // The document's own links are resolved in its encoding (UTF-16 documents' queries in UTF-8).
        const own = links.find((l) => l.srcdoc === 0 && l.kind !== "css-url" && l.kind !== "css-import");
        if (own !== undefined && !read.encoding.startsWith("UTF-16")) expect(own.encoding).toBe(read.encoding);
      }),
      { numRuns: runs, seed },
    );
  }, 120_000);

  it(`says a document is undecodable exactly where the encoding sniffing does (or a later <meta>), and what decided its encoding (${runs} runs)`, () => {
    fc.assert(
      fc.property(bytesOf, label, (bytes, encoding) => {
        const read = readLinks(bytes, { url, encoding });
        const sniffed = sniffEncoding(bytes, encoding === undefined ? undefined : (getEncoding(encoding) ?? undefined)).encoding;
        // The sniffing reads a declaration in the first 1024 bytes; the parser may meet a later one (and then
        // reads the document again in its encoding, as a browser does).
        if (read.encodingSource !== "declaration" || sniffed === read.encoding) expect(read.undecodable).toBe(sniffed === "replacement");
        expect(read.undecodable).toBe(read.encoding === "replacement");
        if (read.undecodable) expect(read.links).toEqual([]);
        const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
        expect(read.encodingSource).toBe(bom ? "bom" : encoding !== undefined ? "given" : read.encodingSource === "declaration" ? "declaration" : "default");
        if (read.encodingSource === "default") expect(read.encoding).toBe("windows-1252");
        if (read.encodingSource !== "declaration") expect(read.encoding).toBe(sniffed);
      }),
      { numRuns: runs, seed },
    );
  }, 120_000);

  it(`gives the fragment targets extractLinksAndTargets gives, from the same reading (${runs} runs)`, () => {
    fc.assert(
      fc.property(document, (html) => {
        const withIds = html.replaceAll("<p>", '<p id="p">').replaceAll("<a ", '<a name="n" ');
        const read = readLinks(withIds, { url, validate: true }, { targets: true });
        const expected = extractLinksAndTargets(withIds, { url, validate: true });
        expect(read.links).toEqual(expected.links);
        expect(read.documents).toEqual(expected.documents);
        expect(read.bases).toBeNull();
      }),
      { numRuns: Math.ceil(runs / 3), seed },
    );
  }, 120_000);
});

describe("readLinks, by example", () => {
  it("reads the bases of the README's example", () => {
    const bytes = new TextEncoder().encode('<link href=a.css><base href="/v2/"><base href="/v3/">');
    const read = readLinks(bytes, { url: "https://example.com/docs/" }, { bases: true });
    expect(read.documentBaseURL).toBe("https://example.com/v2/");
    expect(read.bases!.map((b) => b.status)).toEqual(["used", "not-first"]);
    expect(read.encodingSource).toBe("default");
    expect(read.undecodable).toBe(false);
  });

  it("says what decided the encoding: a BOM, the option, a declaration, the default", () => {
    const utf8 = (html: string): Uint8Array => new TextEncoder().encode(html);
    expect(readLinks(utf8("\uFEFF<p>"), { url, encoding: "windows-1252" })).toMatchObject({ encoding: "UTF-8", encodingSource: "bom" });
    expect(readLinks(utf8("<p>"), { url, encoding: "shift_jis" })).toMatchObject({ encoding: "Shift_JIS", encodingSource: "given" });
    expect(readLinks(utf8("<meta charset=euc-kr>"), { url })).toMatchObject({ encoding: "EUC-KR", encodingSource: "declaration" });
    expect(readLinks(utf8(`<title>${"t".repeat(1100)}</title><meta charset=koi8-r>`), { url })).toMatchObject({ encoding: "KOI8-R", encodingSource: "declaration" });
    expect(readLinks(utf8("<p>"), { url })).toMatchObject({ encoding: "windows-1252", encodingSource: "default" });
    expect(readLinks("<p>", { url })).toMatchObject({ encoding: "UTF-8", encodingSource: "default" });
    expect(readLinks("<p>", { url, encoding: "latin1" })).toMatchObject({ encoding: "windows-1252", encodingSource: "given" });
  });

  it("says a document in the replacement encoding cannot be decoded, however it got there", () => {
    const utf8 = (html: string): Uint8Array => new TextEncoder().encode(html);
    expect(readLinks(utf8("<meta charset=iso-2022-kr><a href=x>"), { url })).toMatchObject({ encoding: "replacement", undecodable: true, links: [] });
    expect(readLinks(utf8("<a href=x>"), { url, encoding: "hz-gb-2312" })).toMatchObject({ encoding: "replacement", undecodable: true, links: [] });
    // A declaration past the prescan's 1024 bytes: the parser changes the encoding, and there is nothing left to read.
    const late = readLinks(utf8(`<title>${"t".repeat(1100)}</title><meta charset=iso-2022-kr><a href=x>`), { url });
    expect(late).toMatchObject({ encoding: "replacement", encodingSource: "declaration", undecodable: true, links: [] });
  });

  it("places each <base href>: in the head, the body, a template, a shadow root, not first", () => {
    const html = '<head><base href="/a/"></head><body><base href="javascript:x"><template><base href="/t/"></template><div><template shadowrootmode=open><base href="/s/"></template></div>';
    const read = readLinks(html, { url }, { bases: true });
    expect(read.bases!.map(({ href, status, inBody }) => [href, status, inBody])).toEqual([
      ["/a/", "used", false],
      ["javascript:x", "not-first", true],
      ["/t/", "in-template", false],
      ["/s/", "in-shadow-root", false],
    ]);
    const unusable = readLinks('<base href="data:,x"><a href=y>', { url }, { bases: true });
    expect(unusable.bases!.map(({ status, reason }) => [status, reason])).toEqual([["unusable", "is a data: URL"]]);
    expect(unusable.documentBaseURL).toBe(url);
    expect(readLinks("<a href=y>", { url }, { bases: true }).bases).toEqual([]);
  });
});
