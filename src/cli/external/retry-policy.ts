/**
 * When the external-link checker asks a URL again, and how long it waits first.
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
 * https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3 — the wait in ms
 * a `Retry-After` value asks for (a past date: 0), or null when it is
 * absent or malformed. `Retry-After = HTTP-date / delay-seconds`.
 *
 * @example
 * ```ts
 * const now = Date.UTC(2026, 0, 1);
 * parseRetryAfter("120", now); // 120000
 * parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now); // 3000
 * parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now); // 0
 * parseRetryAfter("-1", now); // null
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
 * How many more attempts (`retries`), the first wait when the server
 * names none (`retryWait`, doubling), and the longest wait accepted.
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
 * What to do after an answer that may be asked again: wait and retry
 * (`asked`: the server named the wait), or give up.
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
 * The decision after the `retried`-th retry (0: the first attempt) got an
 * answer that may be asked again, with its `Retry-After` wait, if any.
 * That wait is checked before the retries: a 429 asking for an hour is
 * "rate limited" even on the last attempt, since the server said so.
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
