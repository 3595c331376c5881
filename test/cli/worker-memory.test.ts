// Issue 28: memory run out is one file's error, never V8's abort of the command, and a large file read in a worker
// sends its output as it comes instead of holding it whole in its result. Heaps are capped (the command's with
// --max-old-space-size, a worker's with DOCBASE_WORKER_HEAP_MB) far below what the pages take: the verdict is the
// exit and the output, never a time.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, main, repo, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const url = "https://example.com/";
/** Four links: the a's href, the img's src, two srcset candidates. */
const DENSE = '<p>text <a href="x.html">l</a> <img src=i.png srcset="a.png 1x, b.png 2x"> café</p>\n';
const HEAD = "<!doctype html><meta charset=utf-8><title>t</title>\n";

describe("a single file or standard input that needs more memory than there is", () => {
  // 6 MB read whole (under the streaming threshold): its parse takes far more than 64 MiB.
  const dir = temporaryDirectory();
  const file = path.join(dir, "dense.html");
  const page = HEAD + DENSE.repeat(Math.floor((6 * 1024 * 1024) / Buffer.byteLength(DENSE)));
  beforeAll(() => writeFileSync(file, page));
  const capped = { nodeArgs: ["--max-old-space-size=64"], env: { DOCBASE_WORKER_HEAP_MB: "64" } };

  for (const [name, args, input] of [
    ["links FILE", ["links", file, "--url", url, "-q"], undefined],
    ["check FILE", ["check", file, "--url", url, "-q"], undefined],
    ["links -", ["links", "-", "--url", url, "-q"], page],
    ["check -", ["check", "-", "--url", url, "-q"], page],
    // Spooled past --max-hold, then read whole as its spool: before, in the command's own process (exit 134).
    ["rewrite -", ["rewrite", "-", "--url", url, "--absolute", "-q"], page],
  ] as const) {
    it(`${name}: the file's error with a clear message, exit 1 — not V8's abort`, async () => {
      const run = await docbase(args, { ...capped, ...(input === undefined ? {} : { input }) });
      expect(run.signal).toBe(null);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(/: failed: the worker reading it stopped \(JavaScript heap out of memory\)\n$/);
      expect(run.stderr).not.toContain("FATAL ERROR");
    }, 120_000);
  }

  // --no-spool: one stream, in a worker fed through a pipe. An attribute of 48 MiB under a --max-token that lets it
  // through takes far more than the capped heaps (before, the stream ran in the command's own process: exit 134).
  const long = `${HEAD}${"<p><a href=x.html>x</a></p>\n".repeat(100_000)}<a title="${"x".repeat(48 * 1024 * 1024)}" href=y.html>y</a>\n`;
  for (const [name, args] of [
    ["links - --no-spool", ["links", "-", "--url", url, "--no-spool", "--max-token", "100M", "--json", "-q"]],
    ["rewrite - --no-spool", ["rewrite", "-", "--url", url, "--absolute", "--no-spool", "--max-token", "100M", "-q"]],
  ] as const) {
    it(`${name}: the stream runs in a worker: the warning first, then the error and exit 1 — not V8's abort`, async () => {
      const run = await docbase(args, { ...capped, input: long });
      expect(run.signal).toBe(null);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).not.toContain("FATAL ERROR");
      const warned = run.stderr.indexOf("warning: --no-spool: standard input is longer than 1 MiB");
      const failed = run.stderr.search(/docbase: -: failed: the worker reading it stopped \(JavaScript heap out of memory\)(, after part of its output was written)?\n$/);
      expect(warned).toBeGreaterThanOrEqual(0);
      expect(failed).toBeGreaterThan(warned);
      // The output streamed before the failure: links (or the rewritten document) from before the long attribute.
      const written = name.startsWith("links") ? run.stdout.split("\n").filter((l) => l !== "") : [];
      if (name.startsWith("links")) expect(written.length > 0 && written.every((l) => l.includes('"url":"https://example.com/x.html"'))).toBe(true);
      else expect(run.stdout.startsWith(`${HEAD}<p><a href=https://example.com/x.html>x</a></p>\n`)).toBe(true);
    }, 120_000);
  }

  it("a small file is still read in the command's own process (no worker to start), exit 0", async () => {
    const small = path.join(dir, "small.html");
    writeFileSync(small, HEAD + DENSE.repeat(100));
    // A worker could not start with this heap: the file is read here.
    const run = await docbase(["links", small, "--url", url, "--json", "-q"], { env: { DOCBASE_WORKER_HEAP_MB: "1" } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split("\n").filter((l) => l !== "").length).toBe(400);
  }, 60_000);
});

describe("a large file read in a worker sends its output as it comes", () => {
  it("links DIR --json --jobs 2: a 16 MiB page among 47 small ones, every link out, with a 48 MiB worker heap", async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 47; i++) tree[`p${String(i).padStart(2, "0")}.html`] = HEAD + DENSE.repeat(20);
    const units = Math.floor((16 * 1024 * 1024) / Buffer.byteLength(DENSE));
    tree["big.html"] = HEAD + DENSE.repeat(units);
    const dir = writeTree(temporaryDirectory(), tree);
    // Its JSON lines (over 100 MB) counted as they come, not kept.
    const { code, signal, lines, bigLines, stderr } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; lines: number; bigLines: number; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [main, "links", dir, "--url", url, "--json", "--jobs", "2", "-q"], {
        cwd: repo,
        env: { ...process.env, DOCBASE_WORKER_HEAP_MB: "48" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let lines = 0;
      let bigLines = 0;
      let partial = "";
      const err: Buffer[] = [];
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        const text = partial + chunk;
        const end = text.lastIndexOf("\n");
        partial = text.slice(end + 1);
        for (const line of text.slice(0, end + 1).split("\n")) {
          if (line === "") continue;
          lines++;
          if (line.includes('big.html"')) bigLines++;
        }
      });
      child.stderr.on("data", (d: Buffer) => err.push(d));
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal, lines, bigLines, stderr: Buffer.concat(err).toString("utf8") }));
    });
    expect(signal).toBe(null);
    expect(code, stderr).toBe(0);
    expect(bigLines).toBe(units * 4);
    expect(lines).toBe(units * 4 + 47 * 20 * 4);
  }, 300_000);
});
