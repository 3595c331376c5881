import { spawn } from "node:child_process";
import { symlinkSync } from "node:fs";
import path from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, jsonLines, main, repo, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const golden = (name: string): string => readFileSync(path.join(repo, "test/data/cli", name), "utf8");

describe("docbase links", () => {
  it("lists every link of the example site as JSON lines, in file order (the README's main job)", async () => {
    const run = await docbase(["links", "examples/site", "--url", "https://example.com/", "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(golden("example-site-links.jsonl"));
    const lines = jsonLines(run.stdout);
    // The contract's fields, exactly.
    for (const line of lines) expect(Object.keys(line)).toEqual(["file", "element", "attribute", "value", "url", "line", "column"]);
    // The summary goes to standard error, so standard output stays JSON.
    expect(run.stderr).toMatch(/^docbase links: 65 links \(58 internal, 5 external, 2 that do not parse\) in 15 files, /);
  });

  it("resolves as a browser does: <base>, srcdoc, legacy encodings, srcset, meta refresh", async () => {
    const lines = jsonLines((await docbase(["links", "examples/site", "--url", "https://example.com/", "--json"])).stdout);
    const find = (file: string, value: string): Record<string, unknown> | undefined => lines.find((l) => l["file"] === `examples/site/${file}` && l["value"] === value);
    // A <base> after the stylesheet link governs it all the same.
    expect(find("docs/guide.html", "guide.css")).toMatchObject({ url: "https://example.com/docs/v2/guide.css", line: 6, column: 32 });
    // srcdoc links resolve against the container's base URL.
    expect(find("frames.html", "../img/logo.png")).toMatchObject({ element: "img", attribute: "src", url: "https://example.com/img/logo.png" });
    // Queries are encoded in the document's encoding; paths in UTF-8.
    expect(find("legacy/latin1.html", "search.html?q=café")?.["url"]).toBe("https://example.com/legacy/search.html?q=caf%E9");
    expect(find("legacy/latin1.html", "menu/crème.html")?.["url"]).toBe("https://example.com/legacy/menu/cr%C3%A8me.html");
    expect(find("legacy/shift_jis.html", "search.html?q=日本語")?.["url"]).toBe("https://example.com/legacy/search.html?q=%93%FA%96{%8C%EA");
    expect(find("index.html", "img/logo@2x.png")).toMatchObject({ attribute: "srcset", url: "https://example.com/img/logo@2x.png" });
    expect(find("refresh.html", "about/")).toMatchObject({ element: "meta", attribute: "content", url: "https://example.com/about/" });
    // index.html is served at its directory's URL.
    expect(find("about/index.html", "team.html")?.["url"]).toBe("https://example.com/about/team.html");
  });

  it("prints a readable table by default, one block per file", async () => {
    const run = await docbase(["links", "examples/site/docs", "--url", "https://example.com/docs/"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        "examples/site/docs/guide.html",
        "   6:32  <link href>  guide.css     https://example.com/docs/v2/guide.css",
        "   7:15  <base href>  /docs/v2/     https://example.com/docs/v2/",
        "  13:19  <a href>     install.html  https://example.com/docs/v2/install.html",
        "  13:64  <a href>     ../../        https://example.com/",
        "examples/site/docs/v2/install.html",
        "  3:83  <link href>  guide.css      https://example.com/docs/v2/guide.css",
        "  4:19  <a href>     ../guide.html  https://example.com/docs/guide.html",
        "",
      ].join("\n"),
    );
  });

  it("filters with --internal and --external", async () => {
    const internal = jsonLines((await docbase(["links", "examples/site", "--url", "https://example.com/", "--json", "--internal"])).stdout);
    const external = jsonLines((await docbase(["links", "examples/site", "--url", "https://example.com/", "--json", "--external"])).stdout);
    expect(internal).toHaveLength(58);
    expect(external).toHaveLength(5);
    expect(internal.every((l) => String(l["url"]).startsWith("https://example.com/"))).toBe(true);
    expect(external.map((l) => l["url"])).toEqual([
      "https://cdn.example.net/team.jpg",
      "https://media.example.net/intro.webm",
      "javascript:void(0)",
      "https://url.spec.whatwg.org/#concept-basic-url-parser",
      "mailto:web@example.com?subject=Hello&body=Hi",
    ]);
    // URLs that do not parse are neither.
    expect([...internal, ...external].some((l) => l["url"] === null)).toBe(false);
  });

  it("takes one file, whose --url is the document's URL; internal means under its directory", async () => {
    const run = await docbase(["links", "examples/site/about/team.html", "--url", "https://example.com/about/team.html", "--json", "--internal"]);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => [l["file"], l["value"], l["url"]])).toEqual([["examples/site/about/team.html", "./", "https://example.com/about/"]]);
  });

  it("reads standard input with -", async () => {
    const run = await docbase(["links", "-", "--url", "https://example.com/a/b.html", "--json"], { input: '<base href="../x/"><a href="y">' });
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout)).toEqual([
      { file: "-", element: "base", attribute: "href", value: "../x/", url: "https://example.com/x/", line: 1, column: 13 },
      { file: "-", element: "a", attribute: "href", value: "y", url: "https://example.com/x/y", line: 1, column: 29 },
    ]);
    const table = await docbase(["links", "-", "--url", "https://example.com/"], { input: "<a href=a>" });
    expect(table.stdout).toBe("<stdin>\n  1:9  <a href>  a  https://example.com/a\n");
  });

  it("sniffs bytes from standard input (a BOM, a meta charset) and takes --encoding as a charset", async () => {
    const latin1 = Buffer.from('<a href="?q=caf\xe9">', "latin1");
    const sniffed = jsonLines((await docbase(["links", "-", "--url", "https://example.com/", "--json"], { input: latin1 })).stdout);
    expect(sniffed[0]?.["url"]).toBe("https://example.com/?q=caf%E9"); // windows-1252 by default
    const utf8 = Buffer.from('<a href="?q=café">', "utf8");
    const told = jsonLines((await docbase(["links", "-", "--url", "https://example.com/", "--json", "--encoding", "utf-8"], { input: utf8 })).stdout);
    expect(told[0]?.["url"]).toBe("https://example.com/?q=caf%C3%A9");
  });

  it("gives the same output with one thread and with a pool of workers", async () => {
    const dir = temporaryDirectory();
    const tree: Record<string, string> = {};
    for (let i = 0; i < 300; i++) tree[`section-${i % 7}/page-${i}.html`] = `<a href="../section-${(i + 1) % 7}/page-${i + 1}.html">next</a><img srcset="a.png 1x, /img/b${i}.png 2x">`;
    writeTree(dir, tree);
    const one = await docbase(["links", dir, "--url", "https://example.com/", "--json", "--jobs", "1"]);
    const pool = await docbase(["links", dir, "--url", "https://example.com/", "--json", "--jobs", "2"]);
    expect(one.code).toBe(0);
    expect(pool.code).toBe(0);
    expect(jsonLines(one.stdout)).toHaveLength(900);
    expect(pool.stdout).toBe(one.stdout);
  });

  it("is quiet with --quiet, and shows a progress bar with --progress even when piped", async () => {
    const quiet = await docbase(["links", "examples/site", "--url", "https://example.com/", "--quiet"]);
    expect(quiet.stderr).toBe("");
    // Piped standard error: no bar by default.
    const piped = await docbase(["links", "examples/site", "--url", "https://example.com/", "--json"]);
    expect(piped.stderr).not.toMatch(/files \|/);
    const forced = await docbase(["links", "examples/site", "--url", "https://example.com/", "--json", "--progress"]);
    expect(forced.stderr).toMatch(/docbase links \[[█░]+\] \d+% \| \d+\/15 files/);
    expect(forced.stdout).toBe(piped.stdout);
  });

  it("stops quietly when the reader stops reading (| head)", async () => {
    const dir = temporaryDirectory();
    const tree: Record<string, string> = {};
    for (let i = 0; i < 200; i++) tree[`p${i}.html`] = '<a href="x">'.repeat(200);
    writeTree(dir, tree);
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn("sh", ["-c", `"${process.execPath}" "${main}" links "${dir}" --url https://example.com/ --json --quiet | head -1 >/dev/null`], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (code) => resolve({ code, stderr }));
    });
    expect(run.stderr).toBe("");
  });

  it("reports a file that cannot be read, goes on with the others, and exits with 1", async () => {
    const dir = temporaryDirectory();
    writeTree(dir, { "a.html": '<a href="b.html">' });
    symlinkSync(path.join(dir, "nowhere.html"), path.join(dir, "dangling.html"));
    const run = await docbase(["links", dir, "--url", "https://example.com/", "--json"]);
    expect(run.code).toBe(1);
    expect(jsonLines(run.stdout)).toHaveLength(1);
    expect(run.stderr).toContain(`docbase: ${path.join(dir, "dangling.html")}: cannot be read: a symbolic link to nothing (ENOENT)`);
    expect(run.stderr).toMatch(/1 file could not be read, decoded or written/);
  });

  it("reports a file in the replacement encoding as one that cannot be decoded", async () => {
    const dir = temporaryDirectory();
    writeTree(dir, { "kr.html": '<meta charset="iso-2022-kr"><a href="x">', "ok.html": "<a href=y>" });
    const run = await docbase(["links", dir, "--url", "https://example.com/", "--json"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("kr.html: cannot be decoded: its encoding is the replacement encoding");
    expect(jsonLines(run.stdout).map((l) => l["value"])).toEqual(["y"]);
  });

  it("says so when a directory has no HTML files", async () => {
    const dir = temporaryDirectory();
    writeTree(dir, { "a.txt": "x" });
    const run = await docbase(["links", dir, "--url", "https://example.com/"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`no HTML files in ${dir}`);
  });

  it("maps files to URLs: index.html to its directory, names percent-encoded", async () => {
    const dir = temporaryDirectory();
    // An empty href resolves to the document's own URL.
    writeTree(dir, { "index.html": '<a href="">', "50% off/index.htm": '<a href="">', "a#b?.html": '<a href="">', "docs/é.html": '<a href="">' });
    const lines = jsonLines((await docbase(["links", dir, "--url", "https://example.com/site", "--json"])).stdout);
    expect(lines.map((l) => l["url"])).toEqual([
      "https://example.com/site/50%25%20off/",
      "https://example.com/site/a%23b%3F.html",
      "https://example.com/site/docs/%C3%A9.html",
      "https://example.com/site/",
    ]);
  });
});
