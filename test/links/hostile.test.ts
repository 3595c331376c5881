import { describe, expect, it } from "vitest";
import { absolutize, extractLinks, rewriteLinks } from "../../src/links/index.ts";

const url = "https://example.com/";

/** Deterministic pseudo-random bytes. */
function garbage(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let s = seed;
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    out[i] = s >> 16;
  }
  return out;
}

describe("hostile input: results or clear errors, never a crash or a hang", () => {
  it("100k-deep nesting (inline, block, formatting, foreign, tables), with a base at the end", () => {
    for (const tag of ["span", "div", "b", "svg", "table"]) {
      const html = `<${tag}>`.repeat(100_000) + '<a href=x>t</a><base href="/b/">';
      const links = extractLinks(html, { url });
      // In SVG the base is not an HTML base, and the a is an SVG a.
      const expected = tag === "svg" ? "https://example.com/x" : "https://example.com/b/x";
      expect(links[0]!.url, tag).toBe(expected);
    }
  });

  it("100k links 100k deep in a declarative shadow root, and 1,000 nested ones: linear, each told from an inert template", () => {
    const deep = '<base href="/b/"><div><template shadowrootmode="open">' + '<span><a href="x">'.repeat(100_000);
    const links = extractLinks(deep, { url });
    expect(links).toHaveLength(100_001);
    expect(links.every((l) => !l.template && l.url === (l.element === "base" ? "https://example.com/b/" : "https://example.com/b/x"))).toBe(true);
    const nested = '<base href="/b/">' + '<div><template shadowrootmode="open"><a href="x">'.repeat(1_000) + '<template><a href="inert">';
    const nestedLinks = extractLinks(nested, { url });
    expect(nestedLinks.filter((l) => l.template).map((l) => l.value)).toEqual(["inert"]);
    expect(nestedLinks.filter((l) => l.value === "x" && !l.template)).toHaveLength(1_000);
  });

  it("deeply nested srcdoc documents", () => {
    // Each level escapes the one inside: "&" becomes "&amp;".
    let inner = "<a href=deep>x</a>";
    for (let depth = 0; depth < 12; depth++) inner = `<iframe srcdoc="${inner.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>`;
    const links = extractLinks(inner, { url });
    expect(links.map((l) => [l.value, l.srcdoc])).toEqual([["deep", 12]]);
    expect(inner.slice(links[0]!.start, links[0]!.end)).toBe("deep");
    const out = rewriteLinks(inner, { url, rewrite: () => "a b&c" });
    expect(extractLinks(out, { url }).map((l) => l.value)).toEqual(["a b&c"]);
  });

  it("a 10 MB attribute, and huge srcset and style values", () => {
    const html = `<a href="${"x".repeat(10 * 1024 * 1024)}">t</a><img srcset="${"a.png 1x, ".repeat(100_000)}"><div style="${"background:url(a.png);".repeat(50_000)}">`;
    const links = extractLinks(html, { url });
    expect(links.length).toBe(1 + 100_000 + 50_000);
    expect(links[0]!.value.length).toBe(10 * 1024 * 1024);
    expect(links[1]!.line).toBe(1);
  });

  it("a 10 MB attribute full of character references", () => {
    const html = `<a href="${"&amp;&#x41;&lt".repeat(700_000)}">t</a>`;
    const [link] = extractLinks(html, { url });
    expect(link!.value.length).toBe(2_100_000);
    expect(link!.end - link!.start).toBe(html.length - 16);
  });

  it("a million links", () => {
    const html = `<p>${"<a href=/x>".repeat(1_000_000)}`;
    const links = extractLinks(html, { url });
    expect(links.length).toBe(1_000_000);
    expect(links[999_999]!.column).toBe(html.length - 2);
    expect(links[999_999]!.url).toBe("https://example.com/x");
  });

  it("binary garbage, as bytes in every kind of encoding, with links among it", () => {
    const parts: Uint8Array[] = [];
    for (let i = 0; i < 200; i++) {
      parts.push(garbage(997, i + 1), new TextEncoder().encode(`<a href="l${i}">.</a>`));
    }
    const doc = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      doc.set(p, at);
      at += p.length;
    }
    for (const encoding of [undefined, "utf-8", "shift_jis", "gb18030", "big5", "euc-jp", "euc-kr", "iso-2022-jp", "utf-16le", "x-user-defined"]) {
      const links = extractLinks(doc, { url, encoding });
      const out = rewriteLinks(doc, { url, encoding, rewrite: (l) => (l.value.startsWith("l") ? `${l.value}-new` : undefined) });
      const after = extractLinks(out, { url, encoding });
      expect(after.map((l) => l.value), String(encoding)).toEqual(links.map((l) => (l.value.startsWith("l") ? `${l.value}-new` : l.value)));
      expect(rewriteLinks(doc, { url, encoding, rewrite: () => undefined })).toEqual(doc);
    }
  });

  it("pure binary garbage and control characters", () => {
    const bytes = garbage(3_000_000, 42);
    expect(Array.isArray(extractLinks(bytes, { url }))).toBe(true);
    expect(rewriteLinks(bytes, { url, rewrite: absolutize() })).toEqual(bytes);
    const text = String.fromCharCode(...garbage(100_000, 7).map((b) => (b < 32 ? b : b + 0x50)));
    expect(Array.isArray(extractLinks(text, { url }))).toBe(true);
    expect(extractLinks("\uD800<a href='\uDC00x\uD800'>", { url })[0]!.value).toBe("\uDC00x\uD800");
  });

  it("megabytes in every tokenizer state, each followed by a link that must still be found", () => {
    // Each input is read in time linear in its length (a quadratic step here
    // would take hours at these sizes and time the test out), then a link.
    const n = 1_000_000;
    const after = '<a href="after">x</a>';
    const inputs: Record<string, string> = {
      "text and references": "a &amp b &#x41; &notit; & ".repeat(n / 20),
      "NUL, CR and CR LF in text": "\0\r\n\r \0".repeat(n / 5),
      "unfinished tags": "<".repeat(n) + ">",
      "unfinished end tags": "</".repeat(n) + ">",
      "bogus comments": "<?x>".repeat(n / 4),
      "a comment of dashes": `<!--${"-".repeat(n)}>`,
      "a comment of '--!'": `<!--${"--!".repeat(n / 3)}-->`,
      "a comment of '<!--'": `<!--${"<!--".repeat(n / 4)}-->`,
      "an unterminated comment's tail": `<!--${"-x".repeat(n / 2)}-->`,
      "a tag of distinct attributes": `<p ${Array.from({ length: n / 10 }, (_, i) => `a${i}=1`).join(" ")}>`,
      "a tag of one attribute repeated": `<p ${"b=1 ".repeat(n / 4)}>`,
      "a doctype's identifiers": `<!DOCTYPE html PUBLIC "${"x".repeat(n)}" '${"y".repeat(n)}'>`,
      "RCDATA of false end tags": `<title>${"</tit".repeat(n / 5)}</title>`,
      "RCDATA of references": `<textarea>${"&amp".repeat(n / 4)}</textarea>`,
      "RAWTEXT of '</'": `<style>${"</".repeat(n / 2)}</style>`,
      "script data escaped and double escaped": `<script>${"<!--<script>-->".repeat(n / 16)}</script>`,
      "script data of dashes": `<script><!--${"-".repeat(n)}</script>`,
      "a CDATA section of brackets": `<svg><![CDATA[${"]]".repeat(n / 2)}]]></svg>`,
      // Values and RCDATA that need decoding, with the next "&" megabytes away (12 MB: looking
      // for it from each would take minutes).
      "attribute values with a NUL": `${'<p title="\0">'.repeat((12 * n) / 13)}&amp;`,
      "RCDATA elements": `${"<title>\0</title>".repeat((12 * n) / 17)}&amp;`,
    };
    for (const [name, input] of Object.entries(inputs)) {
      const links = extractLinks(input + after, { url });
      expect(links.at(-1)?.value, name).toBe("after");
      expect(links.at(-1)?.start, name).toBe(input.length + 9);
    }
  });

  it("many distinct unknown character references", () => {
    // Each distinct name is looked up once; "&amp;" makes the value one that needs decoding.
    const refs = Array.from({ length: 20_000 }, (_, i) => `&x${i.toString(36)}y;`).join("");
    const [link] = extractLinks(`<a href="&amp;${refs}">t</a>`, { url });
    expect(link!.value).toBe(`&${refs}`);
  });
});
