import { createMultibyteEncoder } from "@exodus/bytes/multi-byte.js";
import { TextDecoder } from "@exodus/bytes/encoding.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeWith } from "../../src/links/document-bytes.ts";
import { absolutize, extractLinks, rewriteLinks } from "../../src/links/index.ts";

const url = "https://example.com/dir/";
const sjis = createMultibyteEncoder("shift_jis");
const iso2022jp = createMultibyteEncoder("iso-2022-jp");

/** Bytes: ASCII text with `\xHH` escapes, so that legacy bytes can be written literally. */
function bytes(template: string): Uint8Array {
  return Uint8Array.from(template, (c) => c.charCodeAt(0));
}

function concat(...parts: (string | Uint8Array)[]): Uint8Array {
  const arrays = parts.map((p) => (typeof p === "string" ? new TextEncoder().encode(p) : p));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

describe("byte input: the encoding", () => {
  it("defaults to windows-1252 and encodes the query with it", () => {
    const [link] = extractLinks(bytes('<a href="?q=\xe9&amp;r=\x80">x</a>'), { url });
    expect(link!.value).toBe("?q=é&r=€");
    expect(link!.url).toBe("https://example.com/dir/?q=%E9&r=%80");
    expect(link!.encoding).toBe("windows-1252");
  });

  it("uses the meta prescan: Shift_JIS", () => {
    const html = concat('<meta charset="shift_jis"><a href="', sjis("ア/ア?ア"), '">x</a>');
    const links = extractLinks(html, { url });
    expect(links[0]!.value).toBe("ア/ア?ア");
    // Path: UTF-8. Query: Shift_JIS (0x83 0x41).
    expect(links[0]!.url).toBe("https://example.com/dir/%E3%82%A2/%E3%82%A2?%83A");
    expect(links[0]!.encoding).toBe("Shift_JIS");
  });

  it("writes unencodable query code points as &#N; percent-encoded (windows-1251)", () => {
    const [link] = extractLinks(bytes('<a href="?\xe5">x</a>'), { url, encoding: "x-cp1251" });
    expect(link!.value).toBe("?е"); // 0xE5 is U+0435 in windows-1251
    const [other] = extractLinks('<a href="?å">x</a>', { url, encoding: "windows-1251" });
    expect(other!.url).toBe("https://example.com/dir/?%26%23229%3B");
  });

  it("lets the encoding option override the meta, and a BOM override both", () => {
    const doc = concat('<meta charset="shift_jis"><a href="?', bytes("\xe9"), '">x</a>');
    expect(extractLinks(doc, { url, encoding: "latin1" })[0]!.url).toBe("https://example.com/dir/?%E9");
    const bom = concat(bytes("\xef\xbb\xbf"), '<meta charset="windows-1252"><a href="?é">x</a>');
    expect(extractLinks(bom, { url, encoding: "latin1" })[0]!.url).toBe("https://example.com/dir/?%C3%A9");
  });

  it("changes a tentative encoding when a meta beyond the prescan declares another", () => {
    const padding = `<!--${"x".repeat(1100)}-->`;
    const doc = concat("<title>t</title>", padding, '<meta charset="shift_jis"><a href="?', sjis("ア"), '">x</a>');
    const [link] = extractLinks(doc, { url });
    expect(link!.encoding).toBe("Shift_JIS");
    expect(link!.value).toBe("?ア");
    expect(link!.url).toBe("https://example.com/dir/?%83A");
  });

  it("uses UTF-8 for URLs in UTF-16 documents", () => {
    const text = '<a href="?é">x</a>';
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) utf16[2 + 2 * i] = text.charCodeAt(i);
    const [link] = extractLinks(utf16, { url });
    expect(link!.url).toBe("https://example.com/dir/?%C3%A9");
    expect(link!.encoding).toBe("UTF-8");
  });

  it("takes the encoding option of a string as the query encoding", () => {
    expect(extractLinks('<a href="?ß">x</a>', { url, encoding: "windows-1252" })[0]!.url).toBe("https://example.com/dir/?%DF");
    expect(extractLinks('<a href="?ß">x</a>', { url })[0]!.url).toBe("https://example.com/dir/?%C3%9F");
  });
});

describe("byte input: rewriting", () => {
  it("returns identical bytes for an identity rewrite, invalid bytes included", () => {
    const doc = concat('<meta charset="shift_jis"><p>', bytes("\x82\xff\x80"), '<a href="', sjis("ア"), '">', sjis("テキスト"), "</a>");
    const out = rewriteLinks(doc, { url, rewrite: () => undefined });
    expect(out).toEqual(doc);
    expect(out).not.toBe(doc);
  });

  it("re-encodes only the new text, in Shift_JIS, with bytes around it kept", () => {
    const doc = concat('<meta charset="shift_jis"><p>', bytes("\x82\xff"), '<a href="old">', sjis("テキスト"), '</a><img src="b.png">');
    const out = rewriteLinks(doc, { url, rewrite: (l) => (l.value === "old" ? "?ア" : undefined) });
    expect(out).toEqual(concat('<meta charset="shift_jis"><p>', bytes("\x82\xff"), '<a href="?', sjis("ア"), '">', sjis("テキスト"), '</a><img src="b.png">'));
    expect(extractLinks(out, { url })[0]!.url).toBe("https://example.com/dir/?%83A");
  });

  it("writes a code point the encoding lacks as &#N; in attributes and as a CSS escape in style text", () => {
    const doc = bytes('<a href="a">x</a><style>p{background:url(b)}</style><div style="background:url(c)"></div>');
    const out = rewriteLinks(doc, { url, rewrite: (l) => `${l.value}?ŝ€` });
    expect(new TextDecoder("windows-1252").decode(out)).toBe(
      '<a href="a?&#349;€">x</a><style>p{background:url(b?\\15d €)}</style><div style="background:url(c?&#349;€)"></div>',
    );
    // The document still says what the rewrite returned.
    expect(extractLinks(out, { url }).map((l) => l.value)).toEqual(["a?ŝ€", "b?ŝ€", "c?ŝ€"]);
  });

  it("maps offsets after ill-formed UTF-8", () => {
    const doc = concat(bytes("<meta charset=utf-8><p>\xc3\x28\xe2\x82</p>"), '<a href="x">é</a>');
    const out = rewriteLinks(doc, { url, rewrite: () => "yé" });
    expect(out).toEqual(concat(bytes("<meta charset=utf-8><p>\xc3\x28\xe2\x82</p>"), '<a href="yé">é</a>'));
  });

  it("rewrites UTF-16LE documents", () => {
    const text = '<a href="x">t</a>';
    const encode = (s: string): Uint8Array => {
      const out = new Uint8Array(2 + s.length * 2);
      out.set([0xff, 0xfe]);
      for (let i = 0; i < s.length; i++) {
        out[2 + 2 * i] = s.charCodeAt(i) & 0xff;
        out[3 + 2 * i] = s.charCodeAt(i) >> 8;
      }
      return out;
    };
    expect(rewriteLinks(encode(text), { url, rewrite: () => "ü" })).toEqual(encode('<a href="ü">t</a>'));
  });

  it("rewrites ISO-2022-JP documents, starting and ending the new text in ASCII", () => {
    const doc = concat('<meta charset="iso-2022-jp"><a href="x">', iso2022jp("日本"), "</a>");
    const out = rewriteLinks(doc, { url, rewrite: () => "?日" });
    expect(new TextDecoder("iso-2022-jp").decode(out)).toBe('<meta charset="iso-2022-jp"><a href="?日">日本</a>');
    expect(extractLinks(out, { url })[0]!.value).toBe("?日");
  });

  it("absolutizes a windows-1252 document into ASCII URLs that resolve the same", () => {
    const doc = bytes('<base href="/b/"><a href="?q=\xe9">x</a><img src="\xe9.png">');
    const before = extractLinks(doc, { url }).map((l) => l.url);
    const out = rewriteLinks(doc, { url, rewrite: absolutize() });
    expect(extractLinks(out, { url }).map((l) => l.url)).toEqual(before);
    expect(new TextDecoder("windows-1252").decode(out)).toBe(
      '<base href="https://example.com/b/"><a href="https://example.com/b/?q=%E9">x</a><img src="https://example.com/b/%C3%A9.png">',
    );
  });
});

describe("byte input: a value that ends in a byte the decoder reads again", () => {
  // A lead byte followed by an ASCII byte that cannot continue it: the decoder
  // returns an error (U+FFFD) and reads the ASCII byte again, so one byte
  // releases two characters. The value's end lies between them: before that
  // byte, which must stay (it closes the value). Found by the stream tests of
  // issue 18: rewriteLinks lost the closing quote.
  const leads: readonly (readonly [string, number])[] = [
    ["Shift_JIS", 0x81],
    ["EUC-JP", 0xa1],
    ["EUC-KR", 0xa1],
    ["Big5", 0xa1],
    ["gb18030", 0x81],
    ["UTF-8", 0xc3],
  ];
  const forms: readonly (readonly [string, string])[] = [
    ['<a href="x', '">v</a>'],
    ["<a href='x", "'>v</a>"],
    ["<a href=x", ">v</a>"],
    ["<a href=x", " title=t>v</a>"],
  ];
  it.each(leads)("%s", (encoding, lead) => {
    for (const [before, after] of forms) {
      const bytes = new Uint8Array([...Buffer.from(`<meta charset=${encoding}>${before}`, "latin1"), lead, ...Buffer.from(after, "latin1")]);
      const [link] = extractLinks(bytes, { url: "https://example.com/" });
      expect(link!.value).toBe("x\uFFFD");
      const out = rewriteLinks(bytes, { url: "https://example.com/", rewrite: () => "/new" });
      // Everything but the value's bytes is as it was.
      const expected = Buffer.concat([Buffer.from(`<meta charset=${encoding}>${before.slice(0, -1)}/new`, "latin1"), Buffer.from(after, "latin1")]);
      expect(Buffer.from(out).toString("latin1")).toBe(expected.toString("latin1"));
    }
  });
});

describe("byte input: windows-1252, decoded as ISO-8859-1 with bytes 0x80–0x9F mapped", () => {
  const standard = new TextDecoder("windows-1252");
  it("decodes every byte as the Encoding Standard's decoder does", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decodeWith(all, "windows-1252").text).toBe(standard.decode(all));
    expect(decodeWith(all.subarray(0x80, 0xa0), "windows-1252").text).toBe("€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ");
    expect(decodeWith(new Uint8Array(), "windows-1252").text).toBe("");
    // A few such bytes in a long page (put in between the ISO-8859-1 pieces), and a page of nothing else (the general decoder).
    const sparse = new TextEncoder().encode("<p>quoted ".repeat(500));
    for (const at of [0, 1, 2, 3, 17, 4095, sparse.length - 1]) sparse[at] = 0x80 + (at % 32);
    expect(decodeWith(sparse, "windows-1252").text).toBe(standard.decode(sparse));
    const dense = Uint8Array.from({ length: 4096 }, (_, i) => 0x80 + (i % 32));
    expect(decodeWith(dense, "windows-1252").text).toBe(standard.decode(dense));
  });

  it("decodes byte soup as the standard's decoder does (fast-check)", () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0x80, max: 0x9f }), fc.constantFrom(0x3c, 0x26, 0x20, 0x61, 0));
    fc.assert(
      // At every alignment of the view in its buffer (the scan for bytes 0x80–0x9F reads 32-bit words).
      fc.property(fc.array(byte, { maxLength: 300 }), fc.nat(3), (values, offset) => {
        const input = Uint8Array.from([0, 0, 0, ...values]).subarray(offset);
        expect(decodeWith(input, "windows-1252").text).toBe(standard.decode(input));
      }),
      { numRuns: 500, seed: 27 },
    );
  });
});
