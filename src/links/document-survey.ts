/**
 * The first of two readings of a document too large to hold: a pass that
 * keeps nothing (no links, no text once the tokenizer has read it) and
 * settles what a stream cannot know before the end — the character
 * encoding and the first `base` element with an `href` in tree order —
 * so that a second reading, a {@link LinkStream} given them as `settled`,
 * holds nothing and gives the whole document's links and bytes.
 *
 * It runs the streamed tree construction, as the stream does: which
 * `<base>` comes first, and which `<meta>` the parser processes, is the
 * tree construction's to say, not the source order's.
 *
 * @module
 */

import { TextDecoder } from "@exodus/bytes/encoding.js";
import type { EncodingName } from "../core/index.ts";
import { changedEncoding } from "../html/index.ts";
import { concatBytes } from "./document-bytes.ts";
import { sniffEncoding } from "./encoding-sniffing.ts";
import { LinksError } from "./errors.ts";
import { checkDocumentOptions, encodingOfLabel, pieceKind, type SettledDocument } from "./options.ts";
import { firstDeclaredEncoding } from "./prepare-document.ts";
import { StreamingSource } from "./streaming-source.ts";

/** What one pass found: the settled facts, or an encoding to read the document again in (a `meta` changed it). */
type SurveyOutcome = { readonly settled: SettledDocument | null } | { readonly again: EncodingName };

/** How much input a piece must be before the tokenizer reads it again, when a long token kept it waiting (as link-stream.ts's SHORT_TOKEN). */
const SHORT_TOKEN = 4096;

/**
 * One pass over a document: {@link write} its pieces until it returns
 * true (nothing later can change the outcome), or to the end and
 * {@link end}; then {@link outcome}.
 */
class DocumentSurvey {
  private readonly label: EncodingName | undefined;
  private readonly maxToken: number;
  private readonly source: StreamingSource;
  /** The line the tokenizer has read to (for the message of a token too long). */
  private line = 1;
  private head: Uint8Array[] = [];
  private headLength = 0;
  private encoding: EncodingName | null = null;
  private tentative = false;
  private decoder: TextDecoder | null = null;
  private unread = "";
  private consumed = 0;
  private readAt = 0;
  private result: SurveyOutcome | null = null;

  constructor(label: EncodingName | undefined, scripting: boolean, maxToken: number) {
    this.label = label;
    this.maxToken = maxToken;
    // Nothing is read from an SVG style's text here: it is not kept.
    this.source = new StreamingSource(scripting, false, false);
  }

  get outcome(): SurveyOutcome | null {
    return this.result;
  }

  /** Reads the next piece; true when the outcome is known (the rest of the document changes nothing). */
  write(chunk: Uint8Array | string): boolean {
    if (this.result !== null) return true;
    if (typeof chunk === "string") {
      this.encoding ??= this.label ?? "UTF-8";
      this.unread += chunk;
    } else if (this.encoding === null) {
      this.head.push(chunk.slice());
      this.headLength += chunk.length;
      if (this.headLength >= 1024) this.startDecoding();
    } else if (this.decoder !== null) {
      this.unread += this.decoder.decode(chunk, { stream: true });
    }
    this.read(false);
    return this.result !== null;
  }

  end(): void {
    if (this.result !== null) return;
    if (this.encoding === null) this.startDecoding();
    if (this.decoder !== null) this.unread += this.decoder.decode();
    this.read(true);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm — on the first 1024 bytes. */
  private startDecoding(): void {
    const all = concatBytes(this.head, this.headLength);
    this.head = [];
    const sniffed = sniffEncoding(all.subarray(0, 1024), this.label);
    this.encoding = sniffed.encoding;
    this.tentative = sniffed.confidence === "tentative";
    // The replacement encoding decodes to one U+FFFD: no tag, no base.
    if (sniffed.encoding === "replacement") {
      this.result = { settled: { encoding: "replacement", firstBaseHref: null } };
      return;
    }
    this.decoder = new TextDecoder(sniffed.encoding);
    this.unread += this.decoder.decode(all, { stream: true });
  }

  /** Tokenizes what is unread (as LinkStream.tokenize), then looks at what the parse settled. */
  private read(final: boolean): void {
    if (this.result !== null || this.encoding === null) return;
    const textEnd = this.consumed + this.unread.length;
    if (final || textEnd >= this.readAt) {
      const unread = this.unread;
      const read = this.source.writeUnread(unread, this.consumed, final);
      this.consumed += read;
      for (let at = unread.indexOf("\n"); at !== -1 && at < read; at = unread.indexOf("\n", at + 1)) this.line++;
      this.unread = unread.slice(read);
      if (this.unread.length > this.maxToken) {
        throw new LinksError(`a token (an attribute, a comment, a <style> or <script> text) from line ${this.line} is longer than maxToken (${this.maxToken} characters): not read`);
      }
      const waiting = textEnd - this.consumed;
      this.readAt = textEnd + (waiting > SHORT_TOKEN ? waiting : 0);
    }
    this.settle(final);
  }

  private settle(final: boolean): void {
    const source = this.source;
    const encoding = this.encoding!;
    if (this.tentative) {
      // https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — the first meta that declares an encoding settles it.
      const declared = firstDeclaredEncoding(source.tags);
      if (declared !== null) {
        this.tentative = false;
        const next = changedEncoding(encoding, declared.encoding);
        if (next !== null) {
          this.result = { again: next };
          return;
        }
      } else if (final) {
        this.tentative = false;
      }
    }
    // Nothing is kept: the records are dropped as soon as they are looked at.
    source.take(source.tags.length);
    const base = source.firstBase;
    if (!this.tentative && base !== null && source.baseIsSettled()) {
      this.result = { settled: { encoding, firstBaseHref: hrefOf(base.attrs) } };
    } else if (final) {
      // Foster parenting before the table that holds the base (see StreamingSource.ambiguous): the tree that would tell is not kept.
      if (base !== null && (source.ambiguous || !source.isInDocument(base))) this.result = { settled: null };
      else this.result = { settled: { encoding, firstBaseHref: base === null ? null : hrefOf(base.attrs) } };
    }
  }
}

function hrefOf(attrs: readonly { readonly name: string; readonly value: string; readonly namespace?: string | undefined }[]): string {
  for (const attr of attrs) if (attr.name === "href" && attr.namespace === undefined) return attr.value;
  throw new LinksError("DocumentSurvey: a base element without an href was taken for the first base with one");
}

/**
 * The first reading of a document that a {@link LinkStream} is to read
 * exactly, in bounded memory, whatever its size: reads the pieces
 * `open()` gives (bytes, or text) keeping nothing, and settles the
 * document's encoding and its first `base` element with an `href` in tree
 * order (see {@link SettledDocument}). It stops reading as soon as nothing
 * later can change them (a `<base>` in the head and, for bytes, a certain
 * or declared encoding: the head is read, not the body); a `<meta>` that
 * changes the encoding makes it call `open()` again, to read the
 * document in that encoding. Resolves to null in the one case the
 * streamed tree cannot settle (something foster-parented before the
 * table that holds the first `<base>`): the stream then holds the
 * document, as it does without `settled`.
 *
 * Pass the result as the stream's `settled` option; `open()` is then
 * called once more, for the stream. With `maxToken` (as the stream's), a
 * longer token is a {@link LinksError} naming its line.
 *
 * @example
 * ```ts
 * import { createReadStream } from "node:fs";
 * const open = () => createReadStream("big.html");
 * const settled = await settleDocument(open, { url: "https://example.com/" });
 * // { encoding: "UTF-8", firstBaseHref: "/moved/" }: the <base> at the end of the file
 * const stream = new LinkStream({ url: "https://example.com/", settled: settled ?? undefined, onLink: (link) => console.log(link.url) });
 * for await (const piece of open()) stream.write(piece);
 * stream.end();
 * ```
 */
export async function settleDocument(
  open: () => AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: { readonly url: string; readonly encoding?: string | undefined; readonly scripting?: boolean | undefined; readonly maxToken?: number | undefined },
): Promise<SettledDocument | null> {
  const checked = checkDocumentOptions(options);
  const maxToken = options.maxToken ?? Infinity;
  let label = encodingOfLabel(checked.label);
  // The encoding can change once: the new one is certain.
  for (let pass = 0; pass < 2; pass++) {
    const survey = new DocumentSurvey(label, checked.scripting, maxToken);
    let done = false;
    for await (const piece of open()) {
      pieceKind(piece);
      if (survey.write(piece)) {
        done = true;
        break;
      }
    }
    if (!done) survey.end();
    const outcome = survey.outcome!;
    if ("settled" in outcome) return outcome.settled;
    label = outcome.again;
  }
  throw new LinksError("settleDocument: the encoding changed twice");
}
