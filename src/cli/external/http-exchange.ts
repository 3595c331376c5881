/**
 * One HTTP request and its response: a connect and a total timeout, the
 * body read only when asked and up to a bound, and every failure returned
 * as a value that says what went wrong.
 *
 * Why node:http, not fetch: fetch has one timeout where a link checker
 * wants two, hides network errors in a `TypeError`'s cause, and pools
 * connections in a global dispatcher the checker cannot close.
 *
 * @module
 */

import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction, Socket } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import type { URLRecord } from "../../core/index.ts";

/**
 * Why a request got no response: besides the kinds named for what failed,
 * `timeout` (connect or total), `connection-reset` (closed before the
 * response was whole), `network-error` (anything else, non-HTTP answers too).
 *
 * @example
 * ```ts
 * const kind: NetworkFailureKind = "dns-failure";
 * ```
 */
export type NetworkFailureKind = "dns-failure" | "tls-error" | "timeout" | "connection-refused" | "connection-reset" | "network-error";

/**
 * A request that got no response: its kind, the system's or Node's code
 * (`connect-timeout` or `timeout` for the checker's own), and the message.
 *
 * @example
 * ```ts
 * const failure: NetworkFailure = { kind: "dns-failure", code: "ENOTFOUND", detail: "getaddrinfo ENOTFOUND docs.invalid" };
 * ```
 */
export interface NetworkFailure {
  readonly kind: NetworkFailureKind;
  readonly code: string;
  readonly detail: string;
}

/**
 * What one request asks; `connectTimeout` lasts until the connection (TLS
 * included) is up, `timeout` to the end of what is read, and
 * `maxBodyBytes` bounds the decoded body of a 2xx (null: not read).
 *
 * @example
 * ```ts
 * const request: ExchangeRequest = {
 *   url: parseURL("https://example.com/docs")!, method: "HEAD", headers: { "user-agent": "docbase" },
 *   connectTimeout: 5000, timeout: 10_000, maxBodyBytes: null,
 * };
 * ```
 */
export interface ExchangeRequest {
  readonly url: URLRecord;
  readonly method: "HEAD" | "GET";
  readonly headers: Readonly<Record<string, string>>;
  readonly connectTimeout: number;
  readonly timeout: number;
  readonly maxBodyBytes: number | null;
}

/**
 * A response, with the body's first decoded bytes when asked for, whether
 * there was more (`truncated`), or why it could not be read.
 *
 * @example
 * ```ts
 * const response: ExchangeResponse = { type: "response", status: 200, headers: {}, body: new Uint8Array(), truncated: false, bodyFailure: null };
 * ```
 */
export interface ExchangeResponse {
  readonly type: "response";
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Uint8Array | null;
  readonly truncated: boolean;
  readonly bodyFailure: NetworkFailure | null;
}

/**
 * The result of {@link HTTPClient.exchange}: a response, or a failure.
 *
 * @example
 * ```ts
 * const result: ExchangeResult = { type: "failure", failure: { kind: "timeout", code: "timeout", detail: "no response in 10000 ms" } };
 * ```
 */
export type ExchangeResult = ExchangeResponse | { readonly type: "failure"; readonly failure: NetworkFailure };

/** The checker's own timeouts, as errors that carry a code like the system's. */
class TimeoutError extends Error {
  readonly code: string;
  constructor(code: "connect-timeout" | "timeout", ms: number) {
    super(code === "timeout" ? `no complete answer in ${ms} ms` : `no connection in ${ms} ms`);
    this.code = code;
  }
}

/** Codes of name resolution failures (getaddrinfo). */
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"]);
/** Codes of a connection the server (or something on the way) closed. */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);
/** Codes of TLS failures: Node's, OpenSSL's certificate verification results, and EPROTO (a handshake that is not TLS). */
const TLS_CODE = /^(?:ERR_TLS_|ERR_SSL_|EPROTO$)|CERT|SELF_SIGNED|UNABLE_TO_(?:GET|VERIFY|DECRYPT)|HOSTNAME_MISMATCH/;

/**
 * The {@link NetworkFailure} an error of a request stands for.
 *
 * @example
 * ```ts
 * classifyNetworkError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" })).kind; // "connection-refused"
 * ```
 */
export function classifyNetworkError(error: unknown): NetworkFailure {
  const code = typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : "unknown";
  const detail = error instanceof Error ? error.message : String(error);
  let kind: NetworkFailureKind = "network-error";
  if (code === "timeout" || code === "connect-timeout" || code === "ETIMEDOUT") kind = "timeout";
  else if (DNS_CODES.has(code)) kind = "dns-failure";
  else if (code === "ECONNREFUSED") kind = "connection-refused";
  else if (RESET_CODES.has(code)) kind = "connection-reset";
  else if (TLS_CODE.test(code)) kind = "tls-error";
  return { kind, code, detail };
}

/** A decoder for a `Content-Encoding` fetch decodes, null for none, undefined for an unknown one. */
function decoderFor(coding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null | undefined {
  const name = (coding ?? "").trim().toLowerCase();
  if (name === "" || name === "identity") return null;
  if (name === "gzip" || name === "x-gzip") return zlib.createGunzip();
  // "deflate" is the zlib format (RFC 9110 §8.4.1.2); some servers send raw deflate: inflate with autodetection.
  if (name === "deflate") return zlib.createUnzip();
  if (name === "br") return zlib.createBrotliDecompress();
  return undefined;
}

/**
 * An HTTP/1.1 client with its own keep-alive agents, which `close` ends;
 * `lookup` replaces the system's name resolution.
 *
 * @example
 * ```ts
 * const client = new HTTPClient();
 * const result = await client.exchange(request, AbortSignal.timeout(60_000));
 * if (result.type === "response") result.status; // 200
 * client.close();
 * ```
 */
export class HTTPClient {
  readonly #http: http.Agent;
  readonly #https: https.Agent;
  readonly #lookup: LookupFunction | undefined;

  constructor(lookup?: LookupFunction) {
    this.#http = new http.Agent({ keepAlive: true });
    this.#https = new https.Agent({ keepAlive: true });
    this.#lookup = lookup;
  }

  /**
   * Sends `request` and resolves to its response or why there is none;
   * rejects only when `signal` aborts first.
   *
   * @example
   * ```ts
   * await client.exchange({ ...request, url: parseURL("http://127.0.0.1:1/")! }, signal); // { type: "failure", failure: { kind: "connection-refused", … } }
   * ```
   */
  exchange(request: ExchangeRequest, signal: AbortSignal): Promise<ExchangeResult> {
    return new Promise<ExchangeResult>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const { url } = request;
      const secure = url.scheme === "https";
      const host = url.host ?? "";
      const options: http.RequestOptions = {
        method: request.method,
        // An IPv6 address is serialized in brackets; the connection wants it without.
        hostname: host.startsWith("[") ? host.slice(1, -1) : host,
        port: url.port ?? (secure ? 443 : 80),
        // Deviation: a URL's username and password are not sent (a browser asked for credentials would send them).
        path: url.path + (url.query === null ? "" : `?${url.query}`),
        headers: request.headers,
        agent: secure ? this.#https : this.#http,
      };
      if (this.#lookup !== undefined) options.lookup = this.#lookup;
      let settled = false;
      let responded = false;
      // Which of the checker's timeouts destroyed the request: the errors that follow say "reset" or "aborted".
      let timedOut: TimeoutError | null = null;
      let timer: NodeJS.Timeout | undefined;
      let connectTimer: NodeJS.Timeout | undefined;
      const failureOf = (error: unknown): NetworkFailure => classifyNetworkError(timedOut ?? error);
      const finish = (result: ExchangeResult | null, abortReason?: unknown): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(connectTimer);
        signal.removeEventListener("abort", onAbort);
        if (result === null) reject(abortReason);
        else resolve(result);
      };
      const req = (secure ? https : http).request(options);
      const stop = (error: TimeoutError): void => {
        timedOut = error;
        req.destroy(error);
      };
      const onAbort = (): void => {
        req.destroy();
        finish(null, signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(() => stop(new TimeoutError("timeout", request.timeout)), request.timeout);
      req.on("socket", (socket: Socket) => {
        if (req.reusedSocket) return;
        connectTimer = setTimeout(() => stop(new TimeoutError("connect-timeout", request.connectTimeout)), request.connectTimeout);
        socket.once(secure ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
      });
      // After the response, an error of the request (the total timeout, a reset) reaches the body's reader.
      req.on("error", (error) => {
        if (!responded) finish({ type: "failure", failure: failureOf(error) });
      });
      req.on("response", (res: IncomingMessage) => {
        responded = true;
        clearTimeout(connectTimer);
        const status = res.statusCode ?? 0;
        const respond = (body: Uint8Array | null, truncated: boolean, bodyFailure: NetworkFailure | null): void =>
          finish({ type: "response", status, headers: res.headers, body, truncated, bodyFailure });
        // Only a success's body is the page: an error page's or a redirect's is not read.
        if (request.maxBodyBytes === null || status < 200 || status > 299) {
          if (request.method === "HEAD") {
            // No body: reading to its end gives the connection back to the agent.
            res.resume();
            res.once("end", () => respond(null, false, null));
            res.once("error", () => respond(null, false, null));
          } else {
            // A body not wanted is not downloaded: the connection goes with it.
            res.destroy();
            respond(null, false, null);
          }
          return;
        }
        readBody(res, request.maxBodyBytes, failureOf, (body, truncated, failure) => {
          if (truncated || failure !== null) res.destroy();
          respond(body, truncated, failure);
        });
      });
      req.end();
    });
  }

  /**
   * Closes every connection the client keeps open.
   *
   * @example
   * ```ts
   * client.close();
   * ```
   */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

/**
 * Reads up to `max` decoded bytes of `res`'s body and calls `done` once
 * with them, whether there was more, and the failure that cut it short.
 */
function readBody(
  res: IncomingMessage,
  max: number,
  failureOf: (error: unknown) => NetworkFailure,
  done: (body: Uint8Array, truncated: boolean, failure: NetworkFailure | null) => void,
): void {
  const decoder = decoderFor(res.headers["content-encoding"]);
  if (decoder === undefined) {
    const coding = String(res.headers["content-encoding"]);
    done(new Uint8Array(0), false, { kind: "network-error", code: "unsupported-content-encoding", detail: `unsupported Content-Encoding: ${coding}` });
    return;
  }
  const source: Readable = decoder === null ? res : res.pipe(decoder);
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  const end = (truncated: boolean, failure: NetworkFailure | null): void => {
    if (ended) return;
    ended = true;
    source.removeAllListeners("data");
    if (decoder !== null) decoder.destroy();
    const body = Buffer.concat(chunks, Math.min(size, max));
    done(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), truncated, failure);
  };
  source.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size > max) end(true, null);
  });
  source.once("end", () => end(false, null));
  source.once("error", (error) => end(false, failureOf(error)));
  // The response's own errors (a reset, the total timeout destroying the request) do not reach the decoder.
  if (decoder !== null) res.once("error", (error) => end(false, failureOf(error)));
  res.once("close", () => {
    if (!res.complete) end(false, failureOf(Object.assign(new Error("the connection closed before the body was whole"), { code: "ECONNRESET" })));
  });
}
