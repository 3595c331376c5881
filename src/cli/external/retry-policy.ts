/**
 * When the external-link checker asks a URL again, and how long it waits
 * first: 429 and 503 answers (honouring `Retry-After`) and network
 * hiccups, a bounded number of times, never waiting longer than a maximum.
 *
 * @module
 */

import { parseHTTPDate } from "./http-date.ts";

/**
 * The statuses that are asked again: 429 Too Many Requests and 503 Service Unavailable.
 *
 * @example
 * ```ts
 * RETRIED_STATUSES.has(503); // true
 * RETRIED_STATUSES.has(500); // false
 * ```
 */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3 — how many
 * milliseconds a `Retry-After` field value asks to wait, or null when it
 * is absent or neither form. `Retry-After = HTTP-date / delay-seconds`,
 * where delay-seconds is "a non-negative decimal integer, representing
 * time in seconds". A date in the past asks for no wait.
 *
 * @example
 * ```ts
 * const now = Date.UTC(2026, 0, 1);
 * parseRetryAfter("120", now); // 120000
 * parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now); // 3000
 * parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now); // 0
 * parseRetryAfter("-1", now); // null
 * parseRetryAfter(undefined, now); // null
 * ```
 */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  // delay-seconds = 1*DIGIT
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = parseHTTPDate(value, now);
  return date === null ? null : Math.max(0, date - now);
}

/**
 * How the checker waits between attempts: `retries` more attempts at
 * most, a first wait of `retryWait` ms doubling each time when the server
 * names none, and `maxRetryWait` the longest wait it accepts.
 *
 * @example
 * ```ts
 * const policy: RetryPolicy = { retries: 2, retryWait: 1000, maxRetryWait: 60_000 };
 * ```
 */
export interface RetryPolicy {
  readonly retries: number;
  readonly retryWait: number;
  readonly maxRetryWait: number;
}

/**
 * What to do after an answer that may be asked again: wait `wait` ms and
 * ask again; give up because the retries are spent; or give up because
 * the server asks for a wait longer than the maximum (`wait` is what it
 * asked for).
 *
 * @example
 * ```ts
 * const decision: RetryDecision = { type: "retry", wait: 2000, asked: true };
 * ```
 */
export type RetryDecision =
  | { readonly type: "retry"; readonly wait: number; readonly asked: boolean }
  | { readonly type: "retries-spent" }
  | { readonly type: "wait-too-long"; readonly wait: number };

/**
 * The decision after the `retried`-th retry (0: after the first attempt)
 * got an answer that may be asked again, with the `Retry-After` it
 * carried, if any (`asked` is then true). Without one, the wait is
 * `retryWait` × 2^retried, capped at `maxRetryWait`.
 *
 * The wait is checked against the maximum before the retries are: a 429
 * asking for an hour is "rate limited" even on the last attempt, since
 * that is what the server said.
 *
 * @example
 * ```ts
 * const policy = { retries: 2, retryWait: 1000, maxRetryWait: 60_000 };
 * decideRetry(policy, 0, null); // { type: "retry", wait: 1000, asked: false }
 * decideRetry(policy, 1, null); // { type: "retry", wait: 2000, asked: false }
 * decideRetry(policy, 0, 3_600_000); // { type: "wait-too-long", wait: 3600000 }
 * decideRetry(policy, 2, 1000); // { type: "retries-spent" }
 * ```
 */
export function decideRetry(policy: RetryPolicy, retried: number, retryAfter: number | null): RetryDecision {
  if (retryAfter !== null && retryAfter > policy.maxRetryWait) return { type: "wait-too-long", wait: retryAfter };
  if (retried >= policy.retries) return { type: "retries-spent" };
  if (retryAfter !== null) return { type: "retry", wait: retryAfter, asked: true };
  return { type: "retry", wait: Math.min(policy.maxRetryWait, policy.retryWait * 2 ** retried), asked: false };
}
