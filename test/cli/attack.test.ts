// Issue 29: the command under attack — one test per finding, each failing on the code before the fix: --out through
// a symbolic link to the site, a look-alike temporary file in the input, standard input capped for every command
// that reads it whole, a value with a million validation errors (heap capped), the same verdict however standard
// input arrives, control and bidi characters escaped in JSON, and messages in the units given.
import { chmodSync, existsSync, linkSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { internalErrorMessage } from "../../src/cli/file-task.ts";
import { parseURL, validateURL } from "../../src/core/index.ts";
import { isLinksError, LinkStream, MAX_ERRORS_PER_DOCUMENT } from "../../src/links/index.ts";
import { cleanup, docbase, docbaseBytes, ensureBuilt, findingsOf, jsonLines, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const url = "https://example.com/";

/** Runs the command with node flags `nodeArgs`, writing `pieces` to standard input `delay` ms apart. */
const runPieces = async (args: readonly string[], pieces: readonly (string | Uint8Array)[], delay = 0, nodeArgs: readonly string[] = []) => {
  const run = await docbaseBytes(args, { input: pieces, delay, nodeArgs });
  return { ...run, stdout: run.stdout.toString("utf8") };
};

describe("rewrite --out through a symbolic link to the site is the site itself", () => {
  it("in place, with its safeguards: a read-only file and a hard-linked file are left as they were", async () => {
    const dir = temporaryDirectory();
    const site = writeTree(path.join(dir, "site"), { "ro.html": '<a href="a.html">', "linked.html": '<a href="b.html">', "ok.html": '<a href="c.html">' });
    chmodSync(path.join(site, "ro.html"), 0o444);
    linkSync(path.join(site, "linked.html"), path.join(dir, "other-name.html"));
    symlinkSync(site, path.join(dir, "alias"));
    const run = await docbase(["rewrite", "site", "--url", url, "--absolute", "--out", "alias"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("read-only");
    expect(run.stderr).toContain("hard links");
    expect(readFileSync(path.join(site, "ro.html"), "utf8")).toBe('<a href="a.html">');
    expect(statSync(path.join(site, "ro.html")).mode & 0o777).toBe(0o444);
    expect(statSync(path.join(site, "linked.html")).nlink).toBe(2);
    expect(readFileSync(path.join(dir, "other-name.html"), "utf8")).toBe('<a href="b.html">');
    expect(readFileSync(path.join(site, "ok.html"), "utf8")).toBe('<a href="https://example.com/c.html">');
  });
});

describe("temporary files: only those docbase can prove it made are removed", () => {
  it("rewrite --out leaves an input file that looks like a temporary file of a dead process (and copies it)", async () => {
    const dir = temporaryDirectory();
    const site = writeTree(path.join(dir, "site"), { "x.html": '<a href="a.html">', ".x.docbase-999999-0-0.tmp": "the user's file" });
    const run = await docbase(["rewrite", site, "--url", url, "--absolute", "--out", path.join(dir, "out")]);
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(site, ".x.docbase-999999-0-0.tmp"), "utf8")).toBe("the user's file");
    expect(readFileSync(path.join(dir, "out", ".x.docbase-999999-0-0.tmp"), "utf8")).toBe("the user's file");
  });

  it("in place too: a look-alike without docbase's mark is the site's", async () => {
    const site = writeTree(temporaryDirectory(), { "x.html": '<a href="a.html">', ".x.html.docbase-999999-0-0.tmp": "mine" });
    const run = await docbase(["rewrite", site, "--url", url, "--absolute"]);
    expect(run.code).toBe(0);
    expect(existsSync(path.join(site, ".x.html.docbase-999999-0-0.tmp"))).toBe(true);
  });
});

describe("standard input is capped like a file for every command that reads it whole", () => {
  const big = "\0".repeat(4096);
  for (const command of [["check", "-", "--url", url], ["base", "-", "--url", url]]) {
    it(`${command[0]} - --max-file-size 1K: an error that says so, exit 1, no stack trace`, async () => {
      const run = await docbase([...command, "--max-file-size", "1K"], { input: big });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("-: cannot be read: it is larger than the largest file read (1 KiB; --max-file-size raises it)");
      expect(run.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it("--max-file-size 5: sizes in the unit given, never 0.0 KiB", async () => {
    const run = await docbase(["check", "-", "--url", url, "--max-file-size", "5"], { input: "<a href=x>" });
    expect(run.stderr).toContain("(5 bytes; --max-file-size raises it)");
    expect(run.stderr).not.toContain("0.0 KiB");
  });
});

describe("findings are bounded", () => {
  it("check of a value with two million validation errors: bounded memory (heap capped at 160 MB), a count of those left out", async () => {
    const file = path.join(temporaryDirectory(), "pct.html");
    writeFileSync(file, `<a href="${"% ".repeat(1_000_000)}">x</a>`);
    // The URL parses (each "%" not followed by two hex digits is a validation error): warnings, failing the run with --strict.
    const run = await runPieces(["check", file, "--url", url, "--json", "-q", "--strict"], [], 0, ["--max-old-space-size=160"]);
    expect(run.signal).toBe(null);
    expect(run.code).toBe(1);
    const findings = jsonLines(run.stdout).filter((f) => f["category"] === "url-validation");
    expect(findings.length).toBe(101);
    expect(findings.at(-1)!["message"]).toMatch(/1,999,899 more validation errors in this URL, not listed/);
  }, 120_000);

  // Per document: 3,000 values of 40 to 58 errors each keep MAX_ERRORS_PER_DOCUMENT in all; the rest is one line with
  // its exact count, read whole and read as a stream (a file over 8 MiB) alike.
  for (const padding of [0, 9 * 1024 * 1024]) {
    it(`check of 3,000 values of many errors each${padding === 0 ? "" : ", in a file read as a stream"}: ${MAX_ERRORS_PER_DOCUMENT.toLocaleString("en-US")} listed, one line counts the rest`, async () => {
      const values = Array.from({ length: 3000 }, (_, i) => `x${i}/${"% ".repeat(20 + (i % 10))}y`);
      const page = `${padding === 0 ? "" : `<!--${"-".repeat(padding)}-->`}${values.map((v) => `<a href="${v}">l</a>`).join("\n")}`;
      const file = path.join(temporaryDirectory(), "many.html");
      writeFileSync(file, page);
      const all = values.reduce((sum, value) => sum + validateURL(value, { base: parseURL(url)! }).errors.length, 0);
      const run = await docbase(["check", file, "--url", url, "--format", "json", "-q"]);
      const findings = findingsOf(run.stdout);
      const more = findings.filter((f) => f["type"] === "more-validation-errors");
      expect(more.length).toBe(1);
      expect(more[0]!["message"]).toContain(`${(all - MAX_ERRORS_PER_DOCUMENT).toLocaleString("en-US")} more validation errors in this document`);
      expect(findings.filter((f) => f["category"] === "url-validation" && f["type"] !== "more-validation-errors").length).toBe(MAX_ERRORS_PER_DOCUMENT);
    }, 300_000);
  }
});

describe("the same verdict however standard input arrives", () => {
  const page = `<!doctype html><meta charset=iso-2022-kr><a href="a.html">a</a>${"<p>x</p>".repeat(50)}`;
  const cut = (text: string, size: number): string[] => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

  for (const extra of [[], ["--no-spool", "--max-hold", "1"]]) {
    it(`rewrite - ${extra.join(" ")} of an ISO-2022-KR page: cannot be decoded, exit 1, in one piece and in pieces of 7 bytes`, async () => {
      const args = ["rewrite", "-", "--url", url, "--absolute", "-q", ...extra];
      const whole = await runPieces(args, [page]);
      const pieces = await runPieces(args, cut(page, 7), 5);
      expect(whole.code).toBe(1);
      expect(whole.stderr).toContain("cannot be decoded");
      expect(pieces.code).toBe(whole.code);
      expect(pieces.stderr).toBe(whole.stderr);
      expect(pieces.stdout).toBe(whole.stdout);
    }, 60_000);
  }
});

describe("JSON output escapes control and bidi characters as the text output does", () => {
  it("links --json and rewrite --dry-run --json: U+009B and U+202E as \\u escapes", async () => {
    const html = '<meta charset=utf-8><a href="x\u009b2J\u202ey.html">x</a>';
    const links = await docbase(["links", "-", "--url", url, "--json"], { input: html });
    expect(links.stdout).not.toMatch(/[\u009b\u202e]/);
    expect(links.stdout).toContain("x\\u009b2J\\u202ey.html");
    expect(jsonLines(links.stdout)[0]!["value"]).toBe("x\u009b2J\u202ey.html");
    const dry = await docbase(["rewrite", "-", "--url", url, "--absolute", "--dry-run", "--json"], { input: html });
    expect(dry.stdout).not.toMatch(/[\u009b\u202e]/);
    expect(dry.stdout).toContain("\\u009b");
    const checked = await docbase(["check", "-", "--url", url, "--json"], { input: html });
    expect(checked.stdout).not.toMatch(/[\u009b\u202e]/);
  });
});

describe("messages say what was given and what is accepted", () => {
  it.each([
    [Number.NaN, "NaN"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
    [10n, "10n (a BigInt)"],
    ["1M", '"1M" (a string)'],
  ])("maxHold %s: a LinksError naming it", (maxHold, shown) => {
    let error: unknown;
    try {
      new LinkStream({ url, maxHold: maxHold as never });
    } catch (e) {
      error = e;
    }
    expect(isLinksError(error)).toBe(true);
    expect((error as Error).message).toBe(`The "maxHold" option must be a number of bytes (0 or more, or Infinity), not ${shown}`);
  });
});

describe("never a stack trace for a user's input", () => {
  it("an internal error is its message; V8's string and buffer limits say the document is too large", () => {
    const bug = new Error("something broke");
    expect(internalErrorMessage(bug)).toBe("internal error: something broke (DOCBASE_DEBUG=1 prints where)");
    expect(internalErrorMessage(new RangeError("Invalid string length"))).toBe("too large to be read in memory (Invalid string length); --max-file-size lowers what is read whole");
    expect(internalErrorMessage(new RangeError("Cannot create a string longer than 0x1fffffe8 characters"))).toMatch(/^too large to be read in memory/);
  });
});
