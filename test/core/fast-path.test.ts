// The guarded fast paths must return exactly what the full state machine
// returns, or defer. Every WPT input and every corpus URL goes through both.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ErrorSink } from "../../src/core/error-sink.ts";
import { parseAbsoluteFast, parseRelativeFast, serializeFast, withoutValidationErrors } from "../../src/core/fast-path.ts";
import { validateURL } from "../../src/core/validate-url.ts";
import { serializeURL } from "../../src/core/serializer.ts";
import { basicURLParse } from "../../src/core/parser.ts";
import type { URLRecord } from "../../src/core/url-record.ts";
import { corpusPages, corpusURLs, readCorpusFile } from "../corpus-data.ts";
import { loadURLTestData } from "../wpt-data.ts";

/** The full state machine: asking for validation errors bypasses the fast paths. */
function full(input: string, base: URLRecord | null): URLRecord | null {
  return basicURLParse(input, { base, errors: new ErrorSink() });
}

/** Real URL strings: the vendored URL list, and every quoted href/src value of the real pages (absolute and relative). */
function realURLs(): string[] {
  const values = corpusURLs();
  for (const page of corpusPages) {
    const html = new TextDecoder().decode(readCorpusFile(page.file));
    for (const match of html.matchAll(/\s(?:href|src)="([^"<>]*)"/g)) values.push(match[1]!.replaceAll("&amp;", "&"));
  }
  return values;
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

  it("absolute fast path on every urltestdata input and the real URLs of the corpus", () => {
    let taken = 0;
    const inputs = [...wpt.map((c) => c.input), ...realURLs()];
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

describe("serializeFast agrees with parsing and serializing", () => {
  const wpt = loadURLTestData();
  const serialized = (input: string, base: URLRecord | null): string | null => {
    const record = full(input, base);
    return record === null ? null : serializeURL(record);
  };

  it("on every urltestdata input, the real URLs of the corpus, and every case against several bases", () => {
    let absolute = 0;
    let verbatim = 0;
    for (const input of [...wpt.map((c) => c.input), ...realURLs()]) {
      const fast = serializeFast(input, null);
      if (fast === undefined) continue;
      absolute++;
      if (fast === input) verbatim++;
      expect(fast, input).toBe(serialized(input, null));
    }
    let relative = 0;
    for (const c of wpt) {
      for (const base of c.base === null ? bases : [full(c.base, null), ...bases]) {
        if (base === null) continue;
        const fast = serializeFast(c.input, base);
        if (fast === undefined) continue;
        relative++;
        expect(fast, `${c.input} against ${JSON.stringify(base)}`).toBe(serialized(c.input, base));
      }
    }
    // The fast path must be taken, or this proves nothing.
    expect(absolute).toBeGreaterThan(40_000);
    expect(verbatim).toBe(absolute);
    expect(relative).toBeGreaterThan(500);
  });

  it("on random references and absolute URLs (fast-check)", () => {
    const segment = fc.constantFrom("a", "b", ".", "..", "%2e", ".%2E", "x.y", "", "~u", "%41", "é", " ", "\\", "\t");
    const reference = fc
      .tuple(
        fc.constantFrom("", "/", "//h/", "//H:0443/", "//h:/", "./", "../", "?", "#", "http://H/", "https://x:443/", "https://x:0/", "https://x:08/", "ws://1.2/", "https://h", "a:"),
        fc.array(segment, { maxLength: 6 }),
        fc.constantFrom("", "?q=1", "?'", "#f", "#`", "?a#b", "#", "?"),
      )
      .map(([head, segments, tail]) => head + segments.join("/") + tail);
    fc.assert(
      fc.property(reference, fc.constantFrom(null, ...bases), (input, base) => {
        const fast = serializeFast(input, base);
        if (fast !== undefined) expect(fast).toBe(serialized(input, base));
      }),
      { numRuns: 20_000, seed: Number(process.env["FC_SEED"] ?? 42) },
    );
  });

  it("answers the common shapes itself", () => {
    const base = full("https://u:p@example.com:8443/docs/v1/page?x#y", null)!;
    expect(serializeFast("../page-1.html?q=1#s1", base)).toBe("https://u:p@example.com:8443/docs/page-1.html?q=1#s1");
    expect(serializeFast("/wiki/X", base)).toBe("https://u:p@example.com:8443/wiki/X");
    for (const [input, expected] of [
      ["./../x", "/docs/x"],
      ["../../../../x/", "/x/"],
      ["../", "/docs/"],
      [".././y/../z?q", "/docs/z?q"],
      ["./", "/docs/v1/"],
      ["..", "/docs/"],
      ["../..?q", "/?q"],
    ]) {
      expect(serializeFast(input!, base), input).toBe(`https://u:p@example.com:8443${expected}`);
      expect(serializeFast(input!, base), input).toBe(serializeURL(full(input!, base)!));
    }
    expect(serializeFast("#top", base)).toBe("https://u:p@example.com:8443/docs/v1/page?x#top");
    expect(serializeFast("?q", base)).toBe("https://u:p@example.com:8443/docs/v1/page?q");
    expect(serializeFast("//upload.example.org/a.png", base)).toBe("https://upload.example.org/a.png");
    const input = "https://en.wikipedia.org/wiki/New_Zealand";
    expect(serializeFast(input, base)).toBe(input);
    // A record changed in place is not answered from the last base's prefix.
    const changing = full("https://a.example/", null)!;
    expect(serializeFast("x", changing)).toBe("https://a.example/x");
    changing.host = "b.example";
    expect(serializeFast("x", changing)).toBe("https://b.example/x");
  });
});

describe("withoutValidationErrors: true only where the full parser reports no validation error", () => {
  const wpt = loadURLTestData();
  const errorsOf = (input: string, base: URLRecord | null): string[] => validateURL(input, base === null ? undefined : { base }).errors.map((e) => e.type);

  it("on every urltestdata input, the real URLs of the corpus, and every case against several bases", () => {
    let clean = 0;
    let claimed = 0;
    const check = (input: string, base: URLRecord | null): void => {
      const claim = withoutValidationErrors(input, base);
      const errors = errorsOf(input, base);
      if (errors.length === 0) clean++;
      if (!claim) return;
      claimed++;
      expect(errors, `${JSON.stringify(input)} against ${base === null ? "no base" : serializeURL(base)}`).toEqual([]);
    };
    for (const input of [...wpt.map((c) => c.input), ...realURLs()]) check(input, null);
    for (const c of wpt) {
      for (const base of c.base === null ? bases : [full(c.base, null), ...bases]) if (base !== null) check(c.input, base);
    }
    // Most error-free inputs are recognised, or the shortcut saves nothing.
    expect(claimed).toBeGreaterThan(40_000);
    expect(claimed / clean).toBeGreaterThan(0.8);
  });

  it("on random references and absolute URLs (fast-check)", () => {
    const segment = fc.constantFrom("a", "b", ".", "..", "%2e", "%zz", "%4", "|", "[x]", "x.y", "", "~u", "%41", "é", " ", "\\", "\t", "xn--a", "XN--nxa");
    const reference = fc
      .tuple(
        fc.oneof(
          fc.constantFrom("", "/", "//h/", "//xn--a.com/", "//H:0443/", "./", "../", "?", "#", "http://H/", "https://x:443/", "https://a..b/", "ws://1.2/", "https://h", "a:"),
          // Hosts that strict ToASCII refuses and the parser takes (domain-to-ASCII): hyphens first, last
          // and in the third and fourth places, long labels and hosts.
          fc
            .array(fc.constantFrom("a", "b", "-", "--", "ab--", "x".repeat(62), "x".repeat(63), "1", "."), { minLength: 1, maxLength: 8 })
            .map((parts) => `https://${parts.join("")}/`),
          fc.integer({ min: 60, max: 130 }).map((n) => `https://${"abcd.".repeat(n)}com/`),
        ),
        fc.array(segment, { maxLength: 6 }),
        fc.constantFrom("", "?q=1", "?'", "#f", "#`", "?a#b", "#a#b", "#", "?", "#%"),
      )
      .map(([head, segments, tail]) => head + segments.join("/") + tail);
    fc.assert(
      fc.property(reference, fc.constantFrom(null, ...bases), (input, base) => {
        if (withoutValidationErrors(input, base)) expect(errorsOf(input, base)).toEqual([]);
      }),
      { numRuns: 20_000, seed: Number(process.env["FC_SEED"] ?? 42) },
    );
  });

  it("on URLs of mostly clean parts with the odd hazard, where it often says yes (fast-check)", () => {
    // Lower-case letters and digits, and now and then something that is an error somewhere or
    // changes the shape: a hyphen or "--", an upper-case letter, a digit label, "_", "xn--", a
    // percent-encoding (complete or not), a dot segment, a delimiter, a drive letter, a space.
    const clean = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789".split(""));
    const hazard = fc.constantFrom("-", "--", "A", "0x", "1", "9", "_", "%41", "%2e", "%4", "%", "xn--", "Xn--", "é", ".", "..", "~", "!", "$", "'", "*", "+", ",", ";", "=", "&", "(", ")", ":", "@", "[", "]");
    const label = fc.array(fc.oneof({ weight: 9, arbitrary: clean }, { weight: 1, arbitrary: hazard }), { minLength: 1, maxLength: 12 }).map((a) => a.join(""));
    const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((a) => a.join("."));
    const rest = fc
      .array(
        fc.oneof(
          { weight: 8, arbitrary: clean },
          { weight: 2, arbitrary: fc.constantFrom("/", ".", "..", "./", "../", "%2e", "%2E", "%41", "%4", "@", ":", "'", "!", "$", "(", "*", "+", ";", "=", "~", "_", "-", "?", "#", "|", "^", "`", "{", "\\", " ", "%%", "C:", "c|", "//", "A") },
        ),
        { maxLength: 15 },
      )
      .map((a) => a.join(""));
    const absolute = fc
      .tuple(
        fc.constantFrom("http", "https", "ws", "wss", "ftp", "file", "foo", "HTTP", "blob", "mailto"),
        fc.constantFrom("://", "://", ":/", ":", ":///"),
        fc.constantFrom("", "", "", "u@", "u:p@"),
        host,
        fc.constantFrom("", "", "", "", ":", ":80", ":443", ":8080", ":08", ":65536", ":x"),
        fc.constantFrom("", "/", "/", "?", "#"),
        rest,
      )
      .map((a) => a.join(""));
    const relative = fc.tuple(fc.constantFrom("", "", "/", "//", "./", "../", "?", "#", "../../"), rest).map((a) => a.join(""));
    const moreBases = ["https://u:p@h/", "http://1.2.3.4/", "http://[::1]/", "wss://h/", "https://h", "blob:https://h/x", "sc:opaque"].map((b) => full(b, null)!);
    let claimed = 0;
    fc.assert(
      fc.property(fc.oneof(absolute, relative), fc.constantFrom(null, ...bases, ...moreBases), (input, base) => {
        if (!withoutValidationErrors(input, base)) return;
        claimed++;
        expect(errorsOf(input, base), `${JSON.stringify(input)} against ${base === null ? "no base" : serializeURL(base)}`).toEqual([]);
      }),
      { numRuns: 20_000, seed: Number(process.env["FC_SEED"] ?? 42) },
    );
    // A generator whose inputs it never takes would check nothing.
    expect(claimed).toBeGreaterThan(2_000);
  });

  it("says so for the common shapes, and not for what has an error", () => {
    const base = full("https://example.com/docs/v1/page", null)!;
    for (const input of ["../a.html#s", "/wiki/New_Zealand", "#top", "?q=1&r=%C3%A9", "https://example.org/x?y#z", "//cdn.example/a.png"]) {
      expect(withoutValidationErrors(input, base), input).toBe(true);
    }
    for (const input of ["a b", "/%zz", "#a#b", "a|b", "https://xn--nxa.example/", "HTTP://Example.com/", "\\x", "é", "https://-a.com/", "https://a-.com/", "https://ab--c.com/", `https://${"x".repeat(64)}.com/`]) {
      expect(withoutValidationErrors(input, base), input).toBe(false);
    }
  });
});
