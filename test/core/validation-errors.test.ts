// validateURL: the standard's validation error names, with input ranges.
import fc from "fast-check";
import { basicURLParse as whatwgBasicURLParse, parseURLWithValidationErrors } from "whatwg-url";
import { describe, expect, it } from "vitest";
import { validateURL, validationErrorTypes, type ValidationErrorType } from "../../src/core/index.ts";
import { loadURLTestData } from "../wpt-data.ts";

/**
 * whatwg-url reports three names the URL Standard does not define (it keeps
 * older drafts' names); they are dropped before comparing. It also does not
 * report domain-invalid-code-point where the standard's domain to ASCII does
 * ("If result contains a forbidden domain code point, domain-invalid-code-point
 * validation error, return failure."), so that one is compared only where it
 * reports it.
 */
const notInTheStandard = new Set(["domain-percent-encoded", "IPv4-too-few-parts", "IPv4-non-ASCII-input"]);

describe("validation error names agree with whatwg-url on urltestdata.json", () => {
  const cases = loadURLTestData();
  it.for(cases.map((c, i) => [i, c] as const))("#%i %o", ([, c]) => {
    const base = c.base === null ? null : whatwgBasicURLParse(c.base);
    if (c.base !== null && base === null) return;
    const reference = parseURLWithValidationErrors(c.input, { baseURL: base })
      .validationErrors.filter((name: string) => !notInTheStandard.has(name))
      .sort();
    const result = validateURL(c.input, c.base === null ? {} : { base: c.base });
    const ours = result.errors
      .map((e) => e.type as string)
      .filter((name) => name !== "domain-invalid-code-point" || reference.includes(name))
      .sort();
    expect(ours).toEqual(reference);
    // domain-invalid-code-point only ever comes with a failure.
    if (result.errors.some((e) => e.type === "domain-invalid-code-point")) expect(result.url).toBeNull();
    // The URL is the one parseURL gives.
    expect(result.url === null).toBe(c.failure === true);
  });
});

/** [input, base, expected errors as [type, covered text, start]]. */
const rangeCases: [string, string | null, [ValidationErrorType, string, number][]][] = [
  [" https://a/", null, [["invalid-URL-unit", " ", 0]]],
  ["https://a/ \n", null, [["invalid-URL-unit", " \n", 10]]],
  ["ht\ttps://a/\n", null, [["invalid-URL-unit", "\n", 11], ["invalid-URL-unit", "\t", 2]]],
  ["https://a/b c", null, [["invalid-URL-unit", " ", 11]]],
  ["https://a/%zz", null, [["invalid-URL-unit", "%", 10]]],
  ["https://a/?q=<", null, [["invalid-URL-unit", "<", 13]]],
  ["https://a/#`", null, [["invalid-URL-unit", "`", 11]]],
  ["sc:a b", null, [["invalid-URL-unit", " ", 4]]],
  ["https:a/", null, [["special-scheme-missing-following-solidus", "", 6]]],
  ["https:///a", null, [["special-scheme-missing-following-solidus", "/", 8]]],
  ["https://a\\b", null, [["invalid-reverse-solidus", "\\", 9]]],
  ["foo", null, [["missing-scheme-non-relative-URL", "foo", 0]]],
  ["https://u:p@a/", null, [["invalid-credentials", "@", 11]]],
  ["https://u@/", null, [["invalid-credentials", "@", 9], ["host-missing", "", 10]]],
  ["https:///", null, [["special-scheme-missing-following-solidus", "/", 8], ["host-missing", "", 9]]],
  ["https://a:99999/", null, [["port-out-of-range", "99999", 10]]],
  ["https://a:12x/", null, [["port-invalid", "x", 12]]],
  ["C|/x", "file:///a/b", [["file-invalid-Windows-drive-letter", "C|", 0], ["invalid-URL-unit", "|", 1]]],
  ["file://C:/x", null, [["file-invalid-Windows-drive-letter-host", "C:", 7]]],
  ["foo://a b/", null, [["host-invalid-code-point", " ", 7]]],
  ['foo://a"b`/', null, [["invalid-URL-unit", '"b`', 7]]],
  ["https://a<b/", null, [["domain-to-ASCII", "a<b", 8], ["domain-invalid-code-point", "<", 9]]],
  ["https://a%3Cb/", null, [["domain-to-ASCII", "a%3Cb", 8], ["domain-invalid-code-point", "a%3Cb", 8]]],
  ["https://ü<.com/", null, [["domain-to-ASCII", "ü<.com", 8], ["domain-invalid-code-point", "ü<.com", 8]]],
  ["https://a_b.com/", null, [["domain-to-ASCII", "a_b.com", 8]]],
  ["https://1.2.3.4./", null, [["domain-to-ASCII", "1.2.3.4.", 8], ["IPv4-empty-part", ".", 15]]],
  ["https://1.2.3.4.5/", null, [["IPv4-too-many-parts", "1.2.3.4.5", 8]]],
  ["https://1.2.x.4/", null, [["IPv4-non-numeric-part", "x", 12]]],
  ["https://0x7f.1/", null, [["IPv4-non-decimal-part", "0x7f", 8]]],
  ["https://1.2.3.256/", null, [["IPv4-out-of-range-part", "256", 14]]],
  ["https://%31.2.3.256/", null, [["IPv4-out-of-range-part", "%31.2.3.256", 8]]],
  ["https://[::1/", null, [["IPv6-unclosed", "[::1", 8]]],
  ["https://[:1]/", null, [["IPv6-invalid-compression", ":", 9]]],
  ["https://[1:2:3:4:5:6:7:8:9]/", null, [["IPv6-too-many-pieces", "9", 25]]],
  ["https://[1::2::3]/", null, [["IPv6-multiple-compression", ":", 14]]],
  ["https://[1:2:x::]/", null, [["IPv6-invalid-code-point", "x", 13]]],
  ["https://[1:]/", null, [["IPv6-invalid-code-point", ":", 10]]],
  ["https://[1:2:3]/", null, [["IPv6-too-few-pieces", "1:2:3", 9]]],
  ["https://[1:2:3:4:5:6:7:1.2.3.4]/", null, [["IPv4-in-IPv6-too-many-pieces", "1.2.3.4", 23]]],
  ["https://[::1.2.x.4]/", null, [["IPv4-in-IPv6-invalid-code-point", "x", 15]]],
  ["https://[::01.2.3.4]/", null, [["IPv4-in-IPv6-invalid-code-point", "01", 11]]],
  ["https://[::1.2.300.4]/", null, [["IPv4-in-IPv6-out-of-range-part", "300", 15]]],
  ["https://[::1.2.3]/", null, [["IPv4-in-IPv6-too-few-parts", "1.2.3", 11]]],
  // Offsets count the removed tabs and newlines and the trimmed spaces. The one tab-or-newline
  // error spans from the first to the last of them.
  ["  ht\ntps://a:9\t9999/", null, [["invalid-URL-unit", "  ", 0], ["invalid-URL-unit", "\ntps://a:9\t", 4], ["port-out-of-range", "9\t9999", 13]]],
];

describe("validation error ranges", () => {
  it.for(rangeCases)("%j", ([input, base, expected]) => {
    const { errors } = validateURL(input, base === null ? {} : { base });
    expect(errors.map((e) => [e.type, input.slice(e.start, e.end), e.start])).toEqual(expected);
  });

  it("covers every error type the parser can report", () => {
    const covered = new Set(rangeCases.flatMap(([, , expected]) => expected.map(([type]) => type)));
    // domain-to-Unicode belongs to "domain to Unicode", which URL parsing never runs.
    const all = Object.keys(validationErrorTypes).filter((t) => t !== "domain-to-Unicode");
    expect([...covered].sort()).toEqual(all.sort());
  });

  it("ranges always lie inside the input, for any input (fast-check)", () => {
    const alphabet = fc.constantFrom(..."ab:/\\?#@%[].0x1 \t\n\u0000<é💩".split(""), "https://", "file:", "[::", "%2e", "..", "0x");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }).map((parts) => parts.join("")), (input) => {
        for (const e of validateURL(input, { base: "https://example.com/a/b" }).errors) {
          expect(e.start).toBeGreaterThanOrEqual(0);
          expect(e.end).toBeGreaterThanOrEqual(e.start);
          expect(e.end).toBeLessThanOrEqual(input.length);
          expect(validationErrorTypes).toHaveProperty(e.type);
        }
      }),
      { numRuns: 5000, seed: Number(process.env["FC_SEED"] ?? 7) },
    );
  });

  it("reports nothing for a valid URL string", () => {
    expect(validateURL("https://example.com/a?b#c").errors).toEqual([]);
  });
});
