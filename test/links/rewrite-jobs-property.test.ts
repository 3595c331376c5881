/**
 * The rewrite jobs on random documents with hostile link values: bases of
 * every kind (relative, root-relative, absolute in the site, another
 * origin, none), srcdoc documents with their own bases, srcset, CSS, forms,
 * every quoting, UTF-8 and windows-1252. After the portable job, every link
 * read at another root leads where the job promises (moved with the site
 * when its base moves: the top document's base always does); after a map,
 * where the map says; the writer never refuses a value these jobs give.
 *
 * @module
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractLinks, lookUpURL, mapURLs, readURLMap, relativize, rewriteLinks, type Link } from "../../src/links/index.ts";

const ROOT = "https://example.com/site/";

/** Link values: relative paths (dot segments, queries, fragments, escapes), root- and scheme-relative, absolute, in and out of the site. */
const value = fc.oneof(
  fc
    .array(fc.constantFrom("a", "b/", "../", "./", "site/", "x y", "é", "%41", "%", "?q=1", "?é", "#f", "#", "\\", "c.html", "d/", ";p", "&amp;", "'", '"', "@", ":"), {
      minLength: 0,
      maxLength: 6,
    })
    .map((parts) => parts.join("")),
  fc.constantFrom("/", "/site/", "/site/a/b.html", "/other/", "//example.com/site/x", "//cdn.example.net/y", "https://example.com/site/", "https://EXAMPLE.com/site/./a/../b?x#y", "http://example.com/site/z", "mailto:a@b", "data:,x", "javascript:void(0)", "file:///etc/passwd", "?", "#top", ""),
);

const quote = fc.constantFrom('"', "'", "");

function attr(name: string, text: string, q: string): string {
  const escaped = text.replace(/&(?!amp;)/g, "&amp;").replace(q === "" ? /[\s"'<=`>]/g : new RegExp(q, "g"), (c) => `&#${c.charCodeAt(0)};`);
  return q === "" && escaped === "" ? ` ${name}=""` : ` ${name}=${q}${escaped}${q}`;
}

const base = fc.oneof(
  fc.constant(""),
  fc.tuple(fc.constantFrom("docs/", "/site/blog/", "../", "https://example.com/site/x/", "https://cdn.example.net/assets/", "//example.com/site/", "https://example.com/", "?b", "#h"), quote).map(([v, q]) => `<base${attr("href", v, q)}>`),
);

const piece = fc.oneof(
  fc.tuple(value, quote).map(([v, q]) => `<a${attr("href", v, q)}>t</a>`),
  fc.tuple(value, value, quote).map(([v, w, q]) => `<img${attr("src", v, q)}${attr("srcset", `${v.replace(/[\s,]/g, "") || "i.png"} 1x, ${w.replace(/[\s,]/g, "") || "j.png"} 2x`, '"')}>`),
  fc.tuple(value, quote).map(([v, q]) => `<link rel=stylesheet${attr("href", v, q)}>`),
  fc.tuple(value).map(([v]) => `<div style="background:url('${v.replace(/['"\\\n]/g, "")}')"></div>`),
  fc.tuple(value).map(([v]) => `<style>p { background: url("${v.replace(/["\\\n<]/g, "")}") }</style>`),
  fc.tuple(value, quote).map(([v, q]) => `<form${attr("action", v, q)}></form>`),
  fc.tuple(base, value, value).map(([b, v, w]) => `<iframe${attr("srcdoc", `${b}<a${attr("href", v, '"')}>i</a><img${attr("src", w, "'")}>`, '"')}></iframe>`),
);

const page = fc.record({
  base,
  pieces: fc.array(piece, { minLength: 1, maxLength: 6 }),
  rel: fc.constantFrom("index.html", "a/b.html", "a/b/c/", "deep/er/page.html"),
  latin1: fc.boolean(),
});

function bytesOf(html: string, latin1: boolean): Uint8Array {
  return latin1 ? Uint8Array.from(`<meta charset=windows-1252>${html}`, (c) => (c.charCodeAt(0) < 256 ? c.charCodeAt(0) : 0x3f)) : new TextEncoder().encode(html);
}

const inRoot = (href: string | null, root: string): href is string => href !== null && href.startsWith(root);

describe("the rewrite jobs on random documents", () => {
  it("portable: read at another root, from a sub-path or from disk, every link leads where it did", () => {
    fc.assert(
      fc.property(page, fc.boolean(), fc.constantFrom("https://mirror.example.org/", "https://example.com/a/b/c/", "file:///srv/copy/"), (p, index, root) => {
        const html = `${p.base}${p.pieces.join("\n")}`;
        const bytes = bytesOf(html, p.latin1);
        const before = extractLinks(bytes, { url: ROOT + p.rel });
        const out = rewriteLinks(bytes, { url: ROOT + p.rel, rewrite: relativize({ root: ROOT, indexFile: index ? "index.html" : undefined }) });
        const after = extractLinks(out, { url: root + p.rel });
        expect(after.length).toBe(before.length);
        after.forEach((link, i) => {
          const old = before[i]!;
          let expected = old.url;
          // A link moves with the site when the base it is read against does: the document's URL, or a <base> made
          // portable (a base read against one outside the site keeps its absolute URL, and so its links keep theirs).
          const moves = inRoot(old.url, ROOT) && inRoot(old.base, ROOT) && inRoot(link.base, root);
          const emptyAction = old.value === "" && (old.attribute === "action" || old.attribute === "formaction");
          if (emptyAction) {
            // The form's document's own URL, wherever it is.
            expected = root + p.rel;
          } else if (moves && old.missing !== true) {
            const url = new URL(old.url);
            if (index && url.pathname.endsWith("/")) url.pathname += "index.html";
            expected = root + url.href.slice(ROOT.length);
          } else if (old.missing === true) {
            expected = link.url;
          } else if (index && inRoot(old.url, ROOT) && link.url !== old.url) {
            // Read against a base that stays where it was (a srcdoc's, under a parent's base outside the site), a link
            // to a directory of the site may name its index file all the same: the same file, at the same place.
            const url = new URL(old.url);
            if (url.pathname.endsWith("/")) url.pathname += "index.html";
            expected = url.href;
          }
          if (old.url === null) {
            // Left as it was (under file: it may even parse: `\\\\` is a file URL's empty host).
            expect(link.value).toBe(old.value);
            return;
          }
          expect(`${link.element} ${link.url}`, `${old.value} → ${link.value}`).toBe(`${old.element} ${expected}`);
          // Into the site, a link is never root- or scheme-relative: it reads the same from any root.
          if (moves) expect(link.value).not.toMatch(/^\s*[/\\]/);
        });
      }),
      { numRuns: 400 },
    );
  });

  it("maps: every link the map moves leads to its new URL, and every other link where it did", () => {
    fc.assert(
      fc.property(page, fc.constantFrom("https://example.com/site/moved/", "https://cdn.example.net/", "https://example.com/site/"), (p, to) => {
        const html = `${p.base}${p.pieces.join("\n")}`;
        const bytes = bytesOf(html, p.latin1);
        const url = ROOT + p.rel;
        const before = extractLinks(bytes, { url });
        const entries: Record<string, string> = {};
        before.forEach((link: Link, i) => {
          if (i % 2 === 0 && inRoot(link.url, ROOT)) entries[link.url.replace(/#.*$/, "")] = `${to}n${i}.html`;
        });
        const { map } = readURLMap(JSON.stringify(entries), { root: ROOT });
        const after = extractLinks(rewriteLinks(bytes, { url, rewrite: mapURLs(map) }), { url });
        expect(after.map((link) => link.url)).toEqual(
          before.map((link) => (link.url === null || link.missing === true || (link.element === "base" && link.attribute === "href") ? link.url : (lookUpURL(map, link.url) ?? link.url))),
        );
      }),
      { numRuns: 300 },
    );
  });
});
