// validateURL: the standard's validation error names, with input ranges.
import fc from "fast-check";
import { basicURLParse as whatwgBasicURLParse, parseURLWithValidationErrors } from "whatwg-url";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateURL, validationErrorTypes, type ValidationErrorType } from "../../src/core/index.ts";
import { isURLCodePoint } from "../../src/core/infra.ts";
import { loadURLTestData } from "../wpt-data.ts";

/**
 * Where validateURL's error names differ from whatwg-url 17.3's (which tracks
 * the same revision of the standard's table), each case with the spec
 * sentence that decides it and why docbase reports what it does. Enforced
 * both ways: an unlisted difference fails, and so does a listed one that no
 * longer differs exactly as listed.
 */
interface Difference {
  input: string;
  base: string | null;
  /** docbase's error names, sorted. */
  docbase: string[];
  /** whatwg-url's error names, sorted. */
  whatwgURL: string[];
  /** The spec sentence that decides the case. */
  spec: string;
  /** A key of `reasons`. */
  reason: string;
}
interface DifferenceFile {
  reasons: Record<string, string>;
  /** Inputs compared beside urltestdata.json's: the cases the standard's table names and the ones the differences turn on. */
  extraInputs: { input: string; base: string | null }[];
  differences: Difference[];
}
const differenceFile = JSON.parse(
  readFileSync(new URL("./validation-errors-vs-whatwg-url.json", import.meta.url), "utf8"),
) as DifferenceFile;

function key(input: string, base: string | null): string {
  return JSON.stringify([input, base]);
}

const listed = new Map(differenceFile.differences.map((d) => [key(d.input, d.base), d]));

function sortedNames(names: readonly string[]): string[] {
  return [...names].sort();
}

describe("validation error names agree with whatwg-url 17.3, or the difference is listed", () => {
  // urltestdata.json says whether each input parses; the extra inputs are compared for their names only.
  const cases: { input: string; base: string | null; failure: boolean | null }[] = [
    ...loadURLTestData().map((c) => ({ input: c.input, base: c.base, failure: c.failure === true })),
    ...differenceFile.extraInputs.map((c) => ({ ...c, failure: null })),
  ].filter((c) => c.base === null || whatwgBasicURLParse(c.base) !== null);
  const compared = new Set(cases.map((c) => key(c.input, c.base)));

  it("compares every urltestdata.json input whose base parses, and the extra inputs", () => {
    expect(cases.length).toBeGreaterThan(900);
  });

  it.for(cases.map((c, i) => [i, c] as const))("#%i %o", ([, c]) => {
    const base = c.base === null ? null : whatwgBasicURLParse(c.base);
    const reference = sortedNames(parseURLWithValidationErrors(c.input, { baseURL: base }).validationErrors);
    const result = validateURL(c.input, c.base === null ? {} : { base: c.base });
    const ours = sortedNames(result.errors.map((e) => e.type));
    const difference = listed.get(key(c.input, c.base));
    if (difference === undefined) {
      expect(ours).toEqual(reference);
    } else {
      expect(ours, "a listed difference no longer differs").not.toEqual(reference);
      expect({ docbase: ours, whatwgURL: reference }).toEqual({ docbase: difference.docbase, whatwgURL: difference.whatwgURL });
      expect(differenceFile.reasons).toHaveProperty(difference.reason);
      expect(difference.spec).not.toBe("");
      if (difference.reason === "one-error-per-run") {
        // The same names; docbase has at least as many of each (a run is never merged away).
        expect(new Set(ours)).toEqual(new Set(reference));
        for (const name of reference) expect(ours.filter((n) => n === name).length).toBeGreaterThanOrEqual(reference.filter((n) => n === name).length);
      } else {
        // scalar-value-string: given the scalar value string the parser sees, whatwg-url agrees.
        expect(c.input.isWellFormed()).toBe(false);
        expect(sortedNames(parseURLWithValidationErrors(c.input.toWellFormed(), { baseURL: base }).validationErrors)).toEqual(ours);
      }
    }
    // The URL is the one parseURL gives.
    if (c.failure !== null) expect(result.url === null).toBe(c.failure);
  });

  it("lists no difference for an input it does not compare", () => {
    expect([...listed.keys()].filter((k) => !compared.has(k))).toEqual([]);
  });
});

/** [input, base, expected errors as [type, covered text, start]]. */
const rangeCases: [string, string | null, [ValidationErrorType, string, number][]][] = [
  [" https://a/", null, [["invalid-URL-unit", " ", 0]]],
  [" https://a/\u0000", null, [["invalid-URL-unit", " ", 0], ["invalid-URL-unit", "\u0000", 11]]],
  ["http://a\tb\nc.com/", null, [["invalid-URL-unit", "\t", 8], ["invalid-URL-unit", "\n", 10]]],
  ["http://a\t\r\nb/", null, [["invalid-URL-unit", "\t\r\n", 8]]],
  ["https://a/ \n", null, [["invalid-URL-unit", " \n", 10]]],
  ["ht\ttps://a/\n", null, [["invalid-URL-unit", "\n", 11], ["invalid-URL-unit", "\t", 2]]],
  ["https://a/b c", null, [["invalid-URL-unit", " ", 11]]],
  ["https://a/%zz", null, [["invalid-URL-unit", "%", 10]]],
  ["https://a/?q=<", null, [["invalid-URL-unit", "<", 13]]],
  ["https://a/💩\u{10FFFF}", null, [["invalid-URL-unit", "\u{10FFFF}", 12]]],
  // Lone surrogates: the parser sees a scalar value string, in which they are U+FFFD, a URL code point.
  ["https://a/\uD800?\uDFFF", null, []],
  ["https://a/#`", null, [["invalid-URL-unit", "`", 11]]],
  ["sc:a b", null, [["invalid-URL-unit", " ", 4]]],
  ["https:a/", null, [["special-scheme-missing-following-solidus", "", 6]]],
  ["https:///a", null, [["special-scheme-missing-following-solidus", "/", 8]]],
  ["https://a\\b", null, [["invalid-reverse-solidus", "\\", 9]]],
  ["foo", null, [["missing-scheme-non-relative-URL", "foo", 0]]],
  ["https://u:p@a/", null, [["invalid-credentials", "@", 11]]],
  ["https://u@/", null, [["invalid-credentials", "@", 9], ["host-missing", "", 10]]],
  ["https:///", null, [["special-scheme-missing-following-solidus", "/", 8], ["host-missing", "", 9]]],
  // A host missing before a port is missing before the ":", which is not itself offending.
  ["http://:80", null, [["host-missing", "", 7]]],
  ["https://u@:443/", null, [["invalid-credentials", "@", 9], ["host-missing", "", 10]]],
  ["https://a:99999/", null, [["port-out-of-range", "99999", 10]]],
  ["https://a:12x/", null, [["port-invalid", "x", 12]]],
  ["http://h:😀/", null, [["port-invalid", "😀", 9]]],
  ["C|/x", "file:///a/b", [["file-invalid-Windows-drive-letter", "C|", 0], ["invalid-URL-unit", "|", 1]]],
  // The table's own example of file-invalid-Windows-drive-letter is none by the parser's steps: the
  // "/" takes it to the file slash state, which reports nothing, and then to the path state (the
  // error is the file state's, for a drive letter first). whatwg-url agrees.
  ["/c:/path/to/file", "file:///c:/", []],
  ["c|/path/to/file", "file:///c:/", [["file-invalid-Windows-drive-letter", "c|", 0], ["invalid-URL-unit", "|", 1]]],
  ["file://C:/x", null, [["file-invalid-Windows-drive-letter-host", "C:", 7]]],
  ["foo://a b/", null, [["host-invalid-code-point", " ", 7]]],
  // One error per run of offending code points where the standard's step reports one for the host.
  ['foo://a"b`/', null, [["invalid-URL-unit", '"', 7], ["invalid-URL-unit", "`", 9]]],
  ["foo://a%zz%b/", null, [["invalid-URL-unit", "%", 7], ["invalid-URL-unit", "%", 10]]],
  ["foo://a b<c/", null, [["host-invalid-code-point", " ", 7], ["host-invalid-code-point", "<", 9]]],
  // domain-to-ASCII: the ASCII code points strict ToASCII disallows (a forbidden domain code point
  // among them), through percent-decoding; without any, the labels that fail on their own (an
  // empty one by its separator); without any, the domain as a whole.
  ["https://a<b/", null, [["domain-to-ASCII", "<", 9]]],
  ["http://a<b>c/", null, [["domain-to-ASCII", "<", 8], ["domain-to-ASCII", ">", 10]]],
  ["https://a%3Cb/", null, [["domain-percent-encoded", "%3C", 9], ["domain-to-ASCII", "%3C", 9]]],
  ["https://ü<.com/", null, [["domain-to-ASCII", "<", 9]]],
  ["https://a_b.com/", null, [["domain-to-ASCII", "_", 9]]],
  ["https://-a.com/", null, [["domain-to-ASCII", "-a", 8]]],
  ["https://xn--a.com/", null, [["domain-to-ASCII", "xn--a", 8]]],
  ["https://a-.b-.c/", null, [["domain-to-ASCII", "a-", 8], ["domain-to-ASCII", "b-", 11]]],
  ["https://a-..b/", null, [["domain-to-ASCII", "a-.", 8]]],
  ["https://a.b。/", null, [["domain-to-ASCII", "。", 11]]],
  ["https://\u200D.com/", null, [["domain-to-ASCII", "\u200D", 8]]],
  ["https://a.\u05D0.1com/", null, [["domain-to-ASCII", "a.\u05D0.1com", 8]]],
  ["https://1.2.3.4./", null, [["domain-to-ASCII", ".", 15], ["IPv4-empty-part", ".", 15]]],
  ["https://exam%70le.org/", null, [["domain-percent-encoded", "%70", 12]]],
  ["https://ex%61mple.com%2e/", null, [["domain-percent-encoded", "%61", 10], ["domain-percent-encoded", "%2e", 21], ["domain-to-ASCII", "%2e", 21]]],
  ["https://1.2.3/", null, [["IPv4-too-few-parts", "1.2.3", 8]]],
  ["https://①.②.3.4/", null, [["IPv4-non-ASCII-input", "①", 8], ["IPv4-non-ASCII-input", "②", 10]]],
  ["https://%EF%BC%91.2.3.4/", null, [["domain-percent-encoded", "%EF%BC%91", 8], ["IPv4-non-ASCII-input", "%EF%BC%91", 8]]],
  // After UTF-8 decoding or IDNA mapping, positions do not map back: the error covers the host,
  // and is one error, as the standard signals it.
  ["https://１.2.3.256/", null, [["IPv4-non-ASCII-input", "１", 8], ["IPv4-out-of-range-part", "１.2.3.256", 8]]],
  ["https://２５６.２５６.1.1/", null, [["IPv4-non-ASCII-input", "２５６", 8], ["IPv4-non-ASCII-input", "２５６", 12], ["IPv4-out-of-range-part", "２５６.２５６.1.1", 8]]],
  ["https://%C3%BC<a>b/", null, [["domain-percent-encoded", "%C3%BC", 8], ["domain-to-ASCII", "%C3%BC<a>b", 8]]],
  ["https://1.2.3.4.5/", null, [["IPv4-too-many-parts", "1.2.3.4.5", 8]]],
  ["https://1.2.x.4/", null, [["IPv4-non-numeric-part", "x", 12]]],
  ["https://0x7f.0.0.1/", null, [["IPv4-non-decimal-part", "0x7f", 8]]],
  ["https://1.2.3.256/", null, [["IPv4-out-of-range-part", "256", 14]]],
  ["https://256.1.256.1/", null, [["IPv4-out-of-range-part", "256", 8], ["IPv4-out-of-range-part", "256", 14]]],
  ["https://%31.2.3.256/", null, [["domain-percent-encoded", "%31", 8], ["IPv4-out-of-range-part", "256", 16]]],
  ["https://%32%35%36.1.1.1/", null, [["domain-percent-encoded", "%32%35%36", 8], ["IPv4-out-of-range-part", "%32%35%36", 8]]],
  ["https://[::1/", null, [["IPv6-unclosed", "[::1", 8]]],
  ["https://[:1]/", null, [["IPv6-invalid-compression", ":", 9]]],
  ["https://[1:2:3:4:5:6:7:8:9]/", null, [["IPv6-too-many-pieces", "9", 25]]],
  ["https://[1::2::3]/", null, [["IPv6-multiple-compression", ":", 14]]],
  ["https://[1:2:x::]/", null, [["IPv6-invalid-code-point", "x", 13]]],
  ["https://[1:😀]/", null, [["IPv6-invalid-code-point", "😀", 11]]],
  ["https://[1:]/", null, [["IPv6-invalid-code-point", ":", 10]]],
  ["https://[1:2:3]/", null, [["IPv6-too-few-pieces", "1:2:3", 9]]],
  ["https://[::01]/", null, [["IPv6-piece-leading-zero", "0", 11]]],
  ["https://[0001:0:00:1::]/", null, [["IPv6-piece-leading-zero", "000", 9], ["IPv6-piece-leading-zero", "0", 16]]],
  ["https://[1:2:3:4:5:6:7:1.2.3.4]/", null, [["IPv4-in-IPv6-too-many-pieces", "1.2.3.4", 23]]],
  ["https://[::1.2.x.4]/", null, [["IPv4-in-IPv6-invalid-code-point", "x", 15]]],
  ["https://[::1.2.😀]/", null, [["IPv4-in-IPv6-invalid-code-point", "😀", 15]]],
  ["https://[::01.2.3.4]/", null, [["IPv4-in-IPv6-invalid-code-point", "01", 11]]],
  ["https://[::1.2.300.4]/", null, [["IPv4-in-IPv6-out-of-range-part", "300", 15]]],
  ["https://[::1.2.3]/", null, [["IPv4-in-IPv6-too-few-parts", "1.2.3", 11]]],
  // Offsets count the removed tabs and newlines and the trimmed spaces. Each run of tabs and
  // newlines is an error of its own; a port covers the tab inside it.
  ["  ht\ntps://a:9\t9999/", null, [["invalid-URL-unit", "  ", 0], ["invalid-URL-unit", "\n", 4], ["invalid-URL-unit", "\t", 14], ["port-out-of-range", "9\t9999", 13]]],
];

describe("validation error ranges", () => {
  it.for(rangeCases)("%j", ([input, base, expected]) => {
    const { errors } = validateURL(input, base === null ? {} : { base });
    expect(errors.map((e) => [e.type, input.slice(e.start, e.end), e.start])).toEqual(expected);
  });

  it("covers every error type of the standard's table", () => {
    const covered = new Set(rangeCases.flatMap(([, , expected]) => expected.map(([type]) => type)));
    expect([...covered].sort()).toEqual(Object.keys(validationErrorTypes).sort());
  });

  /** Whether `i` is a code point boundary of `input` (not between the halves of a surrogate pair). */
  function isCodePointBoundary(input: string, i: number): boolean {
    const before = input.charCodeAt(i - 1);
    const after = input.charCodeAt(i);
    return !(before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff);
  }

  /** What the range of an error of each of these types holds (see ValidationError). */
  const rangeShapes: Partial<Record<ValidationErrorType, RegExp>> = {
    "special-scheme-missing-following-solidus": /^[/\\]?$/,
    "invalid-reverse-solidus": /^\\$/,
    "invalid-credentials": /^@$/,
    "host-missing": /^$/,
    "port-out-of-range": /^[0-9]+$/,
    "port-invalid": /^[^0-9]$/u,
    "file-invalid-Windows-drive-letter": /^[A-Za-z][:|]$/,
    "file-invalid-Windows-drive-letter-host": /^[A-Za-z][:|]$/,
    "IPv4-empty-part": /^\.$/,
    "IPv6-invalid-compression": /^:$/,
    "IPv6-multiple-compression": /^:$/,
    "IPv6-piece-leading-zero": /^0+$/,
  };

  it("every range lies in the input, starts and ends on code point boundaries, and holds what its type is about, for any input (fast-check)", () => {
    const alphabet = fc.constantFrom(
      ..."ab:/\\?#@%[].0x1 \t\n\r\u0000<|_é①。１".split(""),
      "💩",
      "\uD800",
      "\uDC00",
      "\u{10FFFF}",
      "https://",
      "http://h:",
      "https://[1:",
      "😀]/",
      "foo://",
      "file:",
      "[::",
      ":8",
      "%2e",
      "%41",
      "%EF%BC%91",
      "..",
      "0x",
      "256",
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }).map((parts) => parts.join("")), fc.boolean(), (input, withBase) => {
        for (const e of validateURL(input, withBase ? { base: "https://example.com/a/b" } : {}).errors) {
          expect(validationErrorTypes).toHaveProperty(e.type);
          expect(e.start).toBeGreaterThanOrEqual(0);
          expect(e.end).toBeGreaterThanOrEqual(e.start);
          expect(e.end).toBeLessThanOrEqual(input.length);
          expect(isCodePointBoundary(input, e.start), `${e.type} starts inside a surrogate pair`).toBe(true);
          expect(isCodePointBoundary(input, e.end), `${e.type} ends inside a surrogate pair`).toBe(true);
          if (e.type === "domain-percent-encoded") {
            // Percent-encoded bytes only (and the tabs and newlines the parser never saw between them).
            expect(input.slice(e.start, e.end).replace(/[\t\n\r]/g, "")).toMatch(/^(%[0-9A-Fa-f]{2})+$/);
          }
          // The errors about one code point, or about a missing piece, cover that and nothing else
          // (tabs and newlines the parser never saw aside). Text that UTF-8 decoding or IDNA mapping
          // produced has no positions of its own: there, an error covers the whole host.
          const text = input.slice(e.start, e.end).replace(/[\t\n\r]/g, "");
          const shape = rangeShapes[e.type];
          if (shape !== undefined && !/[^\0-\x7f]|%[89A-Fa-f][0-9A-Fa-f]/.test(text)) {
            expect(text, `${e.type} in ${JSON.stringify(input)}`).toMatch(shape);
          }
          if (e.type === "invalid-URL-unit") {
            // Only offending code points: none that is a URL code point, but for a "%" (one not
            // followed by two hex digits).
            for (const c of input.slice(e.start, e.end).toWellFormed()) {
              if (c !== "%") expect(isURLCodePoint(c.codePointAt(0)!), `${JSON.stringify(c)} in ${e.type}`).toBe(false);
            }
          }
        }
      }),
      // FC_RUNS=100000 is the size at which the fuzzing found the two range defects.
      { numRuns: Number(process.env["FC_RUNS"] ?? 5000), seed: Number(process.env["FC_SEED"] ?? 7) },
    );
  });

  it("domain-to-ASCII fails parsing for a forbidden domain code point, whatever the table's Failure column says, and not for the rest of ASCII", () => {
    // The column: failure "when beStrict is true, or domain is not an ASCII string and Unicode
    // ToASCII with relaxed parameters also fails"; the domain parser: "If result contains a
    // forbidden domain code point, then return failure."
    expect(validationErrorTypes["domain-to-ASCII"].failure).toBe(true);
    for (const input of ["https://a<b/", "https://a%3Cb/", "https://a^b/"]) {
      const { url, errors } = validateURL(input);
      expect(url, input).toBeNull();
      expect(errors.map((e) => e.type), input).toEqual(input.includes("%") ? ["domain-percent-encoded", "domain-to-ASCII"] : ["domain-to-ASCII"]);
    }
    for (const input of ["https://a_b/", "https://-a/", "https://xn--a/"]) {
      const { url, errors } = validateURL(input);
      expect(url, input).not.toBeNull();
      expect(errors.map((e) => e.type), input).toEqual(["domain-to-ASCII"]);
    }
  });

  it("reports nothing for a valid URL string", () => {
    expect(validateURL("https://example.com/a?b#c").errors).toEqual([]);
  });
});
