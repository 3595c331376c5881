import { readFileSync } from "node:fs";
import path from "node:path";
import AjvModule from "ajv-draft-04";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, findingsOf, repo, temporaryDirectory, writeTree } from "./helpers.ts";

// ajv-draft-04 is CommonJS with `exports.default`: under Node's ESM interop the default import is the module object.
const Ajv = AjvModule.default;

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const url = "https://example.com/";

/** A site with one error target referred to from two pages, a warning, and a control character and markup in a value. */
const site = {
  "index.html": '<a href="gone.html">a</a>\n<a href="a b.html">space</a>',
  "about.html": '<p>\n<a href="gone.html">b</a> <a href="http://x:99999/">port</a> <a href="q.html?<&>&#1;">odd</a>',
  "a b.html": "",
  "q.html": "",
};

describe("docbase check: what fails the run", () => {
  it("errors fail it; warnings are shown and fail it only with --strict", async () => {
    const dir = writeTree(temporaryDirectory(), { "index.html": '<a href="a b.html">x</a>', "a b.html": "" });
    const plain = await docbase(["check", dir, "--url", url]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("warning invalid-URL-unit https://example.com/a%20b.html (1 reference)");
    expect(plain.stderr).toMatch(/^docbase check: 1 warning \(1 URL validation warning\) in 2 files/);
    const strict = await docbase(["check", dir, "--url", url, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("1 warning (1 URL validation warning), failing the run (--strict)");
  });

  it("every JSON finding has its severity, and the run ends with one summary object", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", url, "--json"]);
    expect(run.code).toBe(1);
    const findings = findingsOf(run.stdout);
    // File by file (in the walk's order), each in source order.
    expect(findings.map((f) => [path.basename(String(f["file"])), f["type"], f["category"], f["severity"]])).toEqual([
      ["about.html", "missing-file", "missing-file", "error"],
      ["about.html", "port-out-of-range", "invalid-url", "error"],
      ["about.html", "invalid-URL-unit", "url-validation", "warning"],
      ["about.html", "invalid-URL-unit", "url-validation", "warning"],
      ["about.html", "invalid-URL-unit", "url-validation", "warning"],
      ["index.html", "missing-file", "missing-file", "error"],
      ["index.html", "invalid-URL-unit", "url-validation", "warning"],
    ]);
    // A link's first finding (in source order) carries its value and URL; its others do not repeat them.
    expect(findings[2]!["value"]).toBe("q.html?<&>\u0001");
    expect(findings[3]!["value"]).toBeUndefined();
    const summary = JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    expect(summary).toEqual({
      type: "summary",
      files: 4,
      links: 5,
      errors: 3,
      warnings: 4,
      categories: { "invalid-url": 1, "missing-file": 2, "url-validation": 4 },
      unreadable: 0,
      strict: false,
      failed: true,
    });
  });
});

describe("docbase check: text grouped by target", () => {
  it("gives a target once, errors first, with its referrers counted and listed", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", url]);
    const lines = run.stdout.split("\n");
    const heading = lines.indexOf("error missing-file https://example.com/gone.html (2 references)");
    expect(heading).toBeGreaterThan(0);
    expect(lines[heading + 1]).toBe(`  ${path.join(dir, "about.html")}:2:10: missing-file: <a href> gone.html → https://example.com/gone.html: no file gone.html in the site`);
    expect(lines[heading + 2]).toBe(`  ${path.join(dir, "index.html")}:1:10: missing-file: <a href> gone.html → https://example.com/gone.html: no file gone.html in the site`);
    // Errors first (invalid URLs, then missing files), then warnings; a link's three validation errors are one target.
    expect(lines.filter((l) => !l.startsWith("  ") && l !== "").map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual([
      "error port-out-of-range",
      "error missing-file",
      "warning invalid-URL-unit",
      "warning invalid-URL-unit",
    ]);
    expect(lines).toContain('warning invalid-URL-unit https://example.com/q.html?%3C&%3E (1 reference)');
  });
});

/** The first result of a SARIF log. */
function results0(log: { runs: { results: Record<string, unknown>[] }[] }): Record<string, unknown> {
  return log.runs[0]!.results[0]!;
}

describe("docbase check --format", () => {
  it("sarif: a SARIF 2.1.0 log that validates against the schema, a result at each finding's file:line:column", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", url, "--format", "sarif"], { cwd: dir });
    expect(run.code).toBe(1);
    const schema = JSON.parse(readFileSync(path.join(repo, "test/fixtures/sarif/sarif-schema-2.1.0.json"), "utf8")) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const log = JSON.parse(run.stdout) as { version: string; runs: { tool: { driver: { name: string; rules: { id: string }[] } }; results: Record<string, unknown>[] }[] };
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    // The validator does reject what is not SARIF: a run without its tool, a level SARIF does not have.
    expect(validate({ version: "2.1.0", runs: [{ results: [] }] })).toBe(false);
    expect(validate({ ...log, runs: [{ ...log.runs[0], results: [{ ...results0(log), level: "fatal" }] }] })).toBe(false);
    expect(log.version).toBe("2.1.0");
    const results = log.runs[0]!.results;
    expect(results).toHaveLength(7);
    expect(results[0]).toMatchObject({
      ruleId: "missing-file",
      level: "error",
      locations: [{ physicalLocation: { artifactLocation: { uri: expect.stringMatching(/about\.html$/) }, region: { startLine: 2, startColumn: 10 } } }],
    });
    expect(results.filter((r) => r["level"] === "warning")).toHaveLength(4);
    expect(log.runs[0]!.tool.driver.rules.map((r) => r.id).sort()).toEqual(["invalid-URL-unit", "missing-file", "port-out-of-range"]);
    // A file name with a space is a URI reference with %20.
    expect(JSON.stringify(log)).not.toMatch(/"uri":"[^"]* /);
  });

  it("sarif with no findings is still a valid log", async () => {
    const dir = writeTree(temporaryDirectory(), { "index.html": '<a href="index.html">x</a>' });
    const run = await docbase(["check", dir, "--url", url, "--format", "sarif"]);
    expect(run.code).toBe(0);
    const schema = JSON.parse(readFileSync(path.join(repo, "test/fixtures/sarif/sarif-schema-2.1.0.json"), "utf8")) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(JSON.parse(run.stdout))).toBe(true);
  });

  it("junit: well-formed XML with testsuites > testsuite > testcase (one per file) > failure (one per error)", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", url, "--format", "junit"]);
    expect(run.code).toBe(1);
    expect(XMLValidator.validate(run.stdout)).toBe(true);
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => ["testsuite", "testcase", "failure"].includes(name) });
    const xml = parser.parse(run.stdout) as { testsuites: { tests: string; failures: string; testsuite: { name: string; testcase: { name: string; classname: string; failure?: { type: string; message: string; "#text": string }[]; "system-out"?: string }[] }[] } };
    const suite = xml.testsuites.testsuite[0]!;
    expect(suite.name).toBe("docbase check");
    expect(xml.testsuites.tests).toBe("4");
    expect(xml.testsuites.failures).toBe("2");
    const byName = new Map(suite.testcase.map((c) => [path.basename(c.name), c]));
    expect(byName.get("about.html")!.failure!.map((f) => f.type)).toEqual(["missing-file", "port-out-of-range"]);
    expect(byName.get("index.html")!.failure!.map((f) => f.type)).toEqual(["missing-file"]);
    // Warnings are not failures: they are in the case's output.
    expect(byName.get("index.html")!["system-out"]).toContain("invalid-URL-unit");
    expect(byName.get("a b.html")!.failure).toBeUndefined();
    // Markup and a control character in a value come through as text (the control character replaced: XML 1.0 cannot carry it).
    expect(byName.get("about.html")!["system-out"]).toContain('"q.html?<&>');
    const strict = await docbase(["check", dir, "--url", url, "--format", "junit", "--strict"]);
    expect(XMLValidator.validate(strict.stdout)).toBe(true);
    expect(strict.stdout.match(/<failure /g)).toHaveLength(7);
  });

  it("markdown: the summary, then a table of targets per severity", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", url, "--format", "markdown"]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe("## docbase check: 3 errors (1 invalid URL, 2 missing files), 4 warnings (4 URL validation warnings)");
    expect(lines).toContain("### Errors");
    expect(lines).toContain("### Warnings");
    const row = lines.find((l) => l.includes("gone.html"))!;
    expect(row.startsWith("| missing-file | ` https://example.com/gone.html ` | ")).toBe(true);
    expect(row.split("<br>")).toHaveLength(2);
    // Every row has its three cells: no "|" of a value breaks the table.
    for (const l of lines.filter((l) => l.startsWith("| ") && !l.startsWith("| type") && !l.startsWith("| ---"))) expect(l.split(/(?<!\\)\|/)).toHaveLength(5);
  });

  it("rejects an unknown format, and --json with another format", async () => {
    expect((await docbase(["check", "-", "--url", url, "--format", "xml"], { input: "" })).code).toBe(2);
    expect((await docbase(["check", "-", "--url", url, "--format", "sarif", "--json"], { input: "" })).code).toBe(2);
  });
});

describe("docbase check: ignoring", () => {
  it("--exclude skips links whose URL matches (repeatable); a bad regular expression is a usage error naming it", async () => {
    const dir = writeTree(temporaryDirectory(), site);
    const run = await docbase(["check", dir, "--url", url, "--json", "--exclude", "gone\\.html$", "--exclude", "^http://x:"]);
    expect(findingsOf(run.stdout).map((f) => f["type"])).toEqual(["invalid-URL-unit", "invalid-URL-unit", "invalid-URL-unit", "invalid-URL-unit"]);
    expect(run.code).toBe(0);
    const bad = await docbase(["check", dir, "--url", url, "--exclude", "("]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--exclude: not a regular expression: "("');
  });

  it("--exclude-path leaves out files by glob under the site root (a directory, or a pattern)", async () => {
    const dir = writeTree(temporaryDirectory(), { "index.html": '<a href="x.html">', "drafts/a.html": '<a href="y.html">', "blog/p.amp.html": '<a href="z.html">', "blog/p.html": '<a href="w.html">' });
    const run = await docbase(["check", dir, "--url", url, "--json", "--exclude-path", "drafts", "--exclude-path", "**/*.amp.html"]);
    expect(findingsOf(run.stdout).map((f) => path.relative(dir, String(f["file"]))).sort()).toEqual(["blog/p.html", "index.html"]);
    expect(run.stderr).toMatch(/in 2 files/);
  });
});

describe("docbase check: data-docbase-ignore and data-proofer-ignore", () => {
  it("skip the links of the element that has one and of its descendants, as html-proofer does; not its siblings", async () => {
    const html = [
      '<a href="one.html" data-docbase-ignore>one</a>',
      '<div data-proofer-ignore><p><img src="two.png"><a href="three.html">x</a></p></div>',
      '<iframe data-docbase-ignore srcdoc="<a href=four.html>"></iframe>',
      '<a href="five.html">checked</a>',
      '<p data-proofer-ignore></p><a href="six.html">checked, a sibling</a>',
    ].join("\n");
    const dir = writeTree(temporaryDirectory(), { "index.html": html });
    const run = await docbase(["check", dir, "--url", url, "--json"]);
    expect(findingsOf(run.stdout).map((f) => f["value"])).toEqual(["five.html", "six.html"]);
    // Without the attributes every link is checked.
    writeTree(dir, { "index.html": html.replace(/data-(docbase|proofer)-ignore/g, "data-x") });
    const all = await docbase(["check", dir, "--url", url, "--json"]);
    expect(findingsOf(all.stdout).map((f) => f["value"])).toEqual(["one.html", "two.png", "three.html", "four.html", "five.html", "six.html"]);
  });

  it("and --exclude hold for a file read as a stream (over 8 MiB) as for one read whole", async () => {
    const html = [
      '<a href="one.html" data-docbase-ignore>one</a>',
      '<div data-proofer-ignore><p><img src="two.png"><a href="three.html">x</a></p></div>',
      '<iframe data-docbase-ignore srcdoc="<a href=four.html>"></iframe>',
      `<!--${"x".repeat(9 * 1024 * 1024)}-->`,
      '<a href="five.html">checked</a> <a href="excluded.html">excluded</a>',
      '<p data-proofer-ignore></p><a href="six.html">checked, a sibling</a>',
    ].join("\n");
    const dir = writeTree(temporaryDirectory(), { "index.html": html });
    // A file over --max-file-size is read only as a stream: it is read, so it was streamed.
    const run = await docbase(["check", dir, "--url", url, "--json", "--exclude", "^https://example\\.com/excluded", "--max-file-size", "1M"]);
    expect(run.stderr).not.toContain("--max-file-size raises it");
    expect(run.code).toBe(1);
    expect(findingsOf(run.stdout).map((f) => f["value"])).toEqual(["five.html", "six.html"]);
  });
});
