/**
 * {@link LinkStream} as the platform's streams: a WHATWG `TransformStream`
 * that rewrites links (Node, Deno, Bun, browsers and workers have them),
 * a fetch `Response` rewritten, and the links of a stream (or of a
 * `Response`) as an async iterable. Each passes the stream's warnings to
 * `onWarning`.
 *
 * @module
 */

import { LinksError } from "./errors.ts";
import { isResponse, responseDocument } from "./fetch-response.ts";
import { LinkStream } from "./link-stream.ts";
import type { Link } from "./link-types.ts";
import { checkRewriterOptions, checkStreamSource, type LinkRewriterOptions, type LinkStreamOptions } from "./options.ts";

/**
 * Options of {@link streamLinks}: a stream's, without the callbacks the
 * iterable stands for. For a `Response`, `url` may be left out (the
 * response's URL is the document's).
 *
 * @example
 * ```ts
 * const options: StreamLinksOptions = { url: "https://example.com/", onWarning: (w) => console.warn(w.message) };
 * ```
 */
export type StreamLinksOptions = Omit<LinkStreamOptions, "onLink" | "onOutput" | "rewrite">;

/**
 * A `TransformStream` that rewrites the links of the HTML document
 * written to it, as {@link rewriteLinks} does for a whole one, in memory
 * bounded by its longest token (see {@link LinkStream} for the base URL
 * and the encoding, and `maxHold`). Bytes in give bytes out (the
 * document's own bytes, but for the URLs rewritten); text in gives text
 * out. Bad options throw here; a `rewrite` that throws errors the stream.
 * Past `maxHold`, a later `<base>` or `<meta charset>` is reported to
 * `onWarning` (read the document twice with `settleDocument` and give
 * `settled` to be exact instead).
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
 * A fetch `Response` with its HTML document's links rewritten, as
 * {@link createLinkRewriter} rewrites a stream: the document's URL is
 * `response.url` (or `options.url`), its encoding the `charset` of its
 * `Content-Type` (or `options.encoding`), its body streamed through; the
 * status and headers are kept, but `Content-Length` (the length changes).
 * For a service worker or an edge function.
 *
 * @example
 * ```ts
 * const upstream = await fetch("https://example.com/docs/");
 * const rewritten = rewriteResponse(upstream, { rewrite: (link) => link.url ?? undefined, onWarning: (w) => console.warn(w.message) });
 * await rewritten.text(); // the page, every link absolute
 * ```
 */
export function rewriteResponse(response: Response, options: Omit<LinkRewriterOptions, "url"> & { readonly url?: string | undefined }): Response {
  if (!isResponse(response)) throw new LinksError(`rewriteResponse: the first argument must be a Response, not ${response === null ? "null" : typeof response}`);
  checkRewriterOptions(options);
  const document = responseDocument(response, options.url);
  const body = document.body.pipeThrough(createLinkRewriter({ ...options, url: document.url, encoding: options.encoding ?? document.encoding }));
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The links of the HTML document `source` gives in pieces (a
 * `ReadableStream`, a Node stream or any (async) iterable of `Uint8Array`s
 * or strings), or of a fetch `Response` (its URL, the `charset` of its
 * `Content-Type` and its body: `options.url` may then be left out), in
 * source order, each as soon as it is settled: the links
 * {@link extractLinks} gives for the whole document (see
 * {@link LinkStream} for the base URL, the encoding and `maxHold`; past
 * it, `onWarning` hears of a later `<base>` or `<meta charset>`). Bad
 * options throw here, not when iterating.
 *
 * @example
 * ```ts
 * const links: string[] = [];
 * for await (const link of streamLinks(["<head><base href=/d/></head>", "<a href=x>"], { url: "https://example.com/" })) {
 *   links.push(link.url!);
 * }
 * links; // ["https://example.com/d/", "https://example.com/d/x"]
 * for await (const link of streamLinks(await fetch("https://example.com/"), { onWarning: (w) => console.warn(w.message) })) console.log(link.url);
 * ```
 */
export function streamLinks(response: Response, options?: Omit<StreamLinksOptions, "url"> & { readonly url?: string | undefined }): AsyncIterable<Link>;
export function streamLinks(source: ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, options: StreamLinksOptions): AsyncIterable<Link>;
export function streamLinks(
  given: Response | ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  givenOptions?: Omit<StreamLinksOptions, "url"> & { readonly url?: string | undefined },
): AsyncIterable<Link> {
  let source = given as ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
  let options = givenOptions as StreamLinksOptions;
  if (isResponse(given)) {
    const document = responseDocument(given, givenOptions?.url);
    source = document.body;
    options = { ...givenOptions, url: document.url, encoding: givenOptions?.encoding ?? document.encoding };
  }
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
