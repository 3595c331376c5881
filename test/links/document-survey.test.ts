// Two readings of a document (issue 28): settleDocument's first pass settles the encoding and the first
// <base href> in tree order, keeping nothing; a LinkStream given them as `settled` then holds nothing and gives,
// link for link and byte for byte, what extractLinks and rewriteLinks give for the whole document — with the
// <base> or the <meta charset> far past maxHold, where a stream alone warns and resolves against the wrong base.
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { absolutize, extractLinks, isLinksError, LinkStream, rewriteLinks, settleDocument, type Link, type StreamWarning } from "../../src/links/index.ts";

const url = "https://example.com/docs/page.html";
const MiB = 1024 * 1024;

/** Link-dense filler of about `bytes` bytes (relative links, a query with a non-ASCII character). */
function filler(bytes: number): string {
  const unit = `<p>text <a href="x.html?q=é">l</a> <img src=i.png srcset="a.png 1x, b.png 2x"> café</p>\n`;
  return unit.repeat(Math.ceil(bytes / unit.length));
}

function piecesOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

const plain = (links: readonly Link[]): unknown[] => links.map((l) => ({ ...l }));

/** Both readings over `bytes` cut in `size` pieces: the links, the output, the warnings, and how much output had left before the end. */
async function twoReadings(bytes: Uint8Array, size: number, encoding?: string) {
  const settled = await settleDocument(() => piecesOf(bytes, size), { url, encoding });
  const links: Link[] = [];
  const output: Uint8Array[] = [];
  const warnings: StreamWarning[] = [];
  let outBeforeEnd = 0;
  const stream = new LinkStream({
    url,
    encoding,
    settled: settled ?? undefined,
    rewrite: absolutize(),
    onLink: (link) => links.push(link),
    onOutput: (chunk) => output.push(chunk as Uint8Array),
    onWarning: (w) => warnings.push(w),
  });
  for (const piece of piecesOf(bytes, size)) stream.write(piece);
  for (const chunk of output) outBeforeEnd += chunk.length;
  stream.end();
  return { settled, links, output: Buffer.concat(output), warnings, outBeforeEnd };
}

describe("settleDocument and LinkStream's settled option", () => {
  it("a <base> after 1 MiB: the whole document's links and bytes, output flowing before the end, no warning", async () => {
    const html = `<!doctype html><title>t</title>${filler(MiB)}<base href="/moved/"><a href=last.html>l</a>`;
    const bytes = new TextEncoder().encode(html);
    const { settled, links, output, warnings, outBeforeEnd } = await twoReadings(bytes, 64 * 1024);
    expect(settled).toEqual({ encoding: "windows-1252", firstBaseHref: "/moved/" });
    const whole = extractLinks(bytes, { url });
    expect(links.length).toBe(whole.length);
    expect(plain(links)).toEqual(plain(whole));
    expect(links[0]!.url).toBe("https://example.com/moved/x.html?q=%C3%A9");
    expect(Buffer.from(output).equals(Buffer.from(rewriteLinks(bytes, { url, rewrite: absolutize() })))).toBe(true);
    expect(warnings).toEqual([]);
    // Held nothing: most of the output left before the end.
    expect(outBeforeEnd).toBeGreaterThan(bytes.length / 2);
  });

  it("without settled, the same stream warns base-after-links and resolves against the document's URL (what the command did)", () => {
    const html = `<!doctype html>${filler(2 * MiB)}<base href="/moved/"><a href=last.html>l</a>`;
    const warnings: StreamWarning[] = [];
    const links: Link[] = [];
    const stream = new LinkStream({ url, onLink: (l) => links.push(l), onWarning: (w) => warnings.push(w) });
    stream.write(new TextEncoder().encode(html));
    stream.end();
    expect(warnings.map((w) => w.type)).toEqual(["base-after-links"]);
    expect(links[0]!.url).toBe("https://example.com/docs/x.html?q=%C3%A9");
  });

  it("a <meta charset> after 1 MiB (in the body: the tree construction processes it): read again in that encoding", async () => {
    const html = `<!doctype html><title>t</title>${filler(MiB)}<meta charset=windows-1251><a href="?q=Ж">Ж</a>`;
    const bytes = iconv.encode(html, "windows-1251");
    const { settled, links, output, warnings } = await twoReadings(bytes, 50_000);
    expect(settled).toEqual({ encoding: "windows-1251", firstBaseHref: null });
    const whole = extractLinks(bytes, { url });
    expect(plain(links)).toEqual(plain(whole));
    expect(links.at(-1)!.url).toBe("https://example.com/docs/page.html?q=%C6");
    expect(Buffer.from(output).equals(Buffer.from(rewriteLinks(bytes, { url, rewrite: absolutize() })))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("a <base> in the head settles at once: the first pass reads no further than it", async () => {
    const html = `<!doctype html><meta charset=utf-8><base href="/b/">${filler(MiB)}`;
    let given = 0;
    const settled = await settleDocument(
      function* () {
        for (const piece of piecesOf(new TextEncoder().encode(html), 4096)) {
          given++;
          yield piece;
        }
      },
      { url },
    );
    expect(settled).toEqual({ encoding: "UTF-8", firstBaseHref: "/b/" });
    expect(given).toBe(1);
  });

  it.each([
    ["a base in a template does not count", `<template><base href=/t/></template>${"<p>x".repeat(10)}<base href=/real/><a href=a>`, "/real/"],
    ["a base in SVG is not an HTML base", `<svg><base href=/svg/></svg><a href=a>`, null],
    ["the first of two", `<body><a href=a><base href=/one/><base href=/two/>`, "/one/"],
    // The streamed tree cannot tell which base is first once the body is gone: null, and the stream holds the document.
    ["a base in the body before a frameset: the frameset takes the body out", `<div><base href=/gone/></div><frameset><frame src=f.html>`, undefined],
    ["text: a base at the end", `<a href=a>${"<p>".repeat(1000)}<base href=/end/>`, "/end/"],
  ])("%s", async (_name, text, href) => {
    const settled = await settleDocument(() => [text.slice(0, 7), text.slice(7)], { url });
    expect(settled).toEqual(href === undefined ? null : { encoding: "UTF-8", firstBaseHref: href });
    const links: Link[] = [];
    const stream = new LinkStream({ url, settled: settled ?? undefined, onLink: (l) => links.push(l) });
    stream.write(text.slice(0, 3));
    stream.write(text.slice(3));
    stream.end();
    expect(plain(links)).toEqual(plain(extractLinks(text, { url })));
  });

  it("an ambiguous document (foster parenting before the table that holds the base) settles nothing: null", async () => {
    const html = `<table><tr><td><base href=/in-table/></td></tr><p>foster</p></table><a href=a>`;
    const settled = await settleDocument(() => [html], { url });
    // Whether it is ambiguous is the streamed tree's to say; the stream then reads it exactly all the same.
    const links: Link[] = [];
    const stream = new LinkStream({ url, settled: settled ?? undefined, onLink: (l) => links.push(l) });
    stream.write(html);
    stream.end();
    expect(plain(links)).toEqual(plain(extractLinks(html, { url })));
  });

  it("a bad settled option is a LinksError that says what is accepted", () => {
    for (const settled of [null, 1, { encoding: 1, firstBaseHref: null }, { encoding: "utf-8", firstBaseHref: 2 }]) {
      let error: unknown;
      try {
        new LinkStream({ url, settled: settled as never });
      } catch (e) {
        error = e;
      }
      expect(isLinksError(error)).toBe(true);
      expect((error as Error).message).toContain("firstBaseHref");
    }
  });
});
