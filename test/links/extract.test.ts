import { isUnknownEncodingError } from "../../src/core/index.ts";
import { describe, expect, it } from "vitest";
import { extractLinks, isLinksError, parseRefresh, parseSrcset, rewriteLinks, type Link } from "../../src/links/index.ts";

const url = "https://example.com/dir/page.html";

function pick(links: readonly Link[], ...keys: (keyof Link)[]): unknown[][] {
  return links.map((l) => keys.map((k) => l[k]));
}

describe("entity-encoded values", () => {
  it("decodes character references in values and points at the source text", () => {
    const html = '<a href="?a=1&amp;b=2&lt;&#x41;&#66;&copy;&notit;&not-x">x</a>';
    const [link] = extractLinks(html, { url });
    expect(link!.value).toBe("?a=1&b=2<AB©&notit;¬-x");
    expect(link!.url).toBe("https://example.com/dir/page.html?a=1&b=2%3CAB%C2%A9&notit;%C2%AC-x");
    expect(html.slice(link!.start, link!.end)).toBe("?a=1&amp;b=2&lt;&#x41;&#66;&copy;&notit;&not-x");
  });

  it("keeps legacy references before = and alphanumerics as they are (attribute rule)", () => {
    const [link] = extractLinks('<a href="x?copy&copy=1&amp=2&ampx">t</a>', { url });
    expect(link!.value).toBe("x?copy&copy=1&amp=2&ampx");
  });

  it("gives positions inside srcset values after references", () => {
    const html = '<img srcset="a&amp;b.png 1x, &#99;.png 2x">';
    const links = extractLinks(html, { url });
    expect(pick(links, "value")).toEqual([["a&b.png"], ["c.png"]]);
    expect(links.map((l) => html.slice(l.start, l.end))).toEqual(["a&amp;b.png", "&#99;.png"]);
  });

  it("turns CR and CR LF into LF and NUL into U+FFFD, as the tokenizer does", () => {
    const [link] = extractLinks('<a href="a\r\nb\rc\0d">t</a>', { url });
    expect(link!.value).toBe("a\nb\nc\uFFFDd");
    expect(link!.url).toBe("https://example.com/dir/abc%EF%BF%BDd");
  });
});

describe("quoting styles", () => {
  it("reads double-quoted, single-quoted, unquoted and empty values", () => {
    const html = `<a href="d q">1</a><a href='s q'>2</a><a href=u>3</a><a href>4</a><a href="">5</a><a HREF = " sp ">6</a>`;
    const links = extractLinks(html, { url });
    expect(pick(links, "value", "url")).toEqual([
      ["d q", "https://example.com/dir/d%20q"],
      ["s q", "https://example.com/dir/s%20q"],
      ["u", "https://example.com/dir/u"],
      ["", "https://example.com/dir/page.html"],
      ["", "https://example.com/dir/page.html"],
      ["sp", "https://example.com/dir/sp"],
    ]);
    expect(links.map((l) => html.slice(l.start, l.end))).toEqual(["d q", "s q", "u", "", "", "sp"]);
  });

  it("uses the first of duplicate attributes, as the tokenizer does", () => {
    const html = '<a href=first href=second title=x>t</a>';
    const links = extractLinks(html, { url });
    expect(pick(links, "value")).toEqual([["first"]]);
    expect(html.slice(links[0]!.start, links[0]!.end)).toBe("first");
  });

  it("handles attribute syntax oddities: slashes, missing whitespace, = first, quotes in unquoted values", () => {
    const html = `<img/src="a.png"/alt=x><img src="b.png"alt=y><img =x src=c"d><img src=e.png/>`;
    const links = extractLinks(html, { url });
    expect(pick(links, "value")).toEqual([["a.png"], ["b.png"], ['c"d'], ["e.png/"]]);
    expect(links.map((l) => html.slice(l.start, l.end))).toEqual(["a.png", "b.png", 'c"d', "e.png/"]);
  });
});

describe("srcset", () => {
  it("splits by the standard's algorithm: commas inside URLs, descriptors, trailing commas", () => {
    const candidates = parseSrcset(" a.png,  b,c.png 2x , data:image/png;base64,AAA= 100w,d.png,,, e.png 1.5x 2x, f.png (x, y) 3x,");
    expect(candidates.map((c) => [c.url, c.descriptors, c.valid])).toEqual([
      ["a.png", [], true],
      ["b,c.png", ["2x"], true],
      ["data:image/png;base64,AAA=", ["100w"], true],
      ["d.png", [], true],
      ["e.png", ["1.5x", "2x"], false],
      ["f.png", ["(x, y)", "3x"], false],
    ]);
  });

  it("accepts width with future-compat h, and rejects bad numbers", () => {
    expect(parseSrcset("a 100w 50h")[0]!.valid).toBe(true);
    expect(parseSrcset("a 50h")[0]!.valid).toBe(false);
    expect(parseSrcset("a 0w")[0]!.valid).toBe(false);
    expect(parseSrcset("a -1x")[0]!.valid).toBe(false);
    expect(parseSrcset("a 1e1x")[0]!.valid).toBe(true);
    expect(parseSrcset("a .5x")[0]!.valid).toBe(true);
    expect(parseSrcset("a 5.x")[0]!.valid).toBe(false);
  });

  it("gives each candidate its own link, with descriptors and positions", () => {
    const html = '<img srcset="  a.png 1x,b,c.png 2x ,, d.png 100w 2x,  ">';
    const links = extractLinks(html, { url });
    expect(links.map((l) => [l.value, l.descriptors, l.ignored ?? false, html.slice(l.start, l.end)])).toEqual([
      ["a.png", ["1x"], false, "a.png"],
      ["b,c.png", ["2x"], false, "b,c.png"],
      ["d.png", ["100w", "2x"], true, "d.png"],
    ]);
    expect(links.every((l) => l.kind === "srcset")).toBe(true);
  });

  it("reads link imagesrcset and source srcset", () => {
    const links = extractLinks('<link rel=preload as=image imagesrcset="x.png 1x, y.png 2x"><picture><source srcset="z.webp"></picture>', { url });
    expect(pick(links, "element", "attribute", "value")).toEqual([
      ["link", "imagesrcset", "x.png"],
      ["link", "imagesrcset", "y.png"],
      ["source", "srcset", "z.webp"],
    ]);
  });
});

describe("meta refresh", () => {
  const forms: [string, string | null][] = [
    ["5; url=/next", "/next"],
    ["5;URL='/quoted?a=1'", "/quoted?a=1"],
    ['0; url="/dq" trailing', "/dq"],
    ["0, url = /spaced", "/spaced"],
    ["0 /no-url-prefix", "/no-url-prefix"],
    ["0;http://example.org/abs", "http://example.org/abs"],
    ["3.5; u", "u"],
    ["0; urx=/x", "urx=/x"],
    ["0; url='unterminated", "unterminated"],
    [".5;url=dot", "dot"],
    ["5", null],
    ["soon; url=/x", null],
    ["5x; url=/x", null],
  ];
  for (const [content, expected] of forms) {
    it(`content=${JSON.stringify(content)} → ${JSON.stringify(expected)}`, () => {
      const html = `<meta http-equiv=refresh content=${JSON.stringify(content).replace(/^"|"$/g, '"')}>`;
      const parsed = parseRefresh(content);
      expect(parsed?.url?.text ?? null).toBe(expected);
      const links = extractLinks(`<meta http-equiv="refresh" content='${content.replaceAll("'", "&#39;")}'>`, { url });
      expect(links.map((l) => l.value)).toEqual(expected === null ? [] : [expected]);
      void html;
    });
  }
});

describe("links before and after <base>", () => {
  it("resolves every link against the first base href, wherever it is", () => {
    const html = '<a href="a">1</a><base href="/base/"><a href="b">2</a><base href="/second/">';
    const links = extractLinks(html, { url });
    expect(pick(links, "element", "value", "url", "base")).toEqual([
      ["a", "a", "https://example.com/base/a", "https://example.com/base/"],
      ["base", "/base/", "https://example.com/base/", "https://example.com/dir/page.html"],
      ["a", "b", "https://example.com/base/b", "https://example.com/base/"],
      ["base", "/second/", "https://example.com/second/", "https://example.com/dir/page.html"],
    ]);
  });

  it("ignores a base without href, and falls back for data: and javascript: bases", () => {
    expect(extractLinks('<base target=_blank><base href="/x/"><a href=y>t</a>', { url }).at(-1)!.url).toBe("https://example.com/x/y");
    expect(extractLinks('<base href="data:/,x"><base href="/x/"><a href=y>t</a>', { url }).at(-1)!.url).toBe("https://example.com/dir/y");
    expect(extractLinks('<base href="javascript:/x"><a href=y>t</a>', { url }).at(-1)!.url).toBe("https://example.com/dir/y");
  });

  it("resolves a relative base against the document URL, never another base", () => {
    const links = extractLinks('<base href="sub/"><a href="x">t</a>', { url });
    expect(pick(links, "url")).toEqual([["https://example.com/dir/sub/"], ["https://example.com/dir/sub/x"]]);
  });

  it("ignores a base in template contents and outside the HTML namespace", () => {
    const links = extractLinks('<template><base href="/t/"></template><svg><base href="/s/"/></svg><a href=x>t</a>', { url });
    expect(links.at(-1)!.url).toBe("https://example.com/dir/x");
    expect(links[0]!.template).toBe(true);
  });

  it("takes the first base in tree order (foster parenting moves it before the table)", () => {
    const html = '<table><tr><td><base href="/in-cell/"></td></tr><base href="/fostered/"></table><a href=x>t</a>';
    expect(extractLinks(html, { url }).at(-1)!.url).toBe("https://example.com/fostered/x");
  });
});

  it("resolves a repeated value against each link's own base and encoding (values are parsed once per base and encoding)", () => {
    // The base's own href resolves against the document URL, the links against the base.
    const html = '<a href="sub/">1</a><base href="sub/"><a href="sub/">2</a><iframe srcdoc="<a href=?%C3%A9>s</a>"></iframe><a href="?é">3</a>';
    const links = extractLinks(html, { url, encoding: "windows-1252" });
    expect(pick(links, "element", "url", "encoding")).toEqual([
      ["a", "https://example.com/dir/sub/sub/", "windows-1252"],
      ["base", "https://example.com/dir/sub/", "windows-1252"],
      ["a", "https://example.com/dir/sub/sub/", "windows-1252"],
      ["a", "https://example.com/dir/sub/?%C3%A9", "UTF-8"],
      ["a", "https://example.com/dir/sub/?%E9", "windows-1252"],
    ]);
    // More distinct values than the memo holds, each repeated: every URL is still its own.
    const many = Array.from({ length: 20000 }, (_, i) => `<a href="p${i % 17000}">`).join("");
    const resolved = extractLinks(many, { url });
    expect(resolved.every((link, i) => link.url === `https://example.com/dir/p${i % 17000}`)).toBe(true);
  });

describe("forms", () => {
  it("resolves an empty or missing action to the document URL (not the base URL)", () => {
    const links = extractLinks('<base href="/b/"><form></form><form action="">x</form><form action=" ">y</form><button formaction="">z</button>', { url });
    expect(pick(links.slice(1), "attribute", "value", "url", "missing")).toEqual([
      ["action", "", url, true],
      ["action", "", url, undefined],
      ["action", "", "https://example.com/b/", undefined],
      ["formaction", "", url, undefined],
    ]);
  });
});

describe("iframe srcdoc", () => {
  it("walks srcdoc documents, resolving against the container's base URL", () => {
    const html = `<base href="/outer/"><iframe src="frame.html" srcdoc="<a href=&quot;in&quot;>x</a><base href='sub/'><img src=pic.png>"></iframe>`;
    const links = extractLinks(html, { url });
    expect(pick(links, "element", "value", "url", "srcdoc")).toEqual([
      ["base", "/outer/", "https://example.com/outer/", 0],
      ["iframe", "frame.html", "https://example.com/outer/frame.html", 0],
      ["a", "in", "https://example.com/outer/sub/in", 1],
      ["base", "sub/", "https://example.com/outer/sub/", 1],
      ["img", "pic.png", "https://example.com/outer/sub/pic.png", 1],
    ]);
    expect(links.slice(2).map((l) => html.slice(l.start, l.end))).toEqual(["in", "sub/", "pic.png"]);
  });

  it("walks nested srcdoc documents with positions through every level of escaping", () => {
    const html = `<iframe srcdoc="<iframe srcdoc='<a href=&amp;quot;deep&amp;amp;er&amp;quot;>x</a>'></iframe>"></iframe>`;
    const links = extractLinks(html, { url });
    expect(pick(links, "value", "url", "srcdoc")).toEqual([["deep&er", "https://example.com/dir/deep&er", 2]]);
    expect(html.slice(links[0]!.start, links[0]!.end)).toBe("deep&amp;amp;er");
  });

  it("gives a form in a srcdoc document the srcdoc URL for an empty action", () => {
    const links = extractLinks('<iframe srcdoc="<form action=&quot;&quot;></form>"></iframe>', { url });
    expect(pick(links, "url", "srcdoc")).toEqual([["about:srcdoc", 1]]);
  });
});

describe("SVG", () => {
  it("reads href and xlink:href on any SVG element, with their own names", () => {
    const html = '<svg><a href="/a"><text>t</text></a><use xlink:href="#icon"/><image XLINK:HREF="pic.png"/><feImage href="f.png"/></svg>';
    const links = extractLinks(html, { url });
    expect(pick(links, "element", "attribute", "namespace", "value")).toEqual([
      ["a", "href", "svg", "/a"],
      ["use", "xlink:href", "svg", "#icon"],
      ["image", "xlink:href", "svg", "pic.png"],
      ["feImage", "href", "svg", "f.png"],
    ]);
    expect(html.slice(links[2]!.start, links[2]!.end)).toBe("pic.png");
  });

  it("reads url() in presentation attributes and SVG style elements", () => {
    const html = '<svg><rect fill="url(#grad)" style="mask:url(m.svg#m)"/><style>.x{filter:url("f.svg#f")}</style></svg>';
    const links = extractLinks(html, { url });
    expect(pick(links, "element", "attribute", "value", "kind")).toEqual([
      ["rect", "fill", "#grad", "css-url"],
      ["rect", "style", "m.svg#m", "css-url"],
      ["style", null, "f.svg#f", "css-url"],
    ]);
  });
});

describe("CSS", () => {
  it("reads url() and @import in style elements and attributes with a CSS tokenizer", () => {
    const html = `<style>@import "a.css" screen; @import url(b.css); @namespace svg url(http://www.w3.org/2000/svg);
p { background: url( c\\ d.png ) , image-set("e.png" 1x, 'f.png' 2x); } /* url(comment.png) */ q{content:"url(str.png)"}</style>
<div style='background:URL("g.png")'>`;
    const links = extractLinks(html, { url });
    expect(pick(links, "attribute", "value", "kind")).toEqual([
      [null, "a.css", "css-import"],
      [null, "b.css", "css-import"],
      [null, "c d.png", "css-url"],
      [null, "e.png", "css-url"],
      [null, "f.png", "css-url"],
      ["style", "g.png", "css-url"],
    ]);
    expect(links.map((l) => html.slice(l.start, l.end))).toEqual(["a.css", "b.css", "c\\ d.png", "e.png", "f.png", "g.png"]);
  });

  it("encodes CSS URL queries as UTF-8 even in a legacy-encoded document", () => {
    const links = extractLinks('<div style="background:url(?q=é)"></div><a href="?q=é">t</a>', { url, encoding: "windows-1252" });
    expect(pick(links, "url", "encoding")).toEqual([
      ["https://example.com/dir/page.html?q=%C3%A9", "UTF-8"],
      ["https://example.com/dir/page.html?q=%E9", "windows-1252"],
    ]);
  });

  it("does not read style text outside style elements (textarea, noscript, title)", () => {
    expect(extractLinks("<textarea><style>p{background:url(x)}</style></textarea><noscript><style>p{background:url(y)}</style></noscript>", { url })).toEqual([]);
  });
});

describe("positions", () => {
  it("gives 1-based lines and columns of the URL's first character", () => {
    const html = "<p>\n  <a href=\"/docs/\">Docs</a>\r\n<img\r\n   src='x.png' srcset=\"a 1x,  b 2x\">\r<a href=c>";
    const links = extractLinks(html, { url });
    expect(pick(links, "value", "line", "column")).toEqual([
      ["/docs/", 2, 12],
      ["x.png", 4, 9],
      ["a", 4, 24],
      ["b", 4, 31],
      ["c", 5, 9],
    ]);
  });

  it("counts columns in code points", () => {
    const links = extractLinks('<p title="😀😀"><a href="x">', { url });
    expect(links[0]!.column).toBe(24);
    expect(links[0]!.start).toBe(25);
  });

  it("counts only the surrogate pairs of the link's own line, before it", () => {
    const html = '<p title="😀">\n<a href="x" title="𝄞"><img src="y">😀\n<a href=z>';
    expect(pick(extractLinks(html, { url }), "value", "line", "column", "start")).toEqual([
      ["x", 2, 10, 24],
      ["y", 2, 33, 48],
      ["z", 3, 9, 62],
    ]);
  });

  it("finds each tag in the source when attribute values and names hold '<'", () => {
    const html = '<a title="<a href=q>" href=x><img alt=\'<img src="w">\' src=y><a b<c=1 href=v><a title="<a b" c=d href=u>';
    const links = extractLinks(html, { url });
    expect(pick(links, "value", "start")).toEqual([
      ["x", html.indexOf("x>")],
      ["y", html.indexOf("y>")],
      ["v", html.indexOf("v>")],
      ["u", html.indexOf("u>")],
    ]);
  });

  it("points at the first of duplicate attributes, whatever their case", () => {
    const html = "<a HREF=first href=second Href=third>";
    const links = extractLinks(html, { url });
    expect(pick(links, "value", "start")).toEqual([["first", 8]]);
  });
});

describe("scripting", () => {
  it("reads noscript content as text by default, and as markup without scripting", () => {
    const html = '<noscript><img src="pixel.gif"></noscript><a href=x>t</a>';
    expect(extractLinks(html, { url }).map((l) => l.value)).toEqual(["x"]);
    expect(extractLinks(html, { url, scripting: false }).map((l) => l.value)).toEqual(["pixel.gif", "x"]);
    expect(rewriteLinks(html, { url, scripting: false, rewrite: (l) => l.value.toUpperCase() })).toBe('<noscript><img src="PIXEL.GIF"></noscript><a href=X>t</a>');
  });
});

describe("template contents", () => {
  it("reports links in templates, marked, resolved against the document's base URL", () => {
    const links = extractLinks('<base href="/b/"><template><a href="t">x</a></template>', { url });
    expect(pick(links, "value", "url", "template")).toEqual([
      ["/b/", "https://example.com/b/", false],
      ["t", "https://example.com/b/t", true],
    ]);
  });
});

describe("declarative shadow roots (<template shadowrootmode>, which parse5 keeps as a template)", () => {
  it("reports their links as the document's (template: false), resolved against the document base URL", () => {
    const html =
      '<base href="/b/"><div><template shadowrootmode="open"><a href="s">x</a><form></form><span><template shadowrootmode="CLOSED"><a href="nested">n</a></template></span>' +
      '<template><a href="inert-in-shadow">i</a></template></template></div><my-card><template shadowrootmode="closed"><img src="c.png"></template></my-card>';
    expect(pick(extractLinks(html, { url }), "element", "value", "url", "template")).toEqual([
      ["base", "/b/", "https://example.com/b/", false],
      ["a", "s", "https://example.com/b/s", false],
      ["form", "", url, false],
      ["a", "nested", "https://example.com/b/nested", false],
      ["a", "inert-in-shadow", "https://example.com/b/inert-in-shadow", true],
      ["img", "c.png", "https://example.com/b/c.png", false],
    ]);
  });

  it("leaves as templates those the parser does not attach: an invalid mode, a host that cannot have one, a second one, one in the head", () => {
    const html =
      '<head><template shadowrootmode="open"><link rel=icon href="head.ico"></template></head><body>' +
      '<div><template shadowrootmode="invalid"><a href="invalid">x</a></template></div>' +
      '<p><a><template shadowrootmode="open"><img src="in-a.png"></template></a></p>' +
      '<table><template shadowrootmode="open"><img src="in-table.png"></template></table>' +
      '<div><template shadowrootmode="open"><a href="first">x</a></template><template shadowrootmode="open"><a href="second">x</a></template></div>' +
      '<template><div><template shadowrootmode="open"><a href="in-plain">x</a></template></div></template>';
    expect(pick(extractLinks(html, { url }), "value", "template")).toEqual([
      ["head.ico", true],
      ["invalid", true],
      ["in-a.png", true],
      ["in-table.png", true],
      ["first", false],
      ["second", true],
      ["in-plain", true],
    ]);
  });

  it("sees the parse as it happens: a template the adoption agency later moves into a clone of an a stays the div's shadow root", () => {
    // parse5's tree has div > a > template (the tree layers cannot tell: see test/document-base);
    // a browser attached the shadow root to the div before </a>.
    const links = extractLinks('<base href="/b/"><a><div><template shadowrootmode="open"><img src="x"></template></a>', { url });
    expect(pick(links, "value", "url", "template")).toEqual([
      ["/b/", "https://example.com/b/", false],
      ["x", "https://example.com/b/x", false],
    ]);
  });

  it("a base in a shadow root is not the document's base (tree order does not enter shadow trees): not for links, not for a srcdoc frame", () => {
    const html = '<div><template shadowrootmode="open"><base href="/shadow/"><iframe srcdoc="<a href=\'y\'>"></iframe></template></div><a href="x">x</a><base href="/late/">';
    expect(pick(extractLinks(html, { url }), "element", "value", "url", "base", "template", "srcdoc")).toEqual([
      // base.href parses against the document's fallback base URL.
      ["base", "/shadow/", "https://example.com/shadow/", url, false, 0],
      // The frame was made before the document had a base element: its about base URL is the fallback.
      ["a", "y", "https://example.com/dir/y", url, false, 1],
      ["a", "x", "https://example.com/late/x", "https://example.com/late/", false, 0],
      ["base", "/late/", "https://example.com/late/", url, false, 0],
    ]);
  });
});

describe("cloned elements", () => {
  it("reports each attribute once, though the parser clones formatting elements", () => {
    const html = '<a href="x"><p>one</a>two<b><a href="y">x<table><td>c</table></b>';
    expect(extractLinks(html, { url }).map((l) => l.value)).toEqual(["x", "y"]);
  });

  it("reports attributes a second <body> or <html> tag adds", () => {
    const html = "<body background=a.png><body background=ignored.png bgcolor=red id=x><html manifest=m.appcache>";
    const links = extractLinks(html, { url });
    expect(pick(links, "element", "value")).toEqual([
      ["body", "a.png"],
      ["html", "m.appcache"],
    ]);
    expect(html.slice(links[1]!.start, links[1]!.end)).toBe("m.appcache");
  });
});

describe("validation errors", () => {
  it("reports the URL Standard's validation errors when asked", () => {
    const links = extractLinks('<a href="https://exa mple.com/">x</a><a href="ok">y</a>', { url, validate: true });
    expect(links[0]!.errors!.map((e) => e.type)).toContain("domain-to-ASCII");
    expect(links[1]!.errors).toEqual([]);
    expect(extractLinks('<a href="ok">y</a>', { url })[0]!.errors).toBeUndefined();
  });
});

describe("bad options", () => {
  it("throws a LinksError naming a bad url", () => {
    expect(() => extractLinks("<a href=x>", { url: "not a url" })).toThrow(/not an absolute URL: "not a url"/);
    try {
      extractLinks("", { url: "/relative" });
    } catch (error) {
      expect(isLinksError(error)).toBe(true);
    }
    expect(() => extractLinks("", {} as never)).toThrow(/"url" option must be a string/);
    expect(() => extractLinks("", null as never)).toThrow(/options must be an object/);
  });

  it("throws UnknownEncodingError naming an unknown label", () => {
    let error: unknown;
    try {
      extractLinks("", { url, encoding: "utf-7" });
    } catch (e) {
      error = e;
    }
    expect(isUnknownEncodingError(error)).toBe(true);
    expect(String(error)).toContain('"utf-7"');
    expect(() => extractLinks(new Uint8Array([60]), { url, encoding: "bogus" })).toThrow(/"bogus"/);
  });

  it("rejects input that is neither a string nor bytes", () => {
    expect(() => extractLinks(42 as never, { url })).toThrow(/string or a Uint8Array/);
  });
});
