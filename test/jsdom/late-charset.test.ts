// A page whose <meta charset> comes after its first 1,024 bytes: jsdom decodes it with the sniffed default
// (windows-1252) and does not "change the encoding" as the HTML parser would; docbase cannot re-decode
// jsdom's text, so it says so (Installation.warnings), and the workaround — the encoding given to JSDOM —
// gives the browser's encoding and no warning.
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { install, type Installation } from "../../src/jsdom/index.ts";
import { extractLinks } from "../../src/links/index.ts";

const url = "https://example.com/page.html";

/** Shift_JIS bytes of a page with `padding` bytes of comment before its <meta charset> (or `meta`), and a link with ア in its query. */
function page(padding: number, meta = '<meta charset="shift_jis">'): Buffer {
  const head = Buffer.from(`<!doctype html><html><head><!--${"x".repeat(padding)}-->${meta}<title>t</title></head><body><a href="/s?q=`, "latin1");
  const katakanaA = Buffer.from([0x83, 0x41]); // ア in Shift_JIS
  return Buffer.concat([head, katakanaA, Buffer.from('">a</a></body></html>', "latin1")]);
}

function open(html: Buffer | string, options: { contentType?: string } = {}): { dom: JSDOM; handle: Installation } {
  let handle: Installation | undefined;
  const dom = new JSDOM(html, {
    url,
    ...options,
    beforeParse(window) {
      handle = install(window);
    },
  });
  return { dom, handle: handle! };
}

describe("a <meta charset> jsdom did not act on", () => {
  it("is reported when it comes after the first 1,024 bytes", () => {
    const { dom, handle } = open(page(1100));
    expect(dom.window.document.characterSet).toBe("windows-1252");
    expect(handle.warnings.map((w) => [w.type, w.declared, w.used])).toEqual([["late-encoding", "Shift_JIS", "windows-1252"]]);
    expect(handle.warnings[0]!.message).toContain('contentType "text/html; charset=Shift_JIS"');
    expect(handle.warnings[0]!.document).toBe(dom.window.document);
    dom.window.close();
  });

  it("is not reported when the prescan found it", () => {
    const { dom, handle } = open(page(10));
    expect(dom.window.document.characterSet).toBe("Shift_JIS");
    expect(handle.warnings).toEqual([]);
    expect(dom.window.document.querySelector("a")!.search).toBe("?q=%83A");
    dom.window.close();
  });

  it("the workaround: the encoding given to JSDOM gives the browser's encoding, queries in it, and no warning", () => {
    const { dom, handle } = open(page(1100), { contentType: "text/html; charset=shift_jis" });
    expect(dom.window.document.characterSet).toBe("Shift_JIS");
    expect(handle.warnings).toEqual([]);
    expect(dom.window.document.querySelector("a")!.search).toBe("?q=%83A");
    dom.window.close();
  });

  it("a string whose <meta> names a legacy encoding is reported too (jsdom's document is UTF-8)", () => {
    const { dom, handle } = open('<meta charset="windows-1251"><a href="x">x</a>');
    expect(handle.warnings.map((w) => [w.declared, w.used])).toEqual([["windows-1251", "UTF-8"]]);
    const none = open('<meta charset="utf-16"><a href="x">x</a>');
    expect(none.handle.warnings).toEqual([]);
    dom.window.close();
    none.dom.window.close();
  });

  // The declaration is read by the HTML Standard's "algorithm for extracting a character encoding
  // from a meta element", as the links layer reads it: an unmatched quote declares nothing (a
  // regular expression read "shift_jis" here, and warned of an encoding no browser would use).
  it("an http-equiv content whose charset has an unmatched quote declares nothing, for jsdom and links alike", () => {
    const unmatched = page(1100, `<meta http-equiv="Content-Type" content="text/html; charset='shift_jis">`);
    const { dom, handle } = open(unmatched);
    expect(dom.window.document.characterSet).toBe("windows-1252");
    expect(handle.warnings).toEqual([]);
    expect(extractLinks(unmatched, { url })[0]!.encoding).toBe("windows-1252");
    dom.window.close();

    const matched = page(1100, `<meta http-equiv="Content-Type" content="text/html; charset='shift_jis'">`);
    const other = open(matched);
    expect(other.handle.warnings.map((w) => [w.declared, w.used])).toEqual([["Shift_JIS", "windows-1252"]]);
    expect(extractLinks(matched, { url })[0]!.encoding).toBe("Shift_JIS");
    other.dom.window.close();
  });
});
