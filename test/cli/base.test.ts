import { symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, temporaryDirectory } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

describe("docbase base", () => {
  it("prints the document base URL, which <base> sets it, and the links before it", async () => {
    const run = await docbase(["base", "examples/site/docs/guide.html", "--url", "https://example.com/docs/guide.html"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        "examples/site/docs/guide.html",
        "  document URL        https://example.com/docs/guide.html",
        "  encoding            UTF-8",
        "  fallback base URL   https://example.com/docs/guide.html (the document's URL)",
        "  document base URL   https://example.com/docs/v2/",
        '    set by <base href="/docs/v2/"> at 7:15, the first <base> with an href',
        "  note                a relative link before the <base> (at 6:32) resolves against it, not against the document's URL",
        "",
      ].join("\n"),
    );
  });

  it("says when the fallback base URL is the answer, and why", async () => {
    const none = await docbase(["base", "examples/site/legacy/latin1.html", "--url", "https://example.com/legacy/latin1.html"]);
    expect(none.stdout).toContain("  encoding            windows-1252\n");
    expect(none.stdout).toContain("  document base URL   https://example.com/legacy/latin1.html\n    the fallback base URL: the document has no <base> with an href\n");
    const ignored = await docbase(["base", "examples/site/broken.html", "--url", "https://example.com/broken.html"]);
    expect(ignored.stdout).toBe(
      [
        "examples/site/broken.html",
        "  document URL        https://example.com/broken.html",
        "  encoding            UTF-8",
        "  fallback base URL   https://example.com/broken.html (the document's URL)",
        "  document base URL   https://example.com/broken.html",
        '    the fallback base URL: the first <base href="javascript:void(0)"> at 6:15 is a javascript: URL',
        '  ignored             <base href="javascript:void(0)"> at 6:15: it is a javascript: URL',
        '  ignored             <base href="/elsewhere/"> at 7:15: only the first <base> with an href counts',
        "",
      ].join("\n"),
    );
  });

  it("gives the report as one JSON object with --json, from standard input, in the document's encoding", async () => {
    const input = Buffer.from('<base href="/t/?q=\xe9"><template><base href="/x/"></template><p>x<base href="/b/">', "latin1");
    const run = await docbase(["base", "-", "--url", "https://example.com/a", "--json"], { input });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      file: "-",
      documentURL: "https://example.com/a",
      encoding: "windows-1252",
      fallbackBaseURL: "https://example.com/a",
      documentBaseURL: "https://example.com/t/?q=%E9",
      derivation: "base",
      bases: [
        { line: 1, column: 13, href: "/t/?q=é", url: "https://example.com/t/?q=%E9", status: "used", reason: null, inBody: false },
        { line: 1, column: 44, href: "/x/", url: "https://example.com/x/", status: "in-template", reason: null, inBody: false },
        { line: 1, column: 76, href: "/b/", url: "https://example.com/b/", status: "not-first", reason: null, inBody: true },
      ],
      linksBeforeBase: null,
    });
  });

  it("uses the about base URL rules: about:blank documents have no about base URL here", async () => {
    const run = await docbase(["base", "-", "--url", "about:blank", "--json"], { input: '<base href="x/">' });
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    // "x/" does not parse against about:blank: the base is unusable.
    expect(report["documentBaseURL"]).toBe("about:blank");
    expect((report["bases"] as Record<string, unknown>[])[0]).toMatchObject({ status: "unusable", reason: "does not parse" });
  });

  it("reports a file that cannot be decoded with exit code 1, and one that is not there with 2", async () => {
    const dir = temporaryDirectory();
    symlinkSync(path.join(dir, "nowhere.html"), path.join(dir, "dangling.html"));
    const unreadable = await docbase(["base", path.join(dir, "dangling.html"), "--url", "https://example.com/"]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain("dangling.html is a symbolic link to nothing (no such file or directory)");
    const kr = await docbase(["base", "-", "--url", "https://example.com/"], { input: '<meta charset="csiso2022kr"><base href="/x/">' });
    expect(kr.code).toBe(1);
    expect(kr.stderr).toBe("docbase: -: cannot be decoded: its encoding is the replacement encoding\n");
  });
});
