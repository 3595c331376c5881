/**
 * A fetch `Response` as a document to read: its URL, the encoding its
 * `Content-Type` charset gives (the HTML Standard's "transport layer"
 * encoding), and its body, as crawlers and workers have it (Node.js, Deno,
 * Bun, browsers, workers: any realm's Response, by its shape).
 *
 * @module
 */

import { getEncoding } from "../core/index.ts";
import { parseMIMEType } from "../html/index.ts";
import { LinksError } from "./errors.ts";

/**
 * What a stream reads from a `Response`: the document's URL, its
 * encoding label (undefined: none, or one the Encoding Standard does not
 * know, which the encoding sniffing algorithm ignores too), its body.
 *
 * @example
 * ```ts
 * const document: ResponseDocument = { url: "https://example.com/", encoding: "shift_jis", body: response.body };
 * ```
 */
export interface ResponseDocument {
  readonly url: string;
  readonly encoding: string | undefined;
  readonly body: ReadableStream<Uint8Array>;
}

/**
 * Whether `value` is a fetch `Response` (of any realm: by its shape, not
 * `instanceof`).
 *
 * @example
 * ```ts
 * isResponse(new Response("<a href=x>")); // true
 * isResponse(["<a href=x>"]); // false
 * ```
 */
export function isResponse(value: unknown): value is Response {
  if (value === null || typeof value !== "object") return false;
  const candidate = value as { headers?: { get?: unknown }; url?: unknown; bodyUsed?: unknown };
  return typeof candidate.headers?.get === "function" && typeof candidate.url === "string" && typeof candidate.bodyUsed === "boolean" && "body" in candidate;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm
 * (step 3: "the transport layer specifies a character encoding") — the
 * document `response` holds: its URL (`response.url`, or `url` when given:
 * a `new Response()` has none), the `charset` of its `Content-Type`, and
 * its body. Throws a {@link LinksError} for a body already read, or no URL.
 *
 * @example
 * ```ts
 * const response = new Response("<a href=x>", { headers: { "content-type": "text/html; charset=Shift_JIS" } });
 * responseDocument(response, "https://example.com/").encoding; // "Shift_JIS"
 * ```
 */
export function responseDocument(response: Response, url?: string): ResponseDocument {
  if (response.bodyUsed) throw new LinksError("The Response's body has already been read");
  const documentURL = url ?? response.url;
  if (documentURL === "") throw new LinksError('The Response has no URL (a Response made with new Response() has none): give the "url" option');
  const charset = parseMIMEType(response.headers.get("content-type") ?? "")?.parameters.get("charset");
  // A charset that names no encoding is as if there were none: the document's own bytes then say.
  const encoding = charset !== undefined && getEncoding(charset) !== null ? charset : undefined;
  return { url: documentURL, encoding, body: response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }) };
}
