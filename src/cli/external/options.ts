/**
 * The external-link checker's options: their meaning, defaults and checks.
 *
 * @module
 */

import { createRequire } from "node:module";
import type { LookupFunction } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { ExternalCheckerError } from "./errors.ts";

/**
 * A warning about the checker's cache file: a value, never thrown.
 *
 * @example
 * ```ts
 * const warning: ExternalWarning = { code: "cache-foreign", message: "links.json is not a docbase cache: not read, and left as it is" };
 * ```
 */
export interface ExternalWarning {
  readonly code: "cache-unreadable" | "cache-foreign" | "cache-outdated" | "cache-entries" | "cache-unwritable";
  readonly message: string;
}

/**
 * The options of {@link createExternalChecker}, each with a default; times in ms.
 *
 * @example
 * ```ts
 * const options: ExternalCheckerOptions = {
 *   concurrency: 16, perHost: 2, timeout: 10_000, retries: 2, maxRetryWait: 60_000, maxRedirects: 5,
 *   accept: [[200, 299], 429], method: "head-then-get", fragments: true,
 *   exclude: [/^https:\/\/twitter\.com\//], cache: { file: ".docbase-cache.json", maxAge: 3_600_000 },
 * };
 * ```
 */
export interface ExternalCheckerOptions {
  /** Requests open at once, in all. Default 16. */
  readonly concurrency?: number | undefined;
  /** Requests open at once to one host (by name: its ports count together). Default 2. */
  readonly perHost?: number | undefined;
  /** The longest a request may take, from its start to the last byte read. Default 10 000. */
  readonly timeout?: number | undefined;
  /** The longest the connection may take to be up (name lookup, TCP and TLS). Default 5 000, and never more than `timeout`. */
  readonly connectTimeout?: number | undefined;
  /** How many times a URL is asked again after a 429, a 503 or a network hiccup (a reset; a DNS EAI_AGAIN). Default 2. */
  readonly retries?: number | undefined;
  /** The first wait before asking again when the server names none (it doubles each time). Default 1 000. */
  readonly retryWait?: number | undefined;
  /** The longest wait accepted: a `Retry-After` beyond it makes the URL "rate-limited" (unchecked), not broken. Default 60 000. */
  readonly maxRetryWait?: number | undefined;
  /** How many redirects are followed; one more is `too-many-redirects`. Default 5. */
  readonly maxRedirects?: number | undefined;
  /** The statuses that mean the link works: codes, and inclusive [low, high] ranges. Default [[200, 299]]. */
  readonly accept?: ReadonlyArray<number | readonly [number, number]> | undefined;
  /** The `User-Agent` sent. Default "docbase/VERSION (+https://github.com/docbase/docbase)". */
  readonly userAgent?: string | undefined;
  /** "head-then-get" (HEAD, then GET when the HEAD answer is refused or wrong) or "get". Default "head-then-get". */
  readonly method?: "head-then-get" | "get" | undefined;
  /** Check fragments in external HTML pages (a GET of the page, read up to `maxBodyBytes`). Default false. */
  readonly fragments?: boolean | undefined;
  /** How much of a page is read to check fragments (decoded bytes). Default 8 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** URLs never asked: a URL (without its fragment) any of these match is `excluded`. Default none. */
  readonly exclude?: readonly RegExp[] | undefined;
  /** A cache file: answers younger than `maxAge` (default 24 hours) are not asked again. Default none. */
  readonly cache?: { readonly file: string; readonly maxAge?: number | undefined } | null | undefined;
  /** Name resolution (as `dns.lookup`), in place of the system's: to pin a host, as curl's `--resolve`. */
  readonly lookup?: LookupFunction | undefined;
  /** The clock (ms since the epoch): for cache ages and `Retry-After` dates. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Waits `ms` between attempts (rejects when `signal` aborts). Default a timer. */
  readonly sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** Hears each warning as it comes (they are also in `checker.warnings`). */
  readonly onWarning?: ((warning: ExternalWarning) => void) | undefined;
}

/**
 * The options with every default filled in and every value checked.
 *
 * @example
 * ```ts
 * resolveExternalOptions({}).perHost; // 2
 * ```
 */
export interface ResolvedExternalOptions {
  readonly concurrency: number;
  readonly perHost: number;
  readonly timeout: number;
  readonly connectTimeout: number;
  readonly retries: number;
  readonly retryWait: number;
  readonly maxRetryWait: number;
  readonly maxRedirects: number;
  readonly accept: ReadonlyArray<readonly [number, number]>;
  readonly userAgent: string;
  readonly method: "head-then-get" | "get";
  readonly fragments: boolean;
  readonly maxBodyBytes: number;
  readonly exclude: readonly RegExp[];
  readonly cache: { readonly file: string; readonly maxAge: number } | null;
  readonly lookup: LookupFunction | undefined;
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly onWarning: ((warning: ExternalWarning) => void) | undefined;
}

/** The package's version, for the default user agent. */
function packageVersion(): string {
  try {
    // src/cli/external/ and dist/cli/external/ are both three levels below the package.
    return (createRequire(import.meta.url)("../../../package.json") as { version: string }).version;
  } catch {
    return "0";
  }
}

/**
 * The defaults: the concurrency is htmltest's, the rest the peers' (rounded
 * down); the user agent names the tool and where to read about it.
 *
 * @example
 * ```ts
 * EXTERNAL_DEFAULTS.timeout; // 10000
 * ```
 */
export const EXTERNAL_DEFAULTS = {
  concurrency: 16,
  perHost: 2,
  timeout: 10_000,
  connectTimeout: 5_000,
  retries: 2,
  retryWait: 1_000,
  maxRetryWait: 60_000,
  maxRedirects: 5,
  accept: [[200, 299]] as ReadonlyArray<readonly [number, number]>,
  userAgent: `docbase/${packageVersion()} (+https://github.com/docbase/docbase)`,
  method: "head-then-get",
  fragments: false,
  maxBodyBytes: 8 * 1024 * 1024,
  cacheMaxAge: 24 * 60 * 60 * 1000,
} as const;

function integer(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new ExternalCheckerError(`${name}: not ${min === 0 ? "a non-negative" : "a positive"} integer: ${JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}

/** A status code, 100 to 999 (RFC 9110 §15: "three-digit integer"). */
function statusCode(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 100 || value > 999) {
    throw new ExternalCheckerError(`${name}: not a status code (100 to 999): ${JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}

/**
 * Fills in the defaults and checks each option; throws an
 * {@link ExternalCheckerError} naming the first bad one.
 *
 * @example
 * ```ts
 * resolveExternalOptions({ accept: [200, [300, 399]] }).accept; // [[200, 200], [300, 399]]
 * resolveExternalOptions({ timeout: 0 }); // throws ExternalCheckerError "timeout: not a positive integer: 0"
 * ```
 */
export function resolveExternalOptions(options: ExternalCheckerOptions = {}): ResolvedExternalOptions {
  if (typeof options !== "object" || options === null) throw new ExternalCheckerError(`options: not an object: ${String(options)}`);
  const d = EXTERNAL_DEFAULTS;
  const timeout = integer("timeout", options.timeout, d.timeout, 1);
  const connectTimeout = Math.min(timeout, integer("connectTimeout", options.connectTimeout, d.connectTimeout, 1));
  const accept = (options.accept ?? d.accept).map((entry, i): readonly [number, number] => {
    if (typeof entry === "number") return [statusCode(`accept[${i}]`, entry), entry];
    if (!Array.isArray(entry) || entry.length !== 2) throw new ExternalCheckerError(`accept[${i}]: not a status code or a [low, high] range: ${JSON.stringify(entry)}`);
    const low = statusCode(`accept[${i}][0]`, entry[0]);
    const high = statusCode(`accept[${i}][1]`, entry[1]);
    if (low > high) throw new ExternalCheckerError(`accept[${i}]: the range ends before it starts: ${JSON.stringify(entry)}`);
    return [low, high];
  });
  const method = options.method ?? d.method;
  if (method !== "head-then-get" && method !== "get") throw new ExternalCheckerError(`method: not "head-then-get" or "get": ${JSON.stringify(method)}`);
  const userAgent = options.userAgent ?? d.userAgent;
  // A field value has no CR, LF or NUL (RFC 9110 §5.5); Node would throw at the first request.
  if (typeof userAgent !== "string" || /[\r\n\0]/.test(userAgent)) throw new ExternalCheckerError(`userAgent: not a header field value: ${JSON.stringify(userAgent)}`);
  const exclude = (options.exclude ?? []).map((pattern, i) => {
    if (!(pattern instanceof RegExp)) throw new ExternalCheckerError(`exclude[${i}]: not a RegExp: ${String(pattern)}`);
    // A global or sticky RegExp's test() starts where the last match ended: each URL is matched from its start.
    return pattern.global || pattern.sticky ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "")) : pattern;
  });
  let cache: ResolvedExternalOptions["cache"] = null;
  if (options.cache !== undefined && options.cache !== null) {
    if (typeof options.cache.file !== "string" || options.cache.file === "") throw new ExternalCheckerError(`cache.file: not a file name: ${JSON.stringify(options.cache.file)}`);
    cache = { file: options.cache.file, maxAge: integer("cache.maxAge", options.cache.maxAge, d.cacheMaxAge, 0) };
  }
  for (const name of ["lookup", "now", "sleep", "onWarning"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") throw new ExternalCheckerError(`${name}: not a function: ${String(options[name])}`);
  }
  return {
    concurrency: integer("concurrency", options.concurrency, d.concurrency, 1),
    perHost: integer("perHost", options.perHost, d.perHost, 1),
    timeout,
    connectTimeout,
    retries: integer("retries", options.retries, d.retries, 0),
    retryWait: integer("retryWait", options.retryWait, d.retryWait, 0),
    maxRetryWait: integer("maxRetryWait", options.maxRetryWait, d.maxRetryWait, 0),
    maxRedirects: integer("maxRedirects", options.maxRedirects, d.maxRedirects, 0),
    accept,
    userAgent,
    method,
    fragments: options.fragments === true,
    maxBodyBytes: integer("maxBodyBytes", options.maxBodyBytes, d.maxBodyBytes, 1),
    exclude,
    cache,
    lookup: options.lookup,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal })),
    onWarning: options.onWarning,
  };
}

/**
 * Statuses as a command line gives them: comma-separated codes and ranges
 * (`200-299`, lychee's `200..=299` and `200..300`); a bad part throws.
 *
 * @example
 * ```ts
 * parseStatusRanges("200-299, 429"); // [[200, 299], [429, 429]]
 * parseStatusRanges("200..300"); // [[200, 299]]
 * ```
 */
export function parseStatusRanges(text: string): Array<readonly [number, number]> {
  return text.split(",").map((part) => {
    const m = /^\s*(\d{3})\s*(?:(-|\.\.=|\.\.)\s*(\d{3})\s*)?$/.exec(part);
    if (m === null) throw new ExternalCheckerError(`accept: not a status code or range: ${JSON.stringify(part.trim())}`);
    const low = Number(m[1]);
    const high = m[3] === undefined ? low : Number(m[3]) - (m[2] === ".." ? 1 : 0);
    if (low < 100 || high < low) throw new ExternalCheckerError(`accept: not a range of status codes: ${JSON.stringify(part.trim())}`);
    return [low, high] as const;
  });
}
