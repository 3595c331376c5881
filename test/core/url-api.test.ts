/**
 * The URL and URLSearchParams API beyond what wpt's data files drive.
 *
 * Parse and setter cases live in test/data/ in wpt's own formats
 * (urltestdata.json, setters_tests.json), so that they can travel upstream;
 * they run through the same runners as the wpt data. The rest (statics,
 * searchParams kept in sync with the URL, URLSearchParams itself) is
 * hand-written below. Every expectation here holds for whatwg-url and for
 * Node's URL as well.
 */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSetterTestData, parseURLTestData, readJSONFile, repoRoot, type URLTestCase } from "../wpt-data.ts";
import {
  eachCase,
  itHasNoStaleKnownFailures,
  runParseURLCase,
  runParseURLWithRecordBaseCase,
  runSetterCase,
  runURLClassCase,
  setterCaseTitle,
  titled,
  urlCaseTitle,
} from "./harness.ts";
import { impl, type URLSearchParamsInit, type URLSearchParamsLike } from "./impl.ts";

const { URL, URLSearchParams } = impl;
const dataDirectory = join(repoRoot, "test/data");

// ---------------------------------------------------------------------------
// Extra data in wpt formats.

const urlDataFiles = ["urltestdata-extra.json", "urltestdata-javascript-only-extra.json"] as const;

for (const file of urlDataFiles) {
  const cases = parseURLTestData(readJSONFile(join(dataDirectory, file)), file);
  const withBase = cases.filter((c): c is URLTestCase & { base: string } => c.base !== null);
  describe(`${impl.name}: test/data/${file}`, () => {
    describe("new URL(input, base)", () => {
      eachCase(`${file} new URL`, titled(cases, urlCaseTitle), (c) => runURLClassCase(impl, c));
    });
    describe("parseURL + serializeURL", () => {
      eachCase(`${file} parseURL`, titled(cases, urlCaseTitle), (c) => runParseURLCase(impl, c));
    });
    describe("parseURL(input, { base: URLRecord })", () => {
      eachCase(`${file} parseURL record base`, titled(withBase, urlCaseTitle), (c) =>
        runParseURLWithRecordBaseCase(impl, c),
      );
    });
  });
}

describe(`${impl.name}: test/data/setters_tests-extra.json`, () => {
  const tests = parseSetterTestData(
    readJSONFile(join(dataDirectory, "setters_tests-extra.json")),
    "setters_tests-extra.json",
  );
  eachCase("setters_tests-extra.json", titled(tests, setterCaseTitle), (t) => runSetterCase(impl, t));
});

itHasNoStaleKnownFailures([...urlDataFiles, "setters_tests-extra.json"]);

// ---------------------------------------------------------------------------
// URL.

describe(`${impl.name}: URL`, () => {
  it("URL.parse returns a new URL, or null", () => {
    const a = URL.parse("https://example.com/a?b#c");
    expect(a?.href).toBe("https://example.com/a?b#c");
    expect(URL.parse("https://example.com/a?b#c")).not.toBe(a);
    expect(URL.parse("b", "https://example.com/a/")?.href).toBe("https://example.com/a/b");
    expect(URL.parse("b")).toBeNull();
    expect(URL.parse("b", "not a base")).toBeNull();
    expect(URL.parse("https://example.com/", "not a base"), "a failing base fails even an absolute input").toBeNull();
    expect(URL.parse("https://[::1/")).toBeNull();
  });

  it("URL.canParse", () => {
    expect(URL.canParse("https://example.com/")).toBe(true);
    expect(URL.canParse("b", "https://example.com/a/")).toBe(true);
    expect(URL.canParse("b")).toBe(false);
    expect(URL.canParse("https://example.com/", "not a base")).toBe(false);
    expect(URL.canParse("http://h:65536/")).toBe(false);
  });

  it("the constructor throws TypeError, also for a failing base", () => {
    expect(() => new URL("b")).toThrow(TypeError);
    expect(() => new URL("https://example.com/", "not a base")).toThrow(TypeError);
    expect(() => new URL("b", "sc:opaque")).toThrow(TypeError);
    expect(() => new URL("https://example.com/", undefined)).not.toThrow();
  });

  it("toString and toJSON return href", () => {
    const url = new URL("HTTPS://EXAMPLE.com:443/%7e?q#f");
    expect(url.href).toBe("https://example.com/%7e?q#f");
    expect(url.toString()).toBe(url.href);
    expect(`${url}`).toBe(url.href);
    expect(url.toJSON()).toBe(url.href);
    expect(JSON.stringify({ url })).toBe(`{"url":"https://example.com/%7e?q#f"}`);
  });

  it("the href setter throws TypeError on failure and leaves the URL unchanged", () => {
    const url = new URL("https://example.com/a?x=1");
    const params = url.searchParams;
    expect(() => {
      url.href = "not a URL";
    }).toThrow(TypeError);
    expect(url.href).toBe("https://example.com/a?x=1");
    expect(params.get("x")).toBe("1");
  });

  it("has the string tag URL", () => {
    expect(Object.prototype.toString.call(new URL("https://example.com/"))).toBe("[object URL]");
  });
});

// ---------------------------------------------------------------------------
// url.searchParams, kept in sync with the URL both ways.

describe(`${impl.name}: URL.searchParams`, () => {
  it("is one object for the URL's lifetime", () => {
    const url = new URL("https://h/?a=1");
    const params = url.searchParams;
    expect(url.searchParams).toBe(params);
    url.search = "b=2";
    url.href = "https://other/?c=3";
    expect(url.searchParams).toBe(params);
  });

  it("follows the search setter", () => {
    const url = new URL("https://h/?a=1");
    url.search = "b=2&b=3";
    expect(url.searchParams.getAll("b")).toEqual(["2", "3"]);
    expect(url.searchParams.has("a")).toBe(false);
    url.search = "?c=4";
    expect([...url.searchParams]).toEqual([["c", "4"]]);
    url.search = "";
    expect(url.searchParams.size).toBe(0);
    url.search = "?";
    expect(url.searchParams.size).toBe(0);
    expect(url.href).toBe("https://h/?");
  });

  it("follows the search setter: the list is parsed from the resulting query, as whatwg-url and Node do", () => {
    // Tabs and newlines are removed by the URL parser, so they are not in the
    // list either; "%" stays "%", "#" is percent-encoded then decoded back.
    const url = new URL("https://h/");
    url.search = "a\tb\n=\r1&#=%";
    expect(url.search).toBe("?ab=1&%23=%");
    expect([...url.searchParams]).toEqual([
      ["ab", "1"],
      ["#", "%"],
    ]);
    expect([...url.searchParams]).toEqual([...new URLSearchParams(url.search)]);
  });

  it("follows the href setter", () => {
    const url = new URL("https://h/?a=1");
    url.href = "https://h/?x=%20+y";
    expect(url.searchParams.get("x")).toBe("  y");
    url.href = "https://h/";
    expect(url.searchParams.size).toBe(0);
  });

  it("ignores the hash", () => {
    const url = new URL("https://h/?a=1#b=2");
    expect([...url.searchParams]).toEqual([["a", "1"]]);
    url.hash = "c=3";
    expect([...url.searchParams]).toEqual([["a", "1"]]);
  });

  it("updates the URL on append, set, delete and sort (form-urlencoded)", () => {
    const url = new URL("https://h/p?a=1#f");
    url.searchParams.append("b", "x y+z&é");
    expect(url.search).toBe("?a=1&b=x+y%2Bz%26%C3%A9");
    expect(url.href).toBe("https://h/p?a=1&b=x+y%2Bz%26%C3%A9#f");
    url.searchParams.set("a", "2");
    expect(url.search).toBe("?a=2&b=x+y%2Bz%26%C3%A9");
    url.searchParams.delete("b");
    expect(url.href).toBe("https://h/p?a=2#f");
    url.searchParams.append("0", "");
    url.searchParams.sort();
    expect(url.search).toBe("?0=&a=2");
  });

  it("re-serializes the whole query on any change", () => {
    const url = new URL("https://h/?a=b%20c&d=e+f&g");
    expect(url.search).toBe("?a=b%20c&d=e+f&g");
    url.searchParams.append("h", "i");
    expect(url.search).toBe("?a=b+c&d=e+f&g=&h=i");
  });

  it("an empty list clears the query: no '?' is left", () => {
    const url = new URL("https://h/p?x=1#f");
    url.searchParams.delete("x");
    expect(url.href).toBe("https://h/p#f");
    expect(url.search).toBe("");

    const emptyQuery = new URL("https://h/?");
    expect(emptyQuery.href).toBe("https://h/?");
    emptyQuery.searchParams.sort();
    expect(emptyQuery.href).toBe("https://h/");

    const onlyAmpersands = new URL("https://h/?&&#f");
    expect(onlyAmpersands.searchParams.size).toBe(0);
    onlyAmpersands.searchParams.delete("nothing");
    expect(onlyAmpersands.href).toBe("https://h/#f");
  });

  it("works on a URL with an opaque path", () => {
    const url = new URL("sc:opaque?x=1#f");
    url.searchParams.set("y", "2");
    expect(url.href).toBe("sc:opaque?x=1&y=2#f");
    url.searchParams.delete("x");
    url.searchParams.delete("y");
    expect(url.href).toBe("sc:opaque#f");
  });

  it("the query setter and searchParams encode differently", () => {
    const url = new URL("https://h/");
    url.search = "a=b c'";
    expect(url.search).toBe("?a=b%20c%27");
    expect(url.searchParams.toString()).toBe("a=b+c%27");
    const nonSpecial = new URL("sc://h/");
    nonSpecial.search = "a=b c'";
    expect(nonSpecial.search).toBe("?a=b%20c'");
  });
});

// ---------------------------------------------------------------------------
// URLSearchParams.

const entries = (params: URLSearchParamsLike): [string, string][] => [...params];

describe(`${impl.name}: URLSearchParams constructor`, () => {
  it.each([
    ["", []],
    ["?", []],
    [
      "a=1&b=2",
      [
        ["a", "1"],
        ["b", "2"],
      ],
    ],
    [
      "?a=1&b=2",
      [
        ["a", "1"],
        ["b", "2"],
      ],
    ],
    ["??a=1", [["?a", "1"]]],
    ["a", [["a", ""]]],
    ["=a", [["", "a"]]],
    ["a==b=c", [["a", "=b=c"]]],
    ["&&a=1&&", [["a", "1"]]],
    ["a+b=c+d", [["a b", "c d"]]],
    ["a%20b=%2B%26%3D", [["a b", "+&="]]],
    ["%zz=%", [["%zz", "%"]]],
    ["%C3%A9=%E2%82%AC", [["é", "€"]]],
    ["%FF=%C3", [["\uFFFD", "\uFFFD"]]],
    ["\uD800=\uDC00", [["\uFFFD", "\uFFFD"]]],
    ["#a=b", [["#a", "b"]]],
  ] as const)("from the string %j", (init, expected) => {
    expect(entries(new URLSearchParams(init))).toEqual(expected);
  });

  it("with no argument or undefined", () => {
    expect(new URLSearchParams().size).toBe(0);
    expect(new URLSearchParams(undefined).size).toBe(0);
  });

  it("from a sequence of pairs (any iterable)", () => {
    expect(
      entries(
        new URLSearchParams([
          ["a", "1"],
          ["a", "2"],
          ["\uD800", "\uDFFF"],
        ]),
      ),
    ).toEqual([
      ["a", "1"],
      ["a", "2"],
      ["\uFFFD", "\uFFFD"],
    ]);
    expect(entries(new URLSearchParams([]))).toEqual([]);
    expect(entries(new URLSearchParams(new Map([["m", "1"]])))).toEqual([["m", "1"]]);
    function* pairs(): Generator<string[]> {
      yield ["g", "1"];
      yield ["h", "2"];
    }
    expect(entries(new URLSearchParams(pairs()))).toEqual([
      ["g", "1"],
      ["h", "2"],
    ]);
  });

  it("throws TypeError for a pair that is not of length 2", () => {
    expect(() => new URLSearchParams([["a"]])).toThrow(TypeError);
    expect(() => new URLSearchParams([["a", "b", "c"]])).toThrow(TypeError);
    expect(() => new URLSearchParams([[]])).toThrow(TypeError);
    expect(() => new URLSearchParams([["a", "b"], ["c"]])).toThrow(TypeError);
  });

  it("from a record, in property order", () => {
    expect(entries(new URLSearchParams({ b: "1", a: "2", "\uD800": "x" }))).toEqual([
      ["b", "1"],
      ["a", "2"],
      ["\uFFFD", "x"],
    ]);
    expect(entries(new URLSearchParams({}))).toEqual([]);
  });

  it("from a record whose keys collide once lone surrogates become U+FFFD: the later value wins, in the first place", () => {
    // WebIDL record<USVString, USVString>: a converted key seen again overwrites the value.
    expect(entries(new URLSearchParams({ "\uD800": "1", a: "x", "\uFFFD": "2" }))).toEqual([
      ["\uFFFD", "2"],
      ["a", "x"],
    ]);
  });

  it("from another URLSearchParams, as a copy", () => {
    const original = new URLSearchParams("a=1&b=2");
    const copy = new URLSearchParams(original);
    expect(entries(copy)).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
    copy.append("c", "3");
    expect(original.has("c")).toBe(false);
  });

  it("non-string values are converted to strings", () => {
    expect(entries(new URLSearchParams({ a: 1, b: null } as unknown as URLSearchParamsInit))).toEqual([
      ["a", "1"],
      ["b", "null"],
    ]);
    expect(entries(new URLSearchParams(null as unknown as URLSearchParamsInit))).toEqual([["null", ""]]);
  });
});

describe(`${impl.name}: URLSearchParams methods`, () => {
  it("get returns the first value, or null", () => {
    const params = new URLSearchParams("a=1&b=2&a=3&c");
    expect(params.get("a")).toBe("1");
    expect(params.get("c")).toBe("");
    expect(params.get("d")).toBeNull();
    expect(params.get("A")).toBeNull();
  });

  it("getAll returns every value, in order", () => {
    const params = new URLSearchParams("a=1&b=2&a=3");
    expect(params.getAll("a")).toEqual(["1", "3"]);
    expect(params.getAll("d")).toEqual([]);
  });

  it("has, with and without a value", () => {
    const params = new URLSearchParams("a=1&b=2&a=3");
    expect(params.has("a")).toBe(true);
    expect(params.has("d")).toBe(false);
    expect(params.has("a", "3")).toBe(true);
    expect(params.has("a", "2")).toBe(false);
    expect(params.has("a", undefined), "an undefined value is no value").toBe(true);
  });

  it("delete, with and without a value", () => {
    const params = new URLSearchParams("a=1&b=2&a=3&a=1");
    params.delete("a", "1");
    expect(entries(params)).toEqual([
      ["b", "2"],
      ["a", "3"],
    ]);
    params.delete("a", undefined);
    expect(entries(params)).toEqual([["b", "2"]]);
    params.delete("nothing");
    expect(entries(params)).toEqual([["b", "2"]]);
  });

  it("set replaces the first, removes the rest, or appends", () => {
    const params = new URLSearchParams("a=1&b=2&a=3&c=4");
    params.set("a", "x");
    expect(entries(params)).toEqual([
      ["a", "x"],
      ["b", "2"],
      ["c", "4"],
    ]);
    params.set("d", "y");
    expect(entries(params)).toEqual([
      ["a", "x"],
      ["b", "2"],
      ["c", "4"],
      ["d", "y"],
    ]);
  });

  it("append keeps duplicates and converts lone surrogates", () => {
    const params = new URLSearchParams();
    params.append("a", "1");
    params.append("a", "1");
    params.append("\uD83D", "\uDE00");
    expect(entries(params)).toEqual([
      ["a", "1"],
      ["a", "1"],
      ["\uFFFD", "\uFFFD"],
    ]);
    expect(params.get("\uDBFF"), "lone surrogates in the argument too").toBe("\uFFFD");
  });

  it("size follows the list", () => {
    const params = new URLSearchParams("a=1&a=2&b=3");
    expect(params.size).toBe(3);
    params.delete("a");
    expect(params.size).toBe(1);
    params.append("c", "");
    expect(params.size).toBe(2);
  });

  it("sort is stable and compares UTF-16 code units", () => {
    const params = new URLSearchParams();
    const input: [string, string][] = [
      ["z", "1"],
      ["\uFFFD", "2"],
      ["a", "3"],
      ["\u{1F600}", "4"],
      ["z", "0"],
      ["", "5"],
      ["a", "1"],
      ["é", "6"],
      ["A", "7"],
    ];
    for (const [name, value] of input) params.append(name, value);
    params.sort();
    expect(entries(params)).toEqual([
      ["", "5"],
      ["A", "7"],
      ["a", "3"],
      ["a", "1"],
      ["z", "1"],
      ["z", "0"],
      ["é", "6"],
      // U+1F600 is D83D DE00 in UTF-16, before U+FFFD (a code point order would put it last).
      ["\u{1F600}", "4"],
      ["\uFFFD", "2"],
    ]);
  });

  it("sort keeps equal names in order over many entries", () => {
    const params = new URLSearchParams();
    for (let i = 0; i < 200; i++) params.append(String.fromCharCode(0x61 + (i % 3)), String(i));
    params.sort();
    const values = params.getAll("a").map(Number);
    expect(values).toEqual([...values].sort((x, y) => x - y));
    expect(
      entries(params)
        .map(([name]) => name)
        .join(""),
    ).toBe("a".repeat(67) + "b".repeat(67) + "c".repeat(66));
  });

  it("forEach passes value, name and the object, with thisArg", () => {
    const params = new URLSearchParams("a=1&b=2");
    const seen: unknown[] = [];
    const self = { tag: "this" };
    params.forEach(function (this: unknown, value, name, object) {
      seen.push([value, name, object === params, this]);
    }, self);
    expect(seen).toEqual([
      ["1", "a", true, self],
      ["2", "b", true, self],
    ]);
  });

  it("entries, keys, values and the iterator", () => {
    const params = new URLSearchParams("a=1&b=2&a=3");
    expect([...params.entries()]).toEqual([
      ["a", "1"],
      ["b", "2"],
      ["a", "3"],
    ]);
    expect([...params.keys()]).toEqual(["a", "b", "a"]);
    expect([...params.values()]).toEqual(["1", "2", "3"]);
    expect([...params]).toEqual([...params.entries()]);
    const iterator = params.keys();
    expect(iterator.next()).toEqual({ value: "a", done: false });
    expect(iterator[Symbol.iterator]()).toBe(iterator);
    const proto = Object.getPrototypeOf(params) as Record<PropertyKey, unknown>;
    expect(proto[Symbol.iterator], "@@iterator is entries").toBe(proto["entries"]);
  });

  it("iterators are live", () => {
    const params = new URLSearchParams("a=1");
    const iterator = params.entries();
    params.append("b", "2");
    expect([...iterator]).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  it("toString uses + for space and percent-encodes the rest", () => {
    const params = new URLSearchParams();
    params.append("a b", "c+d");
    params.append("*-._", "~!'()");
    params.append("é€\u{1F600}", "\uD800");
    params.append("=&#%", "");
    expect(params.toString()).toBe(
      "a+b=c%2Bd&*-._=%7E%21%27%28%29&%C3%A9%E2%82%AC%F0%9F%98%80=%EF%BF%BD&%3D%26%23%25=",
    );
    expect(new URLSearchParams("a=%20b+c").toString()).toBe("a=+b+c");
    expect(new URLSearchParams().toString()).toBe("");
  });

  it("has the string tag URLSearchParams", () => {
    expect(Object.prototype.toString.call(new URLSearchParams())).toBe("[object URLSearchParams]");
  });
});
