// Validation errors are bounded per value and per document (issue 29): a page of thousands of values of many errors
// each keeps at most MAX_ERRORS_PER_DOCUMENT of them — counted here, not timed — and every error beyond is counted in
// its link's errorsOmitted, exactly: kept and omitted add up to what validateURL finds in each value alone.
import { describe, expect, it } from "vitest";
import { validateURL } from "../../src/core/index.ts";
import { extractLinks, type Link, LinkStream, MAX_ERRORS_PER_DOCUMENT, MAX_ERRORS_PER_VALUE } from "../../src/links/index.ts";

const url = "https://example.com/dir/page.html";

/** `count` links, the i-th with a value of `errors(i)` units "% " (two validation errors each: the "%", the space). */
function page(count: number, units: (i: number) => number): string {
  let html = "<!doctype html><title>t</title>\n";
  for (let i = 0; i < count; i++) html += `<p><a href="x${i}/${"% ".repeat(units(i))}y">l</a></p>\n`;
  return html;
}

/** Every error of the value, found by validateURL alone (unbounded). */
function errorsOfValue(link: Link): number {
  return validateURL(link.value, { base: url }).errors.length;
}

function kept(links: readonly Link[]): number {
  return links.reduce((n, l) => n + (l.errors?.length ?? 0), 0);
}

/** What holds of the links of `html` read with `validate`: the bound, and every error counted. */
function checkBounded(links: readonly Link[], expectedLinks: number): void {
  expect(links.length).toBe(expectedLinks);
  expect(kept(links)).toBe(MAX_ERRORS_PER_DOCUMENT);
  let reachedBound = false;
  for (const link of links) {
    const all = errorsOfValue(link);
    expect((link.errors?.length ?? 0) + (link.errorsOmitted ?? 0)).toBe(all);
    expect(link.errors!.length).toBeLessThanOrEqual(MAX_ERRORS_PER_VALUE);
    // Past the bound, a link keeps none.
    if (reachedBound) expect(link.errors).toEqual([]);
    if (link.errorsOmitted !== undefined) reachedBound = true;
  }
  expect(reachedBound).toBe(true);
}

describe("validation errors kept per document", () => {
  // 3,000 values of 40 to 58 errors each: about 147,000 errors, far beyond the bound.
  const html = page(3000, (i) => 20 + (i % 10));

  it("extractLinks: at most MAX_ERRORS_PER_DOCUMENT kept, the rest counted per link, exactly", () => {
    const links = extractLinks(html, { url, validate: true });
    checkBounded(links, 3000);
    const omitted = links.reduce((n, l) => n + (l.errorsOmitted ?? 0), 0);
    const all = links.reduce((n, l) => n + errorsOfValue(l), 0);
    expect(all).toBeGreaterThan(10 * MAX_ERRORS_PER_DOCUMENT);
    expect(omitted).toBe(all - MAX_ERRORS_PER_DOCUMENT);
  });

  it("LinkStream, in pieces of 4 KiB: the same links, the same errors kept and omitted", () => {
    const whole = extractLinks(html, { url, validate: true });
    const streamed: Link[] = [];
    const stream = new LinkStream({ url, validate: true, onLink: (link) => streamed.push(link) });
    const bytes = new TextEncoder().encode(html);
    for (let at = 0; at < bytes.length; at += 4096) stream.write(bytes.subarray(at, at + 4096));
    stream.end();
    checkBounded(streamed, 3000);
    expect(streamed.map((l) => [l.errors!.length, l.errorsOmitted ?? 0])).toEqual(whole.map((l) => [l.errors!.length, l.errorsOmitted ?? 0]));
  });

  it("a value beyond MAX_ERRORS_PER_VALUE still keeps its first MAX_ERRORS_PER_VALUE while the document has room", () => {
    const links = extractLinks(page(2, () => 800), { url, validate: true });
    expect(links.map((l) => l.errors!.length)).toEqual([MAX_ERRORS_PER_VALUE, MAX_ERRORS_PER_VALUE]);
    expect(links.map((l) => l.errorsOmitted)).toEqual([600, 600]);
  });

  it("a document under the bound keeps every error", () => {
    const links = extractLinks(page(100, () => 10), { url, validate: true });
    expect(kept(links)).toBe(links.reduce((n, l) => n + errorsOfValue(l), 0));
    expect(links.every((l) => l.errorsOmitted === undefined)).toBe(true);
  });
});
