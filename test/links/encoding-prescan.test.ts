// The HTML Standard's prescan (src/links/encoding-prescan.ts), case by case from the algorithm's steps
// (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding),
// and through sniffEncoding, which gives it the first 1024 bytes.
import { describe, expect, it } from "vitest";
import { prescanEncoding } from "../../src/links/encoding-prescan.ts";
import { sniffEncoding } from "../../src/links/encoding-sniffing.ts";

const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe("prescanEncoding", () => {
  it.each([
    ['<meta charset="shift_jis">', "Shift_JIS"],
    ["<META CHARSET=KOI8-R>", "KOI8-R"],
    ["<meta/charset=koi8-r>", "KOI8-R"],
    ["<meta charset =  'koi8-r' >", "KOI8-R"],
    ["<meta charset=latin1>", "windows-1252"],
    ['<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">', "EUC-KR"],
    ['<meta content="text/html; charset=euc-kr" http-equiv=content-type>', "EUC-KR"],
    // Processing: "If need pragma is true but got pragma is false, then jump to ... next byte."
    ['<meta content="text/html; charset=euc-kr"><meta charset=koi8-r>', "KOI8-R"],
    ['<meta http-equiv=refresh content="text/html; charset=euc-kr">', null],
    // "If the attribute's name is already in attribute list, then return to the step labeled attributes."
    ["<meta charset=koi8-r charset=euc-kr>", "KOI8-R"],
    // A charset attribute wins over content, whatever the order ("Let charset be the result of getting an encoding").
    ['<meta http-equiv=content-type content="text/html; charset=euc-kr" charset=koi8-r>', "KOI8-R"],
    // A charset that is not a label is "failure", not null: a later content does not set it.
    ['<meta charset=bogus http-equiv=content-type content="text/html; charset=koi8-r">', null],
    ["<meta charset=bogus><meta charset=koi8-r>", "KOI8-R"],
    // 14–15: UTF-16 declares UTF-8; x-user-defined, windows-1252; the replacement encoding stays.
    ["<meta charset=utf-16le>", "UTF-8"],
    ["<meta charset=x-user-defined>", "windows-1252"],
    ["<meta charset=iso-2022-kr>", "replacement"],
    // Comments, including "<!-->", and the "--" of the opener counting for its closer.
    ["<!-- <meta charset=koi8-r> --><meta charset=euc-kr>", "EUC-KR"],
    ["<!--><meta charset=koi8-r>", "KOI8-R"],
    ["<!---><meta charset=koi8-r>", "KOI8-R"],
    // A tag's attributes are read, so a ">" in a quoted value does not end it — in an end tag too.
    ["<p title='>' <meta charset=koi8-r>", null],
    ["<p title='>'><meta charset=koi8-r>", "KOI8-R"],
    ["</p title='>'<meta charset=koi8-r>", null],
    ["</p><meta charset=koi8-r>", "KOI8-R"],
    ["<!doctype html><?php x ?><meta charset=koi8-r>", "KOI8-R"],
    ["<metal charset=koi8-r>", null],
    ["<meta", null],
    // Out of bytes inside a <meta>: the prescan is aborted, and the XML declaration decides.
    ["<meta charset=koi8-r", null],
    ['<meta charset="koi8-r', null],
    // 2. UTF-16 "<?x" signatures, whatever the name.
    ["<\0?\0x\0m\0l\0", "UTF-16LE"],
    ["\0<\0?\0x\0m\0l", "UTF-16BE"],
    // Get an XML encoding: "<?xml" first, "encoding" (case-sensitive), a quoted value without spaces.
    ['<?xml version="1.0" encoding="ISO-8859-2"?><p>', "ISO-8859-2"],
    ["<?xml encoding = 'koi8-r'?>", "KOI8-R"],
    ['<?xml encoding="UTF-16"?>', "UTF-8"],
    ['<?xml ENCODING="koi8-r"?>', null],
    ['<?xml encoding="koi8 r"?>', null],
    ['<?xml version="1.0"?><p encoding="koi8-r">', null],
    [' <?xml encoding="koi8-r"?>', null],
    ['<?xml encoding="koi8-r"?><meta charset=euc-kr>', "EUC-KR"],
    ["<p>no declaration", null],
    ["", null],
  ] as const)("%j → %s", (html, expected) => {
    expect(prescanEncoding(bytes(html))).toBe(expected);
  });
});

describe("sniffEncoding's prescan", () => {
  it("reads the first 1024 bytes and no more, the XML declaration included", () => {
    const pad = "x".repeat(1024);
    expect(sniffEncoding(bytes(`<p>${pad}<meta charset=koi8-r>`), undefined)).toMatchObject({ encoding: "windows-1252", source: "default" });
    expect(sniffEncoding(bytes(`<p>${"x".repeat(990)}<meta charset=koi8-r>`), undefined)).toMatchObject({ encoding: "KOI8-R", source: "declaration" });
    // "applied to the same bytes that the prescan ... was applied to"
    expect(sniffEncoding(bytes(`<?xml version="1.0" ${pad} encoding="koi8-r"?>`), undefined)).toMatchObject({ encoding: "windows-1252", source: "default" });
  });

  it("puts a BOM and a given encoding before it", () => {
    expect(sniffEncoding(bytes("\xEF\xBB\xBF<meta charset=koi8-r>"), undefined)).toMatchObject({ encoding: "UTF-8", source: "bom", bomLength: 3 });
    expect(sniffEncoding(bytes("<meta charset=koi8-r>"), "Shift_JIS")).toMatchObject({ encoding: "Shift_JIS", source: "given", confidence: "certain" });
    expect(sniffEncoding(bytes("<meta charset=koi8-r>"), undefined)).toMatchObject({ encoding: "KOI8-R", source: "declaration", confidence: "tentative" });
  });
});
