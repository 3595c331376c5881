/**
 * Reading a document in pieces through a {@link LinkStream}, in memory
 * bounded by its longest token whatever its size: an open file's pieces,
 * a file read twice (a first pass settles the base URL and the encoding,
 * so that the stream holds nothing and is exact), the check that the
 * document can be decoded, and, after each piece, what the stream settled
 * handed on before the next piece is read.
 *
 * @module
 */

import type { FileHandle } from "node:fs/promises";
import type { LinkStream, SettledDocument, StreamWarning } from "../links/index.ts";
import type { StreamInternals } from "../links/internal.ts";
import { failedFile, type FileJob, type FileResult, loadOnce, UNDECODABLE, undecodable } from "./file-task.ts";
import { escapeControls, formatSize, jsonLine } from "./format.ts";
import { SpoolError } from "./standard-input.ts";

/** The links library, loaded where files are read (see loadOnce). */
const library = loadOnce(() => import("../links/index.ts"));

/**
 * A document whose encoding is the replacement encoding (see
 * {@link undecodable}): there is nothing in it to read.
 *
 * @example
 * ```ts
 * new UndecodableDocument("its encoding is the replacement encoding ...").message;
 * ```
 */
export class UndecodableDocument extends Error {}

/**
 * What the command makes a stream of one pass with (see the links
 * layer's StreamInternals): a document whose encoding turns out to be the
 * replacement encoding — by a `<meta>` too, also one past `maxHold`, after
 * output began — ends it as an {@link UndecodableDocument}, as a file's
 * first pass does (see {@link readTwice}), not as a document held whole
 * up to `maxToken`, nor read in the encoding before.
 *
 * @example
 * ```ts
 * const stream = new LinkStream({ url, maxHold, onLink }, UNDECODABLE_ENDS_STREAM);
 * ```
 */
export const UNDECODABLE_ENDS_STREAM: StreamInternals = {
  onReplacement: () => {
    throw new UndecodableDocument(UNDECODABLE);
  },
};

/**
 * An error of the stream's own work: not of reading the pieces, nor of
 * handing on what the stream settled.
 *
 * @example
 * ```ts
 * new StreamFailure("a value cannot be written").message; // "a value cannot be written"
 * ```
 */
export class StreamFailure extends Error {}

/**
 * A document that cannot be read the way it must be: one in an encoding
 * read whole (ISO-2022-JP) larger than the largest file read whole.
 *
 * @example
 * ```ts
 * new UnreadableDocument("its encoding, ISO-2022-JP, is read whole, and it is larger ...").message;
 * ```
 */
export class UnreadableDocument extends Error {}

/**
 * The pieces of an open file, from byte `from` to its end, read at
 * explicit positions (so that the file can be read again from its start;
 * one buffer, reused: each piece is read before the next).
 *
 * @example
 * ```ts
 * for await (const piece of fileChunks(handle)) stream.write(piece);
 * ```
 */
export async function* fileChunks(handle: FileHandle, from = 0): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (let position = from; ; ) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * Writes each of `pieces` to `stream`, then ends it; after each piece, and
 * after the end, awaits `handOn` (which hands on the links or output the
 * stream settled: awaited, so that a slow reader holds the reading back).
 * Throws an {@link UndecodableDocument} when the document's encoding
 * (`encoding`, or sniffed from its first 1024 bytes, however the pieces
 * cut them: the verdict does not depend on how the input arrives) cannot
 * be decoded (or, for a stream made with {@link UNDECODABLE_ENDS_STREAM},
 * when a `<meta>` says so later), a {@link StreamFailure} when the stream
 * throws, and what `pieces` or `handOn` throw.
 *
 * @example
 * ```ts
 * const links: Link[] = [];
 * const stream = new LinkStream({ url: "https://example.com/", onLink: (link) => links.push(link) });
 * await feedLinkStream(stream, process.stdin, undefined, async () => void print(links.splice(0)));
 * ```
 */
export async function feedLinkStream(stream: LinkStream, pieces: AsyncIterable<Uint8Array>, encoding: string | undefined, handOn: () => Promise<void>): Promise<void> {
  // The encoding sniffing algorithm's prescan reads the first 1024 bytes: they are gathered before it runs.
  let head: Uint8Array[] | null = [];
  let headLength = 0;
  const step = async (piece: Uint8Array | null): Promise<void> => {
    try {
      if (piece === null) stream.end();
      else stream.write(piece);
    } catch (error) {
      if (error instanceof UndecodableDocument) throw error;
      throw new StreamFailure((error as Error).message);
    }
    await handOn();
  };
  const release = async (): Promise<void> => {
    const gathered = Buffer.concat(head!, headLength);
    head = null;
    const why = await undecodable(gathered, encoding);
    if (why !== null) throw new UndecodableDocument(why);
    if (gathered.length > 0) await step(gathered);
  };
  for await (const piece of pieces) {
    if (head === null) {
      await step(piece);
      continue;
    }
    // A copy: the source may reuse its buffer.
    head.push(Uint8Array.from(piece));
    headLength += piece.length;
    if (headLength >= 1024) await release();
  }
  if (head !== null) await release();
  await step(null);
}

/**
 * Options of {@link readTwice}.
 *
 * @example
 * ```ts
 * const options: ReadTwiceOptions = { url: "https://example.com/big.html", encoding: undefined, size: 1 << 30, maxBytes: 64 << 20, maxToken: 32 << 20 };
 * ```
 */
export interface ReadTwiceOptions {
  readonly url: string;
  readonly encoding: string | undefined;
  /** The file's size. */
  readonly size: number;
  /** The largest document read whole (`--max-file-size`): caps a document in an encoding the stream reads whole. */
  readonly maxBytes: number;
  /** The longest token held (`--max-token`): a longer one is the file's error, with its line. */
  readonly maxToken: number;
}

/**
 * Reads the open file `handle` twice (see the links layer's
 * settleDocument): a first pass that keeps nothing settles its encoding
 * and its first `<base href>`, then the stream `makeStream` makes with
 * them reads it, exact whatever its size, through
 * {@link feedLinkStream} (`handOn` after each piece). `makeStream` gets
 * null in the one case the first pass cannot settle the base: the stream
 * then holds what it must (give it a `maxHold` and an `onWarning`).
 * Throws as {@link feedLinkStream} does, and an
 * {@link UnreadableDocument} for a document in an encoding read whole
 * (ISO-2022-JP) larger than `maxBytes`.
 *
 * @example
 * ```ts
 * await readTwice(handle, { url, encoding: undefined, size, maxBytes }, (settled) => new LinkStream({ url, settled: settled ?? undefined, onLink }), handOn);
 * ```
 */
export async function readTwice(
  handle: FileHandle,
  options: ReadTwiceOptions,
  makeStream: (settled: SettledDocument | null) => LinkStream,
  handOn: () => Promise<void>,
): Promise<void> {
  const { isLinksError, settleDocument } = await library();
  let settled: SettledDocument | null;
  try {
    settled = await settleDocument(() => fileChunks(handle), { url: options.url, encoding: options.encoding, maxToken: options.maxToken });
  } catch (error) {
    if (isLinksError(error)) throw new StreamFailure(error.message);
    throw error;
  }
  const encoding = settled?.encoding ?? options.encoding;
  if (settled?.encoding === "replacement") throw new UndecodableDocument(UNDECODABLE);
  if (settled?.encoding === "ISO-2022-JP" && options.size > options.maxBytes) {
    throw new UnreadableDocument(`its encoding, ISO-2022-JP, is read whole, and it is larger (${formatSize(options.size)}) than the largest file read whole (${formatSize(options.maxBytes)}; --max-file-size raises it)`);
  }
  let stream: LinkStream;
  try {
    stream = makeStream(settled);
  } catch (error) {
    throw new StreamFailure((error as Error).message);
  }
  await feedLinkStream(stream, fileChunks(handle), encoding, handOn);
}

/**
 * The failed result of a streamed document's error: an
 * {@link UndecodableDocument} cannot be decoded, an
 * {@link UnreadableDocument} or an error of reading cannot be read, a
 * {@link StreamFailure} (or a spool that cannot be written) is the work's
 * failure, said with `failedVerb`.
 *
 * @example
 * ```ts
 * streamFailure(job, new StreamFailure("a value cannot be written"), "cannot be rewritten").err;
 * // "docbase: big.html: cannot be rewritten: a value cannot be written\n"
 * ```
 */
export function streamFailure(job: FileJob, error: unknown, failedVerb: string): FileResult {
  if (error instanceof UndecodableDocument) return failedFile(job, "undecodable", error.message);
  if (error instanceof StreamFailure || error instanceof SpoolError) return failedFile(job, "failed", error.message, failedVerb);
  return failedFile(job, "unreadable", (error as Error).message);
}

/**
 * A stream's warnings (see the links layer's StreamWarning: `maxHold` made
 * its links differ from the whole document's), for the user: with `json`,
 * one JSON line each for standard output (`{"file", "warning", "line",
 * "column", "message"}`); else one line each for standard error.
 *
 * @example
 * ```ts
 * warningReport("-", [{ type: "base-after-links", start: 1048600, line: 9000, column: 3, message: "the base URL changed ..." }], false).err;
 * // "docbase: -:9000:3: warning: base-after-links: the base URL changed ...\n"
 * ```
 */
export function warningReport(display: string, warnings: readonly StreamWarning[], json: boolean): { readonly out: string; readonly err: string } {
  let out = "";
  let err = "";
  for (const w of warnings) {
    if (json) out += `${jsonLine({ file: display, warning: w.type, line: w.line, column: w.column, message: w.message })}\n`;
    else err += `docbase: ${escapeControls(display)}:${w.line}:${w.column}: warning: ${w.type}: ${w.message}\n`;
  }
  return { out, err };
}

/**
 * What `--no-spool` says before the first output: a `<base>` or a
 * `<meta charset>` after the first `maxHold` bytes may not be applied.
 *
 * @example
 * ```ts
 * noSpoolWarning(1 << 20); // "docbase: -: warning: --no-spool: standard input is longer than 1 MiB: ..."
 * ```
 */
export function noSpoolWarning(maxHold: number): string {
  return `docbase: -: warning: --no-spool: standard input is longer than ${formatSize(maxHold)} (--max-hold): a <base> or <meta charset> after that may not be applied to the links before it (a warning at the end says if one was not)\n`;
}
