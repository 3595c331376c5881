// What a LinkStream tells at its end beyond its links (the internal `onBases` and `onTargets`, for `docbase check` of a
// file read as a stream): its base elements against readLinks' of the whole document (`{ bases: true }`, from the
// tree), and its fragment targets against the whole document's: on generated tree soup with
// base elements wherever the parser puts them — the head, the body, tables (foster parenting), template contents,
// declarative shadow roots, a frameset taking the body away — cut in pieces, with the base URL settled by a first
// pass (as the command reads a file) and without. The stream gives the same list, or null when it cannot tell
// (foster parenting before a table holding the first base); DOCBASE_PROPERTY_RUNS cases (default 300), seeded with
// DOCBASE_PROPERTY_SEED (default 27).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BaseElement } from "../../src/links/base-elements.ts";
import { documentFragmentTargets } from "../../src/links/fragment-targets.ts";
import type { FragmentTargets } from "../../src/links/indicated-part.ts";
import { prepareDocument } from "../../src/links/prepare-document.ts";
import { LinkStream, settleDocument } from "../../src/links/index.ts";
import { MAX_STREAMED_BASES } from "../../src/links/stream-end-facts.ts";
import { readLinks } from "../../src/links/read-links.ts";
import { treeSoupUnits } from "./tree-trace.ts";

const runs = Number(process.env["DOCBASE_PROPERTY_RUNS"] ?? 300);
const seed = Number(process.env["DOCBASE_PROPERTY_SEED"] ?? 27);
const url = "https://example.com/dir/page.html";

/** The stream's base elements of `html` given in pieces ending at `cuts`, or null when it cannot tell. */
function streamedBases(html: string, cuts: readonly number[], settled: Awaited<ReturnType<typeof settleDocument>> | undefined): readonly BaseElement[] | null | undefined {
  let bases: readonly BaseElement[] | null | undefined;
  const stream = new LinkStream({ url, onLink: () => {}, ...(settled === undefined || settled === null ? {} : { settled }) }, { onBases: (found) => (bases = found === null ? null : found.bases) });
  let from = 0;
  for (const at of [...cuts, html.length]) {
    stream.write(html.slice(from, at));
    from = at;
  }
  stream.end();
  return bases;
}

// Base elements weighted up: most documents have one or more.
const baseUnits = ["<base href=/3/>", "<base href=javascript:x>", "<head><base href=/h/>", "<template><base href=/t/></template>", "<p><template shadowrootmode=open><base href=/s/>"];
// And elements with ids and a names, in and out of tables, templates and shadow roots.
const targetUnits = ["<p id=x1>", "<a name=n1>", "<td id=x2>", "<template><b id=x3></template>", "<span id=x1>", "<a name=''>"];
const units = [...treeSoupUnits, ...baseUnits, ...baseUnits, ...baseUnits, ...baseUnits, ...targetUnits, ...targetUnits];
const soup = fc.array(fc.constantFrom(...units), { minLength: 1, maxLength: 40 }).map((parts) => parts.join(""));
const cuts = (length: number) => fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 3 }).map((at) => at.filter((n) => n < length).sort((a, b) => a - b));

describe(`a stream's base elements (fast-check, seed ${seed})`, () => {
  it(`are readLinks' of the whole document, or null where tree order is unknown (${runs * 2} runs)`, async () => {
    let told = 0;
    let toldWithBases = 0;
    await fc.assert(
      fc.asyncProperty(
        soup.chain((html) => fc.tuple(fc.constant(html), cuts(html.length))),
        async ([html, at]) => {
          const label = `${JSON.stringify(html)} cut at ${JSON.stringify(at)}`;
          const expected = readLinks(html, { url }, { bases: true }).bases;
          const settled = await settleDocument(() => [html], { url });
          for (const given of [settled, undefined]) {
            const bases = streamedBases(html, at, given);
            expect(bases, label).not.toBe(undefined);
            if (bases === null || bases === undefined) continue;
            expect(bases, label).toEqual(expected);
            if (given !== undefined) {
              told++;
              if (bases.length > 0) toldWithBases++;
            }
          }
        },
      ),
      { numRuns: runs * 2, seed },
    );
    // Most documents are told, most with base elements: the property is not vacuous.
    expect(told).toBeGreaterThan(runs);
    expect(toldWithBases).toBeGreaterThan(runs / 2);
  }, 120_000);

  it(`its fragment targets are the whole document's, however it is cut (${runs * 2} runs)`, async () => {
    let withTargets = 0;
    await fc.assert(
      fc.asyncProperty(
        soup.chain((html) => fc.tuple(fc.constant(html), cuts(html.length))),
        async ([html, at]) => {
          const expected = documentFragmentTargets(prepareDocument(html, { url }).parsed);
          // Settled by a first pass (as the command reads a file), the stream reads its tags as they come; else it may hold them.
          const settled = await settleDocument(() => [html], { url });
          for (const given of [settled, null]) {
            let told: FragmentTargets | null | undefined;
            const stream = new LinkStream({ url, onLink: () => {}, ...(given === null ? {} : { settled: given }) }, { onTargets: (found) => (told = found) });
            let from = 0;
            for (const cut of [...at, html.length]) {
              stream.write(html.slice(from, cut));
              from = cut;
            }
            stream.end();
            expect(told, `${JSON.stringify(html)} cut at ${JSON.stringify(at)}`).toEqual(expected);
          }
          if (expected.ids.size > 0) withTargets++;
        },
      ),
      { numRuns: runs * 2, seed },
    );
    expect(withTargets).toBeGreaterThan(runs / 2);
  }, 120_000);

  it("an element a frameset takes out with the body is no target, wherever the input is cut", async () => {
    for (const html of ["<p id=gone><a name=n></a><frameset>", "<head></head><div id=gone><frameset><frame>"]) {
      const settled = (await settleDocument(() => [html], { url }))!;
      for (let cut = 1; cut < html.length; cut++) {
        let told: FragmentTargets | null | undefined;
        const stream = new LinkStream({ url, onLink: () => {}, settled }, { onTargets: (found) => (told = found) });
        stream.write(html.slice(0, cut));
        stream.write(html.slice(cut));
        stream.end();
        expect(told, `${html} cut at ${cut}`).toEqual({ ids: new Set(), names: new Set() });
      }
    }
  });

  it("a document with more base elements than the stream keeps gets null", () => {
    const html = "<base href=/a/>".repeat(MAX_STREAMED_BASES + 1);
    expect(streamedBases(html, [], undefined)).toBe(null);
    expect(streamedBases("<base href=/a/>".repeat(MAX_STREAMED_BASES), [], undefined)?.length).toBe(MAX_STREAMED_BASES);
  });

  it("a frameset that takes the body away takes its base elements out of the list", () => {
    const html = '<head><base href="/h/"></head><div><base href="/b/"></div><frameset>';
    expect(streamedBases(html, [20, 40], undefined)?.map((b) => [b.href, b.status])).toEqual([["/h/", "used"]]);
    expect(readLinks(html, { url }, { bases: true }).bases?.map((b) => [b.href, b.status])).toEqual([["/h/", "used"]]);
  });
});
