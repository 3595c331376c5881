/**
 * The external-link checker: asks each http(s) URL once per run, follows
 * its redirects, checks its fragments when asked, and says whether it
 * works, is broken, or could not be checked.
 *
 * @module
 */

import http from "node:http";
import { parseURL, serializeURL, type URLRecord } from "../../core/index.ts";
import { type CacheEntry, type CacheSettings, isCacheable, isCacheableFragment, isFresh, type LoadedCache, loadCache, saveCache } from "./cache-file.ts";
import { ExternalCheckerError } from "./errors.ts";
import { type ExchangeResponse, HTTPClient, type NetworkFailure, type NetworkFailureKind } from "./http-exchange.ts";
import { type ExternalCheckerOptions, type ExternalWarning, type ResolvedExternalOptions, resolveExternalOptions } from "./options.ts";
import { type ExternalKind, type ExternalOutcome, type ExternalTarget, outcomeSeverity, type RedirectStep } from "./outcome.ts";
import { checkFragment, type FragmentResult, fragmentNeedsPage, type PageRead, readPage } from "./page-fragments.ts";
import { RequestLimiter } from "./request-limiter.ts";
import { decideRetry, parseRetryAfter, RETRIED_STATUSES } from "./retry-policy.ts";

/**
 * https://fetch.spec.whatwg.org/#redirect-status — the statuses a browser
 * follows (with a `Location`). 300 and 304 are not among them.
 */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** The permanent ones: RFC 9110 §15.4.2 (301) and §15.4.9 (308) — "clients with link-editing capabilities ought to automatically re-link references". */
const PERMANENT_STATUSES: ReadonlySet<number> = new Set([301, 308]);

/**
 * The failures of a HEAD that a GET is tried after: those of servers that
 * mishandle HEAD. A timeout, a refused connection, DNS or TLS would fail a GET too.
 */
const HEAD_FALLBACK_FAILURES: ReadonlySet<NetworkFailureKind> = new Set(["connection-reset", "network-error"]);

/** The answer to the requests for one URL (retries and the GET after a HEAD included). */
type Hop =
  | { readonly type: "response"; readonly status: number; readonly location: string | undefined; readonly page: PageRead | null; readonly attempts: number; readonly at: number }
  | { readonly type: "failure"; readonly failure: NetworkFailure; readonly attempts: number; readonly at: number }
  | { readonly type: "rate-limited"; readonly status: number | null; readonly wait: number | null; readonly attempts: number; readonly at: number };

/** A URL's hops: asked without its body, and asked for its page (fragments). */
interface HopMemo {
  plain?: Promise<Hop>;
  page?: Promise<Hop>;
}

/** The parts of an outcome a walk along the redirects decides. */
type Walked = Omit<ExternalOutcome, "target" | "url" | "severity" | "fragments" | "fromCache"> & {
  readonly page: PageRead | null;
  readonly fragmentOverride: string | null;
};

/**
 * The external-link checker {@link createExternalChecker} makes.
 *
 * @example
 * ```ts
 * const checker = createExternalChecker({ fragments: true });
 * for await (const outcome of checker.check([{ url: "https://example.com/guide#install" }])) outcome.severity; // "ok"
 * await checker.close();
 * ```
 */
export interface ExternalChecker {
  /**
   * Yields one outcome per target, as each is known. Throws an
   * {@link ExternalCheckerError}, before asking anything, for a target
   * that is not an absolute URL or a closed checker.
   */
  check<T extends ExternalTarget>(targets: Iterable<T>): AsyncGenerator<ExternalOutcome<T>, void, undefined>;
  /** The requests made so far (every attempt, one that failed before it reached a server too), and the outcomes taken from the cache. */
  readonly stats: { readonly requests: number; readonly fromCache: number };
  /** The warnings so far (the cache file's). */
  readonly warnings: readonly ExternalWarning[];
  /** Stops what is under way, closes the connections, and writes the cache file. */
  close(): Promise<void>;
}

/**
 * Makes an external-link checker ({@link ExternalCheckerOptions}; a bad one
 * throws an {@link ExternalCheckerError}). A URL is asked once per checker,
 * for every target that leads to it; the cache file is read at the first
 * `check` and written by `close`.
 *
 * @example
 * ```ts
 * const checker = createExternalChecker({ concurrency: 16, perHost: 2, cache: { file: ".docbase-cache.json", maxAge: 3_600_000 } });
 * for await (const outcome of checker.check(targets)) {
 *   if (outcome.severity === "error") console.log(`${outcome.url}: ${outcome.message}`); // "https://example.com/gone: 404 Not Found"
 * }
 * await checker.close();
 * ```
 */
export function createExternalChecker(options: ExternalCheckerOptions = {}): ExternalChecker {
  return new Checker(resolveExternalOptions(options));
}

class Checker implements ExternalChecker {
  readonly #options: ResolvedExternalOptions;
  readonly #settings: CacheSettings;
  readonly #client: HTTPClient;
  readonly #limiter: RequestLimiter;
  readonly #abort = new AbortController();
  readonly #hops = new Map<string, HopMemo>();
  readonly #warnings: ExternalWarning[] = [];
  /** This run's answers, for the cache file. */
  readonly #entries = new Map<string, CacheEntry>();
  #cache: Promise<LoadedCache> | null = null;
  #requests = 0;
  #fromCache = 0;
  #closed = false;

  constructor(options: ResolvedExternalOptions) {
    this.#options = options;
    this.#settings = { accept: options.accept, maxRedirects: options.maxRedirects };
    this.#client = new HTTPClient(options.lookup);
    this.#limiter = new RequestLimiter(options.concurrency, options.perHost);
  }

  get stats(): { readonly requests: number; readonly fromCache: number } {
    return { requests: this.#requests, fromCache: this.#fromCache };
  }

  get warnings(): readonly ExternalWarning[] {
    return this.#warnings;
  }

  #warn(warning: ExternalWarning): void {
    this.#warnings.push(warning);
    this.#options.onWarning?.(warning);
  }

  async *check<T extends ExternalTarget>(targets: Iterable<T>): AsyncGenerator<ExternalOutcome<T>, void, undefined> {
    if (this.#closed) throw new ExternalCheckerError("check: the checker is closed");
    // Every target is read before anything is asked: a bad one is the caller's mistake, found at once.
    const parsed = Array.from(targets, (target) => {
      const url = typeof target?.url === "string" ? parseURL(target.url) : null;
      if (url === null) throw new ExternalCheckerError(`check: not an absolute URL: ${JSON.stringify(target?.url) ?? String(target?.url)}`);
      return { target, url };
    });
    const cache = await this.#loadCache();
    const done: Array<ExternalOutcome<T>> = [];
    let failed: { error: unknown } | null = null;
    let wake: (() => void) | null = null;
    for (const { target, url } of parsed) {
      this.#checkTarget(target, url, cache).then(
        (outcome) => {
          done.push(outcome);
          wake?.();
        },
        (error: unknown) => {
          failed ??= { error };
          wake?.();
        },
      );
    }
    for (let yielded = 0; yielded < parsed.length; yielded++) {
      while (done.length === 0 && failed === null) await new Promise<void>((resolve) => (wake = resolve));
      if (failed !== null) throw (failed as { error: unknown }).error;
      yield done.shift()!;
    }
  }

  #loadCache(): Promise<LoadedCache | null> {
    const { cache } = this.#options;
    if (cache === null) return Promise.resolve(null);
    this.#cache ??= loadCache(cache.file, this.#settings, cache.maxAge, this.#options.now()).then((loaded) => {
      for (const warning of loaded.warnings) this.#warn(warning);
      return loaded;
    });
    return this.#cache;
  }

  async #checkTarget<T extends ExternalTarget>(target: T, record: URLRecord, cache: LoadedCache | null): Promise<ExternalOutcome<T>> {
    const url = serializeURL(record, { excludeFragment: true });
    const skipped = (kind: ExternalKind, message: string): ExternalOutcome<T> => ({
      target, url, kind, severity: outcomeSeverity(kind, []), message, status: null, finalURL: url, movedTo: null, redirects: [],
      fragments: [], failure: null, retryAfter: null, attempts: 0, fromCache: false, checkedAt: null,
    });
    if (record.scheme !== "http" && record.scheme !== "https") {
      return skipped("unsupported-scheme", `a ${record.scheme}: URL: only http: and https: URLs are external links to check`);
    }
    const exclusion = this.#exclusion(url);
    if (exclusion !== null) return skipped("excluded", `excluded by ${exclusion}`);
    const fragments = new Set(target.fragments ?? []);
    if (record.fragment !== null) fragments.add(record.fragment);
    const asked = this.#options.fragments ? [...fragments] : [];
    const cached = this.#fromCacheEntry(target, url, asked, cache);
    if (cached !== null) {
      this.#fromCache++;
      return cached;
    }
    const needPage = asked.some(fragmentNeedsPage);
    const walked = await this.#walk(record, url, needPage);
    const fragmentResults =
      walked.kind === "ok" || walked.kind === "permanent-redirect" ? asked.map((f) => checkFragment(walked.page, f, walked.fragmentOverride ?? f)) : [];
    const { page, fragmentOverride, ...rest } = walked;
    const outcome: ExternalOutcome<T> = { ...rest, target, url, severity: outcomeSeverity(walked.kind, fragmentResults), fragments: fragmentResults, fromCache: false };
    if (this.#options.cache !== null && walked.checkedAt !== null && isCacheable(walked.kind, walked.status)) this.#remember(url, walked, fragmentOverride, fragmentResults);
    return outcome;
  }

  /** The pattern that excludes `url`, as written, or null. */
  #exclusion(url: string): string | null {
    for (const pattern of this.#options.exclude) if (pattern.test(url)) return String(pattern);
    return null;
  }

  /** The outcome a fresh cache entry gives, or null when there is none or it does not answer every fragment asked. */
  #fromCacheEntry<T extends ExternalTarget>(target: T, url: string, asked: readonly string[], cache: LoadedCache | null): ExternalOutcome<T> | null {
    if (cache === null) return null;
    const entry = cache.entries.get(url);
    if (entry === undefined || !isFresh(entry, this.#options.cache!.maxAge, this.#options.now())) return null;
    const fragments: FragmentResult[] = [];
    // Fragments count only in a page that was found (as for a fresh answer).
    if (entry.kind === "ok" || entry.kind === "permanent-redirect") {
      for (const fragment of asked) {
        const known = entry.fragments[fragment];
        const sought = entry.fragmentOverride ?? fragment;
        if (known !== undefined) fragments.push({ fragment, ...known });
        else if (!fragmentNeedsPage(sought)) fragments.push(checkFragment(null, fragment, sought));
        else return null;
      }
    }
    return {
      target, url, kind: entry.kind, severity: outcomeSeverity(entry.kind, fragments), message: entry.message, status: entry.status,
      finalURL: entry.finalURL, movedTo: entry.movedTo, redirects: entry.redirects, fragments, failure: null, retryAfter: null,
      attempts: 0, fromCache: true, checkedAt: entry.checkedAt,
    };
  }

  /** Keeps this run's answer for the cache file, with the fragments this run found for the URL before. */
  #remember(url: string, walked: Walked, fragmentOverride: string | null, fragments: readonly FragmentResult[]): void {
    const known: Record<string, { kind: FragmentResult["kind"]; detail: string }> = { ...this.#entries.get(url)?.fragments };
    for (const f of fragments) if (isCacheableFragment(f.kind)) known[f.fragment] = { kind: f.kind, detail: f.detail };
    this.#entries.set(url, {
      checkedAt: walked.checkedAt!, kind: walked.kind, status: walked.status, message: walked.message, finalURL: walked.finalURL,
      movedTo: walked.movedTo, redirects: walked.redirects, fragmentOverride, fragments: known,
    });
  }

  /**
   * https://www.rfc-editor.org/rfc/rfc9110#section-10.2.2 — follows
   * `start`'s redirects to a final answer.
   *
   * Deviation: no cookies are kept between redirects, as a browser keeps
   * them; a site that redirects to itself to set a cookie is a loop here.
   */
  async #walk(start: URLRecord, startKey: string, needPage: boolean): Promise<Walked> {
    const redirects: RedirectStep[] = [];
    const visited = new Set([startKey]);
    let record = start;
    let key = startKey;
    let fragmentOverride: string | null = null;
    let attempts = 0;
    const end = (kind: ExternalKind, message: string, extra: Partial<Walked> = {}): Walked => ({
      kind, message, status: null, finalURL: key, movedTo: null, redirects, failure: null, retryAfter: null, attempts,
      checkedAt: null, page: null, fragmentOverride, ...extra,
    });
    for (;;) {
      const hop = await this.#hop(key, record, needPage);
      attempts += hop.attempts;
      const at = hop.at;
      if (hop.type === "failure") return end(hop.failure.kind, `${FAILURE_WORDS[hop.failure.kind]}: ${hop.failure.detail}`, { failure: hop.failure, checkedAt: at });
      if (hop.type === "rate-limited") {
        const why = hop.wait !== null && hop.wait > this.#options.maxRetryWait
          ? `${hop.status === null ? "the host" : statusText(hop.status)} asks to wait ${seconds(hop.wait)} (Retry-After), more than the maximum wait of ${seconds(this.#options.maxRetryWait)}`
          : `still ${statusText(hop.status ?? 429)} after ${hop.attempts} ${hop.attempts === 1 ? "attempt" : "attempts"}`;
        return end("rate-limited", `rate limited: ${why}`, { status: hop.status, retryAfter: hop.wait, checkedAt: at });
      }
      if (REDIRECT_STATUSES.has(hop.status) && hop.location !== undefined) {
        // Node reads field values as Latin-1; browsers read a Location's bytes as UTF-8.
        const location = Buffer.from(hop.location, "latin1").toString("utf8");
        const next = parseURL(location, { base: record });
        if (next === null) return end("invalid-redirect", `${statusText(hop.status)} to ${JSON.stringify(location)}, which is not a URL`, { status: hop.status, checkedAt: at });
        const nextKey = serializeURL(next, { excludeFragment: true });
        redirects.push({ url: key, status: hop.status, location: nextKey });
        // "If the Location value provided in a 3xx response does not have a fragment component, a user agent MUST process the redirection as if the value inherits the fragment component"; one that has one replaces it.
        if (next.fragment !== null) fragmentOverride = next.fragment;
        const chain = (): string => [startKey, ...redirects.map((r) => r.location)].join(" → ");
        if (visited.has(nextKey)) return end("redirect-loop", `redirect loop: ${chain()}`, { status: hop.status, checkedAt: at });
        if (redirects.length > this.#options.maxRedirects) return end("too-many-redirects", `more than ${this.#options.maxRedirects} redirects: ${chain()}`, { status: hop.status, checkedAt: at });
        if (next.scheme !== "http" && next.scheme !== "https") {
          return end("redirect-not-followed", `redirected (${hop.status}) to ${nextKey}, a ${next.scheme}: URL, not followed`, { status: hop.status, finalURL: nextKey, checkedAt: at });
        }
        const exclusion = this.#exclusion(nextKey);
        if (exclusion !== null) return end("redirect-not-followed", `redirected (${hop.status}) to ${nextKey}, excluded by ${exclusion}`, { status: hop.status, finalURL: nextKey, checkedAt: at });
        visited.add(nextKey);
        record = next;
        key = nextKey;
        continue;
      }
      const extra = { status: hop.status, page: hop.page, checkedAt: at };
      if (!this.#accepted(hop.status)) {
        return end("bad-status", `${statusText(hop.status)}${hop.attempts > 1 && RETRIED_STATUSES.has(hop.status) ? ` after ${hop.attempts} attempts` : ""}${via(redirects)}`, extra);
      }
      // The link's own URL moved for good only if its first answer says so; where the permanent ones end is where it lives now.
      let permanent = 0;
      while (permanent < redirects.length && PERMANENT_STATUSES.has(redirects[permanent]!.status)) permanent++;
      if (permanent > 0) {
        const movedTo = redirects[permanent - 1]!.location;
        return end("permanent-redirect", `moved permanently (${redirects[0]!.status}) to ${movedTo}`, { ...extra, movedTo });
      }
      return end("ok", `${statusText(hop.status)}${via(redirects)}`, extra);
    }
  }

  #accepted(status: number): boolean {
    return this.#options.accept.some(([low, high]) => status >= low && status <= high);
  }

  /**
   * The answer for one URL, asked once per run without its body and once
   * for its page; an answer without the body serves a page's need too
   * unless it is a success.
   */
  async #hop(key: string, record: URLRecord, needPage: boolean): Promise<Hop> {
    let memo = this.#hops.get(key);
    if (memo === undefined) this.#hops.set(key, (memo = {}));
    if (!needPage) return memo.page ?? (memo.plain ??= this.#request(record, this.#options.method === "get" ? "get" : "head-then-get"));
    if (memo.page === undefined && memo.plain !== undefined) {
      const plain = await memo.plain;
      if (plain.type !== "response" || plain.status < 200 || plain.status > 299) return plain;
    }
    return (memo.page ??= this.#request(record, "page"));
  }

  /**
   * The requests for one URL: the first attempt, retries, and in
   * "head-then-get" one GET after a HEAD refused or answered wrongly;
   * "page" is a GET that reads the body.
   *
   * https://www.rfc-editor.org/rfc/rfc9110#section-9.3.2 — "The HEAD method
   * is identical to GET except that the server MUST NOT send content in the
   * response." Yet servers answer HEAD 405, 501, 404 or 500 where a GET gets
   * 200: a HEAD answered neither accepted nor a redirect gets a GET.
   *
   * Retried: 429 (https://www.rfc-editor.org/rfc/rfc6585#section-4) and 503
   * (RFC 9110 §15.6.4), which may carry a `Retry-After`, and hiccups.
   */
  async #request(record: URLRecord, mode: "head-then-get" | "get" | "page"): Promise<Hop> {
    const options = this.#options;
    const signal = this.#abort.signal;
    const host = record.host!;
    let method: "HEAD" | "GET" = mode === "head-then-get" ? "HEAD" : "GET";
    let fellBack = false;
    let retried = 0;
    let attempts = 0;
    for (;;) {
      const release = await this.#limiter.acquire(host, signal);
      let result;
      try {
        // RFC 9110 §10.2.3: Retry-After is "how long the user agent ought to wait before making a follow-up request";
        // read with the host's place held, so that no request queued behind slips through.
        const pause = this.#limiter.pausedUntil(host) - options.now();
        if (pause > options.maxRetryWait) return { type: "rate-limited", status: null, wait: pause, attempts, at: options.now() };
        if (pause > 0) {
          release();
          await options.sleep(pause, signal);
          continue;
        }
        this.#requests++;
        attempts++;
        const headers: Record<string, string> = { "user-agent": options.userAgent, accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
        if (mode === "page") headers["accept-encoding"] = "gzip, deflate, br";
        result = await this.#client.exchange(
          { url: record, method, headers, connectTimeout: options.connectTimeout, timeout: options.timeout, maxBodyBytes: mode === "page" ? options.maxBodyBytes : null },
          signal,
        );
        if (result.type === "response" && RETRIED_STATUSES.has(result.status)) {
          const retryAfter = parseRetryAfter(headerValue(result.headers["retry-after"]), options.now());
          if (retryAfter !== null) this.#limiter.pauseHost(host, options.now() + retryAfter);
        }
      } finally {
        release();
      }
      const at = options.now();
      if (result.type === "failure") {
        const { failure } = result;
        if (method === "HEAD" && !fellBack && HEAD_FALLBACK_FAILURES.has(failure.kind)) {
          method = "GET";
          fellBack = true;
          continue;
        }
        // Hiccups: a connection closed under the request, a name server that did not answer in time.
        if (failure.kind === "connection-reset" || failure.code === "EAI_AGAIN") {
          const decision = decideRetry(options, retried, null);
          if (decision.type === "retry") {
            retried++;
            await options.sleep(decision.wait, signal);
            continue;
          }
        }
        return { type: "failure", failure, attempts, at };
      }
      const { status } = result;
      if (RETRIED_STATUSES.has(status)) {
        const retryAfter = parseRetryAfter(headerValue(result.headers["retry-after"]), at);
        const decision = decideRetry(options, retried, retryAfter);
        if (decision.type === "retry") {
          retried++;
          await options.sleep(decision.wait, signal);
          continue;
        }
        if (decision.type === "wait-too-long") return { type: "rate-limited", status, wait: decision.wait, attempts, at };
        // Retries spent: a 429 is still the server declining to say; a 503 is a server error.
        if (status === 429) return { type: "rate-limited", status, wait: retryAfter, attempts, at };
      } else if (method === "HEAD" && !fellBack && !this.#accepted(status) && !REDIRECT_STATUSES.has(status)) {
        method = "GET";
        fellBack = true;
        continue;
      }
      return { type: "response", status, location: headerValue(result.headers.location), page: mode === "page" ? pageOf(record, result) : null, attempts, at };
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort(new ExternalCheckerError("the checker was closed"));
    this.#client.close();
    const { cache } = this.#options;
    if (cache === null || this.#cache === null) return;
    const loaded = await this.#cache;
    if (!loaded.writable) return;
    try {
      // The entries still fresh from the file, and this run's answers over them.
      await saveCache(cache.file, this.#settings, new Map([...loaded.entries, ...this.#entries]));
    } catch (error) {
      this.#warn({ code: "cache-unwritable", message: `the cache ${cache.file} could not be written: ${(error as Error).message}` });
    }
  }
}

/** The page a GET for fragments brought: read when the answer is a success, else why not. */
function pageOf(record: URLRecord, response: ExchangeResponse): PageRead {
  if (response.status < 200 || response.status > 299) return { type: "unread", reason: `the answer was ${statusText(response.status)}, not the page` };
  if (response.bodyFailure !== null) return { type: "unread", reason: `the page could not be read: ${response.bodyFailure.detail}` };
  return readPage(response.body ?? new Uint8Array(0), headerValue(response.headers["content-type"]), serializeURL(record), response.truncated);
}

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const FAILURE_WORDS: Readonly<Record<NetworkFailureKind, string>> = {
  "dns-failure": "DNS failure",
  "tls-error": "TLS error",
  timeout: "timed out",
  "connection-refused": "connection refused",
  "connection-reset": "connection reset",
  "network-error": "network error",
};

/** "404 Not Found". */
function statusText(status: number): string {
  const reason = http.STATUS_CODES[status];
  return reason === undefined ? String(status) : `${status} ${reason}`;
}

/** " after 302 → https://…", for an answer reached through redirects. */
function via(redirects: readonly RedirectStep[]): string {
  if (redirects.length === 0) return "";
  return ` after ${redirects.map((r) => `${r.status} → ${r.location}`).join(", ")}`;
}

/** "60 s". */
const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
