/**
 * Differential property tests: random URL-ish inputs, bases, setter calls
 * and URLSearchParams operations, run through docbase and through two
 * references, whatwg-url and Node's own URL (ada). Wherever the two
 * references agree (both fail, or both give the same href), docbase must
 * agree too: same failure, or the same href and the same value for every
 * getter the references agree on. Where they disagree, the case says nothing
 * and is only counted (and the counts are checked, so that a generator that
 * drifts into testing nothing fails the suite).
 *
 * Deterministic: the seed is fixed unless FC_SEED is set; FC_RUNS sets the
 * number of runs per property (default 20,000). A failure prints the seed,
 * the shrunk counterexample, and what each implementation returned.
 */

import fc from "fast-check";
import { URL as WhatwgURL, URLSearchParams as WhatwgURLSearchParams } from "whatwg-url";
import { describe, expect, it } from "vitest";
import {
  impl,
  whatwgURLImpl,
  type URLClass,
  type URLLike,
  type URLSearchParamsClass,
  type URLSearchParamsLike,
} from "./impl.ts";

const seed = process.env["FC_SEED"] === undefined ? 0x00d0cba5 : Number(process.env["FC_SEED"]);
const numRuns = process.env["FC_RUNS"] === undefined ? 20_000 : Number(process.env["FC_RUNS"]);
if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${process.env["FC_SEED"]}`);
if (!Number.isSafeInteger(numRuns) || numRuns < 1) throw new Error(`FC_RUNS must be a positive integer`);
fc.configureGlobal({ seed, numRuns });

const whatwg = {
  URL: WhatwgURL as unknown as URLClass,
  URLSearchParams: WhatwgURLSearchParams as unknown as URLSearchParamsClass,
};
const native = {
  URL: globalThis.URL as unknown as URLClass,
  URLSearchParams: globalThis.URLSearchParams as unknown as URLSearchParamsClass,
};

// ---------------------------------------------------------------------------
// Alphabet.

const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
const maybe = (arb: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.oneof(fc.constant(""), arb);
const joined = (...parts: fc.Arbitrary<string>[]): fc.Arbitrary<string> => fc.tuple(...parts).map((p) => p.join(""));
const soupOf = (token: fc.Arbitrary<string>, maxLength: number): fc.Arbitrary<string> =>
  fc.array(token, { maxLength }).map((tokens) => tokens.join(""));

const specialSchemes = ["http", "https", "ws", "wss", "ftp", "file"] as const;
const schemeNames = [
  ...specialSchemes,
  "HTTP",
  "hTtPs",
  "FILE",
  "Ws",
  "sc",
  "foo",
  "a+b-c.d",
  "javascript",
  "mailto",
  "data",
  "blob",
  "about",
  "urn",
  "non-spec",
  "web+demo",
  "x",
  "1http",
  "ht tp",
  "h\ttp",
  "-x",
  "",
] as const;

const schemeArb = pick(schemeNames).map((s) => `${s}:`);

/** What follows the scheme. */
const slashesArb = pick(["//", "//", "//", "", "/", "///", "\\\\", "\\", "/\\", "\\/", "////", "/\t/", " //"]);

const hostArb = pick([
  "example.com",
  "EXAMPLE.COM",
  "ex%41mple.com",
  "a.b.c",
  "a..b",
  "a.",
  ".",
  "..",
  "localhost",
  "LocalHost",
  "xn--nxasmq6b",
  "xn--a",
  "xn--",
  "xn--zca.ß",
  "faß.de",
  "münchen.de",
  "ÉCOLE.fr",
  "日本語.jp",
  "a\u3002b",
  "a\uFF0Eb",
  "a\u00ADb",
  "a\u200Db",
  "\u{1F600}.com",
  "\u{E0041}x",
  "-x",
  "x-",
  "ab--c",
  "0",
  "00",
  "0x",
  "0x7f.1",
  "0X7F.0.0.1",
  "0177.0.0.1",
  "0177.1",
  "127.1",
  "127.0.0.1",
  "127.0.0.1.",
  "1.2.3.4.5",
  "1.2.3.4.",
  "4294967295",
  "4294967296",
  "0xffffffff",
  "0x100000000",
  "999999999999999999999",
  "09",
  "08.1",
  "1.0x",
  "0..1",
  "1..",
  ".1",
  "256.256.256.256",
  "0x1.0x2.0x3.0x4",
  "1.2.3.0x",
  "example.123",
  "example.0x1",
  "[::]",
  "[::1]",
  "[1:2:3:4:5:6:7:8]",
  "[1:2:3:4:5:6:7:8:9]",
  "[::ffff:192.168.0.1]",
  "[::ffff:1.2.3]",
  "[::1.2.3.4.5]",
  "[::1.2.3.04]",
  "[1::2::3]",
  "[:1]",
  "[1:]",
  "[::%31]",
  "[0:0:0:0:0:0:0:0]",
  "[0::0:0:1:0:0]",
  "[1:0:0:2::3:0]",
  "[1:0:0:2:0:0:3:0]",
  "[FEDC:BA98:7654:3210:FEDC:BA98:7654:3210]",
  "[::127.0.0.1]",
  "[1:2:3:4:5:6:1.2.3.4]",
  "[1:2:3:4:5:6:7:1.2.3.4]",
  "[12345::]",
  "[v1.x]",
  "[::1",
  "[",
  "]",
  "a b",
  "a<b",
  "a^b",
  "a|b",
  "a%b",
  "a%00b",
  "a%2eb",
  "%7F",
  "a\u0000b",
  "a\tb",
  "",
]);

const portArb = pick([
  ":",
  ":0",
  ":1",
  ":21",
  ":80",
  ":443",
  ":8080",
  ":65535",
  ":65536",
  ":099",
  ":00000000000000000080",
  ":99999999999999999999999",
  ":4294967377",
  ":-1",
  ":8a",
  ": 80",
  ":8\t0",
  ":80/",
]);

const userinfoArb = pick([
  "user@",
  "user:pass@",
  ":@",
  "@",
  "@@",
  "u:p:q@",
  "us%20er@",
  "ü:ß@",
  "a@b@",
  "%@",
  "u\\p@",
  "u/p@",
  "::@",
]);

const pathTokenArb = pick([
  "/",
  "/",
  "/",
  "//",
  "\\",
  ".",
  "..",
  "./",
  "../",
  "/.",
  "/..",
  "%2e",
  "%2E",
  ".%2e",
  "%2e%2E",
  "%2f",
  "a",
  "b",
  "index.html",
  "C:",
  "c|",
  "C|/",
  "/C:",
  "C%3A",
  "c%7C",
  "a b",
  'a"b',
  "<a>",
  "`",
  "{x}",
  "^",
  "%",
  "%2",
  "%zz",
  "%41",
  "%C3%A9",
  "é",
  "\u{1F600}",
  "\uD800",
  "\uDC00",
  ";",
  "=",
  "&",
  "'",
  "+",
  "~",
  "!",
  "$",
  "*",
  ",",
  "|",
  "@",
  ":",
  "[",
  "]",
]);

const queryArb = pick([
  "?",
  "??",
  "?a=b",
  "?a=b&c=d",
  "?a b",
  "?'",
  '?"',
  "?<>",
  "?%",
  "?é",
  "?\u{1F600}",
  "?\uD800",
  "?a+b",
  "?%zz",
  "?`{}",
  "?\u0000",
]);
const fragmentArb = pick([
  "#",
  "##",
  "#a",
  "#a b",
  "#`",
  "#<>",
  '#"',
  "#é",
  "#\uDFFF",
  "#%",
  "#?",
  "#\u0000",
  "#\u{1F600}",
]);

/** Single code units and code points the parser treats specially, or that stress encoding. */
const oddCharArb = fc.oneof(
  pick([
    "\t",
    "\n",
    "\r",
    " ",
    "\f",
    "\u000B",
    "\u0000",
    "\u001F",
    "\u007F",
    "\u00A0",
    "\u3000",
    "\uFEFF",
    "\uFFFD",
    "\uFFFF",
    "\uFDD0",
    "\uD83D",
    "\uDE00",
    "\u{10FFFF}",
    "%",
    "@",
    ":",
    "[",
    "]",
    "\\",
    "/",
    "?",
    "#",
    ".",
  ]),
  fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);

const anyTokenArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: schemeArb, weight: 1 },
  { arbitrary: slashesArb, weight: 1 },
  { arbitrary: hostArb, weight: 2 },
  { arbitrary: portArb, weight: 1 },
  { arbitrary: userinfoArb, weight: 1 },
  { arbitrary: pathTokenArb, weight: 3 },
  { arbitrary: queryArb, weight: 1 },
  { arbitrary: fragmentArb, weight: 1 },
  { arbitrary: oddCharArb, weight: 3 },
);

const edgeJunkArb = pick(["", "", "", " ", "\t", "\n", "\u0000", "\u001F ", " \t\r\n", "\u00A0"]);

/** A URL with a scheme: mostly well-formed around a few odd parts. */
const absoluteArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: joined(
      edgeJunkArb,
      schemeArb,
      slashesArb,
      maybe(userinfoArb),
      hostArb,
      maybe(portArb),
      soupOf(fc.oneof({ arbitrary: pathTokenArb, weight: 5 }, { arbitrary: oddCharArb, weight: 1 }), 8),
      maybe(queryArb),
      maybe(fragmentArb),
      edgeJunkArb,
    ),
  },
  // Windows drive letters in file URLs.
  {
    weight: 1,
    arbitrary: joined(
      pick([
        "file:",
        "FILE:",
        "file:/",
        "file://",
        "file:///",
        "file:\\\\",
        "file:////",
        "file://localhost/",
        "file://host/",
        "file:",
      ]),
      pick(["C:", "c|", "C:/", "c|/", "/C:/", "C%3A/", "C", "CD:/", "\\C:\\", "C:\\", "//C:/", ""]),
      soupOf(pathTokenArb, 6),
      maybe(queryArb),
      maybe(fragmentArb),
    ),
  },
  // Token soup.
  { weight: 2, arbitrary: joined(schemeArb, soupOf(anyTokenArb, 12)) },
  { weight: 1, arbitrary: soupOf(anyTokenArb, 14) },
);

/** A URL reference to resolve against a base. */
const relativeArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: joined(
      edgeJunkArb,
      pick([
        "",
        "",
        "/",
        "//",
        "///",
        "\\",
        "\\\\",
        "./",
        "../",
        "?",
        "#",
        "..",
        ".",
        "C:",
        "/C:",
        "C|",
        "file:",
        "http:",
        "HTTPS:",
        "sc:",
        "ws:",
      ]),
      soupOf(
        fc.oneof(
          { arbitrary: pathTokenArb, weight: 4 },
          { arbitrary: hostArb, weight: 1 },
          { arbitrary: oddCharArb, weight: 1 },
        ),
        8,
      ),
      maybe(queryArb),
      maybe(fragmentArb),
      edgeJunkArb,
    ),
  },
  { weight: 1, arbitrary: soupOf(anyTokenArb, 10) },
  { weight: 1, arbitrary: absoluteArb },
);

/** A base URL: mostly valid, of every kind (special, file, non-special with and without host, opaque). */
const baseArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: pick([
      "http://example.com/a/b/c?q#f",
      "https://user:pass@example.com:8080/dir/file.html?x=1",
      "http://example.com/",
      "http://[::1]/a/",
      "http://1.2.3.4/a/b",
      "file:///C:/dir/file.txt",
      "file:///home/user/",
      "file://host/share/x",
      "file:///",
      "file:",
      "sc://host/a/b",
      "sc://host",
      "sc:/a/b/",
      "sc:opaque",
      "sc:opaque?q#f",
      "about:blank",
      "data:text/plain,x",
      "mailto:x@example.com",
      "javascript:alert(1)",
      "non-spec:/.//p",
      "web+demo:/a//b",
      "blob:https://example.com/uuid",
      "ws://example.com/chat",
      "ftp://ftp.example.com/pub/",
    ]),
  },
  {
    weight: 2,
    arbitrary: joined(
      pick([...specialSchemes, "sc", "foo"]).map((s) => `${s}://`),
      maybe(userinfoArb),
      pick(["example.com", "h", "127.0.0.1", "[::1]", "xn--nxasmq6b", "münchen.de", ""]),
      maybe(pick([":8080", ":80", ":443", ":0"])),
      soupOf(pick(["/", "/a", "/b/", "/..", "/.", "/c:", "/%2e"]), 5),
      maybe(queryArb),
      maybe(fragmentArb),
    ),
  },
  { weight: 1, arbitrary: absoluteArb },
);

// ---------------------------------------------------------------------------
// Outcomes.

const snapshotKeys = [
  "href",
  "origin",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
  "searchParams",
] as const;
type SnapshotKey = (typeof snapshotKeys)[number];
type Snapshot = Record<SnapshotKey, string>;

/** A URL operation's result: the URL's getters, or the failure (the error's name). */
type Outcome = { ok: true; url: Snapshot } | { ok: false; error: string };

function snapshot(url: URLLike): Snapshot {
  const out = {} as Snapshot;
  for (const key of snapshotKeys) out[key] = key === "searchParams" ? url.searchParams.toString() : url[key];
  return out;
}

function attempt(run: () => URLLike): Outcome {
  let url: URLLike;
  try {
    url = run();
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.name : String(error) };
  }
  return { ok: true, url: snapshot(url) };
}

/**
 * What both references agree on: null when they disagree (one fails, or the
 * hrefs differ); otherwise the failure, or the getters whose values agree.
 */
function agreement(a: Outcome, b: Outcome): { ok: false } | { ok: true; url: Partial<Snapshot> } | null {
  if (!a.ok || !b.ok) return !a.ok && !b.ok ? { ok: false } : null;
  if (a.url.href !== b.url.href) return null;
  const url: Partial<Snapshot> = {};
  for (const key of snapshotKeys) if (a.url[key] === b.url[key]) url[key] = a.url[key];
  return { ok: true, url };
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

/** Throws a readable report when docbase's outcome does not match the references' agreement. */
function checkAgainst(
  what: string,
  expected: { ok: false } | { ok: true; url: Partial<Snapshot> },
  actual: Outcome,
  references: { whatwg: Outcome; native: Outcome },
): void {
  let problem: string | null = null;
  if (!expected.ok) {
    if (actual.ok) problem = "the references fail, docbase does not";
    else if (actual.error !== "TypeError") problem = `docbase threw ${actual.error}, not TypeError`;
  } else if (!actual.ok) {
    problem = `docbase threw ${actual.error}; the references succeed`;
  } else {
    const diff = (Object.keys(expected.url) as SnapshotKey[]).filter((key) => expected.url[key] !== actual.url[key]);
    if (diff.length > 0) {
      problem =
        `getters differ: ${diff.join(", ")}` +
        diff
          .map(
            (key) =>
              `\n  ${key}: docbase ${JSON.stringify(actual.url[key])}, references ${JSON.stringify(expected.url[key])}`,
          )
          .join("");
    }
  }
  if (problem !== null) {
    throw new Error(
      `${what}: ${problem}\n` +
        `docbase:    ${JSON.stringify(actual)}\n` +
        `whatwg-url: ${JSON.stringify(references.whatwg)}\n` +
        `Node URL:   ${JSON.stringify(references.native)}`,
    );
  }
}

/** How often the references agreed; checked after each property so that no property tests nothing. */
class Tally {
  agreedSuccess = 0;
  agreedFailure = 0;
  disagreed = 0;
  get total(): number {
    return this.agreedSuccess + this.agreedFailure + this.disagreed;
  }
  count(agreed: { ok: boolean } | null): void {
    if (agreed === null) this.disagreed++;
    else if (agreed.ok) this.agreedSuccess++;
    else this.agreedFailure++;
  }
  /**
   * At least `success` and `failure` of the runs are agreed successes /
   * failures; at most 10% disagree. (`skipped`: runs that never reached the
   * comparison.)
   */
  expectCoverage(what: string, success: number, failure: number, skipped = 0): void {
    const { total } = this;
    if (process.env["FC_VERBOSE"]) {
      console.info(`${what}: ${JSON.stringify({ ...this, total, skipped })}`);
    }
    expect(total + skipped, "runs").toBeGreaterThanOrEqual(numRuns);
    expect(this.agreedSuccess / total, "share of runs where both references succeed").toBeGreaterThanOrEqual(success);
    expect(this.agreedFailure / total, "share of runs where both references fail").toBeGreaterThanOrEqual(failure);
    expect(this.disagreed / total, "share of runs where the references disagree").toBeLessThanOrEqual(0.1);
  }
}

function runProperty<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => void): void {
  // fc.assert throws with the seed, the path and the shrunk counterexample.
  fc.assert(fc.property(arb, predicate));
}

// ---------------------------------------------------------------------------
// Parsing.

function checkParse(input: string, base: string | undefined, tally: Tally): void {
  const references = {
    whatwg: attempt(() => new whatwg.URL(input, base)),
    native: attempt(() => new native.URL(input, base)),
  };
  const agreed = agreement(references.whatwg, references.native);
  tally.count(agreed);
  if (agreed === null) return;
  const args = `${JSON.stringify(input)}${base === undefined ? "" : `, ${JSON.stringify(base)}`}`;
  checkAgainst(
    `new URL(${args})`,
    agreed,
    attempt(() => new impl.URL(input, base)),
    references,
  );

  // The same through parseURL + serializeURL, and with the base as a record.
  const record = base === undefined ? impl.parseURL(input) : impl.parseURL(input, { base });
  const href = record === null ? null : impl.serializeURL(record);
  const expectedHref = agreed.ok ? (agreed.url.href ?? null) : null;
  if (href !== expectedHref) {
    throw new Error(`parseURL(${args}) + serializeURL: ${json(href)}, the references: ${json(expectedHref)}`);
  }
  if (record !== null) {
    // The record itself, field by field, against whatwg-url's (in docbase's representation).
    const reference = whatwgURLImpl.parseURL(input, base === undefined ? {} : { base });
    const view = impl.recordView(record);
    const expectedView = reference === null ? null : whatwgURLImpl.recordView(reference);
    if (json(view) !== json(expectedView)) {
      throw new Error(`parseURL(${args}) record:\ndocbase:    ${json(view)}\nwhatwg-url: ${json(expectedView)}`);
    }
  }
  if (base !== undefined) {
    const baseRecord = impl.parseURL(base);
    const viaRecord = baseRecord === null ? null : impl.parseURL(input, { base: baseRecord });
    const hrefViaRecord = viaRecord === null ? null : impl.serializeURL(viaRecord);
    if (hrefViaRecord !== expectedHref) {
      throw new Error(
        `parseURL(${args}) with the base as a record: ${json(hrefViaRecord)}, the references: ${json(expectedHref)}`,
      );
    }
  }
}

describe(`${impl.name}: differential against whatwg-url and Node's URL (seed ${seed}, ${numRuns} runs each)`, () => {
  it("parses absolute inputs as the references do", () => {
    const tally = new Tally();
    runProperty(absoluteArb, (input) => checkParse(input, undefined, tally));
    tally.expectCoverage("absolute", 0.3, 0.05);
  });

  it("resolves inputs against bases as the references do", () => {
    const tally = new Tally();
    runProperty(fc.tuple(relativeArb, baseArb), ([input, base]) => checkParse(input, base, tally));
    tally.expectCoverage("relative", 0.3, 0.02);
  });

  // -------------------------------------------------------------------------
  // Setters.

  const attributes = [
    "href",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash",
  ] as const;
  type Attribute = (typeof attributes)[number];

  const valueFor: Record<Attribute, fc.Arbitrary<string>> = {
    href: fc.oneof(absoluteArb, relativeArb),
    protocol: fc.oneof(schemeArb, pick(schemeNames), joined(schemeArb, soupOf(anyTokenArb, 2))),
    username: soupOf(fc.oneof(userinfoArb, oddCharArb, pathTokenArb), 4),
    password: soupOf(fc.oneof(userinfoArb, oddCharArb, pathTokenArb), 4),
    host: fc.oneof(
      joined(hostArb, maybe(portArb), maybe(pick(["/x", "?q", "#f", "\\y", "@z"]))),
      soupOf(anyTokenArb, 4),
    ),
    hostname: fc.oneof(joined(hostArb, maybe(pick([":80", "/x", "?q", "#f", "\\y"]))), soupOf(anyTokenArb, 4)),
    port: fc.oneof(
      portArb.map((p) => p.slice(1)),
      fc.nat().map(String),
      fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String),
      soupOf(anyTokenArb, 3),
    ),
    pathname: soupOf(
      fc.oneof(
        { arbitrary: pathTokenArb, weight: 4 },
        { arbitrary: oddCharArb, weight: 1 },
        { arbitrary: fc.constantFrom("?", "#"), weight: 1 },
      ),
      8,
    ),
    search: soupOf(fc.oneof(queryArb, oddCharArb, pathTokenArb), 5),
    hash: soupOf(fc.oneof(fragmentArb, oddCharArb, pathTokenArb), 5),
  };

  const setterCaseArb = fc
    .tuple(baseArb, pick(attributes))
    .chain(([href, attribute]) => valueFor[attribute].map((value) => ({ href, attribute, value })));

  it("sets every attribute as the references do", () => {
    const tally = new Tally();
    let unparsable = 0;
    runProperty(setterCaseArb, ({ href, attribute, value }) => {
      const run = (URL: URLClass) => () => {
        const url = new URL(href);
        url[attribute] = value;
        return url;
      };
      let start: URLLike;
      try {
        start = new whatwg.URL(href);
        new native.URL(href);
      } catch {
        unparsable++;
        return;
      }
      const references = { whatwg: attempt(run(whatwg.URL)), native: attempt(run(native.URL)) };
      const agreed = agreement(references.whatwg, references.native);
      tally.count(agreed);
      if (agreed === null) return;
      checkAgainst(
        `<${JSON.stringify(start.href)}>.${attribute} = ${JSON.stringify(value)}`,
        agreed,
        attempt(run(impl.URL)),
        references,
      );
    });
    // Only href's setter can throw, so few failures are expected.
    tally.expectCoverage("setters", 0.5, 0.001, unparsable);
    expect(unparsable / (tally.total + unparsable), "share of start URLs that do not parse").toBeLessThan(0.5);
  });

  // -------------------------------------------------------------------------
  // URLSearchParams.

  const nameArb = pick([
    "",
    "a",
    "A",
    "b",
    "a b",
    "a+b",
    "é",
    "\u{1F600}",
    "\uFFFD",
    "\uD800",
    "=",
    "&",
    "%",
    "%41",
    "?",
  ]);
  const valueArb = fc.oneof(nameArb, soupOf(oddCharArb, 3));
  const queryStringArb = soupOf(
    fc.oneof(
      { arbitrary: nameArb, weight: 3 },
      {
        arbitrary: pick(["=", "&", "&&", "+", "%", "%20", "%2", "%zz", "%C3%A9", "%FF", "%EF%BF", "?", "#", ";"]),
        weight: 3,
      },
      { arbitrary: oddCharArb, weight: 1 },
    ),
    16,
  );

  type Op =
    | { op: "append" | "set"; name: string; value: string }
    | { op: "delete"; name: string; value?: string }
    | { op: "sort" };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: pick(["append", "set"] as const), name: nameArb, value: valueArb }),
    fc.record({ op: fc.constant("delete" as const), name: nameArb }),
    fc.record({ op: fc.constant("delete" as const), name: nameArb, value: valueArb }),
    fc.constant({ op: "sort" as const }),
  );
  const initArb: fc.Arbitrary<string | [string, string][] | Record<string, string>> = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.oneof(
        queryStringArb,
        queryStringArb.map((q) => `?${q}`),
      ),
    },
    { weight: 1, arbitrary: fc.array(fc.tuple(nameArb, valueArb), { maxLength: 6 }) },
    { weight: 1, arbitrary: fc.dictionary(nameArb, valueArb, { maxKeys: 5 }) },
  );

  function paramsState(params: URLSearchParamsLike): unknown {
    const names = ["", "a", "b", "é", "\uFFFD"];
    return {
      toString: params.toString(),
      entries: [...params],
      size: params.size,
      get: names.map((n) => params.get(n)),
      getAll: names.map((n) => params.getAll(n)),
      has: names.map((n) => params.has(n)),
    };
  }

  function apply(params: URLSearchParamsLike, op: Op): void {
    if (op.op === "sort") params.sort();
    else if (op.op === "delete") {
      if (op.value === undefined) params.delete(op.name);
      else params.delete(op.name, op.value);
    } else params[op.op](op.name, op.value);
  }

  /** The state after construction and after each operation. */
  function trace(
    Params: URLSearchParamsClass,
    init: string | [string, string][] | Record<string, string>,
    ops: Op[],
  ): unknown[] {
    const params = new Params(init);
    const states = [paramsState(params)];
    for (const op of ops) {
      apply(params, op);
      states.push(paramsState(params));
    }
    return states;
  }

  it("URLSearchParams: parses, mutates, sorts and serializes as the references do", () => {
    let agreed = 0;
    let disagreed = 0;
    runProperty(fc.tuple(initArb, fc.array(opArb, { maxLength: 6 })), ([init, ops]) => {
      const expected = trace(whatwg.URLSearchParams, init, ops);
      if (json(expected) !== json(trace(native.URLSearchParams, init, ops))) {
        disagreed++;
        return;
      }
      agreed++;
      const actual = trace(impl.URLSearchParams, init, ops);
      if (json(actual) !== json(expected)) {
        throw new Error(
          `new URLSearchParams(${json(init)}) then ${json(ops)}:\ndocbase:    ${json(actual)}\nreferences: ${json(expected)}`,
        );
      }
    });
    if (process.env["FC_VERBOSE"]) console.info(`URLSearchParams: ${JSON.stringify({ agreed, disagreed })}`);
    // Node 24's URLSearchParams mis-decodes a non-ASCII code point followed by
    // bytes that are not UTF-8 ("é%FF" gives "\uFFFD\uFFFD", not "é\uFFFD"):
    // those runs disagree, and are about a tenth of them.
    expect(disagreed / (agreed + disagreed), "share of runs where the references disagree").toBeLessThan(0.2);
  });

  it("URL.searchParams: mutations update the URL as in the references", () => {
    const tally = new Tally();
    runProperty(fc.tuple(baseArb, fc.array(opArb, { minLength: 1, maxLength: 4 })), ([href, ops]) => {
      const run = (URL: URLClass) => () => {
        const url = new URL(href);
        for (const op of ops) apply(url.searchParams, op);
        return url;
      };
      const references = { whatwg: attempt(run(whatwg.URL)), native: attempt(run(native.URL)) };
      const agreed = agreement(references.whatwg, references.native);
      tally.count(agreed);
      if (agreed === null) return;
      checkAgainst(
        `new URL(${JSON.stringify(href)}).searchParams then ${JSON.stringify(ops)}`,
        agreed,
        attempt(run(impl.URL)),
        references,
      );
    });
    tally.expectCoverage("searchParams", 0.5, 0);
  });
});
