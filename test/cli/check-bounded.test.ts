// Issue 28: `docbase check` in bounded memory whatever the number of findings, in every format. The reports read
// their findings from spools (line-spool.ts) and group and order them with an external merge sort
// (external-sort.ts): here with bounds small enough that every path through the files is taken, against the same
// report made in memory; and through the command, with its heap capped (--max-old-space-size=64) far below what
// holding 60,000 findings takes (the command before this change died there: V8's out-of-memory abort).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sortLines } from "../../src/cli/commands/check/external-sort.ts";
import type { ReportedFinding } from "../../src/cli/commands/check/finding.ts";
import { findingsInMemory, spooledFindings } from "../../src/cli/commands/check/formats/finding-source.ts";
import { junitReport } from "../../src/cli/commands/check/formats/junit-report.ts";
import { markdownReport } from "../../src/cli/commands/check/formats/markdown-report.ts";
import { sarifReport } from "../../src/cli/commands/check/formats/sarif-report.ts";
import { textReport } from "../../src/cli/commands/check/formats/text-report.ts";
import { checkSummary } from "../../src/cli/commands/check/check-summary.ts";
import { LineSpool, SpoolDirectory } from "../../src/cli/commands/check/line-spool.ts";
import { FINDING_CATEGORIES, type FindingCategory } from "../../src/cli/commands/check/severity.ts";
import { cleanup, docbase, ensureBuilt, temporaryDirectory } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const url = "https://example.com/";

/** A small deterministic generator of numbers (the same findings every run). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Findings of every shape the reports meet: files, categories, shared targets, a link's later errors, odd text. */
function sampleFindings(count: number): ReportedFinding[] {
  const next = numbers(7);
  const categories = Object.keys(FINDING_CATEGORIES) as FindingCategory[];
  const odd = ["", "a|b`c", "<&>\"'", "\u0001\u001b[2J", "\ud800 lone", "é\u2028\u202e", "tab\there", "line\nfeed"];
  const found: ReportedFinding[] = [];
  for (let i = 0; i < count; i++) {
    const category = categories[Math.floor(next() * categories.length)]!;
    // (A file's name from the file system holds no lone surrogate.)
    const file = `site/p${Math.floor(i / 40)}${odd[Math.floor(next() * odd.length)]!.replace("\ud800", "")}.html`;
    const target = `https://example.com/t${Math.floor(next() * 30)}${odd[Math.floor(next() * odd.length)]}`;
    const later = i > 0 && next() < 0.2 && found.at(-1)!.file === file;
    const base = {
      file,
      line: 1 + Math.floor(next() * 500),
      column: 1 + Math.floor(next() * 80),
      type: later ? found.at(-1)!.type : `${category}-${Math.floor(next() * 3)}`,
      category: later ? found.at(-1)!.category : category,
      severity: FINDING_CATEGORIES[later ? found.at(-1)!.category : category].severity,
      message: `message ${i} ${odd[i % odd.length]}`,
      element: "a",
      attribute: next() < 0.1 ? null : "href",
    };
    if (later) found.push(base);
    else if (next() < 0.2) found.push({ ...base, value: `v${i}${odd[i % odd.length]}`, url: null });
    else found.push({ ...base, value: "x", url: target });
  }
  return found;
}

describe("the spools and the sort under the reports", () => {
  it("sortLines: in memory, in runs merged at once, and in runs merged in two rounds, the same order as Array.sort", () => {
    const next = numbers(3);
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) lines.push(`${String.fromCharCode(32 + Math.floor(next() * 400))}${Math.floor(next() * 1e6)}é${"\ud83d\ude00".repeat(i % 3)}`);
    const expected = [...lines].sort();
    const tmp = temporaryDirectory();
    const tmpdir = process.env["TMPDIR"];
    process.env["TMPDIR"] = tmp;
    const place = new SpoolDirectory("test lines");
    try {
      // 5,000 lines of about 72 counted characters: one run, about 40 runs (two rounds of merging), about 500 runs.
      for (const runChars of [1e9, 10_000, 700]) {
        expect([...sortLines(lines, place, runChars)]).toEqual(expected);
        // The runs are removed once merged: the spools' directory is left empty.
        for (const made of readdirSync(tmp)) expect(readdirSync(path.join(tmp, made))).toEqual([]);
      }
      expect(readdirSync(tmp).length).toBe(1);
      place.remove();
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      place.remove();
      if (tmpdir === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = tmpdir;
    }
  });

  it("a spool past its memory writes a file and reads back every line, whatever the reads cut (long lines, characters of 2 and 4 bytes)", () => {
    const place = new SpoolDirectory("test lines");
    try {
      const lines = ["", "plain", "é".repeat(70_000), `${"\ud83d\ude00".repeat(50_000)}x`, "last"];
      const spool = new LineSpool(place, "lines", 10);
      spool.append(`${lines.slice(0, 2).join("\n")}\n`);
      spool.appendLines(lines.slice(2));
      expect(spool.count).toBe(5);
      expect([...spool.lines()]).toEqual(lines);
      // Read twice, the same.
      expect([...spool.lines()]).toEqual(lines);
      spool.remove();
    } finally {
      place.remove();
    }
  });

  it("every report from spools and runs of a few lines is the report made in memory, byte for byte", () => {
    const findings = sampleFindings(3000);
    const summary = checkSummary({ files: 80, links: 5000, "missing-file": 10, "url-validation": 3 }, 0, false);
    const strict = checkSummary({ files: 80, links: 5000, "missing-file": 10, "url-validation": 3 }, 1, true);
    const files = ["site/none.html", "site/p0.html", "site/p3.html"];
    const place = new SpoolDirectory("test findings");
    try {
      const spool = new LineSpool(place, "findings", 1000);
      for (const f of findings) spool.appendLine(JSON.stringify(f));
      const spooled = spooledFindings(spool, place, 20_000);
      const memory = findingsInMemory(findings);
      const reports = (source: typeof memory): string[] =>
        [textReport(source), markdownReport(source, summary), sarifReport(source, "1.2.3"), junitReport(files, source, summary), junitReport(files, source, strict)].map((pieces) => [...pieces].join(""));
      // As bytes, as standard output gets them (UTF-8: a lone surrogate is U+FFFD, in memory as in a spool's file).
      const inMemory = reports(memory);
      const fromSpools = reports(spooled);
      for (let i = 0; i < inMemory.length; i++) expect(Buffer.from(fromSpools[i]!).equals(Buffer.from(inMemory[i]!)), `report ${i}`).toBe(true);
      // Not vacuous: the reports hold every finding, grouped (text), once each.
      expect(inMemory[0]!.split("\n").filter((l) => l.startsWith("  ")).length).toBe(3000);
      expect((JSON.parse(inMemory[2]!) as { runs: { results: unknown[] }[] }).runs[0]!.results.length).toBe(3000);
    } finally {
      place.remove();
    }
  });
});

describe("docbase check of 60,000 findings, its heap capped at 64 MiB", () => {
  const N = 60_000;
  const dir = temporaryDirectory();
  const site = path.join(dir, "site");
  const file = path.join(site, "index.html");
  // Over 8 MiB (read as a stream, its findings sent as they come): text, then a link a line to a page that is not there.
  const para = `<p>${"lorem ipsum dolor sit amet ".repeat(40)}</p>\n`;
  const paras = Math.ceil((8.5 * 1024 * 1024) / para.length);
  /** The line of the i-th link. */
  const lineOf = (i: number): number => 2 + paras + i;
  beforeAll(() => {
    mkdirSync(site);
    const parts = ["<!doctype html><meta charset=utf-8><title>t</title>\n", para.repeat(paras)];
    for (let i = 0; i < N; i++) parts.push(`<a href="m${i}.html">x</a>\n`);
    writeFileSync(file, parts.join(""));
  });
  const capped = { nodeArgs: ["--max-old-space-size=64"] };
  const check = (format: string) => docbase(["check", site, "--url", url, "--format", format, "-q"], capped);
  const referrer = (i: number): string => `${file}:${lineOf(i)}:10: missing-file: <a href> m${i}.html → ${url}m${i}.html: no file m${i}.html in the site`;

  it("--format text: every target a heading, its referrer under it, in the order found; exit 1", async () => {
    const run = await check("text");
    expect(run.signal).toBe(null);
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines.length).toBe(2 * N + 1);
    for (const i of [0, 1, 2, 9999, N - 1]) {
      expect(lines[2 * i]).toBe(`error missing-file ${url}m${i}.html (1 reference)`);
      expect(lines[2 * i + 1]).toBe(`  ${referrer(i)}`);
    }
  }, 300_000);

  it("--format markdown: a row per target, errors only", async () => {
    const run = await check("markdown");
    expect(run.code, run.stderr).toBe(1);
    const rows = run.stdout.split("\n").filter((l) => l.startsWith("| missing-file |"));
    expect(rows.length).toBe(N);
    expect(rows[N - 1]).toBe(`| missing-file | \` ${url}m${N - 1}.html \` | \` ${file}:${lineOf(N - 1)}:10 \` |`);
    expect(run.stdout).toMatch(/^## docbase check: 60,000 errors \(60,000 missing files\)\n/);
    expect(run.stdout).not.toContain("### Warnings");
  }, 300_000);

  it("--format junit: one test case with a failure per finding", async () => {
    const run = await check("junit");
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout.match(/<failure /g)?.length).toBe(N);
    expect(run.stdout).toContain(`<testsuites name="docbase check" tests="1" failures="1" errors="0">`);
    expect(run.stdout.endsWith("    </testcase>\n  </testsuite>\n</testsuites>\n")).toBe(true);
  }, 300_000);

  it("--format sarif: a result per finding, one rule", async () => {
    const run = await check("sarif");
    expect(run.code, run.stderr).toBe(1);
    const log = JSON.parse(run.stdout) as { runs: { tool: { driver: { rules: unknown[] } }; results: { message: { text: string } }[] }[] };
    expect(log.runs[0]!.tool.driver.rules.length).toBe(1);
    expect(log.runs[0]!.results.length).toBe(N);
    expect(log.runs[0]!.results[N - 1]!.message.text).toBe(referrer(N - 1).replace(/^.*?: missing-file: /, ""));
  }, 300_000);

  it("--format json (fragments checked: the findings wait in the spool): every finding, then the summary; exit 1", async () => {
    const run = await check("json");
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.length).toBe(N + 1);
    expect(JSON.parse(lines[N - 1]!)).toMatchObject({ file, line: lineOf(N - 1), type: "missing-file" });
    expect(JSON.parse(lines[N]!)).toMatchObject({ type: "summary", links: N, errors: N, warnings: 0, categories: { "missing-file": N }, failed: true });
  }, 300_000);
});

describe("the spool's temporary directory", () => {
  // 20,000 findings (about 4 Mi characters), with a 64 MiB heap: past what a spool holds in memory then (512 Ki
  // characters, 1/128 of the heap), so the run writes its files.
  const dir = temporaryDirectory();
  const site = path.join(dir, "site");
  beforeAll(() => {
    mkdirSync(site);
    const parts: string[] = [];
    for (let i = 0; i < 20_000; i++) parts.push(`<a href="m${i}.html">x</a>\n`);
    writeFileSync(path.join(site, "index.html"), parts.join(""));
  });

  it("is made in TMPDIR and removed after the run", async () => {
    const tmp = path.join(dir, "tmp");
    mkdirSync(tmp);
    const run = await docbase(["check", site, "--url", url, "-q"], { env: { TMPDIR: tmp }, nodeArgs: ["--max-old-space-size=64"] });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout.split("\n").length).toBe(2 * 20_000 + 1);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);

  it("one that cannot be made is an error naming the directory, exit 1", async () => {
    const missing = path.join(dir, "no-such-directory");
    const run = await docbase(["check", site, "--url", url, "-q"], { env: { TMPDIR: missing }, nodeArgs: ["--max-old-space-size=64"] });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`docbase: cannot write check's findings to a temporary file in ${missing}: ENOENT`);
    expect(run.stdout).toBe("");
  }, 120_000);
});
