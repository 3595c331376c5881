import { describe, expect, it } from "vitest";
import {
  catalogue,
  extractLinks,
  isLinksError,
  linkFilter,
  linkLoad,
  lookUpURL,
  mapURLs,
  readURLMap,
  rebase,
  relativize,
  rewriteLinks,
  type Link,
} from "../../src/links/index.ts";
import { decodePage, outsideLinks, PAGES, pageBytes, pageLinks, pageURL, SITE_ROOT } from "./rewrite-jobs-site.ts";

const inSite = (href: string | null): href is string => href !== null && href.startsWith(SITE_ROOT);
const move = (href: string, to: string): string => (inSite(href) ? to + href.slice(SITE_ROOT.length) : href);
const withIndex = (href: string): string => {
  const url = new URL(href);
  if (url.pathname.endsWith("/")) url.pathname += "index.html";
  return url.href;
};

interface Rewritten {
  readonly rel: string;
  readonly before: Link[];
  readonly bytes: Uint8Array;
}

/** Every page of the site rewritten by `rewrite` (made for each page), and its links before. */
function rewriteSite(rewrite: () => (link: Link) => string | undefined): Rewritten[] {
  return PAGES.map((rel) => {
    const bytes = pageBytes(rel);
    const url = pageURL(SITE_ROOT, rel);
    return { rel, before: pageLinks(bytes, url), bytes: rewriteLinks(bytes, { url, rewrite: rewrite() }) };
  });
}

/**
 * Reads each rewritten page at `root` (`index`: its index.html by name,
 * as from disk) and checks that every link resolves to `expected(link)`
 * of its link before, and that every byte outside the links is as it was.
 */
function expectSite(pages: readonly Rewritten[], root: string, expected: (link: Link) => string | null, index = false): void {
  for (const { rel, before, bytes } of pages) {
    const after = pageLinks(bytes, pageURL(root, rel, index));
    expect(after.length, rel).toBe(before.length);
    expect(
      after.map((link) => `${rel} ${link.element} ${link.attribute}: ${link.url}`),
      rel,
    ).toEqual(before.map((link) => `${rel} ${link.element} ${link.attribute}: ${expected(link)}`));
    expect(outsideLinks(decodePage(rel, bytes), after), rel).toBe(outsideLinks(decodePage(rel, pageBytes(rel)), before));
  }
}

/** Where the portable job promises a link leads, the site served at `root`: into the site, moved with it, unless read against a base outside it. */
function portableTarget(root: string, index: boolean): (link: Link) => string | null {
  return (link) => {
    if (link.url === null || !inSite(link.url) || !inSite(link.base)) return link.url;
    return move(index ? withIndex(link.url) : link.url, root);
  };
}

describe("relativize({ root }): portable links", () => {
  const portable = rewriteSite(() => relativize({ root: SITE_ROOT }));

  it("writes document-relative paths, never root- or scheme-relative ones, and other origins absolute", () => {
    const home = new TextDecoder().decode(portable.find((p) => p.rel === "index.html")!.bytes);
    expect(home).toContain('<link rel="stylesheet" href="css/site.css">');
    expect(home).toContain('<link rel="icon" href="favicon.ico">');
    expect(home).toContain('<a href="blog/post-2.html">Post 2</a> <a href="blog/">Blog</a>');
    expect(home).toContain('<a href="https://github.com/example/repo">Repo</a> <a href="https://github.com/example/other">Other</a>');
    expect(home).toContain('srcset="img/a.png 1x, img/a@2x.png 2x"');
    expect(home).toContain("url(img/bg.png)");
    expect(home).toContain("url('img/c.png')");
    expect(home).toContain('srcdoc="<a href=&quot;blog/&quot;>Blog</a><img src=img/a.png>"');
    const post = new TextDecoder().decode(portable.find((p) => p.rel === "blog/post-2.html")!.bytes);
    // The root-relative base becomes relative to the page; links read through it are already portable.
    expect(post).toContain('<base href="../docs/">');
    expect(post).toContain('<a href="intro.html">Intro</a> <a href="../blog/">Blog</a> <a href="../">Home</a>');
    const docs = new TextDecoder().decode(portable.find((p) => p.rel === "docs/index.html")!.bytes);
    expect(docs).toContain('<base href=".">');
    expect(docs).toContain('<a href="../blog/post-2.html">');
    // A base on another origin: links into the site under it stay absolute (they cannot be portable), scheme-relative ones become absolute.
    const cdn = new TextDecoder().decode(portable.find((p) => p.rel === "cdn.html")!.bytes);
    expect(cdn).toContain('<img src="a.png"> <a href="https://example.com/blog/">Blog</a> <a href="https://example.com/docs/">Docs</a> <a href="/other.html">');
  });

  for (const root of ["https://example.com/", "https://mirror.example.org/", "https://example.com/sub/path/", "http://localhost:8080/~user/site/"]) {
    it(`every link leads where it did, the site served at ${root}`, () => {
      expectSite(portable, root, portableTarget(root, false));
    });
  }

  it("reports each link into the site that a base outside it keeps absolute", () => {
    const reported: string[] = [];
    rewriteLinks(pageBytes("cdn.html"), { url: pageURL(SITE_ROOT, "cdn.html"), rewrite: relativize({ root: SITE_ROOT, onNotPortable: (link) => reported.push(link.value) }) });
    expect(reported).toEqual(["https://example.com/blog/", "//example.com/docs/"]);
  });

  it("with indexFile, from disk (file: URLs) and from any root, every link leads to the file it did", () => {
    const offline = rewriteSite(() => relativize({ root: SITE_ROOT, indexFile: "index.html" }));
    const home = new TextDecoder().decode(offline.find((p) => p.rel === "index.html")!.bytes);
    expect(home).toContain('<a href="blog/index.html">Blog</a> <a href="docs/index.html">Docs</a> <a href="index.html#top">Top</a>');
    for (const root of ["file:///srv/copy/", "file:///C:/Users/me/site/"]) expectSite(offline, root, portableTarget(root, true), true);
    expectSite(offline, "https://example.com/sub/", portableTarget("https://example.com/sub/", true));
  });

  it("leaves an empty form action alone: it is the document's own URL, wherever it is (a new value would be read against the base)", () => {
    const html = '<base href="docs/"><form action=""></form><form action="https://example.com/a/b/c/"></form>';
    const url = "https://example.com/a/b/c/";
    expect(rewriteLinks(html, { url, rewrite: relativize() })).toBe('<base href="docs/"><form action=""></form><form action="../"></form>');
    expect(rewriteLinks(html, { url, rewrite: relativize({ root: "https://example.com/" }) })).toBe('<base href="docs/"><form action=""></form><form action="../"></form>');
  });

  it("a reference that climbs above the root and back is not portable: it is rewritten", () => {
    expect(rewriteLinks('<a href="../site/">', { url: "https://example.com/site/index.html", rewrite: relativize({ root: "https://example.com/site/" }) })).toBe('<a href=".">');
  });

  it("keeps the shortest reference under relativize() without a root", () => {
    expect(rewriteLinks('<a href="https://example.com/blog/post-2.html">', { url: "https://example.com/docs/", rewrite: relativize() })).toBe('<a href="/blog/post-2.html">');
  });

  it("refuses a root that is not a directory URL, and an index file that is not a file name", () => {
    for (const bad of [() => relativize({ root: "https://example.com/a.html" }), () => relativize({ root: "/" }), () => relativize({ root: SITE_ROOT, indexFile: "a/b" }), () => relativize({ indexFile: "index.html" })]) {
      expect(bad).toThrow();
      try {
        bad();
      } catch (error) {
        expect(isLinksError(error)).toBe(true);
      }
    }
  });
});

describe("which links: resources and navigations, from the catalogue", () => {
  it("classifies the issue's elements", () => {
    const html = `<link rel=stylesheet href=a.css><link rel="shortcut icon" href=i.ico><link rel=preload href=f.woff2><link rel=canonical href=c.html><link rel=apple-touch-icon href=t.png>
<img src=a.png srcset="b.png 2x"><script src=s.js></script><video src=v.mp4 poster=p.png><source src=s.webm><track src=t.vtt></video><audio src=a.mp3></audio><object data=o.svg></object><embed src=e.swf>
<p style="background:url(bg.png)"><style>@import "x.css"; a{background:url(y.png)}</style>
<a href=a.html></a><map><area href=b.html></map><form action=f.cgi><button formaction=g.cgi></button></form><iframe src=i.html></iframe><meta http-equiv=refresh content="0; url=r.html">
<svg><a href=s.html></a><image href=s.png /><use href="#u" /></svg><base href=/b/><blockquote cite=q.html></blockquote>`;
    const got = extractLinks(html, { url: "https://example.com/" }).map((link) => `${link.element} ${link.value}: ${linkLoad(link)}`);
    expect(got).toEqual([
      "link a.css: resource",
      "link i.ico: resource",
      "link f.woff2: resource",
      "link c.html: navigation",
      "link t.png: null",
      "img a.png: resource",
      "img b.png: resource",
      "script s.js: resource",
      "video v.mp4: resource",
      "video p.png: resource",
      "source s.webm: resource",
      "track t.vtt: resource",
      "audio a.mp3: resource",
      "object o.svg: resource",
      "embed e.swf: resource",
      "p bg.png: resource",
      "style x.css: resource",
      "style y.png: resource",
      "a a.html: navigation",
      "area b.html: navigation",
      "form f.cgi: navigation",
      "button g.cgi: navigation",
      "iframe i.html: navigation",
      "meta r.html: navigation",
      "a s.html: navigation",
      "image s.png: resource",
      "use #u: resource",
      "base /b/: null",
      "blockquote q.html: null",
    ]);
  });

  it("every catalogue row states what following it does", () => {
    for (const row of catalogue) expect(["resource", "navigation", "link-type", "svg-element", null], `${row.elements} ${row.attribute}`).toContain(row.load);
    expect(catalogue.filter((row) => row.load === "link-type").map((row) => row.attribute)).toEqual(["href", "imagesrcset"]);
  });

  it("URL patterns include and exclude; one that does not compile is a LinksError naming it", () => {
    const filter = linkFilter({ include: ["/img/*", "https://github.com/*"], exclude: ["*@2x*"], baseURL: SITE_ROOT });
    const chosen = pageLinks(pageBytes("index.html"), SITE_ROOT)
      .filter(filter)
      .map((link) => link.value);
    expect(chosen).toEqual(["/img/bg.png", "https://github.com/example/repo", "//github.com/example/other", "/img/a.png", "/img/a.png", "//example.com/img/c.png", "/img/a.png", "/img/poster.png"]);
    expect(() => linkFilter({ include: ["/a/(" ] })).toThrow(/Not a URL pattern: "\/a\/\("/);
    expect(() => linkFilter({ only: "images" as "resources" })).toThrow(/"only"/);
  });

  it("the CDN job: rebase with only resources moves the assets, and pages and bases stay", () => {
    const cdn = "https://cdn.example.net/site/";
    const filter = linkFilter({ only: "resources" });
    const pages = rewriteSite(() => rebase(SITE_ROOT, cdn, { filter }));
    expectSite(pages, SITE_ROOT, (link) => (link.url !== null && !(link.element === "base") && filter(link) ? move(link.url, cdn) : link.url));
    const home = new TextDecoder().decode(pages.find((p) => p.rel === "index.html")!.bytes);
    expect(home).toContain('<link rel="stylesheet" href="https://cdn.example.net/site/css/site.css">');
    expect(home).toContain('<link rel="icon" href="//cdn.example.net/site/favicon.ico">');
    expect(home).toContain('<link rel="canonical" href="https://example.com/">');
    expect(home).toContain('<a href="/blog/post-2.html">');
  });

  it("portable with a filter: the chosen links become relative, the base too, and the rest still lead where they did", () => {
    const filter = linkFilter({ exclude: ["/img/*"], baseURL: SITE_ROOT });
    const pages = rewriteSite(() => relativize({ root: SITE_ROOT, filter }));
    expectSite(pages, SITE_ROOT, (link) => link.url);
    const home = new TextDecoder().decode(pages.find((p) => p.rel === "index.html")!.bytes);
    expect(home).toContain('<img src="/img/a.png"');
    expect(home).toContain('<a href="blog/post-2.html">');
  });
});

describe("URL maps", () => {
  it("a rev-manifest: every link to a key leads to its value, in the link's own form, query and fragment kept", () => {
    const { map } = readURLMap(JSON.stringify({ "css/site.css": "css/site-1d87bebe.css", "img/a.png": "img/a-5e3c.png", "/blog/post-2.html": "https://blog.example.org/post-2" }, null, 2), {
      root: SITE_ROOT,
    });
    const pages = rewriteSite(() => mapURLs(map));
    expectSite(pages, SITE_ROOT, (link) => (link.url === null || link.element === "base" ? link.url : (lookUpURL(map, link.url) ?? link.url)));
    const home = new TextDecoder().decode(pages.find((p) => p.rel === "index.html")!.bytes);
    expect(home).toContain('<link rel="stylesheet" href="/css/site-1d87bebe.css">');
    expect(home).toContain('srcset="/img/a-5e3c.png 1x, https://example.com/img/a@2x.png 2x"');
    expect(home).toContain('<a href="https://blog.example.org/post-2">Post 2</a>');
    const blog = new TextDecoder().decode(pages.find((p) => p.rel === "blog/index.html")!.bytes);
    expect(blog).toContain('<link rel="stylesheet" href="../css/site-1d87bebe.css">');
    expect(blog).toContain('<a href="https://blog.example.org/post-2">Post 2</a>');
    expect(lookUpURL(map, "https://example.com/img/a.png?v=1#x")).toBe("https://example.com/img/a-5e3c.png?v=1#x");
  });

  it("a Vite manifest maps each entry to its file", () => {
    const manifest = { "js/app.js": { file: "assets/app-4d2f.js", isEntry: true, css: ["assets/app-9a1b.css"] }, "img/bg.png": { file: "assets/bg-77aa.png" } };
    const read = readURLMap(JSON.stringify(manifest), { root: SITE_ROOT });
    expect(read.format).toBe("vite");
    const home = new TextDecoder().decode(rewriteSite(() => mapURLs(read.map)).find((p) => p.rel === "index.html")!.bytes);
    expect(home).toContain('<script src="/assets/app-4d2f.js">');
    expect(home).toContain("url(/assets/bg-77aa.png)");
  });

  it("a _redirects file: exact paths, placeholders and splats, chains; the rest noted as not applied", () => {
    const text = [
      "# moved pages",
      "/blog/post-2.html  /blog/2024/post-2.html  301",
      "/blog/2024/:slug   /posts/:slug            302",
      "/docs/*            /guide/:splat",
      "/api/*  https://api.example.com/:splat  200",
      "/search q=:q  /find?q=:q  301",
      "/fr/*  /fr/index.html  302  Language=fr",
      "/img/*  /images/:splat  404",
    ].join("\n");
    const { map, notes, format } = readURLMap(text, { root: SITE_ROOT });
    expect(format).toBe("redirects");
    expect(notes.map((n) => [n.line, n.reason])).toEqual([
      [5, "a rewrite (200), not a redirect: the URL stays"],
      [6, "it matches on the query string"],
      [7, "it depends on the visitor (Language=fr)"],
      [8, "status 404 is not a redirect"],
    ]);
    const pages = rewriteSite(() => mapURLs(map));
    expectSite(pages, SITE_ROOT, (link) => (link.url === null || link.element === "base" ? link.url : (lookUpURL(map, link.url) ?? link.url)));
    const home = new TextDecoder().decode(pages.find((p) => p.rel === "index.html")!.bytes);
    expect(home).toContain('<a href="/posts/post-2.html">Post 2</a>');
    expect(home).toContain('<a href="guide/">Docs</a>');
    const intro = new TextDecoder().decode(pages.find((p) => p.rel === "docs/intro.html")!.bytes);
    expect(intro).toContain('<a href="guide/index.html">Docs</a> <a href="posts/post-2.html#top">');
  });

  it("a redirect does not shadow a file of the site unless forced", () => {
    const files = ["https://example.com/old.html"];
    const plain = readURLMap("/old.html /new.html", { root: SITE_ROOT, files }).map;
    const forced = readURLMap("/old.html /new.html 301!", { root: SITE_ROOT, files }).map;
    expect(lookUpURL(plain, "https://example.com/old.html")).toBeNull();
    expect(lookUpURL(forced, "https://example.com/old.html")).toBe("https://example.com/new.html");
    // A plain rule from a file is said once, when the map is read; a splat, for each link it meets.
    expect(readURLMap("/old.html /new.html", { root: SITE_ROOT, files }).notes.map((n) => n.reason)).toEqual([
      "a file of the site is at its path, which the host serves instead (add ! to the status to force it)",
    ]);
    const splat = readURLMap("/* /new/:splat", { root: SITE_ROOT, files }).map;
    const problems: string[] = [];
    expect(lookUpURL(splat, "https://example.com/old.html", (p) => problems.push(p))).toBeNull();
    // (/new/gone.html matches /* again, and again: a loop, as the host would go round it.)
    expect(lookUpURL(readURLMap("/docs/* /new/:splat", { root: SITE_ROOT, files }).map, "https://example.com/docs/gone.html")).toBe("https://example.com/new/gone.html");
    expect(problems).toEqual(["https://example.com/old.html: the redirect of line 1 does not apply: a file of the site is there, which the host serves (add ! to force it)"]);
  });

  it("a redirect loop leaves the link alone and says so", () => {
    const { map } = readURLMap("/a /b\n/b /a", { root: SITE_ROOT });
    const problems: string[] = [];
    expect(rewriteLinks('<a href="/a">', { url: SITE_ROOT, rewrite: mapURLs(map, { onProblem: (p) => problems.push(p) }) })).toBe('<a href="/a">');
    expect(problems).toEqual(["https://example.com/a: more than 20 redirects, or a loop"]);
  });

  it("bad maps are errors that say where", () => {
    const cases: [string, RegExp][] = [
      ['{\n  "a.css": "b.css",\n  "c.css": tru\n}', /^URL map line 3: not JSON/],
      ['{\n  "a.css": 1\n}', /^URL map line 2: the value of "a.css" is not a string/],
      ['{\n  "a.css": "b.css",\n  "https://other.example/x.css": "y.css"\n}', /^URL map line 3: "https:\/\/other.example\/x.css" is not a URL in the site/],
      ['{"src/main.ts": {"file": "a.js"}, "x": {"css": []}}', /^URL map line 1: the Vite manifest entry "x" has no "file"/],
      ["/a /b\n/news/*/x /y", /^_redirects line 2: a splat/],
      ["/a /b\n\n/c /:slug", /^_redirects line 3: `to` uses :slug/],
      ["/only-from", /^_redirects line 1: a rule is `from to \[status\]`/],
    ];
    for (const [text, message] of cases) {
      let thrown: unknown;
      try {
        readURLMap(text, { root: SITE_ROOT });
      } catch (error) {
        thrown = error;
      }
      expect(isLinksError(thrown), text).toBe(true);
      expect((thrown as Error).message, text).toMatch(message);
    }
    // The format given is the format read.
    expect(() => readURLMap('{"src/main.ts": {"file": "a.js"}}', { root: SITE_ROOT, format: "json" })).toThrow(/the value of "src\/main.ts" is not a string/);
    expect(() => readURLMap('{"a.css": "b.css"}', { root: SITE_ROOT, format: "redirects" })).toThrow(/^_redirects line 1: `from` is a path/);
  });
});
