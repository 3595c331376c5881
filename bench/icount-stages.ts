/**
 * Question: of the instructions `extractLinks` spends per byte, how many go
 * to each stage after the parse — preparing the bytes (sniffing, decoding),
 * reading the links (the document reader and URL parsing), and settling
 * them (source order, lines and columns)? A workload for
 * `../shared/tools/icount`, like icount-workload.ts, but loading only the
 * links layer (no jsdom, no parse5 peer), so that every job runs in the
 * same small heap and the differences between jobs are the stages' own.
 *
 *   DOCBASE_CORPUS=… ../shared/tools/icount --runs 1 -- node_modules/.bin/node --single-threaded --predictable-gc-schedule bench/icount-stages.ts JOB PAGE ROUNDS
 *
 * JOB, each doing what the one before does and one stage more:
 * `parse` (the tree construction over the decoded text, a string given),
 * `prepare` (the page's bytes: sniffed, decoded, parsed), `read` (and its
 * links read: the document reader, each URL parsed), `extract`
 * (`extractLinks`: and settled). `read-only` reads the links of one
 * prepared document every round (the reader's steady state, no parse in
 * the rounds); `none` loads everything and does nothing.
 * PAGE: a substring of a corpus file name (`new-zealand`, `2015`, `2009`, `911`).
 *
 * @module
 */

import { decodeWith } from "../src/links/document-bytes.ts";
import { parseWithPositions } from "../src/links/html-source.ts";
import { extractLinks } from "../src/links/index.ts";
import { prepareDocument } from "../src/links/prepare-document.ts";
import { newBatch, readDocument } from "../src/links/read-document.ts";
import { readCorpusPage } from "./harness.ts";

const [job = "none", page = "new-zealand", roundsText = "1"] = process.argv.slice(2);
const rounds = Number(roundsText);
const { html, url } = readCorpusPage(page);
const bytes = new TextEncoder().encode(html);
// The text `extractLinks` parses: the bytes decoded in the encoding they are read in.
const prepared = prepareDocument(bytes, { url });
const text = decodeWith(bytes, prepared.encoding).text;
let sink = 0;

for (let r = 0; r < rounds; r++) {
  switch (job) {
    case "parse":
      sink += parseWithPositions(text).tags.length;
      break;
    case "prepare":
      sink += prepareDocument(bytes, { url }).parsed.tags.length;
      break;
    case "read": {
      const batch = newBatch(false);
      readDocument(prepareDocument(bytes, { url }), batch);
      sink += batch.links.length;
      break;
    }
    case "extract":
      sink += extractLinks(bytes, { url }).length;
      break;
    case "read-only": {
      const batch = newBatch(false);
      readDocument(prepared, batch);
      sink += batch.links.length;
      break;
    }
    case "none":
      break;
    default:
      throw new Error(`unknown job ${job}`);
  }
}

if (sink < 0) console.log(sink);
