// docbase check: fragments (issue 17). A real site in a temporary directory, the built command as a
// subprocess: a link's #fragment must name an element (an id, then an <a name>) of the page it leads to.
import { symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkFragment, decodePending, encodePending, type PendingFragment } from "../../src/cli/commands/check/fragment-check.ts";
import { cleanup, docbase, ensureBuilt, findingsOf, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

const index = [
  '<!doctype html><meta charset="utf-8"><title>index</title>',
  '<h1 id="intro">Intro</h1><a name="legacy"></a>',
  '<a href="#intro">ok: an id</a>',
  '<a href="#legacy">ok: an a[name]</a>',
  '<a href="#missing">missing: this page</a>',
  '<a href="#">ok: top</a> <a href="#top">ok: top</a> <a href="#ToP">ok: top, any case</a>',
  '<a href="b.html#sec-2">ok: another page</a>',
  '<a href="b.html#nope">missing: another page</a>',
  '<a href="b.html#caf%C3%A9">ok: percent-encoded UTF-8</a>',
  '<a href="b.html#café">ok: non-ASCII (the URL percent-encodes it)</a>',
  '<a href="b.html#Sec-2">missing: ids are case-sensitive</a>',
  '<a href="docs/#start">ok: a directory index</a>',
  '<a href="docs#gone">missing: in docs/index.html</a>',
  '<a href="img.png#x">not checked: not HTML</a>',
  '<a href="https://elsewhere.example/#x">not checked: outside the site</a>',
  '<a href="b.html#:~:text=hello">ok: a text fragment names no element</a>',
  '<a href="b.html#nope:~:text=hello">missing: the fragment before the directive</a>',
  '<a href="gone.html#x">missing file, not a missing fragment</a>',
  '<template><p id="in-template"></p></template><a href="#in-template">missing: template contents are not in the document</a>',
  '<iframe srcdoc="<p id=inner></p><a href=about:srcdoc#inner>ok</a><a href=about:srcdoc#outer>missing</a><a href=#intro>ok: the page</a><a href=#inner>missing: not in the page</a>"></iframe>',
  '<svg><use href="#icon"/><symbol id="icon"/></svg>',
  '<div style="filter: url(#no-such-filter)">not checked: CSS</div>',
].join("\n");

const site: Record<string, string | Uint8Array> = {
  "index.html": index,
  "b.html": '<meta charset="utf-8"><h2 id="sec-2">2</h2><h2 id="café">café</h2>',
  "docs/index.html": '<p id="start">start</p>',
  "img.png": "",
  // A <base> elsewhere: "#x" is a fragment of b.html, not of this page.
  "based.html": '<base href="b.html">\n<a href="#sec-2">ok: in b.html</a>\n<a href="#mine">missing: in b.html</a>\n<p id="mine">mine</p>',
  // windows-1252: the id is decoded by the page's encoding; the URL's fragment is always UTF-8.
  "legacy.html": latin1('<meta charset="windows-1252"><h2 id="caf\xe9">x</h2>\n<a href="#caf\xe9">ok</a>\n<a href="b.html#caf\xe9">ok</a>\n<a href="#na\xefve">missing</a>'),
};

/** The findings of a run as [file, line:column, type, value, target]. */
function findings(dir: string, stdout: string): string[][] {
  return findingsOf(stdout).map((f) => [path.relative(dir, String(f["file"])), `${f["line"]}:${f["column"]}`, String(f["type"]), String(f["value"]), f["target"] === undefined ? "" : path.isAbsolute(String(f["target"])) ? path.relative(dir, String(f["target"])) : String(f["target"])]);
}

/** line:column of the first `needle` in `text`, 1-based (columns in code units: the tests' text is BMP). */
function at(text: string, needle: string, offset = 0): string {
  const i = text.indexOf(needle);
  if (i === -1) throw new Error(`no ${needle}`);
  const before = text.slice(0, i + offset);
  const line = before.split("\n").length;
  return `${line}:${i + offset - before.lastIndexOf("\n")}`;
}

describe("docbase check: fragments", () => {
  it("reports each fragment that names nothing in the page it leads to, as a browser looks for it", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", "https://example.com/", "--json"]);
    expect(run.code).toBe(1);
    const v = (needle: string): string => at(index, `"${needle}`, 1);
    expect(findings(dir, run.stdout)).toEqual([
      ["based.html", "3:10", "missing-fragment", "#mine", "b.html"],
      ["index.html", v("#missing"), "missing-fragment", "#missing", "index.html"],
      ["index.html", v("b.html#nope\""), "missing-fragment", "b.html#nope", "b.html"],
      ["index.html", v("b.html#Sec-2"), "missing-fragment", "b.html#Sec-2", "b.html"],
      ["index.html", v("docs#gone"), "missing-fragment", "docs#gone", "docs/index.html"],
      ["index.html", v("b.html#nope:~:"), "missing-fragment", "b.html#nope:~:text=hello", "b.html"],
      ["index.html", v("gone.html#x"), "missing-file", "gone.html#x", ""],
      ["index.html", v("#in-template"), "missing-fragment", "#in-template", "index.html"],
      // In the srcdoc document: about:srcdoc#outer is its own; #inner resolves to the page's URL.
      ["index.html", at(index, "about:srcdoc#outer"), "missing-fragment", "about:srcdoc#outer", "its srcdoc document"],
      ["index.html", at(index, "#inner>missing"), "missing-fragment", "#inner", "index.html"],
      ["legacy.html", "4:10", "missing-fragment", "#naïve", "legacy.html"],
    ]);
    expect(run.stderr).toMatch(/^docbase check: 11 errors \(1 missing file, 10 missing fragments\) in 5 files/);
    // JSON as for the other problems, with the page looked in.
    const first = findingsOf(run.stdout)[0]!;
    expect(first).toEqual({
      file: path.join(dir, "based.html"),
      line: 3,
      column: 10,
      type: "missing-fragment",
      category: "missing-fragment",
      severity: "error",
      message: `<a href> #mine → https://example.com/b.html#mine: no element with id or name "mine" in ${path.join(dir, "b.html")}`,
      element: "a",
      attribute: "href",
      value: "#mine",
      url: "https://example.com/b.html#mine",
      target: path.join(dir, "b.html"),
    });
  });

  it("says where it looked, in text", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", "https://example.com/"]);
    // Grouped by target: each referrer, indented, under its target.
    const lines = run.stdout.split("\n").map((l) => l.trim());
    expect(lines).toContain(`error missing-fragment https://example.com/b.html#nope (1 reference)`);
    expect(lines).toContain(
      `${path.join(dir, "index.html")}:${at(index, '"b.html#nope"', 1)}: missing-fragment: <a href> b.html#nope → https://example.com/b.html#nope: no element with id or name "nope" in ${path.join(dir, "b.html")}`,
    );
    expect(lines).toContain(
      `${path.join(dir, "legacy.html")}:4:10: missing-fragment: <a href> #naïve → https://example.com/legacy.html#na%C3%AFve: no element with id or name "naïve" in ${path.join(dir, "legacy.html")}`,
    );
    expect(lines).toContain(
      `${path.join(dir, "index.html")}:${at(index, "about:srcdoc#outer")}: missing-fragment: <a href> in srcdoc about:srcdoc#outer → about:srcdoc#outer: no element with id or name "outer" in its srcdoc document`,
    );
  });

  it("--no-fragments leaves them out", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", "https://example.com/", "--json", "--no-fragments"]);
    expect(findings(dir, run.stdout).map((f) => f[2])).toEqual(["missing-file"]);
    expect(run.stderr).toMatch(/^docbase check: 1 error \(1 missing file\) in/);
  });

  it("checks a page on standard input, and one file, in themselves only", async () => {
    const stdin = await docbase(["check", "-", "--url", "https://example.com/a.html", "--json"], { input: '<p id="here"></p><a href="#here">ok</a><a href="#gone">x</a><a href="other.html#gone">not read</a>' });
    expect(findingsOf(stdin.stdout).map((f) => [f["type"], f["value"], f["target"]])).toEqual([["missing-fragment", "#gone", "-"]]);
    const dir = writeTree(temporaryDirectory(), site);
    const one = await docbase(["check", path.join(dir, "based.html"), "--url", "https://example.com/based.html", "--json"]);
    // Its links lead to b.html, which this run does not read.
    expect(findingsOf(one.stdout)).toEqual([]);
    expect(one.code).toBe(0);
  });

  it("does not look for the fragment of an item's global identifier (itemid names the item, it is never navigated to)", async () => {
    const page = [
      '<div itemscope itemtype="https://schema.org/Organization" itemid="https://example.com/#organization"></div>',
      '<div itemscope itemid="b.html#product"></div>',
      '<a href="#organization">missing</a>',
    ].join("\n");
    const dir = writeTree(temporaryDirectory(), { "index.html": page, "b.html": "<p>b</p>" });
    const run = await docbase(["check", dir, "--url", "https://example.com/", "--json"]);
    expect(findings(dir, run.stdout)).toEqual([["index.html", "3:10", "missing-fragment", "#organization", "index.html"]]);
  });

  it("looks into the target of a symbolic link inside the site (served as its target, read once)", async () => {
    const page = '<a href="alias.html#sec">ok</a>\n<a href="alias.html#nosec">missing</a>\n<a href="docs/alias.html#sec">ok</a>';
    const dir = writeTree(temporaryDirectory(), { "index.html": page, "page.html": '<h2 id="sec">S</h2>', "docs/x.html": "" });
    symlinkSync("page.html", path.join(dir, "alias.html"));
    symlinkSync("../alias.html", path.join(dir, "docs", "alias.html"));
    for (const jobs of ["1", "2"]) {
      const run = await docbase(["check", dir, "--url", "https://example.com/", "--json", "--jobs", jobs]);
      expect(findings(dir, run.stdout)).toEqual([["index.html", "2:10", "missing-fragment", "alias.html#nosec", "page.html"]]);
    }
  });

  it("finds a page through a symbolic link to a directory of the site, and looks into it", async () => {
    const page = '<a href="latest/page.html#sec">ok</a>\n<a href="latest/page.html#nosec">missing</a>\n<a href="latest/#top">ok</a>\n<a href="latest/gone.html">missing file</a>';
    // Enough pages for two worker processes: the site's links cross to them.
    const tree: Record<string, string> = { "index.html": page, "v2/page.html": '<h2 id="sec">S</h2>', "v2/index.html": "" };
    for (let i = 0; i < 60; i++) tree[`filler/${i}.html`] = "";
    const dir = writeTree(temporaryDirectory(), tree);
    symlinkSync("v2", path.join(dir, "latest"));
    // Not followed, the directory is read at its own path; followed, at the first of its paths in name order.
    for (const [options, read] of [[["--jobs", "1"], "v2/page.html"], [["--jobs", "2"], "v2/page.html"], [["--follow-symlinks", "--jobs", "2"], "latest/page.html"]] as const) {
      const run = await docbase(["check", dir, "--url", "https://example.com/", "--json", ...options]);
      expect(findings(dir, run.stdout)).toEqual([
        ["index.html", "2:10", "missing-fragment", "latest/page.html#nosec", read],
        ["index.html", "4:10", "missing-file", "latest/gone.html", ""],
      ]);
    }
  });

  it("gives the same report with one thread and with the pool (ids cross threads)", async () => {
    const dir = temporaryDirectory();
    const tree: Record<string, string> = {};
    // Each page links to the next one's section: every fifth link names a section that is not there.
    for (let i = 0; i < 60; i++) tree[`p${i}.html`] = `<h2 id="s${i}">${i}</h2>\n<a href="p${(i + 1) % 60}.html#s${(i + 1) % 60}${i % 5 === 0 ? "x" : ""}">next</a> <a href="x y">bad</a>`;
    writeTree(dir, tree);
    const one = await docbase(["check", dir, "--url", "https://example.com/", "--jobs", "1"]);
    const pool = await docbase(["check", dir, "--url", "https://example.com/", "--jobs", "2"]);
    expect(pool.stdout).toBe(one.stdout);
    const missing = one.stdout.split("\n").filter((l) => l.startsWith("  ") && l.includes("missing-fragment"));
    expect(missing).toHaveLength(12);
    expect(missing[0]).toBe(`  ${path.join(dir, "p0.html")}:2:10: missing-fragment: <a href> p1.html#s1x → https://example.com/p1.html#s1x: no element with id or name "s1x" in ${path.join(dir, "p1.html")}`);
    // Each page's findings stay in source order in JSON: the missing fragment (2:10) before the link "x y" (2:41, 2:42).
    const json = await docbase(["check", dir, "--url", "https://example.com/", "--jobs", "2", "--json"]);
    const p0 = findingsOf(json.stdout).filter((f) => f["file"] === path.join(dir, "p0.html"));
    expect(p0.map((f) => f["type"])).toEqual(["missing-fragment", "missing-file", "invalid-URL-unit"]);
  });
});

describe("the fragment check's pieces, in process", () => {
  it("checkFragment: a page's targets, or none needed for the top of any page", () => {
    const targets = { ids: new Set(["intro", "café"]), names: new Set(["old"]) };
    expect(["intro", "caf%C3%A9", "old", "", "top", "TOP", ":~:text=x", "intro:~:text=x"].map((f) => checkFragment(f, targets))).toEqual(Array(8).fill("ok"));
    expect(["outro", "Intro", "outro:~:text=intro"].map((f) => checkFragment(f, targets))).toEqual(["missing", "missing", "missing"]);
    expect(["", "Top", ":~:text=x", "intro"].map((f) => checkFragment(f, null))).toEqual(["ok", "ok", "ok", "unknown"]);
  });

  it("encodePending and decodePending: the checks that cross threads, in one string", () => {
    const pending: PendingFragment[] = [
      { target: "docs/a b.html", fragment: "caf%C3%A9", line: 3, column: 17, label: "<a href> in srcdoc", element: "a", attribute: "href", value: "docs/a b.html#café", url: "https://example.com/docs/a%20b.html#caf%C3%A9" },
      { target: "index.html", fragment: "", line: 1, column: 1, label: "<x y>", element: "x", attribute: null, value: "", url: "https://example.com/#" },
    ];
    expect(decodePending(encodePending(pending))).toEqual(pending);
    expect(decodePending(encodePending([]))).toEqual([]);
  });
});
