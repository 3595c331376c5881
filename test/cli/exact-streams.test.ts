// Issue 28: the command is exact at any size. A document whose only <base> (or whose <meta charset>) comes after
// 1 and 8 MiB, through `links FILE`, `links -`, `rewrite` of a file over STREAMING_SIZE, `rewrite -` and `check`:
// link for link and byte for byte the whole-document answer (extractLinks, rewriteLinks); at 64 MiB, every command
// too, with the command's heap capped far below the document's parse, against answers made from the document's parts. `--no-spool` keeps one stream: it says so first, and warns at the end, in text and JSON.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDocument } from "../../src/cli/commands/check/check-document.ts";
import { findingLine } from "../../src/cli/commands/check/finding.ts";
import { noSpoolWarning } from "../../src/cli/document-stream.ts";
import { STREAMING_SIZE } from "../../src/cli/regular-file.ts";
import { absolutize, extractLinks, rewriteLinks } from "../../src/links/index.ts";
import { cleanup, docbaseBytes, ensureBuilt, findingsOf, jsonLines, temporaryDirectory } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const MiB = 1024 * 1024;
const URL = "https://example.com/";

/** Runs the command with `input` on standard input (node flags first); standard output as bytes. */
const run = (args: readonly string[], input: Uint8Array = new Uint8Array(), nodeArgs: readonly string[] = []) => docbaseBytes(args, { input, nodeArgs });

/** Text with a few links, about `bytes` long (ASCII but the query's "é" as a reference, so any ASCII-compatible encoding reads it alike). */
function filler(bytes: number): string {
  const unit = `<p>${"lorem ipsum dolor ".repeat(40)}<a href="x.html?q=&eacute;">l</a> <img src=i.png srcset="a.png 1x, b.png 2x"></p>\n`;
  return unit.repeat(Math.ceil(bytes / unit.length));
}

/** The only <base>, after `size` bytes. */
const lateBase = (size: number): Uint8Array => new TextEncoder().encode(`<!doctype html><meta charset=utf-8><title>t</title>${filler(size)}<base href="/moved/"><a href=last.html>l</a>\n`);

/** The <meta charset> (windows-1251: "Ж" is 0xC6), after `size` bytes. */
const lateCharset = (size: number): Uint8Array => iconv.encode(`<!doctype html><title>t</title>${filler(size)}<meta charset=windows-1251><a href="?q=Ж">Ж</a>\n`, "windows-1251");

/** extractLinks's links as `links --json` prints them. */
function expectedLines(bytes: Uint8Array, url: string, file: string): Record<string, unknown>[] {
  return extractLinks(bytes, { url }).map((l) => ({ file, element: l.element, attribute: l.attribute, value: l.value, url: l.url, line: l.line, column: l.column }));
}

const documents = [
  ["late <base>", lateBase, (lines: Record<string, unknown>[]) => expect(lines[0]!["url"]).toBe("https://example.com/moved/x.html?q=%C3%A9")],
  ["late <meta charset>", lateCharset, (lines: Record<string, unknown>[]) => expect(lines.at(-1)!["url"]).toBe("https://example.com/site/page.html?q=%C6")],
] as const;

describe.each(documents)("a document whose %s comes after 1 and 8 MiB", (_name, make, check) => {
  for (const size of [MiB, 8 * MiB]) {
    it(`${size / MiB} MiB: links FILE, links -, rewrite of the file, rewrite -, check FILE and check - give the whole document's answer`, async () => {
      const bytes = make(size);
      const dir = temporaryDirectory();
      const site = path.join(dir, "site");
      mkdirSync(site);
      const file = path.join(site, "page.html");
      writeFileSync(file, bytes);
      const url = `${URL}site/page.html`;

      const whole = expectedLines(bytes, url, file);
      check(whole);
      const fromFile = await run(["links", file, "--url", url, "--json"]);
      expect(fromFile.code, fromFile.stderr).toBe(0);
      expect(jsonLines(fromFile.stdout.toString("utf8"))).toEqual(whole);
      const fromStdin = await run(["links", "-", "--url", url, "--json"], bytes);
      expect(fromStdin.code, fromStdin.stderr).toBe(0);
      expect(jsonLines(fromStdin.stdout.toString("utf8"))).toEqual(whole.map((l) => ({ ...l, file: "-" })));

      // rewrite: the site's file (over STREAMING_SIZE at 8 MiB: streamed, read twice) into --out and in place, and
      // standard input (spooled past --max-hold, then read as that file; held whole with a larger --max-hold: read
      // whole, in a worker).
      expect(bytes.length > STREAMING_SIZE).toBe(size === 8 * MiB);
      const rewritten = Buffer.from(rewriteLinks(bytes, { url, rewrite: absolutize() }));
      const out = path.join(dir, "out");
      const site1 = await run(["rewrite", site, "--url", `${URL}site/`, "--absolute", "--out", out, "-q"]);
      expect(site1.code, site1.stderr).toBe(0);
      expect(readFileSync(path.join(out, "page.html")).equals(rewritten)).toBe(true);
      const inPlaceSite = path.join(dir, "in-place");
      mkdirSync(inPlaceSite);
      writeFileSync(path.join(inPlaceSite, "page.html"), bytes);
      const inPlace = await run(["rewrite", inPlaceSite, "--url", `${URL}site/`, "--absolute", "-q"]);
      expect(inPlace.code, inPlace.stderr).toBe(0);
      expect(readFileSync(path.join(inPlaceSite, "page.html")).equals(rewritten)).toBe(true);
      // Standard input is the document at the root URL.
      const fromRoot = Buffer.from(rewriteLinks(bytes, { url: `${URL}site/`, rewrite: absolutize() }));
      const piped = await run(["rewrite", "-", "--url", `${URL}site/`, "--absolute", "-q"], bytes);
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stdout.equals(fromRoot)).toBe(true);
      const held = await run(["rewrite", "-", "--url", `${URL}site/`, "--absolute", "--max-hold", "16M", "-q"], bytes);
      expect(held.code, held.stderr).toBe(0);
      expect(held.stdout.equals(fromRoot)).toBe(true);

      // check: the same findings from the file and from standard input (both the whole document's; standard input
      // at 1 MiB only: check reads whole, and slowly).
      const checked = await run(["check", file, "--url", url, "--json", "-q"]);
      // Read as a stream too, nothing is left unchecked.
      expect(checked.stderr).toBe("");
      const findings = findingsOf(checked.stdout.toString("utf8"));
      if (size === MiB) {
        const checkedStdin = await run(["check", "-", "--url", url, "--json", "-q"], bytes);
        // Standard input has no site: no missing-file check.
        const sited = findings.filter((f) => f["type"] !== "missing-file").map((f) => ({ ...f, file: "-" }));
        expect(findingsOf(checkedStdin.stdout.toString("utf8"))).toEqual(sited);
      }
      // And the whole document's findings (checkDocument's, without a site: no missing files), base-URL surprises
      // included (a file read as a stream, over STREAMING_SIZE at 8 MiB, gives them at its end: compared by place).
      const wholeCheck = checkDocument(bytes, { url, encoding: undefined, root: null, site: null })!;
      const expectedFindings = wholeCheck.findings.map((f) => JSON.parse(findingLine(file, f, true)) as Record<string, unknown>);
      const byPlace = (list: Record<string, unknown>[]) => list.map((f) => JSON.stringify(f)).sort();
      expect(byPlace(findings.filter((f) => f["type"] !== "missing-file"))).toEqual(byPlace(expectedFindings));
      if (make === lateBase) expect(findings.some((f) => f["type"] === "base-after-links")).toBe(true);
    }, 300_000);
  }
});

/** Runs the command with its heap and its workers' (a file this large is read in one) capped at 200 MB. */
const capped = (args: readonly string[], input?: Uint8Array) => docbaseBytes(args, { input: input ?? new Uint8Array(), nodeArgs: ["--max-old-space-size=200"], env: { DOCBASE_WORKER_HEAP_MB: "200" } });

/** A 64 MiB document `make` makes, as site/big.html of a temporary directory (written before the tests), and its count of filler units. */
function bigSite(make: (size: number) => Uint8Array): { units: number; bytes: Uint8Array; dir: string; site: string; file: string } {
  const bytes = make(64 * MiB);
  const dir = temporaryDirectory();
  const site = path.join(dir, "site");
  const file = path.join(site, "big.html");
  beforeAll(() => {
    mkdirSync(site);
    writeFileSync(file, bytes);
  });
  return { units: Math.ceil((64 * MiB) / filler(1).length), bytes, dir, site, file };
}

describe("a <meta charset> after 64 MiB, the command's heap capped", () => {
  const { units, dir, site, file } = bigSite(lateCharset);
  // The answers from the document's parts: one unit's, the same in every unit (ASCII, read in windows-1251 wherever the <meta> is).
  const small = lateCharset(1);
  const url = `${URL}site/big.html`;

  it("links FILE --json: every link's query in windows-1251", async () => {
    const one = expectedLines(small, url, file);
    const perUnit = one.slice(0, 4);
    const run1 = await capped(["links", file, "--url", url, "--json", "-q"]);
    expect(run1.code, run1.stderr).toBe(0);
    const lines = jsonLines(run1.stdout.toString("utf8"));
    expect(lines.length).toBe(units * 4 + 1);
    // Lines and columns grow; the URLs repeat.
    for (let k = 0; k < lines.length - 1; k += 4099) expect(lines[k]!["url"]).toBe(perUnit[k % 4]!["url"]);
    expect(lines.at(-1)!["url"]).toBe("https://example.com/site/big.html?q=%C6");
    expect(perUnit[0]!["url"]).toBe("https://example.com/site/x.html?q=%26%23233%3B");
  }, 600_000);

  it("rewrite FILE --out: byte for byte the whole document rewritten in windows-1251", async () => {
    const rewrittenSmall = Buffer.from(rewriteLinks(small, { url, rewrite: absolutize() })).toString("latin1");
    const unit = filler(1);
    const rewrittenUnit = Buffer.from(rewriteLinks(iconv.encode(`<meta charset=windows-1251>${unit}`, "windows-1251"), { url, rewrite: absolutize() }))
      .toString("latin1")
      .slice("<meta charset=windows-1251>".length);
    expect(rewrittenSmall.includes(rewrittenUnit)).toBe(true);
    const expected = Buffer.from(rewrittenSmall.replace(rewrittenUnit, rewrittenUnit.repeat(units)), "latin1");
    const out = path.join(dir, "out");
    const run1 = await capped(["rewrite", site, "--url", `${URL}site/`, "--absolute", "--out", out, "-q"]);
    expect(run1.code, run1.stderr).toBe(0);
    expect(readFileSync(path.join(out, "big.html")).equals(expected)).toBe(true);
  }, 600_000);
});

describe("64 MiB, every command, the command's heap capped far below the document's parse", () => {
  // Each run checks what the whole document's answer must be, computed without reading 64 MiB in this process:
  // every relative link resolves against the <base> after 64 MiB, and the page is the same unit over and over.
  const { units, bytes, dir, site, file } = bigSite(lateBase);

  /** The JSON lines of `links`: per unit <a href>, <img src>, two srcset candidates; then the base and the last link, all against /moved/. */
  function expectMovedLinks(stdout: Buffer): void {
    const lines = stdout.toString("utf8").split("\n").filter((l) => l !== "");
    expect(lines.length).toBe(units * 4 + 2);
    expect(lines.every((l) => l.includes('"url":"https://example.com/moved/'))).toBe(true);
  }

  it("links FILE --json and links - --json (spooled past --max-hold, then read twice)", async () => {
    const fromFile = await capped(["links", file, "--url", `${URL}a/page.html`, "--json", "-q"]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expectMovedLinks(fromFile.stdout);
    const fromStdin = await capped(["links", "-", "--url", `${URL}a/page.html`, "--json", "-q"], bytes);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expectMovedLinks(fromStdin.stdout);
  }, 600_000);

  it("rewrite FILE --out and rewrite - (spooled): byte for byte the whole document rewritten", async () => {
    // The whole document rewritten, from its parts: each unit's links absolute against /moved/ wherever the <base> is.
    const unit = filler(1);
    const head = "<!doctype html><meta charset=utf-8><title>t</title>";
    const tail = '<base href="/moved/"><a href=last.html>l</a>\n';
    const small = rewriteLinks(`${head}${unit}${tail}`, { url: `${URL}a/`, rewrite: absolutize() });
    const rewrittenUnit = rewriteLinks(`<base href="/moved/">${unit}`, { url: `${URL}a/`, rewrite: absolutize() }).slice('<base href="https://example.com/moved/">'.length);
    expect(small.includes(rewrittenUnit)).toBe(true);
    const expected = Buffer.from(small.replace(rewrittenUnit, rewrittenUnit.repeat(units)));
    const out = path.join(dir, "out");
    const fromFile = await capped(["rewrite", site, "--url", `${URL}a/`, "--absolute", "--out", out, "-q"]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(readFileSync(path.join(out, "big.html")).equals(expected)).toBe(true);
    const fromStdin = await capped(["rewrite", "-", "--url", `${URL}a/`, "--absolute", "-q"], bytes);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout.equals(expected)).toBe(true);
  }, 600_000);

  it("check FILE --no-fragments --json: a missing file per link, resolved against /moved/, and the <base> after all of them", async () => {
    // The site is the file's directory, at the root URL: /moved/ is in it.
    const run1 = await capped(["check", file, "--url", `${URL}big.html`, "--no-fragments", "--json", "-q"]);
    expect(run1.code).toBe(1);
    expect(run1.stderr).toBe("");
    const findings = findingsOf(run1.stdout.toString("utf8"));
    const missing = findings.filter((f) => f["type"] === "missing-file");
    // x.html, i.png, a.png, b.png per unit, and last.html: all under /moved/.
    expect(missing.length).toBe(units * 4 + 1);
    expect(missing.every((f) => String(f["url"]).startsWith("https://example.com/moved/"))).toBe(true);
    const after = findings.filter((f) => f["type"] === "base-after-links");
    expect(after.length).toBe(1);
    expect(after[0]!["message"]).toContain(`comes after ${units * 4} relative links`);
  }, 600_000);
});

describe("--no-spool: one stream, said before the first output and warned at the end", () => {
  const bytes = lateBase(2 * MiB);
  const url = `${URL}a/page.html`;

  it("links - --no-spool --json: the warning up front on standard error, and as the last JSON line", async () => {
    const result = await run(["links", "-", "--url", url, "--json", "--no-spool", "-q"], bytes);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("warning: --no-spool: standard input is longer than 1 MiB (--max-hold)");
    const lines = jsonLines(result.stdout.toString("utf8"));
    expect(lines.at(-1)).toMatchObject({ file: "-", warning: "base-after-links" });
    expect(lines[0]!["url"]).toBe("https://example.com/a/x.html?q=%C3%A9");
  });

  it("rewrite - --no-spool: the warning on standard error, before and after; --max-hold 4M holds it whole (exact, no warning)", async () => {
    const result = await run(["rewrite", "-", "--url", url, "--absolute", "--no-spool", "-q"], bytes);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/--no-spool[\s\S]*warning: base-after-links/);
    const held = await run(["rewrite", "-", "--url", url, "--absolute", "--no-spool", "--max-hold", "4M", "-q"], bytes);
    expect(held.stderr).toBe("");
    expect(held.stdout.equals(Buffer.from(rewriteLinks(bytes, { url, rewrite: absolutize() })))).toBe(true);
  });

  // A <meta> that declares the replacement encoding (ISO-2022-KR): the whole document is one U+FFFD, no links. Spooled
  // (read as a file) that is "cannot be decoded", exit 1; one stream ends the same way, wherever the <meta> is.
  const replacement = (before: number, after: number): Uint8Array =>
    new TextEncoder().encode(`<!doctype html>${"<p>x <a href=a.html>a</a></p>\n".repeat(before)}<meta charset=iso-2022-kr>${"<p>x <a href=b.html>b</a></p>\n".repeat(after)}`);
  const undecodable = "docbase: -: cannot be decoded: its encoding is the replacement encoding (e.g. a charset of ISO-2022-KR or HZ-GB-2312): it cannot be decoded\n";
  for (const [where, bytes] of [
    // Past --max-hold, after output began (the stream had settled on windows-1252: before, a warning and exit 0).
    ["after output began", replacement(50_000, 10)],
    // Within the hold, past the prescan (before, held whole to --max-token: "longer than maxToken").
    ["before output, with more than --max-token after it", replacement(100, 100_000)],
  ] as const) {
    it(`--no-spool, a <meta charset=iso-2022-kr> ${where}: cannot be decoded, exit 1, as when it is spooled`, async () => {
      const spooled = await run(["links", "-", "--url", url, "--json", "-q"], bytes);
      expect(spooled.code).toBe(1);
      expect(spooled.stderr).toBe(undecodable);
      for (const args of [
        ["links", "-", "--url", url, "--json", "--no-spool", "--max-token", "1M", "-q"],
        ["rewrite", "-", "--url", url, "--absolute", "--no-spool", "--max-token", "1M", "-q"],
      ]) {
        const streamed = await run(args, bytes);
        expect(streamed.code, streamed.stderr).toBe(1);
        expect(streamed.stderr).toBe(`${noSpoolWarning(MiB)}${undecodable}`);
        // Past the hold, what came before the <meta> was written already; before it, nothing was.
        expect(streamed.stdout.length > 0).toBe(where === "after output began");
      }
    }, 120_000);
  }

  it("a spool that cannot be written is an error naming the directory", async () => {
    const result = await docbaseBytes(["links", "-", "--url", url, "-q"], { input: bytes, env: { TMPDIR: "/nonexistent-docbase-dir" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("cannot spool standard input to a temporary file in /nonexistent-docbase-dir");
  });
});
