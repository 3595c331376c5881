// The pieces under the command, in process: the file ↔ URL mapping (the
// subprocess suites cover the rest; where a validation error is in the
// source is the links layer's, tested in test/links/validation-positions.test.ts).
import { describe, expect, it } from "vitest";
import { directoryOf, siteFileForHref, siteFileForURL, siteFilesFromLists, siteFileURL, siteHas, siteHTMLFile, siteRootOption } from "../../src/cli/site.ts";
import { isUsageError } from "../../src/cli/index.ts";

describe("site files and URLs", () => {
  it("siteFileURL serves index.html at its directory and percent-encodes names", () => {
    expect(siteFileURL("https://example.com/", "index.html")).toBe("https://example.com/");
    expect(siteFileURL("https://example.com/", "a/index.htm")).toBe("https://example.com/a/");
    expect(siteFileURL("https://example.com/", "a/Index.html")).toBe("https://example.com/a/Index.html");
    expect(siteFileURL("https://example.com/", "50% off/a b#c?d\\e.html")).toBe("https://example.com/50%25%20off/a%20b%23c%3Fd%5Ce.html");
    expect(siteFileURL("file:///srv/www/", "é.html")).toBe("file:///srv/www/%C3%A9.html");
  });

  it("siteFileForURL goes back, percent-decoding, ignoring query and fragment", () => {
    const root = "https://example.com/site/";
    for (const rel of ["50% off/a b#c?d.html", "é/ü.html", "docs/x.html"]) {
      expect(siteFileForURL(root, siteFileURL(root, rel))).toEqual({ path: rel, directory: false });
    }
    expect(siteFileForURL(root, "https://example.com/site/a/?q#f")).toEqual({ path: "a", directory: true });
    expect(siteFileForURL(root, "https://example.com/site")).toEqual({ path: "", directory: true });
    expect(siteFileForURL(root, "https://example.com/other/")).toBeNull();
    expect(siteFileForURL(root, "http://example.com/site/a.html")).toBeNull();
    expect(siteFileForURL(root, "mailto:a@example.com")).toBeNull();
  });

  it("siteFileForHref, on a URL already serialized and cut at its query or fragment, is siteFileForURL", () => {
    for (const root of ["https://example.com/site/", "foo://h/a/", "file:///srv/www/"]) {
      for (const href of [`${root}a%20b/c.html`, `${root}x/`, root, root.slice(0, -1), `${root}%2F..%2Fetc`, `${root}%C3%A9.html`, "https://example.com/other", "mailto:x", "foo:", "foo://h/a"]) {
        expect(siteFileForHref(root, href), `${href} under ${root}`).toEqual(siteFileForURL(root, href));
      }
    }
  });

  it("siteHTMLFile: the HTML file that serves a URL, or null", () => {
    const files = siteFilesFromLists(["index.html", "a/index.htm", "b/readme.txt", "c.html", "d.png"], ["a", "b"]);
    expect(siteHTMLFile(files, { path: "", directory: true })).toBe("index.html");
    expect(siteHTMLFile(files, { path: "a", directory: false })).toBe("a/index.htm");
    expect(siteHTMLFile(files, { path: "c.html", directory: false })).toBe("c.html");
    expect(siteHTMLFile(files, { path: "d.png", directory: false })).toBeNull();
    expect(siteHTMLFile(files, { path: "b", directory: true })).toBeNull();
    expect(siteHTMLFile(files, { path: "gone.html", directory: false })).toBeNull();
  });

  it("siteHas: files, directory indexes, and directories without a slash", () => {
    const files = siteFilesFromLists(["index.html", "a/index.htm", "b/readme.txt", "c.html"], ["a", "b"]);
    expect(siteHas(files, { path: "", directory: true })).toBe(true);
    expect(siteHas(files, { path: "a", directory: true })).toBe(true);
    expect(siteHas(files, { path: "a", directory: false })).toBe(true);
    expect(siteHas(files, { path: "b", directory: true })).toBe(false);
    expect(siteHas(files, { path: "c.html", directory: false })).toBe(true);
    expect(siteHas(files, { path: "c.html", directory: true })).toBe(false);
  });

  it("siteFilesFromLists: paths through the site's symbolic links", () => {
    // latest -> v2, v2/old -> v1 (a link inside a linked directory), alias.html -> v2/a.html, loop -> "" (the root).
    const links = [["latest", "v2"], ["v2/old", "v1"], ["alias.html", "v2/a.html"], ["loop", ""]] as const;
    const files = siteFilesFromLists(["v1/index.html", "v2/a.html", "latest", "v2/old", "alias.html", "loop"], ["v1", "v2"], links);
    expect(["latest/a.html", "latest/old/index.html", "alias.html", "loop/loop/v2/a.html", "v2/a.html"].map((p) => files.realPath?.(p))).toEqual(["v2/a.html", "v1/index.html", "v2/a.html", "v2/a.html", "v2/a.html"]);
    expect([files.hasFile("latest/a.html"), files.hasDirectory("latest/old"), files.hasDirectory("latest"), files.hasFile("latest/b.html")]).toEqual([true, true, true, false]);
    expect(siteHas(files, { path: "latest/old", directory: true })).toBe(true);
    expect(siteHTMLFile(files, { path: "latest/old", directory: true })).toBe("v1/index.html");
    expect(siteHTMLFile(files, { path: "alias.html", directory: false })).toBe("v2/a.html");
    // A link to what the walk did not list (node_modules, an --out directory) is there all the same, as a file.
    const skipped = siteFilesFromLists(["x.html"], [], [["x.html", "node_modules/p/x.html"]]);
    expect([skipped.hasFile("x.html"), siteHas(skipped, { path: "x.html", directory: false })]).toEqual([true, true]);
  });

  it("site roots and directories", () => {
    expect(siteRootOption("https://example.com", "--url")).toBe("https://example.com/");
    expect(siteRootOption("https://example.com/a/b", "--url")).toBe("https://example.com/a/b/");
    expect(() => siteRootOption("https://example.com/#x", "--url")).toThrow(/no query or fragment/);
    try {
      siteRootOption("data:,x", "--to");
    } catch (error) {
      expect(isUsageError(error)).toBe(true);
      expect((error as Error).message).toBe('--to: "data:,x" cannot be a site root: it has no hierarchical path');
    }
    expect(directoryOf("https://example.com/a/b.html?x")).toBe("https://example.com/a/");
    expect(directoryOf("https://example.com")).toBe("https://example.com/");
  });
});
