// The command's streamed paths (issue 18): `rewrite` of files larger than
// STREAMING_SIZE, `rewrite -` and `links -` on standard input. Each must give
// exactly what the whole-document functions give for the same bytes.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { absolutize, extractLinks, relativize, rewriteLinks } from "../../src/links/index.ts";
import { STREAMING_SIZE } from "../../src/cli/regular-file.ts";
import { cleanup, ensureBuilt, jsonLines, main, repo, temporaryDirectory } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

/** Runs the command with `input` on standard input; standard output as bytes. */
function run(args: readonly string[], input: Uint8Array = new Uint8Array()): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { cwd: repo, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.end(input);
  });
}

/**
 * A page of about `size` bytes: a head (with `head`), then the same body
 * piece again and again — links quoted every way, valueless, srcset, style
 * url(), character references, CR LF, characters of 2 to 4 UTF-8 bytes
 * (so that 64 KiB reads cut them), an iframe srcdoc.
 */
function page(size: number, head: string): string {
  const piece =
    '<p class=x>caf\u00e9 \u20ac \u{1F600}\r\n<a href="../a.html?q=\u00e9">a</a> <a href=b/c.html>b</a> <a href=\'/d e\'>d</a> <a href>none</a>' +
    '<img src="i.png" srcset="i1.png 1x, /i2.png 2x"><span style="background:url(&quot;s.png&quot;)">s</span>' +
    '<a href="x&amp;y#frag">&amp;</a><iframe srcdoc="<a href=sd.html>sd</a>"></iframe></p>\n';
  const parts = [`<!doctype html><html><head>${head}<title>t</title></head><body>\n`];
  let length = parts[0]!.length;
  while (length < size) {
    parts.push(piece);
    length += piece.length;
  }
  parts.push("</body></html>\n");
  return parts.join("");
}

const ROOT = "https://example.com/";

describe("rewrite: files larger than STREAMING_SIZE are streamed", () => {
  it("in place and into --out, byte for byte what rewriteLinks gives, with a base in the head (UTF-8)", async () => {
    const dir = path.join(temporaryDirectory(), "site");
    const bytes = new TextEncoder().encode(page(STREAMING_SIZE + 1_500_000, '<meta charset="utf-8"><base href="/docs/">'));
    mkdirSync(path.join(dir, "sub"), { recursive: true });
    writeFileSync(path.join(dir, "sub/big.html"), bytes);
    const expected = rewriteLinks(bytes, { url: `${ROOT}sub/big.html`, rewrite: absolutize() });
    expect(expected.length).toBeGreaterThan(bytes.length);
    const out = path.join(temporaryDirectory(), "out");
    const intoOut = await run(["rewrite", dir, "--url", ROOT, "--absolute", "--out", out]);
    expect(intoOut.stderr).toMatch(/rewrote [\d,]+ links in 1 of 1 HTML file/);
    expect(intoOut.code).toBe(0);
    expect(Buffer.compare(readFileSync(path.join(out, "sub/big.html")), Buffer.from(expected))).toBe(0);
    // In place.
    const inPlace = await run(["rewrite", dir, "--url", ROOT, "--absolute"]);
    expect(inPlace.code).toBe(0);
    expect(Buffer.compare(readFileSync(path.join(dir, "sub/big.html")), Buffer.from(expected))).toBe(0);
    // Again: nothing left to change, the file is not written.
    const before = statSync(path.join(dir, "sub/big.html")).mtimeMs;
    const again = await run(["rewrite", dir, "--url", ROOT, "--absolute"]);
    expect(again.stderr).toMatch(/rewrote 0 links in 0 of 1 HTML file/);
    expect(statSync(path.join(dir, "sub/big.html")).mtimeMs).toBe(before);
  }, 120_000);

  it("a windows-1252 page without <meta> or <base> (held to maxHold, then streamed) is still exactly rewriteLinks's", async () => {
    const dir = path.join(temporaryDirectory(), "site");
    mkdirSync(dir, { recursive: true });
    const text = page(STREAMING_SIZE + 600_000, "").replace(/[\u20ac\u{1F600}]/gu, "x");
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    writeFileSync(path.join(dir, "legacy.html"), bytes);
    const expected = rewriteLinks(bytes, { url: `${ROOT}legacy.html`, rewrite: relativize({ root: ROOT }) });
    const result = await run(["rewrite", dir, "--url", ROOT, "--relative"]);
    expect(result.code).toBe(0);
    expect(Buffer.compare(readFileSync(path.join(dir, "legacy.html")), Buffer.from(expected))).toBe(0);
  }, 120_000);

  it("a large file in the replacement encoding is reported and left as it was", async () => {
    const dir = path.join(temporaryDirectory(), "site");
    mkdirSync(dir, { recursive: true });
    const bytes = new TextEncoder().encode(page(STREAMING_SIZE + 100, '<meta charset="iso-2022-kr">'));
    writeFileSync(path.join(dir, "kr.html"), bytes);
    const result = await run(["rewrite", dir, "--url", ROOT, "--absolute"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("kr.html: cannot be decoded: its encoding is the replacement encoding");
    expect(Buffer.compare(readFileSync(path.join(dir, "kr.html")), Buffer.from(bytes))).toBe(0);
  }, 60_000);
});

describe("standard input is read as a stream", () => {
  const bytes = new TextEncoder().encode(page(300_000, "<meta charset=utf-8>"));

  it("rewrite - writes rewriteLinks's bytes to standard output", async () => {
    const result = await run(["rewrite", "-", "--url", `${ROOT}dir/`, "--absolute"], bytes);
    expect(result.code).toBe(0);
    expect(Buffer.compare(result.stdout, Buffer.from(rewriteLinks(bytes, { url: `${ROOT}dir/`, rewrite: absolutize() })))).toBe(0);
    expect(result.stderr).toMatch(/^docbase rewrite: rewrote [\d,]+ links of standard input/);
  }, 60_000);

  it("rewrite - --dry-run lists the changes and writes no document", async () => {
    const result = await run(["rewrite", "-", "--url", `${ROOT}dir/`, "--absolute", "--dry-run"], new TextEncoder().encode("<a href=x>"));
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe("-: 1 link\n  1:9  <a href>  x → https://example.com/dir/x\n");
  });

  it("rewrite - refuses --out", async () => {
    const result = await run(["rewrite", "-", "--url", ROOT, "--absolute", "--out", "x"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--out is for a site's directory");
  });

  it("links - --json gives extractLinks's links, line by line", async () => {
    const result = await run(["links", "-", "--url", `${ROOT}dir/page.html`, "--json"], bytes);
    expect(result.code).toBe(0);
    const expected = extractLinks(bytes, { url: `${ROOT}dir/page.html` }).map((l) => ({ file: "-", element: l.element, attribute: l.attribute, value: l.value, url: l.url, line: l.line, column: l.column }));
    expect(jsonLines(result.stdout.toString())).toEqual(expected);
  }, 60_000);
});
