import { describe, expect, it } from "vitest";
import { absolutize, extractLinks, isLinksError, rebase, relativeReference, relativize, rewriteLinks, type Link } from "../../src/links/index.ts";

const url = "https://example.com/dir/page.html";

function rewriteAll(html: string, to: (link: Link) => string | undefined): string {
  return rewriteLinks(html, { url, rewrite: to });
}

describe("rewriteLinks: only the URL substrings change", () => {
  it("keeps every other byte: case, quotes, entities, whitespace, comments, attribute order", () => {
    const html = "<!-- <a href=x> --><A  HREF = 'a.html'\ttitle=\"t&amp;t\" >&amp;</A ><IMG SRC=b.png ALT=''>";
    const out = rewriteAll(html, (l) => l.value.toUpperCase());
    expect(out).toBe("<!-- <a href=x> --><A  HREF = 'A.HTML'\ttitle=\"t&amp;t\" >&amp;</A ><IMG SRC=B.PNG ALT=''>");
  });

  it("gives back the same string when rewrite returns undefined or the value itself", () => {
    const html = '<a href="a&amp;b">x</a><img srcset="a 1x, b 2x">';
    expect(rewriteAll(html, () => undefined)).toBe(html);
    expect(rewriteAll(html, (l) => l.value)).toBe(html);
  });

  it("rewrites srcset and ping one URL at a time", () => {
    const html = '<img srcset="a.png 1x,b,c.png 2x, d.png"><a href=x ping="p1  p2">t</a>';
    const out = rewriteAll(html, (l) => (l.value === "b,c.png" || l.value === "p2" ? `new-${l.value}` : undefined));
    expect(out).toBe('<img srcset="a.png 1x,new-b,c.png 2x, d.png"><a href=x ping="p1  new-p2">t</a>');
  });

  it("keeps whitespace around a single URL", () => {
    expect(rewriteAll('<a href="  x  ">t</a>', () => "y")).toBe('<a href="  y  ">t</a>');
  });
});

describe("rewriteLinks: escaping for the quoting context", () => {
  it("escapes the quote of a quoted value", () => {
    expect(rewriteAll('<a href="x">t</a>', () => 'a"b\'c')).toBe('<a href="a&quot;b\'c">t</a>');
    expect(rewriteAll("<a href='x'>t</a>", () => 'a"b\'c')).toBe("<a href='a\"b&#39;c'>t</a>");
  });

  it("escapes & only where it would start a character reference", () => {
    expect(rewriteAll('<a href="x">t</a>', () => "?a=1&b=2&copy=3&amp;&lt&#1&not")).toBe('<a href="?a=1&b=2&copy=3&amp;amp;&amp;lt&amp;#1&amp;not">t</a>');
    expect(extractLinks(rewriteAll('<a href="x">t</a>', () => "?a=1&b=2&copy=3&amp;&lt&#1&not"), { url })[0]!.value).toBe("?a=1&b=2&copy=3&amp;&lt&#1&not");
  });

  it("adds quotes to an unquoted value only when it needs them", () => {
    expect(rewriteAll("<a href=x title=t>t</a>", () => "y/z?q")).toBe("<a href=y/z?q title=t>t</a>");
    expect(rewriteAll("<a href=x title=t>t</a>", () => "a b")).toBe('<a href="a b" title=t>t</a>');
    expect(rewriteAll("<a href=x title=t>t</a>", () => "")).toBe('<a href="" title=t>t</a>');
    expect(rewriteAll("<a href=x title=t>t</a>", () => "a>b")).toBe('<a href="a>b" title=t>t</a>');
    expect(rewriteAll("<a href=x title=t>t</a>", () => '"q')).toBe("<a href='\"q' title=t>t</a>");
  });

  it("keeps a srcset candidate one candidate: a space in its URL is written as the URL parser reads it", () => {
    // Unquoted, candidates can only be apart through character references.
    const html = "<img srcset=a.png&#32;1x,b.png&#32;2x alt=x>";
    expect(extractLinks(html, { url }).map((l) => l.value)).toEqual(["a.png", "b.png"]);
    const out = rewriteAll(html, (l) => `/new ${l.value}`);
    // (A space in a srcset URL would start its descriptors: it is percent-encoded, the same URL.)
    expect(out).toBe("<img srcset=/new%20a.png&#32;1x,/new%20b.png&#32;2x alt=x>");
    expect(extractLinks(out, { url }).map((l) => [l.url, l.descriptors])).toEqual([
      [new URL("/new a.png", url).href, ["1x"]],
      [new URL("/new b.png", url).href, ["2x"]],
    ]);
  });

  it("uses single quotes when the unquoted value holds a double quote, and references when it holds both", () => {
    expect(rewriteAll('<img src=a"b.png>', () => "c d.png")).toBe(`<img src='c d.png'>`);
    expect(rewriteAll('<img srcset=a"b.png&#32;1x,c.png&#32;2x>', (l) => (l.value === "c.png" ? "c>d.png" : undefined))).toBe(
      `<img srcset='a"b.png&#32;1x,c>d.png&#32;2x'>`,
    );
    expect(rewriteAll(`<img srcset=a"'b.png&#32;1x,c.png&#32;2x>`, (l) => (l.value === "c.png" ? "c>d.png" : undefined))).toBe(
      `<img srcset=a"'b.png&#32;1x,c&gt;d.png&#32;2x>`,
    );
  });

  it("escapes for CSS, then for the attribute", () => {
    expect(rewriteAll('<div style="background:url(a.png)"></div>', () => 'b c(")')).toBe('<div style="background:url(b\\20 c\\28 \\22 \\29 )"></div>');
    expect(rewriteAll(`<div style='background:url("a.png")'></div>`, () => `b"c'`)).toBe(`<div style='background:url("b\\22 c&#39;")'></div>`);
    expect(rewriteAll("<style>p{background:url('a.png')}</style>", () => "</style><script>")).toBe("<style>p{background:url('\\3c /style><script>')}</style>");
    const out = rewriteAll('<div style="background:url(a.png)"></div>', () => 'b c(")');
    expect(extractLinks(out, { url })[0]!.value).toBe('b c(")');
  });

  it("escapes links inside srcdoc documents for every attribute they are in", () => {
    const html = `<iframe srcdoc="<a href='x'>t</a><img src=y><iframe srcdoc='<a href=&amp;quot;z&amp;quot;>u</a>'></iframe>"></iframe>`;
    const out = rewriteAll(html, (l) => (l.srcdoc > 0 ? `${l.value} "&copy" ` : undefined));
    const links = extractLinks(out, { url });
    expect(links.map((l) => [l.value, l.srcdoc])).toEqual([
      ['x "&copy"', 1],
      ['y "&copy"', 1],
      ['z "&copy"', 2],
    ]);
    // Outside the rewritten URLs, nothing moved.
    expect(out.startsWith("<iframe srcdoc=\"<a href='")).toBe(true);
    expect(out.endsWith("</iframe>\"></iframe>")).toBe(true);
  });

  it("inserts an action into a form without one when asked", () => {
    expect(rewriteAll("<form method=post><input></form>", (l) => (l.missing === true ? "/submit?a&b" : undefined))).toBe(
      '<form action="/submit?a&b" method=post><input></form>',
    );
  });

  it("rejects a rewrite that is not a function or returns a non-string", () => {
    expect(() => rewriteLinks("<a href=x>", { url } as never)).toThrow(/"rewrite" option must be a function/);
    let error: unknown;
    try {
      rewriteLinks("<a href=x>", { url, rewrite: () => 42 as never });
    } catch (e) {
      error = e;
    }
    expect(isLinksError(error)).toBe(true);
    expect(String(error)).toMatch(/must return a string or undefined, not number/);
  });
});

describe("relativeReference", () => {
  const cases: [string, string, string][] = [
    ["https://example.com/docs/img/a.png", "https://example.com/docs/guide/intro", "../img/a.png"],
    ["https://example.com/docs/guide/b", "https://example.com/docs/guide/intro", "b"],
    ["https://example.com/docs/guide/intro#top", "https://example.com/docs/guide/intro", "#top"],
    ["https://example.com/docs/guide/intro", "https://example.com/docs/guide/intro", ""],
    ["https://example.com/docs/guide/intro?x", "https://example.com/docs/guide/intro", "?x"],
    ["https://example.com/docs/guide/", "https://example.com/docs/guide/intro", "."],
    ["https://example.com/", "https://example.com/a/b/c/d", "/"],
    ["https://example.com/a:b", "https://example.com/x", "/a:b"],
    ["https://example.com/d/a:b", "https://example.com/d/x", "./a:b"],
    ["https://example.com/a//b", "https://example.com/a/x", ".//b"],
    ["https://cdn.example.com/x.js", "https://example.com/", "//cdn.example.com/x.js"],
    ["http://example.com/x", "https://example.com/", "http://example.com/x"],
    ["mailto:someone@example.com", "https://example.com/", "mailto:someone@example.com"],
    ["https://example.com/docs/guide/intro", "https://example.com/docs/guide/intro?q#f", "intro"],
    ["file:///C:/a/b.txt", "file:///C:/a/c.txt", "b.txt"],
  ];
  for (const [target, base, expected] of cases) {
    it(`${target} from ${base} → ${JSON.stringify(expected)}`, () => {
      const reference = relativeReference(target, base);
      expect(reference).toBe(expected);
      expect(new URL(reference, base).href).toBe(new URL(target).href);
    });
  }
});

describe("ready-made rewrites", () => {
  const html = `<base href="/docs/"><a href="intro">i</a><a href="https://example.com/docs/guide/x.html#s">x</a><a href="//cdn.example.com/y">y</a><img srcset="a.png 1x, /img/b.png 2x"><a href="mailto:x@example.com">m</a><a href="http://[bad">bad</a><form></form>`;

  it("absolutize writes every resolved URL, leaving failures and missing actions", () => {
    const out = rewriteLinks(html, { url, rewrite: absolutize() });
    expect(out).toBe(
      `<base href="https://example.com/docs/"><a href="https://example.com/docs/intro">i</a><a href="https://example.com/docs/guide/x.html#s">x</a><a href="https://cdn.example.com/y">y</a><img srcset="https://example.com/docs/a.png 1x, https://example.com/img/b.png 2x"><a href="mailto:x@example.com">m</a><a href="http://[bad">bad</a><form></form>`,
    );
  });

  it("relativize writes the shortest reference against the right base", () => {
    const out = rewriteLinks(rewriteLinks(html, { url, rewrite: absolutize() }), { url, rewrite: relativize() });
    expect(out).toBe(
      `<base href="/docs/"><a href="intro">i</a><a href="guide/x.html#s">x</a><a href="//cdn.example.com/y">y</a><img srcset="a.png 1x, /img/b.png 2x"><a href="mailto:x@example.com">m</a><a href="http://[bad">bad</a><form></form>`,
    );
    expect(extractLinks(out, { url }).map((l) => l.url)).toEqual(extractLinks(html, { url }).map((l) => l.url));
  });

  it("rebase moves links into the old prefix, and the base, to the new one", () => {
    const page = `<base href="https://old.example/docs/"><a href="a.html">a</a><a href="/docs/b.html">b</a><a href="https://old.example/docs/c">c</a><a href="/other">o</a><a href="https://elsewhere.example/">e</a>`;
    const out = rewriteLinks(page, { url: "https://old.example/docs/index.html", rewrite: rebase("https://old.example/docs/", "https://new.example/v2/") });
    expect(out).toBe(
      `<base href="https://new.example/v2/"><a href="a.html">a</a><a href="b.html">b</a><a href="https://new.example/v2/c">c</a><a href="//old.example/other">o</a><a href="https://elsewhere.example/">e</a>`,
    );
    // From the new place, each link points where rebase says.
    const moved = extractLinks(out, { url: "https://new.example/v2/index.html" }).map((l) => l.url);
    expect(moved).toEqual([
      "https://new.example/v2/",
      "https://new.example/v2/a.html",
      "https://new.example/v2/b.html",
      "https://new.example/v2/c",
      "https://old.example/other",
      "https://elsewhere.example/",
    ]);
  });

  it("rebase rejects prefixes that are not absolute URLs", () => {
    expect(() => rebase("/a/", "https://x/")).toThrow(/"from" is not an absolute URL/);
  });
});
