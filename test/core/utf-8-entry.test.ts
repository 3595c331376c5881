// docbase/core/utf-8 (src/core/utf-8.ts): docbase/core without the legacy encoders. This file imports nothing
// that registers them until the last test, so the module instances it shares are the lean entry point's as a
// bundle without legacy-encodings.ts has them: a legacy encoding throws LegacyEncodingUnavailableError before
// any input is read (the same for an ASCII query, a URL without a query, an empty form), the encodings whose
// output encoding is UTF-8 work, and importing legacy-encodings.ts adds every encoder to the same functions.
import { describe, expect, it } from "vitest";
import * as lean from "../../src/core/utf-8.ts";

const base = "https://example.com/";

/** What a call threw (undefined: nothing). */
function thrown(call: () => unknown): unknown {
  try {
    call();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("docbase/core/utf-8 without the legacy encoders", () => {
  it("parses and serializes UTF-8 URLs as docbase/core does", () => {
    expect(lean.serializeURL(lean.parseURL("../api/?q=é", { base: "https://example.com/docs/guide/" })!)).toBe("https://example.com/docs/api/?q=%C3%A9");
    expect(new lean.URL("?q=é", base).href).toBe("https://example.com/?q=%C3%A9");
    expect(new lean.URLSearchParams([["a b", "é"]]).toString()).toBe("a+b=%C3%A9");
    expect(lean.validateURL("https://exa mple.com").errors.map((e) => e.type)).toEqual(["domain-to-ASCII"]);
  });

  it("takes the labels whose output encoding is UTF-8 (UTF-16LE/BE, replacement) as UTF-8", () => {
    for (const encoding of ["utf-8", "UTF-16LE", "utf-16be", "iso-2022-kr"]) {
      expect(lean.serializeURL(lean.parseURL("?q=é", { base, encoding })!), encoding).toBe("https://example.com/?q=%C3%A9");
    }
  });

  it("throws LegacyEncodingUnavailableError for a legacy encoding, whatever the input", () => {
    const calls: [string, () => unknown][] = [
      ["parseURL, a non-ASCII query", () => lean.parseURL("?q=é", { base, encoding: "windows-1252" })],
      ["parseURL, an ASCII query (the fast path)", () => lean.parseURL("?q=a", { base, encoding: "latin1" })],
      ["parseURL, no query", () => lean.parseURL("https://example.com/", { encoding: "sjis" })],
      ["validateURL", () => lean.validateURL("?q=é", { base, encoding: "gbk" })],
      ["basicURLParse", () => lean.basicURLParse("https://example.com/", { encoding: "EUC-KR" })],
      ["serializeFormURLEncoded, no tuples", () => lean.serializeFormURLEncoded([], "Big5")],
      ["percentEncodeAfterEncoding, ASCII", () => lean.percentEncodeAfterEncoding("ISO-2022-JP", "a", lean.specialQueryPercentEncodeSet)],
    ];
    for (const [what, call] of calls) {
      const error = thrown(call);
      expect(lean.isLegacyEncodingUnavailableError(error), what).toBe(true);
      expect(error, what).toBeInstanceOf(TypeError);
      expect((error as Error).message, what).toContain('import "docbase/core/legacy-encodings"');
    }
    const error = thrown(() => lean.parseURL("?q=é", { base, encoding: "latin1" })) as InstanceType<typeof lean.LegacyEncodingUnavailableError>;
    expect(error.encoding).toBe("windows-1252");
    expect(error.message).toBe(
      'docbase/core/utf-8 has no legacy encoders, and windows-1252 was asked for: import from "docbase/core" instead, or import "docbase/core/legacy-encodings" once to add them',
    );
  });

  it("still throws UnknownEncodingError for a label that is no encoding's, and treats an unknown name as UTF-8 in basicURLParse", () => {
    expect(lean.isUnknownEncodingError(thrown(() => lean.parseURL("?q=é", { base, encoding: "utf-7" })))).toBe(true);
    expect(lean.basicURLParse("https://example.com/?q=é", { encoding: "no-such-encoding" as never })!.query).toBe("q=%C3%A9");
  });

  it("recognises the error across realms, by its brand", () => {
    const foreign = Object.defineProperty(new TypeError("x"), Symbol.for("docbase.LegacyEncodingUnavailableError"), { value: true });
    expect(lean.isLegacyEncodingUnavailableError(foreign)).toBe(true);
    expect(lean.isLegacyEncodingUnavailableError(new TypeError("windows-1252"))).toBe(false);
  });
});

describe("docbase/core/utf-8 once docbase/core/legacy-encodings is imported", () => {
  it("encodes in every encoding, through the same functions", async () => {
    await import("../../src/core/legacy-encodings.ts");
    expect(lean.serializeURL(lean.parseURL("?q=é", { base, encoding: "windows-1252" })!)).toBe("https://example.com/?q=%E9");
    expect(lean.serializeFormURLEncoded([["q", "\u2212"]], "Shift_JIS")).toBe("q=%81%7C");
    expect(lean.percentEncodeAfterEncoding("gb18030", "\uE7C7", lean.specialQueryPercentEncodeSet)).toBe("%815%F47");
  });

  it("exports what docbase/core exports, and its error with the guard", async () => {
    const full = await import("../../src/core/index.ts");
    expect(Object.keys(lean).sort()).toEqual([...Object.keys(full), "LegacyEncodingUnavailableError", "isLegacyEncodingUnavailableError"].sort());
  });
});
