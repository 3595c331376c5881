// The vendored WPT files are the pinned bytes: each matches test/fixtures/wpt/SHA256SUMS,
// and every file the suites read is listed there.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { readWPTFile, vendoredWPTRoot, wptDirectory, type WPTFileName, wptReflectionFiles } from "./wpt-data.ts";
import { runnerFiles, runnerWPTCommit } from "./wpt/selection.ts";

const sums = readFileSync(join(vendoredWPTRoot, "SHA256SUMS"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    const [digest, path] = line.split(/\s+/);
    return { digest: digest!, path: path! };
  });

const read: WPTFileName[] = [
  "urltestdata.json",
  "urltestdata-javascript-only.json",
  "setters_tests.json",
  "toascii.json",
  "percent-encoding.json",
  "IdnaTestV2.json",
  "IdnaTestV2-removed.json",
];

describe("vendored WPT data (test/fixtures/wpt)", () => {
  it("lists every file the suites read", () => {
    const listed = new Set(sums.map((entry) => entry.path));
    for (const name of read) expect(listed, name).toContain(`url/resources/${name}`);
    for (const name of wptReflectionFiles) expect(listed, name).toContain(`html/dom/${name}`);
    for (const path of runnerFiles) expect(listed, path).toContain(path);
  });

  it("names the runner files' wpt commit in its README", () => {
    expect(readFileSync(join(vendoredWPTRoot, "README.md"), "utf8")).toContain(runnerWPTCommit);
  });

  it("holds no file that SHA256SUMS does not list", () => {
    const files = readdirSync(vendoredWPTRoot, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(vendoredWPTRoot, join(entry.parentPath, entry.name)))
      .filter((path) => !["README.md", "LICENSE.md", "SHA256SUMS"].includes(path));
    expect(files.sort()).toEqual(sums.map((entry) => entry.path).sort());
  });

  for (const { digest, path } of sums) {
    it(`${path} has its pinned SHA-256`, () => {
      expect(createHash("sha256").update(readFileSync(join(vendoredWPTRoot, path))).digest("hex")).toBe(digest);
    });
  }

  it("is read from the repository, not from anything beside it", () => {
    expect(wptDirectory().startsWith(vendoredWPTRoot)).toBe(true);
    expect(Array.isArray(readWPTFile("urltestdata.json"))).toBe(true);
  });
});
