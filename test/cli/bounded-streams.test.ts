// Issues 28 and 29: memory bounded by the longest token, not by the document or its number of links. Link-dense and
// hostile pages, generated at a size the suite can afford, run with the child's heap capped (--max-old-space-size)
// far below what holding them would take: each ends in a bounded run or in that file's error with its line —
// never V8's abort.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, ensureBuilt, main, repo, temporaryDirectory } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const MiB = 1024 * 1024;
const url = "https://example.com/page.html";
/** The child's heap: far below what a document of these sizes takes to hold (its parse, or a record per link). */
const HEAP = "--max-old-space-size=160";

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdoutBytes: number;
  /** How many newlines standard output had. */
  readonly stdoutLines: number;
  readonly stdoutTail: string;
  readonly stderr: string;
}

/** Runs the command with the heap capped, standard input from `file` (or nothing); keeps only the end of standard output. */
function run(args: readonly string[], stdinFile?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${process.execPath} ${HEAP} ${main} ${args.map((a) => `'${a}'`).join(" ")}${stdinFile === undefined ? " < /dev/null" : ` < '${stdinFile}'`}`, {
      cwd: repo,
      shell: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let bytes = 0;
    let lines = 0;
    let tail = "";
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => {
      bytes += d.length;
      for (let at = d.indexOf(10); at !== -1; at = d.indexOf(10, at + 1)) lines++;
      tail = (tail + d.toString("utf8")).slice(-2000);
    });
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdoutBytes: bytes, stdoutLines: lines, stdoutTail: tail, stderr: Buffer.concat(err).toString("utf8") }));
  });
}

/** A run that ended in the file's error: no signal, exit 1, `message` on standard error. */
function expectFileError(result: Run, message: string | RegExp): void {
  expect(result.signal).toBe(null);
  expect(result.code, result.stderr).toBe(1);
  if (typeof message === "string") expect(result.stderr).toContain(message);
  else expect(result.stderr).toMatch(message);
}

/** Writes `head`, then `unit` until the file holds `size` bytes, then `tail`. */
async function generate(file: string, head: string, unit: string, size: number, tail = ""): Promise<void> {
  const out = createWriteStream(file);
  const block = unit.repeat(Math.max(1, Math.floor(65536 / unit.length)));
  out.write(head);
  for (let written = head.length; written < size; written += block.length) {
    if (!out.write(block)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  out.write(tail);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

const DENSE = '<p>text <a href="x.html">l</a> <img src=i.png srcset="a.png 1x, b.png 2x"> café</p>\n';

describe("link-dense pages, the heap capped: counts, not a record of every link", () => {
  const dir = temporaryDirectory();
  const dense = path.join(dir, "dense.html");
  beforeAll(() => generate(dense, '<!doctype html><meta charset=utf-8><base href="/b/">', DENSE, 24 * MiB), 60_000);

  it("rewrite - --absolute: the whole output, exit 0", async () => {
    const result = await run(["rewrite", "-", "--url", "https://example.com/", "--absolute", "-q"], dense);
    expect(result.signal).toBe(null);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdoutTail).toContain('<a href="https://example.com/b/x.html">');
  }, 300_000);

  it("links FILE (the table): written as it comes, exit 0", async () => {
    const result = await run(["links", dense, "--url", url, "-q"]);
    expect(result.signal).toBe(null);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdoutTail).toContain("https://example.com/b/b.png");
  }, 300_000);
});

describe("hostile pages, the heap capped: that file's error with its line, never an abort", () => {
  const dir = temporaryDirectory();

  it("an attribute value of 48 MiB (--max-token 4M): links FILE and rewrite - report it, with its line", async () => {
    const file = path.join(dir, "attribute.html");
    await generate(file, '<!doctype html><meta charset=utf-8>\n<p>a\n<a href="', "x".repeat(1024), 48 * MiB, '">l</a>');
    const links = await run(["links", file, "--url", url, "--max-token", "4M", "-q"]);
    expectFileError(links, /attribute\.html: cannot be read: a token .* from line 3.* is longer than maxToken \(4194304 characters\)/);
    const rewritten = await run(["rewrite", "-", "--url", "https://example.com/", "--absolute", "--max-token", "4M", "-q"], file);
    expectFileError(rewritten, "cannot be rewritten: a token");
    // Nothing lost: no partial output.
    expect(rewritten.stdoutBytes).toBe(0);
  }, 300_000);

  it("a comment of 48 MiB: the same", async () => {
    const file = path.join(dir, "comment.html");
    await generate(file, "<!doctype html><meta charset=utf-8><!--", "-- x ".repeat(200), 48 * MiB, "--><a href=a>");
    const result = await run(["links", file, "--url", url, "--max-token", "4M", "-q"]);
    expect(result.signal).toBe(null);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is longer than maxToken");
  }, 300_000);

  it("an open SVG <style> followed by ordinary elements (32 MiB): the file's error, not everything after it held", async () => {
    const file = path.join(dir, "svg-style.html");
    await generate(file, "<!doctype html><meta charset=utf-8><svg><style>", '<a href="x.html">l</a>\n', 32 * MiB);
    const result = await run(["links", file, "--url", url, "--max-token", "4M", "-q"]);
    expect(result.signal).toBe(null);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is longer than maxToken");
  }, 300_000);

  it("a run of 24 MiB of text in a table (foster-parented when it ends): the construction keeps only whether it is all whitespace — read in bounded memory, its link after it found", async () => {
    const file = path.join(dir, "table-text.html");
    await generate(file, "<!doctype html><meta charset=utf-8>\n<table>\n", "x y z ", 24 * MiB, "</table><a href=a>l</a>");
    const links = await run(["links", file, "--url", url, "--max-token", "4M", "-q"]);
    expect(links.signal).toBe(null);
    expect(links.code, links.stderr).toBe(0);
    expect(links.stdoutTail).toContain("https://example.com/a");
    const rewritten = await run(["rewrite", "-", "--url", "https://example.com/", "--absolute", "--no-spool", "--max-token", "4M", "-q"], file);
    expect(rewritten.code, rewritten.stderr).toBe(0);
    expect(rewritten.stdoutTail).toMatch(/<\/table><a href="?https:\/\/example\.com\/a"?>l<\/a>$/);
  }, 300_000);

  it("an ISO-2022-JP file of 12 MiB (read whole) is bounded by --max-file-size, not --max-token: read, every link", async () => {
    const file = path.join(dir, "iso-2022-jp.html");
    const unit = "<p>text <a href=x.html>l</a></p>\n";
    const head = "<!doctype html><meta charset=iso-2022-jp>";
    await generate(file, head, unit, 12 * MiB);
    const read = await run(["links", file, "--url", url, "--max-token", "4M", "--json", "-q"]);
    expect(read.signal).toBe(null);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdoutTail).toContain('"url":"https://example.com/x.html"');
    expect(read.stdoutLines).toBe(Math.ceil((12 * MiB - head.length) / unit.length / Math.floor(65536 / unit.length)) * Math.floor(65536 / unit.length));
    const capped = await run(["links", file, "--url", url, "--max-token", "4M", "--max-file-size", "8M", "-q"]);
    expectFileError(capped, "its encoding, ISO-2022-JP, is read whole, and it is larger (12");
  }, 300_000);

  it("a switch to ISO-2022-JP early on, then 40 MiB (--no-spool): held whole up to --max-token, then the error", async () => {
    const file = path.join(dir, "switch.html");
    await generate(file, `<!doctype html>${"<p>x</p>".repeat(200)}<meta charset=iso-2022-jp>`, "<p>text <a href=x.html>l</a></p>\n", 40 * MiB);
    const result = await run(["rewrite", "-", "--url", "https://example.com/", "--absolute", "--no-spool", "--max-token", "4M", "-q"], file);
    expect(result.signal).toBe(null);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is read whole, and it is longer than maxToken");
    // From a file (spooled here): ISO-2022-JP is read whole, so --max-file-size caps it.
    const spooled = await run(["links", "-", "--url", url, "--max-file-size", "8M", "-q"], file);
    expect(spooled.signal).toBe(null);
    expect(spooled.code).toBe(1);
    expect(spooled.stderr).toContain("its encoding, ISO-2022-JP, is read whole, and it is larger (40");
  }, 300_000);
});
