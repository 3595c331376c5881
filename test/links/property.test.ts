import fc from "fast-check";
import { parseFragment, type DefaultTreeAdapterTypes } from "parse5";
import { describe, expect, it } from "vitest";
import { decodeAttributeValue, sourceEnd, sourceStart } from "../../src/links/character-references.ts";
import { extractLinks, parseSrcset, rewriteLinks } from "../../src/links/index.ts";
import { isUnwritableValueError } from "../../src/links/attribute-writer.ts";
import { parseURL, serializeURL } from "../../src/core/index.ts";

const url = "https://example.com/a/b";

/** Text made of the pieces character references are made of. */
const referenceText = fc
  .array(
    fc.constantFrom("&", "#", "x", "X", ";", "=", "amp", "lt", "not", "notin", "copy", "AMP", "Afr", "fjlig", "1", "41", "0", "128", "d800", "a", "Z", "\r", "\n", "\r\n", "\0", " ", "é", "😀"),
    { maxLength: 20 },
  )
  .map((parts) => parts.join(""));

/** Values a rewrite may return: anything but leading/trailing whitespace (trimmed from single URLs) and NUL. */
const newValue = fc
  .string({ unit: fc.constantFrom("a", "/", "?", "&", "#", ";", "=", '"', "'", " ", ">", "<", "(", ")", "\\", ",", "\t", "\n", "\r", "é", "amp", "copy", "lt;", "😀", "*", "-", "\u00a0") })
  .filter((s) => !/^[\t\n\f\r ]|[\t\n\f\r ]$/.test(s) && !s.includes("\r"));

describe("properties", () => {
  it("decodes attribute values exactly as parse5 does, with a monotonic map", () => {
    fc.assert(
      fc.property(referenceText, (value) => {
        const html = `<a x="${value.replaceAll('"', "")}">`;
        const raw = html.slice(6, -2);
        const expected = (parseFragment(html).childNodes[0] as DefaultTreeAdapterTypes.Element).attrs[0]!.value;
        const decoded = decodeAttributeValue(html, 6, 6 + raw.length);
        expect(decoded.text).toBe(expected);
        let last = 6;
        for (let d = 0; d <= decoded.text.length; d++) {
          const s = sourceStart(decoded, d);
          expect(s).toBeGreaterThanOrEqual(last);
          expect(sourceEnd(decoded, d)).toBeLessThanOrEqual(s === 6 + raw.length ? s : s + 40);
          last = s;
        }
      }),
      { numRuns: 500 },
    );
  });

  it("writes any value back so that it reads back the same, in every quoting context", () => {
    fc.assert(
      fc.property(newValue, fc.constantFrom('<a href="x" id=1>t</a>', "<a href='x' id=1>t</a>", "<a href=x id=1>t</a>", '<img srcset="x 1x">'), (value, html) => {
        if (html.startsWith("<img")) {
          // srcset splits at whitespace and drops trailing commas: the writer respells the URL as one
          // candidate that resolves the same, or refuses (test/links/attribute-writer.test.ts).
          let written: string;
          try {
            written = rewriteLinks(html, { url, rewrite: () => value });
          } catch (error) {
            expect(isUnwritableValueError(error), String(error)).toBe(true);
            return;
          }
          const candidates = extractLinks(written, { url });
          expect(candidates).toHaveLength(1);
          const expected = parseURL(value, { base: url });
          expect(candidates[0]!.url).toBe(expected === null ? null : serializeURL(expected));
          return;
        }
        const out = rewriteLinks(html, { url, rewrite: () => value });
        const links = extractLinks(out, { url });
        expect(links.map((l) => l.value)).toEqual([value.replaceAll("\r\n", "\n")]);
        expect(out.endsWith(" id=1>t</a>")).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("writes any value into CSS so that it reads back the same", () => {
    fc.assert(
      fc.property(newValue, fc.constantFrom('<div style="background:url(x)">', "<div style='background:url(\"x\")'>", "<style>p{background:url('x')}</style>", "<div style=background:url(x)>"), (value, html) => {
        const out = rewriteLinks(html, { url, rewrite: () => value });
        const links = extractLinks(out, { url });
        expect(links.map((l) => l.value)).toEqual([value.replaceAll("\r\n", "\n")]);
      }),
      { numRuns: 400 },
    );
  });

  it("leaves any document as it is under an identity rewrite, and points every link at its text", () => {
    const piece = fc.constantFrom(
      "<a href=x>",
      '<a href="y&amp;z">',
      "<img src='i.png' srcset=\"a 1x, b 2x\">",
      "<base href=/b/>",
      "<style>p{background:url(s.png)}</style>",
      "<div style='background:url(\"d.png\")'>",
      '<iframe srcdoc="<a href=&quot;in&quot;>"></iframe>',
      "<!-- <a href=c> -->",
      "<table>",
      "<td>",
      "<svg><use xlink:href=#u /></svg>",
      "<form>",
      "<template><a href=t></template>",
      "text&amp;",
      "\r\n",
      "<meta http-equiv=refresh content='0;url=r'>",
      "<textarea><a href=no></textarea>",
      "<script>'<a href=no>'</script>",
      "</p>",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }), (pieces) => {
        const html = pieces.join("");
        expect(rewriteLinks(html, { url, rewrite: (l) => l.value })).toBe(html);
        const links = extractLinks(html, { url });
        const out = rewriteLinks(html, { url, rewrite: (l) => (l.missing === true ? undefined : `${l.value}!`) });
        expect(extractLinks(out, { url }).map((l) => l.value)).toEqual(links.map((l) => (l.missing === true ? l.value : `${l.value}!`)));
      }),
      { numRuns: 300 },
    );
  });

  it("gives srcset candidates whose positions hold their URLs", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", ",", " ", "1", "x", "w", "(", ")", "\t") }), (value) => {
        for (const c of parseSrcset(value)) {
          expect(value.slice(c.start, c.end)).toBe(c.url);
          expect(c.url.endsWith(",")).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});
