// The links of a CSS file: its encoding as CSS Syntax determines it (https://drafts.csswg.org/css-syntax/#input-byte-stream),
// its URLs resolved against its own URL, at their lines and columns, with their validation errors in place.
import { describe, expect, it } from "vitest";
import { decodeStylesheet } from "../../src/links/stylesheet-links.ts";
import { extractLinks, extractStylesheetLinks, isLinksError, rewriteStylesheetLinks } from "../../src/links/index.ts";

const url = "https://example.com/css/site.css";
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const bom = (text: string): Uint8Array => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);

describe("a CSS file's encoding", () => {
  const sheet = '@charset "windows-1252";\na { background: url(caf\xe9.png) }';

  it("is its @charset's, exactly as written at the start (a legacy encoding's bytes decoded by it)", () => {
    const [link] = extractStylesheetLinks(latin1(sheet), { url });
    expect(link!.value).toBe("café.png");
    expect(link!.url).toBe("https://example.com/css/caf%C3%A9.png");
    expect(decodeStylesheet(latin1(sheet), undefined).source).toBe("declaration");
  });

  it("is UTF-8 without one: an @charset not at the very start, or not in its exact form, is no declaration", () => {
    for (const text of [` ${sheet}`, sheet.replace("@charset", "@CHARSET"), sheet.replace('"windows-1252";', "'windows-1252';"), sheet.replace('";', '" ;')]) {
      const read = decodeStylesheet(latin1(text), undefined);
      expect([read.source, read.decoded.encoding], text).toEqual(["default", "UTF-8"]);
    }
    expect(extractStylesheetLinks(latin1(` ${sheet}`), { url })[0]!.value).toBe("caf\uFFFD.png");
  });

  it("gives way to the protocol's charset (the encoding option), and a BOM wins over both", () => {
    expect(extractStylesheetLinks(latin1(sheet), { url, encoding: "utf-8" })[0]!.value).toBe("caf\uFFFD.png");
    const withBOM = bom('@charset "windows-1252";\na { background: url(café.png) }');
    expect(extractStylesheetLinks(withBOM, { url, encoding: "shift_jis" })[0]!.value).toBe("café.png");
    expect(decodeStylesheet(withBOM, undefined).source).toBe("bom");
  });

  it("reads an @charset of UTF-16 as UTF-8 (bytes that spell it are ASCII), and one of an unknown label as none", () => {
    expect(decodeStylesheet(latin1('@charset "utf-16le";a{}'), undefined).decoded.encoding).toBe("UTF-8");
    expect(decodeStylesheet(latin1('@charset "klingon";a{}'), undefined).source).toBe("default");
    expect(decodeStylesheet(latin1('@charset "iso-2022-kr";a{}'), undefined).decoded.encoding).toBe("replacement");
  });
});

describe("a CSS file's links", () => {
  it("are its url(), string url(), image-set() and @import URLs, resolved against its own URL, at their lines and columns", () => {
    const css = '@import "print.css" print;\n@import url(reset.css);\n@namespace svg url(http://www.w3.org/2000/svg);\n.a { background: url( ../img/bg.png ) }\r\n.b { background-image: image-set("b.png" 1x, "b@2x.png" 2x) }\n/* url(commented.png) */';
    const links = extractStylesheetLinks(css, { url });
    expect(links.map((l) => [l.kind, l.value, l.url, l.line, l.column, l.element, l.attribute])).toEqual([
      ["css-import", "print.css", "https://example.com/css/print.css", 1, 10, "", null],
      ["css-import", "reset.css", "https://example.com/css/reset.css", 2, 13, "", null],
      ["css-url", "../img/bg.png", "https://example.com/img/bg.png", 4, 23, "", null],
      ["css-url", "b.png", "https://example.com/css/b.png", 5, 35, "", null],
      ["css-url", "b@2x.png", "https://example.com/css/b@2x.png", 5, 47, "", null],
    ]);
    for (const link of links) expect(css.slice(link.start, link.end)).toBe(link.value);
  });

  it("are not resolved against a document's base: the same CSS in a <style> of a page with a <base> resolves elsewhere", () => {
    const css = "a { background: url(bg.png) }";
    expect(extractStylesheetLinks(css, { url })[0]!.url).toBe("https://example.com/css/bg.png");
    expect(extractLinks(`<base href="/elsewhere/"><style>${css}</style>`, { url: "https://example.com/css/page.html" })[1]!.url).toBe("https://example.com/elsewhere/bg.png");
  });

  it("carry their validation errors at the place in the file, through CSS escapes", () => {
    const css = "a {\n  background: url(a\\20 b.png);\n  b: url('c d.png') }";
    const links = extractStylesheetLinks(css, { url, validate: true });
    expect(links.map((l) => l.errors!.map((e) => [e.type, e.line, e.column, css.slice(e.sourceStart, e.sourceEnd)]))).toEqual([
      [["invalid-URL-unit", 2, 20, "\\20 "]],
      [["invalid-URL-unit", 3, 12, " "]],
    ]);
  });

  it("refuse bad options with a LinksError", () => {
    expect(() => extractStylesheetLinks("a{}", { url: "css/site.css" })).toThrow(/not an absolute URL/);
    expect(() => extractStylesheetLinks("a{}", { url, encoding: "klingon" })).toThrow(/klingon/);
    let error: unknown;
    try {
      rewriteStylesheetLinks("a{}", { url } as never);
    } catch (e) {
      error = e;
    }
    expect(isLinksError(error)).toBe(true);
  });
});

describe("rewriting a CSS file", () => {
  it("escapes each new URL for where it is, and keeps every other byte", () => {
    const css = "@import 'a.css';\np { background: url(b.png) } q { background: url(\"c.png\") }";
    const out = rewriteStylesheetLinks(css, { url, rewrite: (link) => (link.value === "a.css" ? "it's.css" : link.value === "b.png" ? "b (1).png" : 'c".png') });
    expect(out).toBe("@import 'it\\27 s.css';\np { background: url(b\\20 \\28 1\\29 .png) } q { background: url(\"c\\22 .png\") }");
    expect(extractStylesheetLinks(out, { url }).map((l) => l.value)).toEqual(["it's.css", "b (1).png", 'c".png']);
  });

  it("writes bytes back in the file's encoding, a code point it lacks as a CSS escape", () => {
    const bytes = latin1('@charset "windows-1252";\np { background: url(caf\xe9.png) } /* \xe9 */');
    const out = rewriteStylesheetLinks(bytes, { url, rewrite: () => "\u0100\xe9.png" }) as Uint8Array;
    expect(new TextDecoder("windows-1252").decode(out)).toBe('@charset "windows-1252";\np { background: url(\\100 é.png) } /* é */');
    expect(extractStylesheetLinks(out, { url })[0]!.value).toBe("\u0100é.png");
    // Nothing to change: the same bytes.
    expect(rewriteStylesheetLinks(bytes, { url, rewrite: () => undefined })).toEqual(bytes);
  });
});
