// How hosts serve a site (index files, clean URLs, a directory without an index, _redirects, a custom 404 page),
// the CSS files of a site, and the run's one warning about unlabeled UTF-8 (issue 25), on sites generated here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, findingsOf, jsonLines, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const root = "https://example.com/";

/** `check --json` of `dir` with `flags`: each finding as "file:line value type", and the run. */
async function check(dir: string, ...flags: string[]): Promise<{ findings: string[]; code: number | null; stderr: string; summary: Record<string, unknown> }> {
  const run = await docbase(["check", dir, "--url", root, "--json", "-q", ...flags]);
  const findings = findingsOf(run.stdout).map((f) => `${path.relative(dir, String(f["file"]))}:${f["line"]} ${f["value"]} ${f["type"]}`);
  return { findings, code: run.code, stderr: run.stderr, summary: jsonLines(run.stdout).pop()! };
}

/** A page with one link a line, the first on line 1. */
const page = (...hrefs: string[]): string => hrefs.map((href) => `<a href="${href}">x</a>`).join("\n");

describe("index files and clean URLs", () => {
  const site = {
    "index.html": page("docs/intro", "docs/intro/", "docs/intro.html", "docs", "docs/", "blog/", "empty/", "nowhere/", "blog/post"),
    "docs/index.html": "",
    "docs/intro.html": "",
    "blog/default.htm": page("post.html"),
    "blog/post.html": "",
    "empty/readme.txt": "",
  };

  it("by default: a directory URL is served from index.html or index.htm, and docs/intro is not docs/intro.html", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await check(dir);
    expect(run.findings).toEqual([
      "index.html:1 docs/intro missing-file",
      "index.html:2 docs/intro/ missing-file",
      // A host answers a directory without an index with 404 (GitHub Pages, Netlify) or a listing: its own finding.
      "index.html:6 blog/ missing-index",
      "index.html:7 empty/ missing-index",
      "index.html:8 nowhere/ missing-file",
      "index.html:9 blog/post missing-file",
    ]);
    expect(run.summary["categories"]).toEqual({ "missing-file": 4, "missing-index": 2 });
    expect(run.code).toBe(1);
  });

  it("--clean-urls: docs/intro is served from docs/intro.html (GitHub Pages, Netlify, Cloudflare Pages); docs/intro/ is not (GitHub Pages answers 404)", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await check(dir, "--clean-urls");
    expect(run.findings).toEqual(["index.html:2 docs/intro/ missing-file", "index.html:6 blog/ missing-index", "index.html:7 empty/ missing-index", "index.html:8 nowhere/ missing-file"]);
  });

  it("--index-files: the files a directory URL is served from, in order; a page served so is at its directory's URL", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await check(dir, "--index-files", "index.html,default.htm", "--clean-urls");
    // blog/default.htm serves blog/, and its link post.html is blog/post.html (it would be too at blog/default.htm).
    expect(run.findings).toEqual(["index.html:2 docs/intro/ missing-file", "index.html:7 empty/ missing-index", "index.html:8 nowhere/ missing-file"]);
    const messages = findingsOf((await docbase(["check", dir, "--url", root, "--json", "-q", "--index-files", "default.htm"])).stdout).map((f) => String(f["message"]));
    expect(messages).toContainEqual(expect.stringMatching(/docs\/ → https:\/\/example\.com\/docs\/: docs\/ is a directory without an index file \(default\.htm\)/));
  });

  it("takes both from the config file, and refuses an index file that is not a file name", async () => {
    const dir = writeTree(temporaryDirectory(), { ...site, "docbase.config.json": JSON.stringify({ check: { cleanUrls: true, indexFiles: "index.html,default.htm" } }) });
    expect((await check(dir)).findings).toEqual(["index.html:2 docs/intro/ missing-file", "index.html:7 empty/ missing-index", "index.html:8 nowhere/ missing-file"]);
    const bad = await docbase(["check", dir, "--url", root, "--index-files", "index.html,docs/index.html"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--index-files: not a file name: "docs\/index.html"/);
  });
});

describe("a custom 404 page", () => {
  it("is not a target: a link to a missing page is missing, though the host would serve 404.html; a link to 404.html is not", async () => {
    const dir = writeTree(temporaryDirectory(), { "index.html": page("gone.html", "404.html", "/404"), "404.html": "<h1>Not found</h1>" });
    expect((await check(dir)).findings).toEqual(["index.html:1 gone.html missing-file", "index.html:3 /404 missing-file"]);
    expect((await check(dir, "--clean-urls")).findings).toEqual(["index.html:1 gone.html missing-file"]);
  });
});

describe("the site's _redirects (Netlify and Cloudflare Pages rules)", () => {
  const redirects = [
    "# comments and blank lines are skipped",
    "",
    "/old.html /new.html",
    "/news/:year/:slug /blog/:year/:slug.html 302",
    "/docs/* /manual/:splat 301",
    "/gone /nowhere.html 308",
    "/loop-a /loop-b",
    "/loop-b /loop-a",
    "/shadowed.html /nowhere.html",
    "/forced.html /nowhere.html 301!",
    "/app/* /app/index.html 200",
    "/api/* https://api.example.net/:splat 200",
    "/blog/* /404.html 404",
  ].join("\n");
  const site = {
    "_redirects": redirects,
    "index.html": page(
      "old.html",
      "news/2024/hello",
      "news/2024/missing",
      "docs/a/b.html?x=1#top",
      "docs/none.html",
      "gone",
      "loop-a",
      "shadowed.html",
      "forced.html",
      "app/deep/route",
      "api/v1/users",
      "blog/nothing.html",
      "_redirects",
    ),
    "new.html": "",
    "blog/2024/hello.html": "",
    "manual/a/b.html": "",
    "shadowed.html": "",
    "forced.html": "",
    "app/index.html": "",
    "404.html": "",
  };

  it("a link to a redirected path is not missing; a redirect to a missing page (or round a loop) is, at the link", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await check(dir);
    expect(run.findings).toEqual([
      "index.html:3 news/2024/missing redirect-to-missing",
      "index.html:5 docs/none.html redirect-to-missing",
      "index.html:6 gone redirect-to-missing",
      "index.html:7 loop-a redirect-to-missing",
      // A rule that is not forced does not apply where a file is (the host serves the file); a forced one does.
      "index.html:9 forced.html redirect-to-missing",
      // A 404 rule sets what a missing page shows: the page is missing all the same.
      "index.html:12 blog/nothing.html missing-file",
      // The host reads _redirects; it does not serve it.
      "index.html:13 _redirects missing-file",
    ]);
    expect(run.summary["categories"]).toEqual({ "missing-file": 2, "redirect-to-missing": 5 });
    const messages = findingsOf((await docbase(["check", dir, "--url", root, "--json", "-q"])).stdout).map((f) => String(f["message"]));
    expect(messages[0]).toMatch(/_redirects line 4 \(302\) sends it to https:\/\/example\.com\/blog\/2024\/missing\.html, which nothing in the site serves/);
    expect(messages[3]).toMatch(/_redirects line 7 \(301\) sends it to https:\/\/example\.com\/loop-a, a redirect loop/);
    // The line not applied is said, once, with its line.
    expect(run.stderr).toMatch(new RegExp(`${path.join(dir, "_redirects").replace(/[/\\.]/g, "\\$&")}:13: warning: not applied: status 404 is not a redirect`));
  });

  it("refuses a _redirects file it cannot follow exactly, naming the line, and fails the run", async () => {
    const dir = writeTree(temporaryDirectory(), { ...site, _redirects: "/a/*/b /c" });
    const run = await docbase(["check", dir, "--url", root, "-q"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/_redirects: cannot be read: _redirects line 1: a splat/);
  });
});

describe("the CSS files of a site", () => {
  // A legacy @charset, a BOM that wins over its @charset, a UTF-8 file without either.
  const latin1 = Buffer.from('@charset "iso-8859-1";\n/* caf\xe9 */\nbody { background: url(../img/caf\xe9.png) }\n@import url("missing.css");\n', "latin1");
  const withBOM = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('@charset "windows-1252";\n.a { background: url(../img/café.png) }\n.b { background: url(../img/nope.png) }\n')]);
  const site = {
    "index.html": '<meta charset="utf-8"><link rel=stylesheet href="css/site.css"><style>p { background: url(img/café.png) }</style>',
    "css/site.css": latin1,
    "css/bom.css": withBOM,
    "css/print.css": "@import 'site.css';\np { background: url( 'missing space.png' ) }",
    "img/café.png": "",
  };

  it("check: their url() and @import are links, resolved against the style sheet's URL, reported at their line and column", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", root, "--json", "-q"]);
    expect(findingsOf(run.stdout).map((f) => [path.relative(dir, String(f["file"])), f["line"], f["column"], f["type"], f["url"] ?? null])).toEqual([
      ["css/bom.css", 3, 22, "missing-file", "https://example.com/img/nope.png"],
      ["css/print.css", 2, 23, "missing-file", "https://example.com/css/missing%20space.png"],
      ["css/print.css", 2, 30, "invalid-URL-unit", "https://example.com/css/missing%20space.png"],
      ["css/site.css", 4, 14, "missing-file", "https://example.com/css/missing.css"],
    ]);
    const text = await docbase(["check", dir, "--url", root, "-q"]);
    expect(text.stdout).toContain(`  ${path.join(dir, "css/site.css")}:4:14: missing-file: @import missing.css → https://example.com/css/missing.css: no file css/missing.css in the site\n`);
    // One style sheet given alone: its directory is its site (../img/nope.png is outside it: not looked for).
    const alone = await docbase(["check", path.join(dir, "css/print.css"), "--url", "https://example.com/css/print.css", "--json", "-q"]);
    expect(findingsOf(alone.stdout).map((f) => [f["line"], f["column"], f["type"]])).toEqual([
      [2, 23, "missing-file"],
      [2, 30, "invalid-URL-unit"],
    ]);
    const bom = await docbase(["check", path.join(dir, "css/bom.css"), "--url", "https://example.com/css/bom.css", "--json", "-q"]);
    expect(findingsOf(bom.stdout)).toEqual([]);
  });

  it("links: lists them (the site walk, and a single file)", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["links", dir, "--url", root, "--json", "-q"]);
    const css = jsonLines(run.stdout).filter((l) => String(l["file"]).endsWith(".css"));
    expect(css.map((l) => [path.relative(dir, String(l["file"])), l["element"], l["attribute"], l["value"], l["url"], l["line"], l["column"]])).toEqual([
      ["css/bom.css", "", null, "../img/café.png", "https://example.com/img/caf%C3%A9.png", 2, 22],
      ["css/bom.css", "", null, "../img/nope.png", "https://example.com/img/nope.png", 3, 22],
      ["css/print.css", "", null, "site.css", "https://example.com/css/site.css", 1, 10],
      ["css/print.css", "", null, "missing space.png", "https://example.com/css/missing%20space.png", 2, 23],
      ["css/site.css", "", null, "../img/café.png", "https://example.com/img/caf%C3%A9.png", 3, 24],
      ["css/site.css", "", null, "missing.css", "https://example.com/css/missing.css", 4, 14],
    ]);
    const table = await docbase(["links", path.join(dir, "css/site.css"), "--url", "https://example.com/css/site.css", "-q"]);
    expect(table.stdout).toBe(`${path.join(dir, "css/site.css")}\n  3:24  url()    ../img/café.png  https://example.com/img/caf%C3%A9.png\n  4:14  @import  missing.css      https://example.com/css/missing.css\n`);
  });

  it("rewrite: rewrites them in their own encoding, every other byte kept, and lists the changes with --dry-run", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const dry = await docbase(["rewrite", dir, "--url", root, "--absolute", "--dry-run"]);
    expect(dry.stdout).toContain(`${path.join(dir, "css/site.css")}: 2 links\n  3:24  url()  ../img/café.png → https://example.com/img/caf%C3%A9.png\n  4:14  @import  missing.css → https://example.com/css/missing.css\n`);
    expect(dry.stderr).toMatch(/would rewrite 8 links in 4 of 4 files \(1 HTML file, 3 style sheets\)/);
    const run = await docbase(["rewrite", dir, "--url", root, "--absolute", "-q"]);
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(dir, "css/site.css")).toString("latin1")).toBe(
      '@charset "iso-8859-1";\n/* caf\xe9 */\nbody { background: url(https://example.com/img/caf%C3%A9.png) }\n@import url("https://example.com/css/missing.css");\n',
    );
    const bom = readFileSync(path.join(dir, "css/bom.css"));
    expect([...bom.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bom.subarray(3).toString("utf8")).toBe('@charset "windows-1252";\n.a { background: url(https://example.com/img/caf%C3%A9.png) }\n.b { background: url(https://example.com/img/nope.png) }\n');
    expect(readFileSync(path.join(dir, "css/print.css"), "utf8")).toBe("@import 'https://example.com/css/site.css';\np { background: url( 'https://example.com/css/missing%20space.png' ) }");
  });
});

describe("unlabeled UTF-8", () => {
  const site = {
    "a.html": "<p>caf\u00e9</p>",
    "b.html": "<p>na\u00efve</p>",
    "labeled.html": '<meta charset="utf-8"><p>caf\u00e9</p>',
    "ascii.html": "<p>cafe</p>",
    "latin1.html": Buffer.from("<p>caf\xe9</p>", "latin1"),
  };

  it("is read as windows-1252, as a browser without a charset reads it, and warned about once per run, naming --encoding utf-8", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const text = await docbase(["check", dir, "--url", root, "-q"]);
    const warnings = text.stderr.split("\n").filter((l) => l.includes("--encoding utf-8"));
    expect(warnings).toEqual([
      "docbase: warning: 2 pages declare no encoding (no BOM, no <meta charset>) and hold UTF-8: read as windows-1252, as a browser reads a page served without a charset; if the host sends charset=utf-8 (GitHub Pages and Netlify do), run with --encoding utf-8",
    ]);
    // In the JSON summary, not on standard error.
    const json = await docbase(["check", dir, "--url", root, "--json", "-q"]);
    expect(json.stderr).not.toContain("--encoding utf-8");
    const summary = jsonLines(json.stdout).pop()!;
    expect(summary["notices"]).toEqual([warnings[0]!.replace("docbase: warning: ", "")]);
    expect((await docbase(["links", dir, "--url", root, "-q"])).stderr).toContain("2 pages declare no encoding");
  });

  it("is not warned about when the run names the encoding, or when no page is unlabeled UTF-8", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const given = await docbase(["check", dir, "--url", root, "--json", "-q", "--encoding", "utf-8"]);
    expect(jsonLines(given.stdout).pop()!["notices"]).toBeUndefined();
    const labeled = writeTree(temporaryDirectory(), { "labeled.html": site["labeled.html"], "ascii.html": site["ascii.html"], "latin1.html": site["latin1.html"] });
    const run = await docbase(["check", labeled, "--url", root, "-q"]);
    expect(run.stderr).not.toContain("--encoding");
  });
});
