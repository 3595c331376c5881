/**
 * Question: how many machine instructions does one link job cost per byte
 * of HTML? A workload for `../shared/tools/icount`, which counts the
 * instructions a run executes (about 1% apart between runs on a loaded
 * machine, where times move 20%): run it with N rounds and with 1, and the
 * difference over (N - 1) × bytes is the steady-state cost per byte, start-up
 * and the first (cold) round left out.
 *
 *   ../shared/tools/icount -- node_modules/.bin/node --single-threaded bench/icount-workload.ts JOB PAGE ROUNDS
 *
 * JOB: `extract` (extractLinks), `rewrite` (rewriteLinks with absolutize()),
 * `stream` (LinkStream over 64 KiB pieces, output discarded), `parse5`
 * (parse5.parse, the peer), the stages of extractLinks' parse alone:
 * `tokenize` (docbase's tokenizer, its tokens dropped but for the state
 * changes the tree construction stage makes) and `parse` (tokenizer, tree
 * construction and lean tree: what extractLinks reads its links from), `href` (a jsdom window of 16,384 anchors under a
 * `<base>`, docbase installed, made once in the first round; every round
 * reads every `a.href`; PAGE is ignored), `none` (loads everything, does nothing: the start-up to subtract).
 * PAGE: a substring of a corpus file name (`new-zealand`, `2015`, `2009`, `911`).
 * The corpus is `../shared/corpus/` (or `DOCBASE_CORPUS`); `bench/icount.sh`
 * runs the whole table.
 *
 * @module
 */

import { parse, TokenizerMode } from "parse5";
import { JSDOM } from "jsdom";
import { extractLinks, rewriteLinks, absolutize, LinkStream } from "../src/links/index.ts";
import { parseWithPositions } from "../src/links/html-source.ts";
import { HTMLTokenizer } from "../src/links/html-tokenizer.ts";
import { install } from "../src/jsdom/index.ts";
import { readCorpusPage } from "./harness.ts";

const [job = "none", page = "new-zealand", roundsText = "1"] = process.argv.slice(2);
const rounds = Number(roundsText);
const { html, url } = readCorpusPage(page);
const bytes = new TextEncoder().encode(html);
let sink = 0;
let anchors: { href: string }[] | undefined;

/** The tokenizer states the tree construction stage switches to after these start tags (in HTML content, scripting on). */
const textStates: Record<string, number> = {
  script: TokenizerMode.SCRIPT_DATA,
  style: TokenizerMode.RAWTEXT,
  xmp: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  noembed: TokenizerMode.RAWTEXT,
  noframes: TokenizerMode.RAWTEXT,
  noscript: TokenizerMode.RAWTEXT,
  title: TokenizerMode.RCDATA,
  textarea: TokenizerMode.RCDATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

/** The tokenizer alone over the page: a token sink that only switches its state as the tree construction stage would. */
function tokenizeOnly(): number {
  let count = 0;
  const sink = {
    tokenizer: null as HTMLTokenizer | null,
    currentNotInHTML: false,
    onCharacter: (): void => void count++,
    onNullCharacter: (): void => void count++,
    onWhitespaceCharacter: (): void => void count++,
    onStartTag(token: { tagName: string }): void {
      count++;
      const state = textStates[token.tagName];
      if (state !== undefined) sink.tokenizer!.state = state;
    },
    onEndTag: (): void => void count++,
    onComment: (): void => void count++,
    onDoctype: (): void => void count++,
    onEof: (): void => void count++,
  };
  sink.tokenizer = new HTMLTokenizer(sink);
  sink.tokenizer.run(html);
  return count;
}

for (let r = 0; r < rounds; r++) {
  switch (job) {
    case "extract":
      sink += extractLinks(bytes, { url }).length;
      break;
    case "rewrite":
      sink += rewriteLinks(bytes, { url, rewrite: absolutize() }).length;
      break;
    case "stream": {
      const stream = new LinkStream({ url, rewrite: absolutize(), onOutput: (piece) => void (sink += piece.length) });
      for (let i = 0; i < bytes.length; i += 65536) stream.write(bytes.subarray(i, i + 65536));
      stream.end();
      break;
    }
    case "parse5":
      sink += parse(html).childNodes.length;
      break;
    case "tokenize":
      sink += tokenizeOnly();
      break;
    case "parse":
      sink += parseWithPositions(html).tags.length;
      break;
    case "href":
      sink += hrefReads();
      break;
    case "none":
      break;
    default:
      throw new Error(`unknown job ${job}`);
  }
}

/** 16,384 anchors under a `<base>` in a window with docbase installed (made in the first round); every `a.href` read once. */
function hrefReads(): number {
  if (anchors === undefined) {
    let doc = '<!doctype html><head><base href="/docs/v1/"></head><body>';
    for (let i = 0; i < 16384; i++) doc += `<a href="../page-${i}.html?q=${i}#s${i % 7}">${i}</a>`;
    const dom = new JSDOM(doc, { url: "https://example.com/a/b", beforeParse: (w) => void install(w) });
    anchors = [...dom.window.document.querySelectorAll("a")] as unknown as { href: string }[];
  }
  let n = 0;
  for (const a of anchors) n += a.href.length;
  return n;
}

if (sink < 0) console.log(sink);
