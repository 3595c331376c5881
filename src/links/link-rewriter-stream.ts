/**
 * {@link LinkStream} as the platform's streams: a WHATWG `TransformStream`
 * that rewrites links (Node, Deno, Bun, browsers and workers have them),
 * and the links of a stream as an async iterable.
 *
 * @module
 */

import { LinkStream } from "./link-stream.ts";
import type { Link } from "./link-types.ts";
import { checkRewriterOptions, checkStreamSource, type LinkRewriterOptions, type LinkStreamOptions } from "./options.ts";

/**
 * A `TransformStream` that rewrites the links of the HTML document
 * written to it, as {@link rewriteLinks} does for a whole one, in memory
 * bounded by its longest token (see {@link LinkStream} for the base URL
 * and the encoding, and `maxHold`). Bytes in give bytes out (the
 * document's own bytes, but for the URLs rewritten); text in gives text
 * out. Bad options throw here; a `rewrite` that throws errors the stream.
 *
 * @example
 * ```ts
 * const response = new Response('<base href="/docs/"><a href="intro">');
 * const rewritten = response.body!.pipeThrough(
 *   createLinkRewriter({ url: "https://example.com/", rewrite: (link) => link.url ?? undefined }),
 * );
 * await new Response(rewritten).text();
 * // '<base href="https://example.com/docs/"><a href="https://example.com/docs/intro">'
 * ```
 */
export function createLinkRewriter(options: LinkRewriterOptions): TransformStream<Uint8Array | string, Uint8Array | string> {
  checkRewriterOptions(options);
  let enqueue: ((chunk: Uint8Array | string) => void) | null = null;
  const stream = new LinkStream({ ...options, onOutput: (chunk) => enqueue!(chunk) });
  return new TransformStream<Uint8Array | string, Uint8Array | string>({
    start(controller) {
      enqueue = (chunk) => controller.enqueue(chunk);
    },
    transform(chunk) {
      stream.write(chunk);
    },
    flush() {
      stream.end();
    },
  });
}

/** The pieces of `source`, whichever kind of stream or iterable it is. */
async function* piecesOf(source: ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function" || typeof (source as Iterable<unknown>)[Symbol.iterator] === "function") {
    yield* source as AsyncIterable<Uint8Array | string>;
    return;
  }
  // A ReadableStream of a platform without async iteration of streams.
  const reader = (source as ReadableStream<Uint8Array | string>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * The links of the HTML document `source` gives in pieces (a
 * `ReadableStream`, a Node stream or any (async) iterable of `Uint8Array`s
 * or strings), in source order, each as soon as it is settled: the links
 * {@link extractLinks} gives for the whole document (see
 * {@link LinkStream} for the base URL, the encoding and `maxHold`). Bad
 * options throw here, not when iterating.
 *
 * @example
 * ```ts
 * const links: string[] = [];
 * for await (const link of streamLinks(["<head><base href=/d/></head>", "<a href=x>"], { url: "https://example.com/" })) {
 *   links.push(link.url!);
 * }
 * links; // ["https://example.com/d/", "https://example.com/d/x"]
 * ```
 */
export function streamLinks(
  source: ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: Omit<LinkStreamOptions, "onLink" | "onOutput" | "rewrite">,
): AsyncIterable<Link> {
  checkStreamSource(source);
  const ready: Link[] = [];
  const stream = new LinkStream({ ...options, onLink: (link) => ready.push(link) });
  async function* links(): AsyncGenerator<Link> {
    for await (const piece of piecesOf(source)) {
      stream.write(piece);
      for (let i = 0; i < ready.length; i++) yield ready[i]!;
      ready.length = 0;
    }
    stream.end();
    yield* ready;
  }
  return links();
}
