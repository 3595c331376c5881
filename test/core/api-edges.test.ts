// The web-API mirrors convert their arguments as Web IDL and Node do (one toString per argument, its
// exceptions propagating, a Symbol a TypeError, in URL.parse too); searchParams changes reach the URL
// exactly as the eager update steps would, whatever the sequence (differential against Node's URL);
// parseURL and validateURL name a misuse instead of failing inside the parser.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isURLArgumentError, parseURL, URL as DocbaseURL, validateURL } from "../../src/core/index.ts";

const NodeURL = globalThis.URL;

function counter(text: string): { value: { toString(): string }; calls: () => number } {
  let calls = 0;
  return {
    value: {
      toString() {
        calls++;
        return text;
      },
    },
    calls: () => calls,
  };
}

describe("argument conversion, as Node's URL", () => {
  for (const [name, Impl] of [
    ["docbase", DocbaseURL],
    ["node", NodeURL],
  ] as const) {
    it(`${name}: one toString per argument, for a URL that parses and one that does not`, () => {
      for (const text of ["https://a/", "nope"]) {
        const url = counter(text);
        const base = counter("https://b/");
        try {
          new Impl(url.value as never, base.value as never);
        } catch {
          // "nope" against a base parses; a failure is fine too: the count is what matters.
        }
        expect([url.calls(), base.calls()]).toEqual([1, 1]);
        const alone = counter(text);
        try {
          new Impl(alone.value as never);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
        }
        expect(alone.calls()).toBe(1);
        const parsed = counter(text);
        Impl.parse(parsed.value as never);
        expect(parsed.calls()).toBe(1);
      }
    });
  }

  it("URL.parse and canParse let a throwing toString and a Symbol throw, as Node does", () => {
    const boom = {
      toString(): string {
        throw new RangeError("boom");
      },
    };
    for (const call of [(u: unknown) => DocbaseURL.parse(u as never), (u: unknown) => DocbaseURL.canParse(u as never), (u: unknown) => new DocbaseURL(u as never)]) {
      expect(() => call(boom)).toThrow(RangeError);
      expect(() => call(Symbol("x"))).toThrow(TypeError);
    }
    expect(() => DocbaseURL.parse("https://a/", boom as never)).toThrow(RangeError);
    expect(DocbaseURL.parse("nope")).toBeNull();
    expect(DocbaseURL.parse("x", "https://a/b")?.href).toBe("https://a/x");
    expect(DocbaseURL.parse("https://a/")).toBeInstanceOf(DocbaseURL);
  });

  it("the href setter converts once", () => {
    const url = new DocbaseURL("https://a/");
    const bad = counter("nope");
    expect(() => {
      url.href = bad.value as never;
    }).toThrow(TypeError);
    expect(bad.calls()).toBe(1);
  });
});

describe("searchParams and the URL's query (differential against Node)", () => {
  const op = fc.oneof(
    fc.tuple(fc.constant("append"), fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 })),
    fc.tuple(fc.constant("set"), fc.constantFrom("a", "b", "", "é"), fc.string({ maxLength: 4 })),
    fc.tuple(fc.constant("delete"), fc.constantFrom("a", "b", "", "é"), fc.constant("")),
    fc.tuple(fc.constant("sort"), fc.constant(""), fc.constant("")),
    fc.tuple(fc.constant("search"), fc.constantFrom("?a=1&b=2", "", "?x y=1", "a=%zz"), fc.constant("")),
    fc.tuple(fc.constant("href"), fc.constantFrom("https://h/p?q=1#f", "https://h/?a=b c", "mailto:x?y"), fc.constant("")),
    fc.tuple(fc.constant("read"), fc.constant(""), fc.constant("")),
  );

  it("every read after any sequence of changes sees what Node's URL sees", () => {
    fc.assert(
      fc.property(fc.constantFrom("https://example.com/p?x=1#frag", "https://example.com/", "http://h/a b?"), fc.array(op, { maxLength: 25 }), (start, ops) => {
        const ours = new DocbaseURL(start);
        const theirs = new NodeURL(start);
        for (const [name, a, b] of ops) {
          for (const url of [ours, theirs] as const) {
            const params = url.searchParams;
            if (name === "append") params.append(a, b);
            else if (name === "set") params.set(a, b);
            else if (name === "delete") params.delete(a);
            else if (name === "sort") params.sort();
            else if (name === "search") url.search = a;
            else if (name === "href") url.href = a;
          }
          if (name === "read" || name === "search" || name === "href") {
            expect([ours.href, ours.search, ours.searchParams.toString()]).toEqual([theirs.href, theirs.search, theirs.searchParams.toString()]);
          }
        }
        expect([ours.href, ours.search, ours.hash, ours.searchParams.toString(), ours.searchParams.size]).toEqual([
          theirs.href,
          theirs.search,
          theirs.hash,
          theirs.searchParams.toString(),
          theirs.searchParams.size,
        ]);
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it("20,000 appends give Node's query", () => {
    const ours = new DocbaseURL("https://a/?");
    // Node's URL re-serializes its query at every append (20,000 take it ~25 s): its detached
    // URLSearchParams builds the same list.
    const theirs = new globalThis.URLSearchParams();
    for (let i = 0; i < 20_000; i++) {
      ours.searchParams.append(`k${i}`, "v w");
      theirs.append(`k${i}`, "v w");
    }
    expect(ours.href).toBe(new NodeURL(`https://a/?${theirs.toString()}`).href);
  });
});

describe("parseURL and validateURL name a misuse", () => {
  it("throws URLArgumentError naming the function, the argument and what was given", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => parseURL(42 as never), /^parseURL: input must be a string, not the number 42$/],
      [() => validateURL(null as never), /^validateURL: input must be a string, not null$/],
      [() => parseURL("x", { base: 5 as never }), /^parseURL: options\.base must be a string or a URL record, not the number 5$/],
      [() => parseURL("x", "https://a/" as never), /^parseURL: options must be an object, not the string "https:\/\/a\/"$/],
      [() => validateURL("x", { encoding: 1 as never }), /^validateURL: options\.encoding must be a string/],
    ];
    for (const [call, message] of cases) {
      try {
        call();
        expect.fail("no error");
      } catch (error) {
        expect(isURLArgumentError(error)).toBe(true);
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(message);
      }
    }
    expect(parseURL("x", { base: parseURL("https://a/b")! })?.path).toBe("/x");
    expect(parseURL("nope")).toBeNull();
  });
});
