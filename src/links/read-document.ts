/**
 * The read stage over a whole document: the reader of the prepared
 * document, then the readers of its srcdoc documents (and theirs), each
 * with its own base URLs, all adding to one batch of links.
 *
 * The read stage's parts: the tokenizer (html-tokenizer.ts) drives a tree
 * construction (html-source.ts for a whole document, streaming-source.ts
 * for a stream), whose records of start tags the document reader
 * (document-reader.ts) turns into links. What the reader and the facts
 * below take from the construction is its {@link ParsedSource}: another
 * construction that gives one can take its place.
 *
 * @module
 */

import { documentURLs, type DocumentURLs } from "./base-url.ts";
import { DocumentReader, type Job, type LinkBatch, type ReadSettings } from "./document-reader.ts";
import type { LeanElement, ParsedSource } from "./html-source.ts";
import type { Link } from "./link-types.ts";
import { objectList } from "./object-list.ts";
import type { PreparedDocument } from "./prepare-document.ts";

/**
 * One document that {@link readDocument} has read (the top one, or a
 * srcdoc document), for a caller that wants more of its tree than its links.
 *
 * @example
 * ```ts
 * const read: ReadDocument = { parsed: prepareDocument("<p id=x>", { url: "https://example.com/" }).parsed, depth: 0, template: false, links: null };
 * ```
 */
export interface ReadDocument {
  /** What its tree construction gave (its tree only if kept: see html-source.ts). */
  readonly parsed: ParsedSource;
  /** 0 for the top document, 1 for a srcdoc document in it, … */
  readonly depth: number;
  /** Whether its iframe is in template contents. */
  readonly template: boolean;
  /** For a srcdoc document, its own links (not those of srcdoc documents inside it); null for the top document. */
  readonly links: readonly Link[] | null;
}

/**
 * What a reading may report beyond its links.
 *
 * @example
 * ```ts
 * readDocument(document, batch, { onDocument: (read) => console.log(read.depth) }); // 0, then each srcdoc document's depth
 * ```
 */
export interface ReadHooks {
  /** Called with each document read, while its tree is there (srcdoc documents are parsed and read once, here). */
  readonly onDocument?: ((read: ReadDocument) => void) | undefined;
  /** Filled with the href link of each base element of the top document (see base-elements.ts). */
  readonly baseLinks?: Map<LeanElement, Link> | undefined;
  /** Filled with the readers (see `retainedSamples` in extract-links.ts). */
  readonly readers?: DocumentReader[] | undefined;
}

/**
 * No hooks (one object, not one per call: the stream reads srcdoc
 * documents after every tag).
 *
 * @example
 * ```ts
 * readDocument(document, batch, NO_HOOKS); // the same as readDocument(document, batch)
 * ```
 */
export const NO_HOOKS: ReadHooks = Object.freeze({});

/**
 * A new, empty batch, with sites when `rewriting`.
 *
 * @example
 * ```ts
 * newBatch(false).links.length; // 0
 * ```
 */
export function newBatch(rewriting: boolean): LinkBatch {
  return { links: objectList(), sites: rewriting ? objectList() : null, srcdocs: [], tooDeep: [], documents: 1, errorsKept: 0 };
}

/** The URLs the links of `job` resolve with. */
function urlsOf(job: Job): DocumentURLs {
  return documentURLs(job.parsed.document, job.url, job.encoding, job.aboutBaseURL, job.parsed.hasBaseWithHref);
}

/**
 * Reads a prepared document and its srcdoc documents into `batch`, links
 * in the order read (see settle-links.ts for source order); returns the
 * top document's URLs.
 *
 * @example
 * ```ts
 * const document = prepareDocument('<base href="/d/"><a href=x>', { url: "https://example.com/" });
 * const batch = newBatch(false);
 * readDocument(document, batch).documentBaseURL; // the record of https://example.com/d/
 * batch.links.map((link) => link.url); // ["https://example.com/d/", "https://example.com/d/x"]
 * ```
 */
export function readDocument(document: PreparedDocument, batch: LinkBatch, hooks: ReadHooks = NO_HOOKS): DocumentURLs {
  const parsed = document.parsed;
  const job: Job = { text: document.text, parsed, url: document.url, encoding: document.encoding, aboutBaseURL: null, layers: [], depth: 0, template: false, id: 0 };
  const urls = urlsOf(job);
  const reader = new DocumentReader(job, document.options, batch, urls, hooks.baseLinks ?? null);
  reader.read();
  hooks.readers?.push(reader);
  hooks.onDocument?.({ parsed, depth: 0, template: false, links: null });
  readSrcdocDocuments(document.options, batch, hooks);
  return urls;
}

/**
 * Reads the srcdoc documents waiting in `batch` (and those inside them),
 * each against its own URLs; leaves none waiting.
 *
 * @example
 * ```ts
 * readSrcdocDocuments({ validate: false, scripting: true, maxSrcdocDepth: 32 }, batch); // batch.srcdocs is empty after
 * ```
 */
export function readSrcdocDocuments(settings: ReadSettings, batch: LinkBatch, hooks: ReadHooks = NO_HOOKS): void {
  const jobs = batch.srcdocs;
  // A work list, not recursion: srcdoc documents nest as deep as the input lets them.
  for (let j = 0; j < jobs.length; j++) {
    const job = jobs[j]!;
    const before = batch.links.length;
    const reader = new DocumentReader(job, settings, batch, urlsOf(job));
    reader.read();
    hooks.readers?.push(reader);
    hooks.onDocument?.({ parsed: job.parsed, depth: job.depth, template: job.template, links: batch.links.slice(before) });
    jobs[j] = undefined as unknown as Job; // Let a finished document's tree go.
  }
  jobs.length = 0;
}
