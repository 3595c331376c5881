/**
 * Link extraction and rewriting over a document that arrives in pieces, in
 * memory bounded by the longest token and the depth of open elements, with
 * the links and bytes that {@link extractLinks} and {@link rewriteLinks}
 * give for the whole document: the same stages (prepare, read, settle,
 * write), run a piece at a time.
 *
 * The hard part is the document base URL
 * (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url):
 * the first `base` element with an `href` in tree order governs every link,
 * one before it in the source too, and one can come anywhere. So nothing is
 * resolved (and no output leaves) until the base URL is settled: a base in
 * the head is settled as soon as it is parsed (nothing can come before it
 * in tree order), one in the body once no open table holds it and the
 * frameset-ok flag is "not ok" (see streaming-source.ts); without a base,
 * only the end of the input settles it. Until then the input is held, up
 * to `maxHold`; on reaching that, links are resolved against the base URL
 * as it stands (the first base so far, else the fallback base URL), and a
 * base element that turns up later and would have changed them is
 * reported once, as a `base-after-links` warning (and governs the links
 * after it).
 *
 * Encoding (bytes): the first 1024 bytes are held for the encoding
 * sniffing algorithm's prescan. While the confidence is tentative (no BOM,
 * no `encoding` option), output is held too: a `meta` that declares
 * another encoding makes the parser "change the encoding"
 * (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing),
 * which here, as in {@link prepareDocument}, reads the document again from
 * its start in the new encoding. The first `meta` that declares an
 * encoding settles it, and so does the end of the input; on reaching
 * `maxHold` first, the tentative encoding is kept, and a later `meta` that
 * would have changed it is reported as an `encoding-after-links` warning.
 *
 * Two readings: a stream given `settled` (the encoding and the first
 * `<base href>`, as {@link settleDocument}'s first pass over the document
 * found them) holds nothing for either, and is exact whatever the size.
 *
 * srcdoc documents: an iframe's `srcdoc` value is one attribute of one
 * tag, whole in memory once its tag is read (the longest token bounds it),
 * so each is read as a whole document, with its own base URL, as
 * {@link extractLinks} reads it; none is held for it.
 *
 * Deviation (memory): the `replacement` and `ISO-2022-JP` encodings are
 * read whole at the end (the first has no text to stream; the second
 * keeps a state between characters that a piece cannot start from), as is
 * a document in which something was foster-parented before a table that
 * holds the first base element (see StreamingSource.ambiguous): the tree
 * that would say which base comes first is not kept, so the held input is
 * read again as a whole document.
 *
 * @module
 */

import { TextDecoder } from "@exodus/bytes/encoding.js";
import { type EncodingName, serializeURL, type URLRecord } from "../core/index.ts";
import { changedEncoding, HTML_NAMESPACE } from "../html/index.ts";
import { documentURLs, type DocumentURLs } from "./base-url.ts";
import { concatBytes } from "./document-bytes.ts";
import { DocumentReader, type Job, type LinkBatch } from "./document-reader.ts";
import { sniffEncoding } from "./encoding-sniffing.ts";
import { LinksError } from "./errors.ts";
import { extractSites } from "./extract-links.ts";
import type { LeanDocument, LeanElement, LeanParent, TagRecord } from "./html-source.ts";
import { IGNORE_MARKS } from "./ignore-marks.ts";
import { withoutIgnoredLinks } from "./ignored-elements.ts";
import type { Link, StreamWarning } from "./link-types.ts";
import { checkStreamOptions, encodingOfLabel, type LinkStreamOptions, pieceKind, type StreamOptions } from "./options.ts";
import { declaredEncoding, firstDeclaredEncoding, prepareDocument } from "./prepare-document.ts";
import { newBatch, readSrcdocDocuments } from "./read-document.ts";
import { setLinesAndColumns, settleLinks, settleTooDeep } from "./settle-links.ts";
import { type SourceAnchor, sourcePosition } from "./source-position.ts";
import { StreamEndFacts, type StreamEndHooks } from "./stream-end-facts.ts";
import { StreamingSource } from "./streaming-source.ts";
import { applyToString, askRewrite, buildEdits, type Edit, rewriteDocument, writeEditsToBytes } from "./write-links.ts";

/** A lean document holding only `base` (in place of the document's tree, to find its base URL). */
function treeOfBase(base: LeanElement | null): LeanDocument {
  const document: LeanDocument = { nodeName: "#document", mode: "no-quirks", childNodes: [] };
  if (base !== null) {
    document.childNodes.push({ nodeName: "base", tagName: "base", attrs: base.attrs, namespaceURI: HTML_NAMESPACE, childNodes: [], parentNode: document });
  }
  return document;
}

/** A `base` element with `href` alone, as a first reading settled it (see {@link treeOfBase}). */
function baseWithHref(href: string): LeanElement {
  return { nodeName: "base", tagName: "base", attrs: [{ name: "href", value: href }], namespaceURI: HTML_NAMESPACE, childNodes: [], parentNode: null };
}

/**
 * The most input (code units or bytes) read at a time: a larger piece is
 * read in parts of this size. Optimisation (memory): V8 puts an object
 * larger than about 128 KiB (a string of 64 Ki two-byte code units)
 * straight into the old generation, which only a full collection frees;
 * the held text, its slices and the output of a larger piece read at once
 * are that large. Parts of 16 KiB keep them young, and the collector's
 * cheap scavenges free them.
 */
const PART = 16 * 1024;

/** How much input a piece must be before the tokenizer reads it again, when a long token kept it waiting (see {@link LinkStream.tokenize}). */
const SHORT_TOKEN = 4096;

/**
 * What the command asks of a stream beyond {@link LinkStreamOptions} (not
 * public: see internal.ts).
 *
 * @example
 * ```ts
 * new LinkStream({ url: "https://example.com/", onLink }, { ignoreMarked: true });
 * ```
 */
export interface StreamInternals extends StreamEndHooks {
  /** Give no link of an element with an ignore mark or inside one (as readLinks' `ignore`). */
  readonly ignoreMarked?: boolean | undefined;
  /**
   * Called when the document's encoding turns out to be the replacement
   * encoding (it decodes to one U+FFFD: no links), by its BOM-less sniff
   * or by a `<meta>`, also one past `maxHold`; it may throw to end the
   * stream there (the command: the document cannot be decoded) instead of
   * the input being held whole, or read in the encoding before.
   */
  readonly onReplacement?: (() => void) | undefined;
}

/**
 * Link extraction and rewriting over a stream: {@link write} the document
 * in pieces (bytes, or text), then {@link end}; links reach `onLink` and
 * output reaches `onOutput` as soon as they are settled. The links and the
 * output are {@link extractLinks}'s and {@link rewriteLinks}'s for the
 * whole document, however it is cut, unless `onWarning` says otherwise
 * (see the module comment). Synchronous: each call does the work its
 * input allows; a `rewrite` (or callback) that throws makes that call
 * throw, and the stream unusable.
 *
 * @example
 * ```ts
 * const out: string[] = [];
 * const stream = new LinkStream({
 *   url: "https://example.com/docs/",
 *   rewrite: (link) => link.url ?? undefined,
 *   onOutput: (chunk) => out.push(chunk as string),
 * });
 * stream.write('<head><base href="/a/"></head><a hr');
 * stream.write('ef="b">b</a>');
 * stream.end();
 * out.join(""); // '<head><base href="https://example.com/a/"></head><a href="https://example.com/a/b">b</a>'
 * ```
 */
export class LinkStream {
  private readonly options: StreamOptions;
  /** The elements read so far that carry an ignore mark (with the `ignoreMarked` of {@link StreamInternals}); null: marks are not looked at. */
  private readonly marked: Set<LeanParent> | null;
  private readonly internals: StreamInternals | undefined;
  /** The options as given (a document read whole at the end is prepared from them). */
  private readonly given: LinkStreamOptions;
  /** Whether links are rewritten into the output (a `rewrite` and an `onOutput`). */
  private readonly rewriting: boolean;
  private readonly onReplacement: (() => void) | undefined;

  private mode: "text" | "bytes" | null = null;
  private ended = false;
  private failure: { error: unknown } | null = null;
  /** Whether a write() or end() is at work (see {@link guard}). */
  private busy = false;

  // Bytes: the input from the byte where `text` starts (all of it while nothing has left).
  private bytes: Uint8Array[] = [];
  private bytesLength = 0;
  /** Whether `bytes` starts at the input's first byte (where a BOM is). */
  private bytesFromStart = true;
  /** Null while the first 1024 bytes are awaited. */
  private encoding: EncodingName | null = null;
  private bom = 0;
  private tentative = false;
  /** Whether the first `meta` that declares an encoding has been seen (or no longer matters). */
  private metaSeen = false;
  /** How many of the parse's records {@link settleEncoding} has looked at (none is taken while the encoding is tentative). */
  private metaScan = 0;
  private encodingByHold = false;
  private decoder: TextDecoder | null = null;
  /** Whether the input is held whole, to be read as a whole document at the end (see the module comment). */
  private whole = false;

  // Text: the decoded input from `textStart` on.
  private text = "";
  private textStart = 0;
  /** Where the tokenizer has read to (it starts again there). */
  private consumed = 0;
  /**
   * The text from `consumed` on. Optimisation: kept apart from `text`, which
   * grows by concatenation while input is held, so that giving the
   * tokenizer its next piece does not flatten all the held text each time
   * (quadratic in the held length).
   */
  private unread = "";
  /** The length the text must reach before the tokenizer reads again. */
  private readAt = 0;
  private source: StreamingSource;

  // The base URL.
  private reader: DocumentReader | null = null;
  /** The URLs the reader resolves with. */
  private urls: DocumentURLs | null = null;
  /** What the stream tells at its end beyond its links (see StreamEndHooks). */
  private facts: StreamEndFacts;
  private baseByHold = false;
  private decidedBase: LeanElement | null = null;
  /** The document base URL the links are resolved against now, serialized. */
  private baseHref = "";
  private readonly warned = new Set<string>();
  /** How many links have been given (read with the base URL as it was). */
  private delivered = 0;

  // Reading: the links read and not yet given.
  private readonly batch: LinkBatch;
  /** The last position whose line and column are known (global offsets). */
  private anchor: SourceAnchor = { start: 0, line: 1, column: 1 };
  /** The edits read and not yet written (global offsets), and where output has reached. */
  private edits: Edit[] = [];
  private emitted = 0;

  constructor(options: LinkStreamOptions, internals?: StreamInternals) {
    this.options = checkStreamOptions(options);
    this.marked = internals?.ignoreMarked === true ? new Set() : null;
    this.internals = internals;
    this.onReplacement = internals?.onReplacement;
    // A document read whole at the end is read in the settled encoding too.
    this.given = this.options.settled === undefined ? options : { ...options, encoding: this.options.settled.encoding };
    this.rewriting = this.options.rewrite !== undefined && this.options.onOutput !== undefined;
    this.batch = newBatch(this.rewriting);
    this.facts = new StreamEndFacts(internals);
    this.source = new StreamingSource(this.options.scripting, true, this.facts.wantsTargets);
  }

  /** Reads the next piece of the document: bytes (a `Uint8Array`) or text (a string), the same kind every time. */
  write(chunk: Uint8Array | string): void {
    if (this.failure !== null) throw this.failure.error;
    if (this.ended) throw new LinksError("The stream has ended: nothing can be written after end()");
    const kind = pieceKind(chunk);
    if (this.mode !== null && this.mode !== kind) throw new LinksError(`The document was given as ${this.mode === "text" ? "text" : "bytes"}: a piece of ${kind === "text" ? "text" : "bytes"} cannot follow`);
    this.guard(() => {
      this.mode = kind;
      // Optimisation (memory): a large piece is read a sixteen-KiB part at a time (see PART).
      for (let at = 0; at < chunk.length || at === 0; at += PART) {
        const part = at === 0 && chunk.length <= PART ? chunk : typeof chunk === "string" ? chunk.slice(at, at + PART) : chunk.subarray(at, at + PART);
        if (typeof part === "string") this.addText(part);
        else this.addBytes(part);
        this.pump(false);
      }
    });
  }

  /** Ends the document: everything left is read, and its output given. */
  end(): void {
    if (this.failure !== null) throw this.failure.error;
    if (this.ended) throw new LinksError("The stream has already ended");
    this.guard(() => {
      this.ended = true;
      if (this.mode === "bytes") {
        if (this.encoding === null) this.startDecoding();
        if (this.decoder !== null) this.addText(this.decoder.decode());
      }
      if (this.mode !== null) this.pump(true);
      // A document read whole told them as it was read (see readWhole).
      if (!this.whole) this.facts.end(this.source.targetCandidates, { urls: this.urls, encoding: this.documentEncoding(), known: !this.baseByHold && !this.source.ambiguous });
    });
  }

  /**
   * Runs `action`; if it throws (a callback did), the stream is left
   * unusable: every later call throws the same. A call from inside one of
   * the stream's own callbacks (`onOutput` writing to the stream, say) is
   * refused: the stream is in the middle of its work.
   */
  private guard(action: () => void): void {
    if (this.busy) throw new LinksError("LinkStream: write() or end() was called from inside one of the stream's own callbacks");
    this.busy = true;
    try {
      action();
    } catch (error) {
      this.failure = { error };
      throw error;
    } finally {
      this.busy = false;
    }
  }

  // --- Input: the prepare stage, a piece at a time ----------------------------------

  private addBytes(chunk: Uint8Array): void {
    if (this.keepsBytes()) {
      // A copy: the caller may reuse its buffer. (Not `chunk.slice()`: for a Node.js Buffer, that is a view.)
      const own = new Uint8Array(chunk.length);
      own.set(chunk);
      this.bytes.push(own);
      this.bytesLength += own.length;
    }
    if (this.encoding === null) {
      if (this.bytesLength >= 1024) this.startDecoding();
      return;
    }
    if (this.decoder !== null) this.addText(this.decoder.decode(chunk, { stream: true }));
  }

  private addText(text: string): void {
    this.text += text;
    this.unread += text;
  }

  /** Whether the input bytes are kept: for output, or while they may have to be read again. */
  private keepsBytes(): boolean {
    return this.options.onOutput !== undefined || this.encoding === null || this.tentative || this.whole || this.reader === null;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm —
   * on the first 1024 bytes (the prescan reads no more), or all of them at
   * the end; then decodes what is held.
   */
  private startDecoding(): void {
    const all = concatBytes(this.bytes, this.bytesLength);
    this.bytes = this.bytesLength === 0 ? [] : [all];
    const sniffed = sniffEncoding(all.subarray(0, 1024), encodingOfLabel(this.options.label));
    this.tentative = sniffed.confidence === "tentative";
    this.decodeFrom(all, sniffed.encoding, sniffed.bomLength, true);
  }

  /**
   * Reads the held input `all` (from the input's first byte) in `encoding`:
   * decodes it, unless the encoding is one read whole at the end (see the
   * module comment).
   */
  private decodeFrom(all: Uint8Array, encoding: EncodingName, bom: number, stream: boolean): void {
    this.encoding = encoding;
    this.bom = bom;
    if (encoding === "replacement") this.onReplacement?.();
    if (encoding === "replacement" || encoding === "ISO-2022-JP") {
      this.whole = true;
      // The decoder of the encoding before the change decodes nothing more: nobody reads its text.
      this.decoder = null;
      return;
    }
    this.decoder = new TextDecoder(encoding);
    this.addText(this.decoder.decode(all, { stream }));
  }

  /** How much input is held now. */
  private held(): number {
    return this.mode === "bytes" ? this.bytesLength : this.text.length;
  }

  // --- The work each piece allows ------------------------------------------------

  private pump(final: boolean): void {
    if (this.whole || (this.mode === "bytes" && this.encoding === null)) {
      if (final) this.readWhole();
      else if (this.whole && this.held() > Math.max(this.options.maxToken, this.options.maxHold)) {
        // A document held whole is one token, or a hold: bounded by the larger bound.
        const { maxToken, maxHold } = this.options;
        const bound = maxToken >= maxHold ? `maxToken (${maxToken} characters)` : `maxHold (${maxHold} bytes)`;
        throw new LinksError(`a document in ${this.encoding ?? "an encoding"} is read whole, and it is longer than ${bound}: not read`);
      }
      return;
    }
    this.tokenize(final);
    if (this.tentative && this.settleEncoding(final)) {
      // The encoding changed: everything is read again, from the start.
      this.pump(final);
      return;
    }
    if (this.reader === null) this.settleBase(final);
    else if (this.baseByHold) this.watchBase();
    if (this.whole) {
      if (final) this.readWhole();
      return;
    }
    if (this.tentative || this.reader === null) return;
    this.readTags(final);
    // Optimisation (memory): the target candidates whose place is final are kept as their ids and names only.
    if (this.facts.wantsTargets) this.facts.addTargets(this.source.takeSettledTargetCandidates());
    this.emit(final);
    this.checkHeld();
  }

  /**
   * Gives the tokenizer the text it has not read. After a long token kept
   * it waiting (a tag, comment or script text longer than
   * {@link SHORT_TOKEN}), it waits for as much new text again before
   * reading, so that the token is read again O(log n) times, not once per
   * piece (which would be quadratic).
   */
  private tokenize(final: boolean): void {
    const textEnd = this.textStart + this.text.length;
    if (!final && textEnd < this.readAt) return;
    const unread = this.unread;
    const read = this.source.writeUnread(unread, this.consumed, final);
    this.consumed += read;
    this.unread = unread.slice(read);
    const waiting = textEnd - this.consumed;
    this.readAt = textEnd + (waiting > SHORT_TOKEN ? waiting : 0);
  }

  /**
   * Bounded: once the base URL and the encoding are settled, the text held
   * is the longest token (an attribute, a comment, a `<style>` or
   * `<script>` text, an SVG `<style>` with what the parser puts in it) and
   * what follows it; past `maxToken`, a {@link LinksError} says where that
   * token starts.
   */
  private checkHeld(): void {
    const max = this.options.maxToken;
    if (this.text.length <= max) return;
    const { line, column } = this.anchor;
    throw new LinksError(`a token (an attribute, a comment, a <style> or <script> text) from line ${line}, column ${column} is longer than maxToken (${max} characters): not read`);
  }

  /**
   * While the encoding is tentative: the first `meta` that declares an
   * encoding settles it, changing it if it differs (then returns true:
   * everything is to be read again); the end of the input settles it as
   * it is; so does reaching `maxHold`, by choice.
   */
  private settleEncoding(final: boolean): boolean {
    const tags = this.source.tags;
    const declared = firstDeclaredEncoding(tags, this.metaScan);
    if (declared !== null) {
      this.metaScan = declared.index;
      this.tentative = false;
      this.metaSeen = true;
      const next = changedEncoding(this.encoding!, declared.encoding);
      if (next === null) return false;
      this.changeEncoding(next, final);
      return true;
    }
    this.metaScan = tags.length;
    if (final) {
      this.tentative = false;
    } else if (this.held() > this.options.maxHold) {
      this.tentative = false;
      this.encodingByHold = true;
    }
    return false;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing —
   * "navigate to the document again" in the new encoding, with the
   * confidence certain: here, read the held input again from its start.
   */
  private changeEncoding(encoding: EncodingName, final: boolean): void {
    const all = concatBytes(this.bytes, this.bytesLength);
    this.bytes = this.bytesLength === 0 ? [] : [all];
    this.source = new StreamingSource(this.options.scripting, true, this.facts.wantsTargets);
    this.reader = null;
    this.facts = new StreamEndFacts(this.internals);
    this.metaScan = 0;
    this.consumed = 0;
    this.readAt = 0;
    this.textStart = 0;
    this.text = "";
    this.unread = "";
    this.decodeFrom(all, encoding, 0, !final);
  }

  /** The encoding URL queries are encoded with (as {@link prepareDocument} says). */
  private documentEncoding(): EncodingName {
    if (this.mode === "bytes") return this.encoding!;
    return encodingOfLabel(this.options.label) ?? "UTF-8";
  }

  /**
   * Settles the document base URL when the parse says it can no longer
   * change (see StreamingSource.baseIsSettled), at the end of the input,
   * or, by choice, on reaching `maxHold`.
   */
  private settleBase(final: boolean): void {
    const settled = this.options.settled;
    if (settled !== undefined) {
      // A first reading settled it (see settleDocument): nothing is held for it.
      this.readWith(this.urlsFor(settled.firstBaseHref === null ? null : baseWithHref(settled.firstBaseHref)));
      return;
    }
    const source = this.source;
    const base = source.firstBase;
    if (base !== null && source.baseIsSettled()) {
      this.useBase(base);
    } else if (final) {
      if (source.ambiguous || (base !== null && !source.isInDocument(base))) this.whole = true;
      else this.useBase(base);
    } else if (this.held() > this.options.maxHold) {
      this.useBase(base !== null && !source.ambiguous && source.isInDocument(base) ? base : null);
      this.baseByHold = true;
    }
  }

  /** The URLs of the document if `base` is its first base element with an href (null: none). */
  private urlsFor(base: LeanElement | null): DocumentURLs {
    return documentURLs(treeOfBase(base), this.options.url, this.documentEncoding(), null, base !== null);
  }

  private useBase(base: LeanElement | null): void {
    this.decidedBase = base;
    this.readWith(this.urlsFor(base));
  }

  /** Starts reading the document's tags, with its base URL settled as `urls` says. */
  private readWith(urls: DocumentURLs): void {
    this.baseHref = serializeURL(urls.documentBaseURL as URLRecord);
    const job: Job = {
      text: "",
      parsed: { document: this.source.document, tags: [], hasBaseWithHref: false, positions: this.source.positions },
      url: this.options.url,
      encoding: this.documentEncoding(),
      aboutBaseURL: null,
      layers: [],
      depth: 0,
      template: false,
      id: 0,
    };
    this.urls = urls;
    this.reader = new DocumentReader(job, this.options, this.batch, urls, this.facts.baseLinks());
    if (!this.keepsBytes()) {
      this.bytes = [];
      this.bytesLength = 0;
    }
  }

  /**
   * After `maxHold` settled the base URL: the first base element as the
   * parse now sees it (a later one, or none when the one taken has left the
   * document: a frameset took the body out) governs the links read from
   * now on; if links were already given, a `base-after-links` warning says
   * that they were resolved against another base URL.
   */
  private watchBase(): void {
    const source = this.source;
    let base = source.firstBase;
    if (base !== null && !source.isInDocument(base)) base = null;
    if (base === this.decidedBase && !source.ambiguous) return;
    let changed = source.ambiguous;
    if (base !== this.decidedBase) {
      this.decidedBase = base;
      const urls = this.urlsFor(base);
      // A base whose frozen base URL is the fallback base URL (data:, javascript:, one that does not parse) changes nothing.
      const href = serializeURL(urls.documentBaseURL as URLRecord);
      if (href !== this.baseHref) changed = true;
      this.baseHref = href;
      this.reader!.useURLs(urls);
    }
    if (!changed || this.delivered === 0 || this.warned.has("base-after-links")) return;
    const element = base ?? source.firstBase;
    const record = source.tags.find((tag) => tag.element === element);
    this.warn("base-after-links", record === undefined ? this.consumed : record.origin + record.tagNameEnd, "the base URL changed after links were resolved (maxHold was reached): they were resolved against the base URL before the change");
  }

  private warn(type: StreamWarning["type"], start: number, message: string): void {
    if (this.warned.has(type)) return;
    this.warned.add(type);
    const local = start - this.textStart;
    const anchor = this.anchor;
    const position =
      local >= 0 && local <= this.text.length && start >= anchor.start
        ? sourcePosition(this.text, local, { start: anchor.start - this.textStart, line: anchor.line, column: anchor.column })
        : { line: 0, column: 0 };
    this.options.onWarning?.({ type, start, line: position.line, column: position.column, message });
  }

  // --- Reading tags: the read and settle stages, a batch at a time ------------------

  /** Reads the tags whose text is all there, in order; gives their links. */
  private readTags(final: boolean): void {
    const source = this.source;
    const tags = source.tags;
    const reader = this.reader!;
    let count = 0;
    for (; count < tags.length; count++) {
      const tag = tags[count]!;
      if (!final && !source.isComplete(tag)) break;
      if (this.encodingByHold && !this.metaSeen) {
        const declared = declaredEncoding(tag);
        if (declared !== null) {
          this.metaSeen = true;
          const changed = changedEncoding(this.encoding!, declared);
          if (changed === "replacement") this.onReplacement?.();
          if (changed !== null) {
            this.warn("encoding-after-links", tag.origin + tag.tagNameEnd, `a <meta> declared the encoding ${declared} after links were resolved with ${this.encoding!} (maxHold was reached): the document was read as ${this.encoding!}`);
          }
        }
      }
      if (this.marked !== null && this.isIgnored(tag)) continue;
      reader.readStreamedTag(tag, this.text, source, tag.origin - this.textStart);
      // Its srcdoc documents (and theirs), whole strings already.
      readSrcdocDocuments(this.options, this.batch);
    }
    source.take(count);
    this.deliver();
  }

  /**
   * Whether a tag's element carries an ignore mark or is inside one that
   * does (see ignored-elements.ts): its ancestors' tags were read before it,
   * in source order. Deviation: the ancestors are the element's when its
   * tag is read; the whole-document reading looks at the finished tree,
   * which the adoption agency algorithm may have changed since.
   */
  private isIgnored(tag: TagRecord): boolean {
    const marked = this.marked!;
    for (let i = 0; i < tag.attrCount; i++) {
      const attr = tag.tokenAttrs[i]!;
      if (attr.namespace === undefined && IGNORE_MARKS.has(attr.name)) {
        marked.add(tag.element);
        return true;
      }
    }
    if (marked.size === 0) return false;
    for (let n: LeanParent | null = tag.element.parentNode; n !== null; n = (n as LeanElement).parentNode ?? null) {
      if (marked.has(n)) return true;
    }
    return false;
  }

  /** Settles the links read (window offsets): their global places, lines and columns; hands them on; turns them into edits. */
  private deliver(): void {
    const { links, sites, tooDeep } = this.batch;
    if (links.length === 0 && tooDeep.length === 0) return;
    const text = this.text;
    const shift = this.textStart;
    const before = this.anchor;
    this.anchor = settleLinks(text, links, sites, this.options.validate, before, shift);
    settleTooDeep(text, tooDeep, this.options.onSrcdocTooDeep, before, shift);
    tooDeep.length = 0;
    this.delivered += links.length;
    const onLink = this.options.onLink;
    if (onLink !== undefined) for (const link of links) onLink(link);
    if (sites !== null) {
      const replacements = askRewrite(sites, this.options.rewrite!);
      for (const edit of buildEdits(text, sites, replacements)) this.edits.push({ ...edit, start: edit.start + shift, end: edit.end + shift });
      sites.length = 0;
    }
    links.length = 0;
  }

  // --- Output: the write stage, a piece at a time ---------------------------------

  /**
   * Writes the output up to where nothing can change any more: the start
   * of the first tag not yet read (its edits start after its name), or
   * where the tokenizer has read to; then lets the text (and bytes) before
   * it go.
   */
  private emit(final: boolean): void {
    const next = this.source.tags[0];
    let safe = final ? this.textStart + this.text.length : this.consumed;
    if (next !== undefined) safe = Math.min(safe, next.origin + next.tagNameEnd);
    // The line and column of the text that goes are counted before it goes.
    if (safe > this.anchor.start) {
      const local = this.anchor.start - this.textStart;
      const place = setLinesAndColumns(this.text, [{ start: safe - this.textStart, line: 0, column: 0 }], { start: local, line: this.anchor.line, column: this.anchor.column });
      this.anchor = { start: safe, line: place.line, column: place.column };
    }
    // At the end, bytes that made no text (a lone BOM, say) go out too.
    if (safe <= this.emitted && !(final && this.bytesLength > 0)) return;
    const start = this.textStart;
    const edits = this.edits.map((edit) => ({ ...edit, start: edit.start - start, end: edit.end - start }));
    this.edits = [];
    const onOutput = this.options.onOutput;
    if (onOutput !== undefined) {
      if (this.mode === "text") {
        const piece = this.text.slice(0, safe - start);
        onOutput(edits.length === 0 ? piece : applyToString(piece, edits));
      } else {
        const bytes = concatBytes(this.bytes, this.bytesLength);
        // At the end, every byte left goes out (bytes after the last character, that made no text, too).
        const { output, end } = writeEditsToBytes(
          bytes,
          { text: this.text, encoding: this.encoding!, bomLength: this.bytesFromStart ? this.bom : 0 },
          edits,
          final ? undefined : safe - start,
        );
        // What is left starts at a character: no BOM in it. (A view: nothing here writes into held bytes.)
        const rest = bytes.subarray(end);
        this.bytes = rest.length === 0 ? [] : [rest];
        this.bytesLength = rest.length;
        this.bytesFromStart = false;
        if (output.length > 0) onOutput(output);
      }
    }
    this.text = this.text.slice(safe - start);
    this.textStart = safe;
    this.emitted = safe;
  }

  /** Reads the held input as a whole document (see the module comment), and gives its links and output. */
  private readWhole(): void {
    const input = this.mode === "text" ? this.text : concatBytes(this.bytes, this.bytesLength);
    // Its base elements and fragment targets (see StreamEndHooks), from the whole document as readLinks reads them.
    const wantsBases = this.internals?.onBases !== undefined;
    const document = prepareDocument(input, this.given, wantsBases ? "bases" : "none");
    const baseLinks = wantsBases && document.parsed.hasBaseWithHref ? new Map<LeanElement, Link>() : undefined;
    const read = extractSites(document, this.rewriting, { baseLinks });
    settleTooDeep(document.text, read.tooDeep, this.options.onSrcdocTooDeep);
    this.facts.endWhole(document.parsed, baseLinks, read.urls, document.encoding);
    const onLink = this.options.onLink;
    const links = this.marked === null ? read.links : withoutIgnoredLinks(document.parsed, read.links);
    if (onLink !== undefined) for (const link of links) onLink(link);
    const onOutput = this.options.onOutput;
    if (onOutput === undefined) return;
    const output = read.sites !== null ? rewriteDocument(document, read.sites, this.options.rewrite!) : input;
    if (output.length > 0) onOutput(output);
  }
}
