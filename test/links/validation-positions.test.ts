// Where a link's validation errors are in the source: `sourceStart` and
// `sourceEnd` (through character references, CR LF, CSS escapes and srcdoc
// levels), `line` and `column`, and the one position helper, sourcePosition.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sourceEnd, sourceStart } from "../../src/links/character-references.ts";
import { cssValueMap } from "../../src/links/css-urls.ts";
import { placeValidationErrors } from "../../src/links/settle-links.ts";
import { extractLinks, findCSSURLs, type Link, sourcePosition } from "../../src/links/index.ts";

const url = "https://example.com/";

/** Line and column counted the slow, obvious way: CR LF, CR and LF end a line; a column is a code point. */
function naivePosition(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: lines.length, column: [...lines[lines.length - 1]!].length + 1 };
}

/** What holds for every error of every link, whatever the document. */
function checkInvariants(html: string, links: readonly Link[]): void {
  for (const link of links) {
    expect(link.errors).toBeDefined();
    const raw = html.slice(link.start, link.end);
    let last = -1;
    let lastStart = link.start;
    for (const e of link.errors!) {
      expect(e.start).toBeLessThanOrEqual(e.end);
      expect(e.sourceStart).toBeLessThanOrEqual(e.sourceEnd);
      expect(e.sourceStart).toBeGreaterThanOrEqual(link.start);
      expect(e.sourceEnd).toBeLessThanOrEqual(link.end);
      expect({ line: e.line, column: e.column }).toEqual(naivePosition(html, e.sourceStart));
      // Monotonic: an error that starts later in the value starts no earlier in the source.
      if (e.start >= last) expect(e.sourceStart).toBeGreaterThanOrEqual(lastStart);
      last = e.start;
      lastStart = e.sourceStart;
      if (raw === link.value && link.srcdoc === 0) {
        // Nothing decoded: the map is the identity.
        expect(e.sourceStart).toBe(link.start + e.start);
        expect(e.sourceEnd).toBe(e.start === e.end ? e.sourceStart : link.start + e.end);
      }
    }
  }
}

/** Every error of the document as [type, its source text]; checks the invariants on the way. */
function placed(html: string, documentURL = url): [string, string][] {
  const links = extractLinks(html, { url: documentURL, validate: true });
  checkInvariants(html, links);
  return links.flatMap((l) => l.errors!.map((e): [string, string] => [e.type, html.slice(e.sourceStart, e.sourceEnd)]));
}

/** The errors of the document's only link (or its `index`th). */
function errorsOf(html: string, index = 0, documentURL = url) {
  const links = extractLinks(html, { url: documentURL, validate: true });
  checkInvariants(html, links);
  return links[index]!.errors!;
}

describe("validation errors: where they are in the source", () => {
  it("a plain value: offsets in the value are offsets from the link's start", () => {
    const html = '<a href="https://example.com/a b">';
    const [e] = errorsOf(html);
    expect(e).toEqual({ type: "invalid-URL-unit", start: 21, end: 22, sourceStart: html.indexOf(" b"), sourceEnd: html.indexOf(" b") + 1, line: 1, column: html.indexOf(" b") + 1 });
    expect(placed('<a href="https://a@">')).toEqual([
      ["invalid-credentials", "@"],
      ["host-missing", ""],
    ]);
  });

  it("an empty range at the value's end is at the link's end (trimmed whitespace after it)", () => {
    const html = '<a href="  http:  ">';
    const links = extractLinks(html, { url, validate: true });
    checkInvariants(html, links);
    const [link] = links;
    expect(link!.errors!.map((e) => [e.type, e.start, e.end, e.sourceStart, e.sourceEnd])).toEqual([
      ["special-scheme-missing-following-solidus", 5, 5, link!.end, link!.end],
      ["host-missing", 5, 5, link!.end, link!.end],
    ]);
    expect(link!.end).toBe(html.indexOf("  \">"));
  });

  it("past character references: &amp;, &#x20;, legacy &amp without a semicolon", () => {
    expect(placed('<a href="a&amp;b c">')).toEqual([["invalid-URL-unit", " "]]);
    expect(errorsOf('<a href="a&amp;b c">')[0]!.sourceStart).toBe('<a href="a&amp;b c">'.indexOf(" c"));
    // "&amp" without ";" before a space is still a reference in an attribute.
    const legacy = '<a href="?x=1&amp y">';
    expect(errorsOf(legacy)[0]!.sourceStart).toBe(legacy.indexOf(" y"));
    const copy = '<a href="a&copy b">';
    expect(errorsOf(copy)[0]!.sourceStart).toBe(copy.indexOf(" b"));
    // A legacy name before "=" or an alphanumeric is not a reference.
    const notit = '<a href="?a&notit;= b">';
    expect(errorsOf(notit)[0]!.sourceStart).toBe(notit.indexOf(" b"));
  });

  it("an error on a character a reference stands for covers the reference, from its &", () => {
    expect(placed('<a href="x&#x20;y">')).toEqual([["invalid-URL-unit", "&#x20;"]]);
    expect(placed('<a href="x&lt;y">')).toEqual([["invalid-URL-unit", "&lt;"]]);
    expect(placed('<a href="x&lt y">')).toEqual([
      ["invalid-URL-unit", "&lt"],
      ["invalid-URL-unit", " "],
    ]);
    // Each offending code point a reference stands for is the whole reference.
    expect(placed('<a href="https://exa&#x20;mple&amp;.com/">')).toEqual([
      ["domain-to-ASCII", "&#x20;"],
      ["domain-to-ASCII", "&amp;"],
    ]);
    // Ranges across references: a label, and the whole host, references and all.
    expect(placed('<a href="https://-exa&#x6D;ple&#46;com/">')).toEqual([["domain-to-ASCII", "-exa&#x6D;ple"]]);
    expect(placed('<a href="https://a.&#x5D0;.1c&#x6F;m/">')).toEqual([["domain-to-ASCII", "a.&#x5D0;.1c&#x6F;m"]]);
  });

  it("maps every kind of reference, astral ones included (each code unit after the right one)", () => {
    // Was: "maps offsets in a value to offsets in the source through references".
    const html = '<a href="&lt;&#x1F600; &amp; b&NotEqualTilde; c">';
    const [link] = extractLinks(html, { url, validate: true });
    checkInvariants(html, [link!]);
    expect(link!.value).toBe("<\u{1F600} & b\u2242\u0338 c");
    expect(link!.errors!.map((e) => [e.start, e.end, e.sourceStart, e.sourceEnd])).toEqual([
      [0, 1, html.indexOf("&lt;"), html.indexOf("&#x1F600;")],
      [3, 4, html.indexOf(" &amp;"), html.indexOf(" &amp;") + 1],
      [5, 6, html.indexOf(" b"), html.indexOf(" b") + 1],
      [9, 10, html.indexOf(" c"), html.indexOf(" c") + 1],
    ]);
    // An astral code point that is not a URL code point: two code units, one reference.
    expect(placed('<a href="a&#x1FFFE;b">')).toEqual([["invalid-URL-unit", "&#x1FFFE;"]]);
    expect(placed('<a href="a\u{1FFFE}b">')).toEqual([["invalid-URL-unit", "\u{1FFFE}"]]);
  });

  it("counts lines across CR LF in a value and columns in code points", () => {
    const crlf = '<a\r\nhref="x\r\ny z">';
    // The newline in the value is itself an error (at the CR LF, line 2); the space is on line 3.
    expect(errorsOf(crlf).map((e) => [e.line, e.column, crlf.slice(e.sourceStart, e.sourceEnd)])).toEqual([
      [2, 8, "\r\n"],
      [3, 2, " "],
    ]);
    const astral = "<p>\u{1D4B3}\u{1D4B3}</p><a href='a b'>";
    // Two astral characters are two columns, not four.
    expect(errorsOf(astral)[0]!.column).toBe(astral.indexOf(" b") + 1 - 2);
  });

  it("srcset candidates, ping lists and refresh URLs", () => {
    expect(placed('<img srcset="a.png 1x, b&lt;.png 2x, c|d.png 3x">')).toEqual([
      ["invalid-URL-unit", "&lt;"],
      ["invalid-URL-unit", "|"],
    ]);
    expect(placed('<a href=x ping="https://a.example/p&#x7c;q https://b.example/&lt;">')).toEqual([
      ["invalid-URL-unit", "&#x7c;"],
      ["invalid-URL-unit", "&lt;"],
    ]);
    expect(placed("<meta http-equiv=refresh content=\"5; url='/next&#x7c;x y'\">")).toEqual([
      ["invalid-URL-unit", "&#x7c;"],
      ["invalid-URL-unit", " "],
    ]);
  });

  it("CSS url() and @import with escapes, in style attributes and style elements", () => {
    expect(placed('<div style="background: url(a\\20 b\\ c)"></div>')).toEqual([
      ["invalid-URL-unit", "\\20 "],
      ["invalid-URL-unit", "\\ "],
    ]);
    // The backslash of an escape written as a reference: both layers.
    expect(placed('<div style="background: url(a&#x5c;20 b)">')).toEqual([["invalid-URL-unit", "&#x5c;20 "]]);
    expect(placed("<div style=\"background: url('a\\22 b|')\">")).toEqual([
      ["invalid-URL-unit", "\\22 "],
      ["invalid-URL-unit", "|"],
    ]);
    // A style element is raw text: "&lt;" is four characters there, and CR LF ends a hex escape.
    const style = '<style>\r\np { background: url("a\\20\r\nb&lt;") }\r\n@import "x\\\ny\\7c z";</style>';
    const errors = extractLinks(style, { url, validate: true }).flatMap((l) => l.errors!);
    checkInvariants(style, extractLinks(style, { url, validate: true }));
    expect(errors.map((e) => [e.type, style.slice(e.sourceStart, e.sourceEnd), e.line, e.column])).toEqual([
      ["invalid-URL-unit", "\\20\r\n", 2, 23],
      ["invalid-URL-unit", "\\7c ", 5, 2],
    ]);
  });

  it("through srcdoc documents, two levels deep", () => {
    // Was: "maps through srcdoc layers (references inside references)".
    const one = '<iframe srcdoc="<a href=&quot;x y&amp;amp;z w&quot;>"></iframe>';
    expect(placed(one)).toEqual([
      ["invalid-URL-unit", " "],
      ["invalid-URL-unit", " "],
    ]);
    expect(errorsOf(one).map((e) => e.sourceStart)).toEqual([one.indexOf(" y"), one.indexOf(" w")]);

    const inner = '<a href="x&#x20;y z&lt;">';
    const middle = `<p>\n<iframe srcdoc='${inner.replaceAll("&", "&amp;")}'></iframe>`;
    const html = `<iframe srcdoc="${middle.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>`;
    const links = extractLinks(html, { url, validate: true });
    checkInvariants(html, links);
    expect(links.map((l) => [l.srcdoc, l.value])).toEqual([[2, "x y z<"]]);
    expect(links[0]!.errors!.map((e) => [html.slice(e.sourceStart, e.sourceEnd), e.line])).toEqual([
      ["&amp;amp;#x20;", 2],
      [" ", 2],
      ["&amp;amp;lt;", 2],
    ]);
  });

  it("an empty or missing form action has no errors: it is never parsed (the form submits to the document's URL)", () => {
    const html = '<form><input></form><form action=""></form><iframe srcdoc="<form></form>"></iframe><form action="x"></form>';
    const links = extractLinks(html, { url: "about:blank", validate: true });
    checkInvariants(html, links);
    expect(links.map((l) => [l.value, l.url, l.missing === true, l.errors!.length])).toEqual([
      ["", "about:blank", true, 0],
      ["", "about:blank", false, 0],
      ["", "about:srcdoc", true, 0],
      // A real action is parsed: "x" against about:blank is an error, at "x".
      ["x", null, false, 1],
    ]);
    const [e] = links[3]!.errors!;
    expect(e!.sourceStart).toBe(html.indexOf("x\""));
  });

  it("byte input: offsets into the decoded text", () => {
    const bytes = Buffer.from('<meta charset="windows-1252"><p>\xe9\xe9</p><a href="?q=caf\xe9 x">', "latin1");
    const text = bytes.toString("latin1");
    const link = extractLinks(bytes, { url, validate: true }).find((l) => l.element === "a")!;
    checkInvariants(text, [link]);
    expect(link.errors!.map((e) => [e.sourceStart, e.column])).toEqual([[text.indexOf(" x"), text.indexOf(" x") + 1]]);
  });

  it("errors stay off without validate, and a link without errors has none", () => {
    expect(extractLinks('<a href="a b">', { url })[0]!.errors).toBeUndefined();
    expect(extractLinks('<a href="ok">', { url, validate: true })[0]!.errors).toEqual([]);
  });

  it("reports the link's range when the value cannot be mapped (never a wrong place inside)", () => {
    // Was: "reports at the value's start when it cannot map". No map: a decoder
    // here and the parser disagreed, or there is no source text (a missing action).
    const error = { type: "invalid-URL-unit" as const, start: 2, end: 3 };
    expect(placeValidationErrors([error], 3, null, [], 9, 12)).toEqual([{ ...error, sourceStart: 9, sourceEnd: 12, line: 0, column: 0 }]);
  });
});

describe("sourcePosition", () => {
  it("counts lines (CR, LF, CR LF) and columns in code points", () => {
    expect(sourcePosition("a\nb", 2)).toEqual({ line: 2, column: 1 });
    expect(sourcePosition("a\rb", 2)).toEqual({ line: 2, column: 1 });
    expect(sourcePosition("a\r\nb", 3)).toEqual({ line: 2, column: 1 });
    expect(sourcePosition("\u{1F600}\u{1F600}x", 4)).toEqual({ line: 1, column: 3 });
    expect(sourcePosition("a\r\nb\u{1D4B3}c", 6)).toEqual({ line: 2, column: 3 });
    expect(sourcePosition("ab\ncd", 5, { start: 1, line: 1, column: 2 })).toEqual({ line: 2, column: 3 });
  });

  it("counts from a link as from the start of the text", () => {
    const html = '<p>\r\n\u{1F600} <a href="a b">';
    const [link] = extractLinks(html, { url, validate: true });
    const at = html.indexOf(" b");
    expect(sourcePosition(html, at, link!)).toEqual(sourcePosition(html, at));
    expect(sourcePosition(html, at)).toEqual({ line: 2, column: 13 });
  });
});

// --- Properties ----------------------------------------------------------------

/** Pieces of URL-ish attribute values, as written in the source (references, escapes, newlines, astral). */
const valuePiece = fc.constantFrom(
  "a", "b/", "/", "?", "#", ":", "//", "http:", "https://", "x.example", "@", "%", "%zz", "[", "]", "|", "<", "^", "\\",
  " ", "\t", "\r\n", "\r", "\n", ",", " 2x", "&amp;", "&amp", "&lt", "&lt;", "&#x20;", "&#124;", "&#x1FFFE;", "&notit;",
  "&", "&#", "&#x", "\u{1F600}", "\u{1FFFE}", "é", "\\20 ", "\\7c", "\\\n", "\\)", "(", ")", "'", "url(",
);
const value = fc.array(valuePiece, { maxLength: 12 }).map((parts) => parts.join(""));

/** One element with URLs, around a value (raw source text without `"`). */
const element = fc.tuple(
  fc.constantFrom(
    (v: string) => `<a href="${v}">t</a>`,
    (v: string) => `<img srcset="${v}">`,
    (v: string) => `<a ping="${v}">`,
    (v: string) => `<meta http-equiv="refresh" content="0; url=${v}">`,
    (v: string) => `<div style="background: url(${v}) url('${v}')"></div>`,
    (v: string) => `<style>p { background: url(${v.replaceAll("<", "")}) } @import "${v.replaceAll("<", "")}";</style>`,
    (v: string) => `<form action="${v}"></form>`,
    () => "<form></form>",
    (v: string) => `<p>${v}</p>\r\n`,
  ),
  value,
).map(([make, v]) => make(v.replaceAll('"', "")));

/** A document: elements, and srcdoc documents (escaped for a double-quoted attribute) up to two levels deep. */
function documentArbitrary(depth: number): fc.Arbitrary<string> {
  const item: fc.Arbitrary<string> =
    depth === 0
      ? element
      : fc.oneof(
          { weight: 3, arbitrary: element },
          { weight: 1, arbitrary: documentArbitrary(depth - 1).map((d) => `<iframe srcdoc="${d.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>`) },
        );
  return fc.array(item, { maxLength: 4 }).map((items) => items.join(""));
}

/** Pieces of CSS url() and string text: escapes of every kind, newlines, NUL, surrogates. */
const cssPiece = fc.constantFrom(
  "a", "/", " ", "\t", "\r\n", "\n", "\f", "'", '"', "(", ")", "\\", "\\20 ", "\\7C", "\\7c\r\n", "\\41\t", "\\0", "\\d800 ",
  "\\110000", "\\FFFFFF", "\\1F600x", "\\\u{1F600}", "\u{1F600}", "\0", "\uD800", "\uDC00", "\\\n", "\\\r\n", "\\\f", "\\)",
  "\\'", '\\"', "\\g", "&amp;",
);

describe("properties", () => {
  it("every error lies in its link's source range, monotonically, at the right line and column", () => {
    fc.assert(
      fc.property(documentArbitrary(2), fc.constantFrom(url, "about:blank", "https://example.com/a/b?q"), (html, documentURL) => {
        checkInvariants(html, extractLinks(html, { url: documentURL, validate: true }));
      }),
      { numRuns: 400 },
    );
  });

  it("decodes CSS escapes exactly as the tokenizer does, with a monotonic map inside the reference", () => {
    fc.assert(
      fc.property(fc.array(cssPiece, { maxLength: 10 }).map((p) => p.join("")), fc.boolean(), (text, eof) => {
        const css = eof ? `a { b: url(${text}` : `@import "${text}"; a { b: url(${text}) url('${text}') }`;
        for (const ref of findCSSURLs(css)) {
          const map = cssValueMap(css, ref);
          if (map === null) {
            expect(css.slice(ref.start, ref.end)).toBe(ref.value);
            continue;
          }
          expect(map.text).toBe(ref.value);
          let last = ref.start;
          for (let d = 0; d <= map.text.length; d++) {
            const s = sourceStart(map, d);
            expect(s).toBeGreaterThanOrEqual(last);
            expect(s).toBeLessThanOrEqual(ref.end);
            expect(sourceEnd(map, d)).toBeGreaterThanOrEqual(d === 0 ? ref.start : sourceStart(map, d - 1) + 1);
            expect(sourceEnd(map, d)).toBeLessThanOrEqual(ref.end);
            last = s;
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
