import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, findingsOf, repo, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

/** Checks one document given on standard input; returns the findings as [line:column, type]. */
async function checkStdin(html: string | Uint8Array, url = "https://example.com/dir/page.html", encoding = "utf-8"): Promise<string[]> {
  const run = await docbase(["check", "-", "--url", url, "--json", ...(encoding === "" ? [] : ["--encoding", encoding])], { input: html });
  return findingsOf(run.stdout).map((f) => `${f["line"]}:${f["column"]} ${f["type"]}`);
}

/** The 1-based column of the first occurrence of `needle` (on line 1). */
function col(html: string, needle: string, plus = 0): number {
  const i = html.indexOf(needle);
  if (i === -1) throw new Error(`no ${needle}`);
  return i + 1 + plus;
}

describe("docbase check: the example site", () => {
  it("reports invalid URLs, missing files and base-URL surprises with file:line:col, and exits with 1", async () => {
    const run = await docbase(["check", "examples/site", "--url", "https://example.com/"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(readFileSync(path.join(repo, "test/data/cli/example-site-check.txt"), "utf8"));
    expect(run.stderr).toMatch(/^docbase check: 5 errors \(2 invalid URLs, 2 missing files, 1 missing index file\), 4 warnings \(1 URL validation warning, 3 base-URL surprises\) in 15 files \(65 links\)/);
  });

  it("gives every finding as a JSON line with --json", async () => {
    const run = await docbase(["check", "examples/site", "--url", "https://example.com/", "--json"]);
    expect(run.code).toBe(1);
    const findings = findingsOf(run.stdout);
    expect(findings).toHaveLength(9);
    expect(findings[6]).toEqual({
      file: "examples/site/broken.html",
      line: 15,
      column: 37,
      type: "port-out-of-range",
      category: "invalid-url",
      severity: "error",
      message: "<a href> http://example.com:99999/: The input's port is too big. The URL does not parse.",
      element: "a",
      attribute: "href",
      value: "http://example.com:99999/",
      url: null,
    });
  });

  it("exits with 0 and says so when there is nothing to report", async () => {
    const run = await docbase(["check", "examples/site/about", "--url", "https://example.com/about/"]);
    // ../css/site.css and friends are outside this smaller site: not checked.
    expect(run.stdout).toBe("");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^docbase check: no problems in 2 files/);
  });

  it("gives the same report with one thread and with the pool", async () => {
    const dir = temporaryDirectory();
    const tree: Record<string, string> = {};
    for (let i = 0; i < 120; i++) tree[`p${i}.html`] = `<a href="p${i + 1}.html">next</a> <a href="x y${i}">bad</a>`;
    writeTree(dir, tree);
    const one = await docbase(["check", dir, "--url", "https://example.com/", "--jobs", "1"]);
    const pool = await docbase(["check", dir, "--url", "https://example.com/", "--jobs", "2"]);
    expect(one.code).toBe(1);
    expect(pool.stdout).toBe(one.stdout);
    // p119.html links to p120.html, which is missing; every page has a space.
    expect(one.stdout.split("\n").filter((l) => l.includes("p120"))).toEqual([
      "error missing-file https://example.com/p120.html (1 reference)",
      `  ${path.join(dir, "p119.html")}:1:10: missing-file: <a href> p120.html → https://example.com/p120.html: no file p120.html in the site`,
    ]);
    expect(one.stdout.split("\n").filter((l) => l.startsWith("  ") && l.includes("invalid-URL-unit"))).toHaveLength(120);
  });
});

describe("docbase check: where a validation error is", () => {
  it("points at the character in a plain value", async () => {
    const html = '<a href="https://example.com/a b">';
    expect(await checkStdin(html)).toEqual([`1:${col(html, " b")} invalid-URL-unit`]);
  });

  it("points past character references: an offset in the value is not an offset in the source", async () => {
    const html = '<a href="a&amp;b c">';
    expect(await checkStdin(html)).toEqual([`1:${col(html, " c")} invalid-URL-unit`]);
    const legacy = '<a href="a&copy b">'; // "&copy" without ";" is still a reference here
    expect(await checkStdin(legacy)).toEqual([`1:${col(legacy, " b")} invalid-URL-unit`]);
    const astral = '<a href="&#x1D4B3;&#x1D4B3; x">'; // two astral references, then a space
    expect(await checkStdin(astral)).toEqual([`1:${col(astral, " x")} invalid-URL-unit`]);
  });

  it("points at the reference's & when the error is the referenced character", async () => {
    const html = '<a href="x&#x20;y">';
    expect(await checkStdin(html)).toEqual([`1:${col(html, "&#x20;")} invalid-URL-unit`]);
    const named = '<a href="x&lt;y">';
    expect(await checkStdin(named)).toEqual([`1:${col(named, "&lt;")} invalid-URL-unit`]);
  });

  it("keeps the attribute rule: a legacy name before an alphanumeric is not a reference", async () => {
    const html = '<a href="?a&notit;= b">';
    expect(await checkStdin(html)).toEqual([`1:${col(html, " b")} invalid-URL-unit`]);
  });

  it("counts columns in code points and lines across CR LF", async () => {
    const astral = "<p>\u{1D4B3}\u{1D4B3}</p><a href='a b'>";
    // Two astral characters are two columns, not four.
    expect(await checkStdin(astral)).toEqual([`1:${col(astral, " b") - 2} invalid-URL-unit`]);
    const crlf = '<a\r\nhref="x\r\ny z">';
    // The newline in the value is itself an error (at the CR, line 2); the space is on line 3.
    expect(await checkStdin(crlf)).toEqual(["2:8 invalid-URL-unit", "3:2 invalid-URL-unit"]);
  });

  it("maps through srcdoc layers (references inside references)", async () => {
    const html = '<iframe srcdoc="<a href=&quot;x y&amp;amp;z w&quot;>"></iframe>';
    expect(await checkStdin(html)).toEqual([`1:${col(html, " y")} invalid-URL-unit`, `1:${col(html, " w")} invalid-URL-unit`]);
  });

  it("maps through CSS escapes in url()", async () => {
    const html = '<div style="background: url(a\\20 b\\ c)"></div>';
    expect(await checkStdin(html)).toEqual([`1:${col(html, "\\20 ")} invalid-URL-unit`, `1:${col(html, "\\ c")} invalid-URL-unit`]);
  });

  it("finds errors in legacy-encoded bytes at the right place", async () => {
    const bytes = Buffer.from('<meta charset="windows-1252"><p>\xe9\xe9</p><a href="?q=caf\xe9 x">', "latin1");
    const text = bytes.toString("latin1");
    expect(await checkStdin(bytes, undefined, "")).toEqual([`1:${col(text, " x")} invalid-URL-unit`]);
  });
});

describe("docbase check: missing files", () => {
  const site = {
    "index.html": [
      '<a href="docs/">ok: a directory with an index.html</a>',
      '<a href="docs">ok: a directory without its slash</a>',
      '<a href="docs/a%20b.html?x=1#top">ok: percent-decoded, query and fragment ignored</a>',
      '<a href="/caf%C3%A9.html">ok: UTF-8 name</a>',
      '<a href="empty/">missing: a directory without an index file</a>',
      '<a href="gone.html">missing</a>',
      '<img srcset="img/a.png 1x, img/b.png 2x">',
      '<a href="https://elsewhere.example/gone.html">outside the site: not checked</a>',
      '<form action="/search"></form><a ping="/ping" href="#x">endpoints: not checked</a>',
      '<div itemscope itemtype="https://example.com/vocab"></div>',
    ].join("\n"),
    "docs/index.html": '<a href="../index.html">up</a><a href="a b.html">ok (a space: a validation error, not a missing file)</a>',
    "docs/a b.html": "",
    "café.html": "",
    "empty/readme.txt": "",
    "img/a.png": "",
  };

  it("maps URLs under the site root to files, with index.html handling and percent-decoding", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", "https://example.com/", "--json"]);
    expect(run.code).toBe(1);
    const findings = findingsOf(run.stdout).map((f) => [path.relative(dir, String(f["file"])), f["line"], f["type"], f["value"]]);
    expect(findings).toEqual([
      ["docs/index.html", 1, "invalid-URL-unit", "a b.html"],
      ["index.html", 5, "missing-index", "empty/"],
      ["index.html", 6, "missing-file", "gone.html"],
      ["index.html", 7, "missing-file", "img/b.png"],
      // The page has no element "x" (docs/a%20b.html#top is the top of that page).
      ["index.html", 9, "missing-fragment", "#x"],
    ]);
  });

  it("checks one file against its own directory", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", path.join(dir, "docs/index.html"), "--url", "https://example.com/docs/"]);
    // ../index.html is above the file's directory: not checked; the space is reported, a warning (the URL parses).
    expect(run.stdout).toBe(
      `warning invalid-URL-unit https://example.com/docs/a%20b.html (1 reference)\n  ${path.join(dir, "docs/index.html")}:1:41: invalid-URL-unit: <a href> "a b.html": A code point is found that is not a URL unit.\n`,
    );
    expect(run.code).toBe(0);
  });
});

describe("docbase check: base-URL surprises", () => {
  it("a <base> after relative links", async () => {
    const html = '<link rel=stylesheet href="a.css"><script src="https://cdn.example/x.js"></script><base href="/static/">';
    expect(await checkStdin(html)).toEqual([`1:${col(html, "/static/")} base-after-links`]);
    // Absolute URLs before it are not affected, and a base equal to the document's URL changes nothing.
    expect(await checkStdin('<script src="https://cdn.example/x.js"></script><base href="/static/">')).toEqual([]);
    expect(await checkStdin('<head><link href="x"><base href="page.html"></head>')).toEqual([]);
  });

  it("a data:, javascript: or unparsable <base href> is ignored", async () => {
    expect(await checkStdin('<base href="data:text/html,x"><a href=y>')).toEqual(["1:13 base-unusable"]);
    expect(await checkStdin('<base href="javascript:void(0)">')).toEqual(["1:13 base-unusable"]);
    const run = await docbase(["check", "-", "--url", "https://example.com/"], { input: '<base href="http://[::1">' });
    expect(run.stdout).toContain("base-unusable: <base href> http://[::1 is ignored: it does not parse; links resolve against https://example.com/");
  });

  it("several bases: only the first counts", async () => {
    expect(await checkStdin('<base href="/a/"><base href="/b/"><base target="_blank">')).toEqual(["1:30 base-not-first"]);
  });

  it("a base in the body, and one in a template", async () => {
    expect(await checkStdin('<body><p>x</p><base href="/b/"></body>')).toEqual(["1:27 base-in-body"]);
    expect(await checkStdin('<head><template><base href="/t/"></template></head>')).toEqual(["1:29 base-in-template"]);
    // A declarative shadow root is a shadow tree, not template contents; a template that does not attach one stays a template.
    expect(await checkStdin('<div><template shadowrootmode="open"><base href="/s/"></template></div>')).toEqual(["1:50 base-in-shadow-root"]);
    expect(await checkStdin('<a><template shadowrootmode="open"><base href="/s/"></template></a>')).toEqual(["1:48 base-in-template"]);
  });

  it("a base in the head, first, usable, before every link: nothing to say", async () => {
    expect(await checkStdin('<head><base href="/docs/"></head><a href="x">')).toEqual([]);
  });
});
