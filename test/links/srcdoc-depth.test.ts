// Nested srcdoc documents are read to DEFAULT_MAX_SRCDOC_DEPTH levels (each level's text holds every deeper
// level, so reading n levels costs n passes over the deepest text); deeper ones are reported, not read.
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_SRCDOC_DEPTH, extractLinks, isLinksError, rewriteLinks, type SrcdocTooDeep } from "../../src/links/index.ts";

/** A document of `levels` srcdoc levels, each with one link `lN`. */
function nested(levels: number): string {
  let inner = `<a href="l${levels}">x</a>`;
  for (let level = levels - 1; level >= 0; level--) {
    inner = `<a href="l${level}">x</a><iframe srcdoc="${inner.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>`;
  }
  return inner;
}

const url = "https://example.com/";

describe("srcdoc nesting depth", () => {
  it(`reads ${DEFAULT_MAX_SRCDOC_DEPTH} levels and reports the iframe beyond them`, () => {
    const html = nested(40);
    const tooDeep: SrcdocTooDeep[] = [];
    const links = extractLinks(html, { url, onSrcdocTooDeep: (place) => tooDeep.push(place) });
    expect(links.map((l) => l.srcdoc)).toEqual(Array.from({ length: DEFAULT_MAX_SRCDOC_DEPTH + 1 }, (_, i) => i));
    expect(links.map((l) => l.value)).toEqual(Array.from({ length: DEFAULT_MAX_SRCDOC_DEPTH + 1 }, (_, i) => `l${i}`));
    expect(tooDeep).toHaveLength(1);
    expect(tooDeep[0]!.depth).toBe(DEFAULT_MAX_SRCDOC_DEPTH + 1);
    // It points at the srcdoc value of the iframe at depth 32, as the top document's source has it: after
    // that iframe's `srcdoc=` and its quote, both escaped once for every level around them.
    const before = html.slice(0, tooDeep[0]!.start);
    expect(before).toMatch(/srcdoc=&(amp;)*quot;$/);
    expect(before.match(/<iframe/g)).toHaveLength(DEFAULT_MAX_SRCDOC_DEPTH + 1);
  });

  it("maxSrcdocDepth sets the cap: 0 reads no srcdoc document, a larger one reads them all", () => {
    expect(extractLinks(nested(5), { url, maxSrcdocDepth: 0 }).map((l) => l.value)).toEqual(["l0"]);
    expect(extractLinks(nested(40), { url, maxSrcdocDepth: 100 })).toHaveLength(41);
    for (const bad of [-1, 1.5, "3", null]) {
      expect(() => extractLinks("<a href=x>", { url, maxSrcdocDepth: bad as never })).toThrow(/maxSrcdocDepth/);
    }
  });

  it("rewrites what it reads and leaves deeper levels as they are", () => {
    const html = nested(36);
    const out = rewriteLinks(html, { url, rewrite: (l) => `${l.value}-new` });
    const links = extractLinks(out, { url, maxSrcdocDepth: 100 });
    expect(links.map((l) => l.value)).toEqual(Array.from({ length: 37 }, (_, i) => (i <= DEFAULT_MAX_SRCDOC_DEPTH ? `l${i}-new` : `l${i}`)));
  });

  it("names a document that is neither a string nor a Uint8Array", () => {
    for (const bad of [42, null, undefined, {}, [60]]) {
      try {
        extractLinks(bad as never, { url });
        expect.fail("no error");
      } catch (error) {
        expect(isLinksError(error)).toBe(true);
        expect((error as Error).message).toMatch(/The document must be a string or a Uint8Array/);
      }
    }
  });
});
