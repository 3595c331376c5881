/**
 * Reading a document in pieces through a {@link LinkStream}, in memory
 * bounded by its longest token whatever its size: an open file's pieces,
 * the check that the document can be decoded, and, after each piece, what
 * the stream settled handed on before the next piece is read.
 *
 * @module
 */

import type { FileHandle } from "node:fs/promises";
import type { LinkStream } from "../links/index.ts";
import { undecodable } from "./file-task.ts";

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
 * The pieces of an open file, from where it is to its end (one buffer,
 * reused: each piece is read before the next).
 *
 * @example
 * ```ts
 * for await (const piece of fileChunks(handle)) stream.write(piece);
 * ```
 */
export async function* fileChunks(handle: FileHandle): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * Writes each of `pieces` to `stream`, then ends it; after each piece, and
 * after the end, awaits `handOn` (which hands on the links or output the
 * stream settled: awaited, so that a slow reader holds the reading back).
 * Throws an {@link UndecodableDocument} when the document's encoding
 * (`encoding`, or sniffed from the first piece) cannot be decoded, a
 * {@link StreamFailure} when the stream throws, and what `pieces` or
 * `handOn` throw.
 *
 * @example
 * ```ts
 * const links: Link[] = [];
 * const stream = new LinkStream({ url: "https://example.com/", onLink: (link) => links.push(link) });
 * await feedLinkStream(stream, process.stdin, undefined, async () => void print(links.splice(0)));
 * ```
 */
export async function feedLinkStream(stream: LinkStream, pieces: AsyncIterable<Uint8Array>, encoding: string | undefined, handOn: () => Promise<void>): Promise<void> {
  let first = true;
  const step = async (piece: Uint8Array | null): Promise<void> => {
    if (first && piece !== null) {
      // The encoding is sniffed from the first 1024 bytes; a first piece is rarely shorter (a pipe's may be).
      const why = await undecodable(piece, encoding);
      if (why !== null) throw new UndecodableDocument(why);
      first = false;
    }
    try {
      if (piece === null) stream.end();
      else stream.write(piece);
    } catch (error) {
      throw new StreamFailure((error as Error).message);
    }
    await handOn();
  };
  for await (const piece of pieces) await step(piece);
  await step(null);
}
