// The tokenizer of src/links/html-tokenizer.ts reading a document in pieces
// (`runChunk`, for streams: issue 18) must build the tree it builds from the
// whole document, wherever the pieces are cut: inside tags, attribute values,
// character references, comments, DOCTYPEs, CDATA sections, script data in
// every escape state, between CR and LF (the caller keeps a trailing CR, as
// LinkStream does), and in surrogate pairs (likewise).
//
// The tokens may differ in one way only: text cut by a piece's end reaches the
// tree construction stage as two character tokens (runChunk's stated
// deviation). So the token streams are compared with adjacent character
// tokens of the same type merged, and the trees as parse5 serializes them.

import fc from "fast-check";
import { defaultTreeAdapter, Parser, serialize, type DefaultTreeAdapterMap } from "parse5";
import { describe, expect, it } from "vitest";
import { installTokenizer } from "../../src/links/html-tokenizer.ts";
import { corpusPages, readCorpusFile } from "../corpus-data.ts";
import { cases, htmlish } from "./html-tokenizer-cases.ts";
import { recordTokens, type Snapshot } from "./recorded-tokens.ts";

const characterTypes = new Set(["CHARACTER", "WHITESPACE_CHARACTER", "NULL_CHARACTER"]);

/** The tokens with adjacent character tokens of one type merged (runChunk's one difference from a whole run). */
function mergeCharacters(tokens: readonly Snapshot[]): unknown[][] {
  const merged: unknown[][] = [];
  for (const token of tokens) {
    const last = merged[merged.length - 1];
    if (last !== undefined && characterTypes.has(token[0] as string) && last[0] === token[0]) last[1] = (last[1] as string) + (token[1] as string);
    else merged.push([...token]);
  }
  return merged;
}

interface Parsed {
  readonly tokens: unknown[][];
  readonly tree: string;
  readonly mode: string;
}

function parse(pieces: readonly string[], scripting: boolean): Parsed {
  const parser = new Parser<DefaultTreeAdapterMap>({ treeAdapter: defaultTreeAdapter, scriptingEnabled: scripting });
  const recorded = recordTokens(parser);
  const tokenizer = installTokenizer(parser);
  let pending = "";
  for (const piece of pieces) {
    pending += piece;
    // What LinkStream keeps back from a non-final piece: a CR (it may be a CR LF's first half), a high surrogate.
    let kept = "";
    const last = pending.charCodeAt(pending.length - 1);
    if (last === 0x0d || (last >= 0xd800 && last <= 0xdbff)) {
      kept = pending.slice(-1);
      pending = pending.slice(0, -1);
    }
    const read = tokenizer.runChunk(pending, false);
    expect(read).toBeGreaterThanOrEqual(0);
    expect(read).toBeLessThanOrEqual(pending.length);
    pending = pending.slice(read) + kept;
  }
  tokenizer.runChunk(pending, true);
  const document = parser.document;
  return { tokens: mergeCharacters(recorded), tree: serialize(document), mode: defaultTreeAdapter.getDocumentMode(document) };
}

/** `html` cut at the offsets `cuts` (sorted). */
function cutAt(html: string, cuts: readonly number[]): string[] {
  const pieces: string[] = [];
  let at = 0;
  for (const cut of cuts) {
    pieces.push(html.slice(at, cut));
    at = cut;
  }
  pieces.push(html.slice(at));
  return pieces;
}

const inputs = Object.entries(cases).flatMap(([group, list]) => list.map((html, i) => [`${group} ${i}`, html] as const));

describe("runChunk: a document read in pieces builds the tree of the whole", () => {
  it.each(inputs)("%s: cut once at every offset, and into single code units", (_name, html) => {
    for (const scripting of [true, false]) {
      const whole = parse([html], scripting);
      // A piece may be empty (a cut at 0): nothing is read from it but what it completes.
      for (let cut = 0; cut <= html.length; cut++) expect(parse(cutAt(html, [cut]), scripting)).toEqual(whole);
      expect(parse([...html.split(""), ""], scripting)).toEqual(whole);
    }
  });

  it("generated HTML-ish documents cut at random offsets (fast-check)", () => {
    fc.assert(
      fc.property(htmlish, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (html, raw, scripting) => {
        const cuts = [...new Set(raw.map((n) => n % (html.length + 1)))].sort((a, b) => a - b);
        expect(parse(cutAt(html, cuts), scripting)).toEqual(parse([html], scripting));
      }),
      { numRuns: Number(process.env["DOCBASE_PROPERTY_RUNS"] ?? 1000), seed: Number(process.env["DOCBASE_PROPERTY_SEED"] ?? 18) },
    );
  });

  it.each(corpusPages.map((page) => [page.file] as const))("%s in pieces of 1 to 4,096 code units", (file) => {
    const html = new TextDecoder().decode(readCorpusFile(file));
    let seed = 18;
    const cuts: number[] = [];
    for (let at = 0; at < html.length; ) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      at += 1 + (seed % 4096);
      if (at < html.length) cuts.push(at);
    }
    expect(parse(cutAt(html, cuts), true)).toEqual(parse([html], true));
  }, 60_000);
});
