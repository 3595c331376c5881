import { TextDecoder } from "@exodus/bytes/encoding.js";
import { describe, expect, it } from "vitest";
import { absolutize, extractLinks, rewriteLinks } from "../../src/links/index.ts";
import { corpusPages, readCorpusFile } from "../corpus-data.ts";

const pages = corpusPages;

describe("the real pages of the corpus (test/fixtures/corpus)", () => {
  for (const page of pages) {
    describe(page.file, () => {
      const bytes = readCorpusFile(page.file);
      const links = extractLinks(bytes, { url: page.url });
      // Offsets are into the text decoded in the document's encoding (sniffed: these pages are UTF-8 or, undeclared, windows-1252).
      const decode = (source: Uint8Array): string => new TextDecoder(links[0]!.encoding).decode(source);

      it("has its links found, each pointing at its own text", () => {
        expect(links.length).toBeGreaterThan(1000);
        const text = decode(bytes);
        for (const link of links) {
          if (link.missing === true) continue;
          const raw = text.slice(link.start, link.end);
          // The source text is the value, or decodes to it.
          if (!raw.includes("&") && !raw.includes("\\") && !raw.includes("\r") && raw !== link.value) {
            expect.fail(`${link.element} ${link.attribute} at ${link.line}:${link.column}: ${JSON.stringify(raw)} is not ${JSON.stringify(link.value)}`);
          }
        }
      });

      it("comes back byte-identical from an identity rewrite", () => {
        const out = rewriteLinks(bytes, { url: page.url, rewrite: () => undefined });
        expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
      });

      it("changes only the URL text when every link is rewritten", () => {
        const out = rewriteLinks(bytes, { url: page.url, rewrite: (l) => (l.missing === true ? undefined : `${l.value}Z`) });
        const after = extractLinks(out, { url: page.url });
        expect(after.map((l) => l.value)).toEqual(links.map((l) => (l.missing === true ? l.value : `${l.value}Z`)));
        // Between the links, the bytes are the same.
        const gaps = (source: Uint8Array, list: typeof links): string[] => {
          const text = decode(source);
          const out: string[] = [];
          let at = 0;
          for (const link of list) {
            out.push(text.slice(at, link.start));
            at = link.end;
          }
          out.push(text.slice(at));
          return out;
        };
        const was = gaps(bytes, links);
        const now = gaps(out, after);
        expect(now.length).toBe(was.length);
        const differ = now.findIndex((gap, i) => gap !== was[i]);
        if (differ !== -1) expect.fail(`text between links ${differ - 1} and ${differ} changed: ${JSON.stringify(was[differ]!.slice(0, 200))} → ${JSON.stringify(now[differ]!.slice(0, 200))}`);
      });

      it("resolves to the same URLs after absolutize", () => {
        const out = rewriteLinks(bytes, { url: page.url, rewrite: absolutize() });
        const after = extractLinks(out, { url: page.url });
        expect(after.map((l) => l.url)).toEqual(links.map((l) => l.url));
        // A document made absolute means the same wherever it is.
        const moved = extractLinks(out, { url: "https://elsewhere.example/x/y" });
        expect(moved.filter((l) => l.missing !== true && l.url !== null).map((l) => l.url)).toEqual(
          links.filter((l) => l.missing !== true && l.url !== null).map((l) => l.url),
        );
      });
    });
  }
});
