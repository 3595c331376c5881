// The pieces under the command, in process: the file ↔ URL mapping and the
// value → source position mapping (the subprocess suites cover the rest).
import { describe, expect, it } from "vitest";
import { directoryOf, siteFileForURL, siteFilesFromLists, siteFileURL, siteHas, siteRootOption } from "../../src/cli/site.ts";
import { positionAfter, positionOf, valueOffsetMapper } from "../../src/cli/source-positions.ts";
import { isUsageError } from "../../src/cli/index.ts";
import { extractLinks } from "../../src/links/index.ts";

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

  it("siteHas: files, directory indexes, and directories without a slash", () => {
    const files = siteFilesFromLists(["index.html", "a/index.htm", "b/readme.txt", "c.html"], ["a", "b"]);
    expect(siteHas(files, { path: "", directory: true })).toBe(true);
    expect(siteHas(files, { path: "a", directory: true })).toBe(true);
    expect(siteHas(files, { path: "a", directory: false })).toBe(true);
    expect(siteHas(files, { path: "b", directory: true })).toBe(false);
    expect(siteHas(files, { path: "c.html", directory: false })).toBe(true);
    expect(siteHas(files, { path: "c.html", directory: true })).toBe(false);
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

describe("source positions", () => {
  const url = "https://example.com/";

  it("maps offsets in a value to offsets in the source through references", () => {
    const text = '<a href="&lt;&#x1F600;&amp;b&NotEqualTilde;c">';
    const [link] = extractLinks(text, { url });
    expect(link!.value).toBe("<\u{1F600}&b\u2242\u0338c");
    const at = valueOffsetMapper(text, link!);
    const source = (s: string): number => text.indexOf(s);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(at)).toEqual([
      source("&lt;"),
      source("&#x1F600;"),
      source("&#x1F600;"),
      source("&amp;"),
      source("b&"),
      source("&NotEqualTilde;"),
      source("&NotEqualTilde;"),
      source("c\""),
    ]);
    expect(at(8)).toBe(source('">'));
  });

  it("reports at the value's start when it cannot map (never inside at a wrong place)", () => {
    const text = '<a href="x y">';
    const [link] = extractLinks(text, { url });
    // A link whose source text and value disagree beyond what decoding explains.
    const at = valueOffsetMapper(text.replace("x y", "x&y"), { ...link!, value: "zzz" });
    expect(at(2)).toBe(link!.start);
  });

  it("counts lines (CR, LF, CR LF) and columns in code points", () => {
    expect(positionOf("a\nb", 2)).toEqual({ line: 2, column: 1 });
    expect(positionOf("a\rb", 2)).toEqual({ line: 2, column: 1 });
    expect(positionOf("a\r\nb", 3)).toEqual({ line: 2, column: 1 });
    expect(positionOf("\u{1F600}\u{1F600}x", 4)).toEqual({ line: 1, column: 3 });
    expect(positionAfter("ab\ncd", 1, { line: 1, column: 2 }, 5)).toEqual({ line: 2, column: 3 });
  });
});
