// docbase/links streams "work in Node, Deno, Bun and workers" (issue 18): the
// library bundled as a bundler builds it for a browser or a worker (esbuild,
// platform "browser": no Node.js built-ins, each package's browser build),
// then run in a fresh JavaScript realm that has the web platform's globals
// and none of Node's (no Buffer, no process, no require): a LinkStream and
// createLinkRewriter must give rewriteLinks's bytes. The typed arrays come
// from another realm, as a worker's or a jsdom window's would.
//
// Bun, when it is installed (`bun` on the PATH, or DOCBASE_BUN), runs the same
// check on the TypeScript sources; without it that test says so and skips.

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");

/** The check, run inside the other realm: its result as JSON. */
const checkSource = `
import { LinkStream, createLinkRewriter, rewriteLinks, extractLinks, absolutize } from "./src/links/index.ts";
export async function check() {
  const text = '<meta charset=utf-8><base href=/d/><a href="caf\\u00e9 x">x</a>\\u{1F600}<a href=z>' +
    '<img srcset="a.png 1x, b.png 2x"><iframe srcdoc="<a href=s>"></iframe>';
  const bytes = new TextEncoder().encode(text);
  const url = "https://example.com/";
  const whole = new TextDecoder().decode(rewriteLinks(bytes, { url, rewrite: absolutize() }));
  const out = [];
  const stream = new LinkStream({ url, rewrite: absolutize(), onOutput: (chunk) => out.push(chunk) });
  for (let i = 0; i < bytes.length; i += 3) stream.write(bytes.subarray(i, i + 3));
  stream.end();
  let length = 0;
  for (const chunk of out) length += chunk.length;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of out) { joined.set(chunk, at); at += chunk.length; }
  const reader = new ReadableStream({ start(c) { c.enqueue(bytes.subarray(0, 40)); c.enqueue(bytes.subarray(40)); c.close(); } })
    .pipeThrough(createLinkRewriter({ url, rewrite: absolutize() }))
    .getReader();
  const piped = [];
  for (;;) { const r = await reader.read(); if (r.done) break; piped.push(...r.value); }
  return JSON.stringify({
    whole,
    stream: new TextDecoder().decode(joined),
    piped: new TextDecoder().decode(new Uint8Array(piped)),
    links: extractLinks(bytes, { url }).length,
    node: typeof Buffer !== "undefined" || typeof process !== "undefined",
  });
}
`;

interface Result {
  readonly whole: string;
  readonly stream: string;
  readonly piped: string;
  readonly links: number;
  readonly node: boolean;
}

function expectSame(result: Result): void {
  expect(result.whole).toContain('<a href="https://example.com/d/caf%C3%A9%20x">');
  expect(result.stream).toBe(result.whole);
  expect(result.piped).toBe(result.whole);
  expect(result.links).toBe(6);
}

describe("docbase/links outside Node.js", () => {
  it("bundled for a browser or worker, in a realm without Node's globals", async () => {
    const bundle = await build({
      stdin: { contents: checkSource, resolveDir: repo, sourcefile: "check.ts", loader: "ts" },
      bundle: true,
      platform: "browser",
      format: "iife",
      globalName: "docbaseCheck",
      write: false,
      logLevel: "silent",
    });
    const context = vm.createContext({ TextEncoder, TextDecoder, ReadableStream, TransformStream, WritableStream, queueMicrotask, URL, console });
    new vm.Script(bundle.outputFiles[0]!.text).runInContext(context);
    const json = (await vm.runInContext("docbaseCheck.check()", context)) as string;
    const result = JSON.parse(json) as Result;
    expect(result.node).toBe(false);
    expectSame(result);
  }, 60_000);

  const bun = process.env["DOCBASE_BUN"] ?? "bun";
  const hasBun = spawnSync(bun, ["--version"], { encoding: "utf8" }).status === 0 || existsSync(bun);
  it.skipIf(!hasBun)("in Bun (skipped without `bun` on the PATH or DOCBASE_BUN)", () => {
    const script = `${checkSource}\nconsole.log(await check());`;
    const run = spawnSync(bun, ["run", "-"], { cwd: repo, input: script, encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    const result = JSON.parse(run.stdout) as Result;
    expectSame(result);
  }, 60_000);
});
