// docbase/links streams "work in Node, Deno, Bun and workers" (issue 18): the
// library bundled as a bundler builds it for a browser or a worker (esbuild,
// platform "browser": no Node.js built-ins, each package's browser build),
// then run in a fresh JavaScript realm that has the web platform's globals
// and none of Node's (no Buffer, no process, no require): a LinkStream and
// createLinkRewriter must give rewriteLinks's bytes; streamLinks and
// rewriteResponse read a fetch Response (its Content-Type charset); a
// stream's warnings reach onWarning. The typed arrays come from another
// realm, as a worker's or a jsdom window's would.
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
import { LinkStream, createLinkRewriter, rewriteLinks, extractLinks, absolutize, streamLinks, rewriteResponse } from "./src/links/index.ts";
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
  // A fetch Response: its Content-Type charset is the document's encoding (without it, these bytes would be windows-1252).
  const accented = new TextEncoder().encode('<a href="?q=\u00e9">');
  const response = () => new Response(accented, { headers: { "content-type": "text/html; charset=UTF-8", "content-length": "16" } });
  const fromResponse = [];
  for await (const link of streamLinks(response(), { url })) fromResponse.push(link.url);
  const rewritten = rewriteResponse(response(), { url, rewrite: absolutize() });
  const rewrittenBytes = new Uint8Array(await rewritten.arrayBuffer());
  // The stream's warnings reach the caller of the adapter: a <base> after maxHold.
  const warnings = [];
  const late = new ReadableStream({ start(c) { c.enqueue("<a href=a>" + "<p>".repeat(100)); c.enqueue("<base href=/late/>"); c.close(); } })
    .pipeThrough(createLinkRewriter({ url, maxHold: 10, rewrite: absolutize(), onWarning: (w) => warnings.push(w.type) }))
    .getReader();
  for (;;) { const r = await late.read(); if (r.done) break; }
  return JSON.stringify({
    fromResponse,
    rewritten: Array.from(rewrittenBytes),
    length: rewritten.headers.get("content-length"),
    warnings,
    whole,
    stream: new TextDecoder().decode(joined),
    piped: new TextDecoder().decode(new Uint8Array(piped)),
    links: extractLinks(bytes, { url }).length,
    node: typeof Buffer !== "undefined" || typeof process !== "undefined",
  });
}
`;

interface Result {
  readonly fromResponse: string[];
  readonly rewritten: number[];
  readonly length: string | null;
  readonly warnings: string[];
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
  expect(result.fromResponse).toEqual(["https://example.com/?q=%C3%A9"]);
  expect(new TextDecoder().decode(new Uint8Array(result.rewritten))).toBe('<a href="https://example.com/?q=%C3%A9">');
  expect(result.length).toBe(null);
  expect(result.warnings).toEqual(["base-after-links"]);
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
    const context = vm.createContext({ TextEncoder, TextDecoder, ReadableStream, TransformStream, WritableStream, Response, Headers, queueMicrotask, URL, console });
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
