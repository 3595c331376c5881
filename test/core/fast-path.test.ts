// The guarded fast paths must return exactly what the full state machine
// returns, or defer. Every WPT input and every corpus URL goes through both.
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ErrorSink } from "../../src/core/error-sink.ts";
import { parseAbsoluteFast, parseRelativeFast } from "../../src/core/fast-path.ts";
import { basicURLParse } from "../../src/core/parser.ts";
import type { URLRecord } from "../../src/core/url-record.ts";
import { loadURLTestData } from "../wpt-data.ts";

/** The full state machine: asking for validation errors bypasses the fast paths. */
function full(input: string, base: URLRecord | null): URLRecord | null {
  return basicURLParse(input, { base, errors: new ErrorSink() });
}

const corpus = resolve(import.meta.dirname, "../../../shared/corpus");
function corpusLines(file: string): string[] {
  return gunzipSync(readFileSync(resolve(corpus, file))).toString("utf8").replace(/^\uFEFF/, "").split("\n");
}

const bases = [
  "https://example.com/a/b/c?q#f",
  "http://user:pass@example.org:8080/dir/",
  "https://example.com",
  "wss://h/x",
  "ftp://h/a/b",
  "file:///C:/dir/file",
  "sc://host/path",
  "mailto:x@y",
].map((b) => full(b, null)!);

describe("fast paths agree with the full parser", () => {
  const wpt = loadURLTestData();

  it("absolute fast path on every urltestdata input and both corpus URL lists", () => {
    let taken = 0;
    const inputs = [...wpt.map((c) => c.input), ...corpusLines("urls-kasztp.txt.gz"), ...corpusLines("urls-userbait.txt.gz")];
    for (const input of inputs) {
      const fast = parseAbsoluteFast(input);
      if (fast === undefined) continue;
      taken++;
      expect(fast, input).toEqual(full(input, null));
    }
    // The fast path must actually be exercised, or this test proves nothing.
    expect(taken).toBeGreaterThan(50_000);
  });

  it("relative fast path on every urltestdata case and every input against several bases", () => {
    let taken = 0;
    for (const c of wpt) {
      const candidates = c.base === null ? bases : [full(c.base, null), ...bases];
      for (const base of candidates) {
        if (base === null) continue;
        const fast = parseRelativeFast(c.input, base);
        if (fast === undefined) continue;
        taken++;
        expect(fast, `${c.input} against ${JSON.stringify(base)}`).toEqual(full(c.input, base));
      }
    }
    expect(taken).toBeGreaterThan(500);
  });

  it("relative fast path on random references (fast-check)", () => {
    const segment = fc.constantFrom("a", "b", ".", "..", "%2e", ".%2E", "x.y", "", "~u", "%41", "é", " ", "\\", "\t");
    const reference = fc
      .tuple(
        fc.constantFrom("", "/", "//h/", "./", "../", "?", "#", "http://H/", "HTTPS://x/", "a:"),
        fc.array(segment, { maxLength: 6 }),
        fc.constantFrom("", "?q=1", "?'", "#f", "#`", "?a#b"),
      )
      .map(([head, segments, tail]) => head + segments.join("/") + tail);
    fc.assert(
      fc.property(reference, fc.constantFrom(...bases), (input, base) => {
        const fast = parseRelativeFast(input, base);
        if (fast !== undefined) expect(fast).toEqual(full(input, base));
      }),
      { numRuns: 20_000, seed: Number(process.env["FC_SEED"] ?? 42) },
    );
  });
});
