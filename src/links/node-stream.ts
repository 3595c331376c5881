/**
 * docbase/links/node — {@link LinkStream} as a Node.js stream: a
 * `Transform` of Buffers that rewrites the links of the HTML document
 * piped through it.
 *
 * @example
 * ```ts
 * import { pipeline } from "node:stream/promises";
 * import { createLinkRewriterNodeStream } from "docbase/links/node";
 * await pipeline(
 *   fs.createReadStream("page.html"),
 *   createLinkRewriterNodeStream({ url: "https://example.com/page.html", rewrite: (link) => link.url ?? undefined }),
 *   fs.createWriteStream("out.html"),
 * );
 * ```
 *
 * @module
 */

/// <reference types="node" preserve="true" />
// Node.js only: its declaration file names @types/node (an optional peer dependency), so that a TypeScript 6+ project
// with the default `types: []` finds Node's types when it imports this entry point.

import "../core/require-supported-runtime.ts";
import { Transform } from "node:stream";
import { LinkStream } from "./link-stream.ts";
import { checkRewriterOptions, type LinkRewriterOptions } from "./options.ts";

export type { LinkRewriterOptions } from "./options.ts";

/**
 * A Node.js `Transform` stream that rewrites the links of the HTML
 * document written to it, as `createLinkRewriter` does for web streams:
 * Buffers in (strings written to it are UTF-8 bytes, as Node makes them),
 * Buffers out. Bad options throw here; a `rewrite` that throws makes the
 * stream emit that error. Past `maxHold`, a later `<base>` or
 * `<meta charset>` is reported to `onWarning` (or give `settled`: see
 * `settleDocument`).
 *
 * @example
 * ```ts
 * import { Readable } from "node:stream";
 * const out: Buffer[] = [];
 * Readable.from([Buffer.from("<a href=x>")])
 *   .pipe(createLinkRewriterNodeStream({ url: "https://example.com/", rewrite: (link) => link.url ?? undefined }))
 *   .on("data", (chunk: Buffer) => out.push(chunk))
 *   .on("end", () => Buffer.concat(out).toString()); // "<a href=https://example.com/x>"
 * ```
 */
export function createLinkRewriterNodeStream(options: LinkRewriterOptions): Transform {
  checkRewriterOptions(options);
  let push: ((chunk: Uint8Array) => void) | null = null;
  const stream = new LinkStream({ ...options, onOutput: (chunk) => push!(chunk as Uint8Array) });
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        stream.write(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback) {
      try {
        stream.end();
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  push = (chunk) => transform.push(chunk);
  return transform;
}
