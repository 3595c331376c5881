/**
 * A small static site for the rewrite jobs' tests (library, command and
 * browser): `<base>` elements (relative, root-relative, absolute in the
 * site, another origin), srcdoc documents, windows-1252 and Shift_JIS
 * pages, srcset, CSS, forms, media, and links of every form (relative,
 * root-relative, scheme-relative, absolute, to directories, fragments).
 *
 * @module
 */

import { extractLinks, type Link } from "../../src/links/index.ts";

/** The root URL the site is written for. */
export const SITE_ROOT = "https://example.com/";

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** "ケーキ" in Shift_JIS. */
const CAKE_SJIS = [0x83, 0x50, 0x81, 0x5b, 0x83, 0x4c];

/** The site's files, by path relative to its root: text (UTF-8) or bytes. */
export const SITE: Readonly<Record<string, string | Uint8Array>> = {
  "index.html": `<!doctype html>
<html><head><meta charset="utf-8"><title>Home</title>
<link rel="stylesheet" href="/css/site.css">
<link rel="icon" href="//example.com/favicon.ico">
<link rel="canonical" href="https://example.com/">
<style>body { background: url(/img/bg.png) }</style>
<script src="/js/app.js"></script>
</head><body id="top">
<p><a href="/blog/post-2.html">Post 2</a> <a href="blog/">Blog</a> <a href="docs/">Docs</a> <a href="#top">Top</a> <a href="">Here</a>
<a href="https://github.com/example/repo">Repo</a> <a href="//github.com/example/other">Other</a> <a href="mailto:someone@example.com">Mail</a>
<img src="/img/a.png" srcset="/img/a.png 1x, https://example.com/img/a@2x.png 2x" alt="">
<div style="background: url('//example.com/img/c.png')"></div>
<iframe srcdoc="<a href=&quot;/blog/&quot;>Blog</a><img src=/img/a.png>"></iframe>
<form action="/search"><input name="q"></form>
<video poster="/img/poster.png"><source src="/media/v.webm"><track src="media/v.vtt"></video>
</body></html>
`,
  "blog/index.html": `<!doctype html><meta charset="utf-8"><title>Blog</title>
<link rel="stylesheet" href="../css/site.css">
<a href="post-2.html">Post 2</a> <a href="/">Home</a> <a href="https://example.com/docs/intro.html#install">Install</a>
<img srcset="../img/a.png, /img/a@2x.png 2x">
`,
  "blog/post-2.html": `<!doctype html><meta charset="utf-8"><title>Post 2</title>
<base href="/docs/">
<link rel="stylesheet" href="../css/site.css">
<a href="intro.html">Intro</a> <a href="../blog/">Blog</a> <a href="/">Home</a> <a href="#comments">Comments</a>
<img src="/img/a.png"> <p style="background-image: url(../img/bg.png)">
<iframe srcdoc="<base href=&quot;/blog/&quot;><a href=&quot;index.html&quot;>Blog</a><img src=&quot;../img/a.png&quot;>"></iframe>
<iframe src="intro.html"></iframe>
`,
  "docs/index.html": `<!doctype html><meta charset="utf-8"><title>Docs</title>
<base href="https://example.com/docs/">
<link rel="stylesheet" href="https://example.com/css/site.css">
<a href="intro.html">Intro</a> <a href="../">Home</a> <a href="/blog/post-2.html">Post 2</a> <a href="./">Docs</a>
<img src="../img/a.png">
`,
  "docs/intro.html": `<!doctype html><meta charset="utf-8"><title>Intro</title>
<base href="../">
<a href="docs/index.html">Docs</a> <a href="blog/post-2.html#top">Post 2</a> <a href="https://example.com/docs/intro.html#install" id="install">Here</a>
<img src="img/a.png">
`,
  "cdn.html": `<!doctype html><meta charset="utf-8"><title>CDN</title>
<base href="https://cdn.example.net/assets/">
<img src="a.png"> <a href="https://example.com/blog/">Blog</a> <a href="//example.com/docs/">Docs</a> <a href="/other.html">Other</a>
`,
  "legacy/latin1.html": latin1(`<!doctype html><meta charset="windows-1252"><title>Caf\xe9</title>
<base href="../legacy/">
<a href="/search?q=caf\xe9">Caf\xe9</a> <a href="../blog/post-2.html">Post 2</a> <a href="menu/cr\xe8me.html">Cr\xe8me</a>
<img src="https://example.com/img/a.png">
`),
  "legacy/sjis.html": Uint8Array.from([
    ...latin1(`<!doctype html><meta charset="shift_jis"><title>`),
    ...CAKE_SJIS,
    ...latin1(`</title>
<a href="/search?q=`),
    ...CAKE_SJIS,
    ...latin1(`">Search</a> <a href="//example.com/blog/">Blog</a> <img src="/img/a.png">
`),
  ]),
  "legacy/menu/cr\u00e8me.html": `<!doctype html><meta charset="utf-8"><a href="../latin1.html">Back</a>`,
  "search/index.html": `<!doctype html><meta charset="utf-8"><title>Search</title><a href="/">Home</a>`,
  "css/site.css": "body { color: #333 }\n",
  "js/app.js": "document.documentElement.dataset.app = 'yes';\n",
  "img/a.png": "png",
  "img/a@2x.png": "png",
  "img/bg.png": "png",
  "img/c.png": "png",
  "img/poster.png": "png",
  "media/v.webm": "webm",
  "media/v.vtt": "WEBVTT\n",
  "favicon.ico": "ico",
};

/** The HTML pages of the site. */
export const PAGES: readonly string[] = Object.keys(SITE).filter((rel) => rel.endsWith(".html"));

/** The encodings of the pages, to decode them with. */
export const PAGE_ENCODING: Readonly<Record<string, string>> = { "legacy/latin1.html": "windows-1252", "legacy/sjis.html": "shift_jis" };

/** A page's bytes. */
export function pageBytes(rel: string): Uint8Array {
  const file = SITE[rel]!;
  return typeof file === "string" ? new TextEncoder().encode(file) : file;
}

/** Path segments percent-encoded as a URL path (as the command names a file). */
function encodePath(rel: string): string {
  return rel
    .split("/")
    .map((s) => encodeURIComponent(s))
    .join("/");
}

/**
 * A page's URL under root `root`: with `index`, a directory's index.html
 * by its own name (as from disk), else by its directory (as a server
 * gives it, and as `docbase links` names it).
 */
export function pageURL(root: string, rel: string, index = false): string {
  const name = encodePath(rel);
  return !index && (name === "index.html" || name.endsWith("/index.html")) ? root + name.slice(0, -"index.html".length) : root + name;
}

/** A page's links, read at `url`. */
export function pageLinks(bytes: Uint8Array, url: string): Link[] {
  return extractLinks(bytes, { url });
}

/** The text of `decoded` outside every link's range: what a rewrite must leave as it was. */
export function outsideLinks(decoded: string, links: readonly Link[]): string {
  let out = "";
  let at = 0;
  for (const link of [...links].sort((a, b) => a.start - b.start)) {
    out += decoded.slice(at, link.start);
    at = Math.max(at, link.end);
  }
  return out + decoded.slice(at);
}

/** A page's bytes decoded as its encoding. */
export function decodePage(rel: string, bytes: Uint8Array): string {
  return new TextDecoder(PAGE_ENCODING[rel] ?? "utf-8").decode(bytes);
}
