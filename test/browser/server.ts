/**
 * The local HTTP server the browser loads generated documents from
 * (127.0.0.1, a free port): real http URLs, real charsets in Content-Type.
 *
 * - `/__batch/<n>?t=<token>`: a page with one iframe per generated document
 *   of batch n (the token keeps documents from loading batch pages);
 * - each generated resource at its path, served once (a document whose
 *   `iframe src` or `object data` happens to resolve to itself gets a 404
 *   the second time, so nothing recurses);
 * - everything else: 404.
 *
 * Every response carries a Content-Security-Policy that confines
 * subresource loads and frames to this origin (nothing else is ever
 * contacted), and turns DNS prefetching off.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServedResource } from "./cases.ts";

export interface LocalServer {
  readonly origin: string;
  /** Serve these resources (each once) and these batch pages. */
  serve(resources: Iterable<ServedResource>, batches: readonly string[]): void;
  /** The URL of batch page n. */
  batchURL(n: number): string;
  /** Requests answered 404 (for diagnostics). */
  readonly misses: number;
  close(): Promise<void>;
}

const policy = [
  "default-src 'self' 'unsafe-inline' data: blob:",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "frame-src 'self' data: blob: about:",
].join("; ");

export async function startServer(): Promise<LocalServer> {
  const token = randomBytes(8).toString("hex");
  const resources = new Map<string, ServedResource>();
  let batches: readonly string[] = [];
  let misses = 0;
  const server: Server = createServer((request, response) => {
    const url = request.url ?? "/";
    const headers = { "Content-Security-Policy": policy, "X-DNS-Prefetch-Control": "off", "Cache-Control": "no-store" };
    const batch = /^\/__batch\/(\d+)\?t=([0-9a-f]+)$/.exec(url);
    if (batch !== null && batch[2] === token) {
      const html = batches[Number(batch[1])];
      if (html !== undefined) {
        response.writeHead(200, { ...headers, "Content-Type": "text/html; charset=utf-8" });
        response.end(html);
        return;
      }
    }
    const resource = resources.get(url);
    if (resource !== undefined) {
      resources.delete(url);
      response.writeHead(200, { ...headers, "Content-Type": resource.contentType });
      response.end(resource.body);
      return;
    }
    misses += 1;
    response.writeHead(404, { ...headers, "Content-Type": "text/plain" });
    response.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    serve(list, pages) {
      for (const r of list) resources.set(r.path, r);
      batches = pages;
    },
    batchURL(n) {
      return `${origin}/__batch/${n}?t=${token}`;
    },
    get misses() {
      return misses;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
