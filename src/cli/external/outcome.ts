/**
 * What the external-link checker says of a URL: the kinds of outcome, how
 * severe each is (broken, could not be checked, a warning, fine, skipped),
 * and the outcome record itself.
 *
 * @module
 */

import type { NetworkFailure, NetworkFailureKind } from "./http-exchange.ts";
import type { FragmentKind, FragmentResult } from "./page-fragments.ts";

/**
 * The kind of an outcome, by severity:
 *
 * - ok: `ok` (an accepted status, after temporary redirects if any);
 * - warning: `permanent-redirect` (the first answer is 301 or 308: the link
 *   should name the new URL, `movedTo`);
 * - error (broken): `bad-status` (a status not accepted: 404, 410, a 5xx
 *   after the retries), `redirect-loop`, `too-many-redirects`,
 *   `invalid-redirect` (a `Location` that is not a URL);
 * - unchecked (could not be checked): `dns-failure`, `tls-error`,
 *   `timeout`, `connection-refused`, `connection-reset`, `network-error`,
 *   `rate-limited` (429 after the retries, or a `Retry-After` beyond the
 *   maximum wait), `redirect-not-followed` (to an excluded URL, or to one
 *   that is not http: or https:);
 * - skipped (no request): `excluded`, `unsupported-scheme` (only http: and
 *   https: URLs are external links to check).
 *
 * A missing fragment is a fragment's kind (see {@link FragmentKind}); it
 * makes the outcome's `severity` "error".
 *
 * @example
 * ```ts
 * const kind: ExternalKind = "redirect-loop";
 * externalSeverity(kind); // "error"
 * ```
 */
export type ExternalKind =
  | "ok"
  | "permanent-redirect"
  | "bad-status"
  | "redirect-loop"
  | "too-many-redirects"
  | "invalid-redirect"
  | NetworkFailureKind
  | "rate-limited"
  | "redirect-not-followed"
  | "excluded"
  | "unsupported-scheme";

/**
 * How an outcome counts: `error` (broken), `unchecked` (could not be
 * checked: the network, not the link, is at fault — or the server would
 * not say), `warning`, `ok`, `skipped` (not asked).
 *
 * @example
 * ```ts
 * const severity: ExternalSeverity = "unchecked";
 * ```
 */
export type ExternalSeverity = "error" | "unchecked" | "warning" | "ok" | "skipped";

const SEVERITY: Readonly<Record<ExternalKind, ExternalSeverity>> = {
  ok: "ok",
  "permanent-redirect": "warning",
  "bad-status": "error",
  "redirect-loop": "error",
  "too-many-redirects": "error",
  "invalid-redirect": "error",
  "dns-failure": "unchecked",
  "tls-error": "unchecked",
  timeout: "unchecked",
  "connection-refused": "unchecked",
  "connection-reset": "unchecked",
  "network-error": "unchecked",
  "rate-limited": "unchecked",
  "redirect-not-followed": "unchecked",
  excluded: "skipped",
  "unsupported-scheme": "skipped",
};

const FRAGMENT_SEVERITY: Readonly<Record<FragmentKind, ExternalSeverity>> = {
  found: "ok",
  "missing-fragment": "error",
  "fragment-unchecked": "unchecked",
  "not-html": "skipped",
};

/** The order in which severities win: an outcome is as severe as its worst part. */
const RANK: Readonly<Record<ExternalSeverity, number>> = { skipped: 0, ok: 1, warning: 2, unchecked: 3, error: 4 };

/**
 * The severity of an outcome kind.
 *
 * @example
 * ```ts
 * externalSeverity("timeout"); // "unchecked"
 * externalSeverity("permanent-redirect"); // "warning"
 * ```
 */
export function externalSeverity(kind: ExternalKind): ExternalSeverity {
  return SEVERITY[kind];
}

/**
 * The severity of a URL's outcome with its fragments: the worst of its
 * kind's and its fragments' (a missing fragment is an error; a fragment
 * that could not be checked leaves the URL unchecked; a fragment into a
 * page that is not HTML counts for nothing).
 *
 * @example
 * ```ts
 * outcomeSeverity("ok", [{ fragment: "x", kind: "missing-fragment", detail: "" }]); // "error"
 * outcomeSeverity("permanent-redirect", [{ fragment: "page=2", kind: "not-html", detail: "" }]); // "warning"
 * ```
 */
export function outcomeSeverity(kind: ExternalKind, fragments: readonly FragmentResult[]): ExternalSeverity {
  let worst = SEVERITY[kind];
  for (const f of fragments) {
    const s = FRAGMENT_SEVERITY[f.kind];
    if (RANK[s] > RANK[worst]) worst = s;
  }
  return worst;
}

/**
 * One redirect on the way: the URL asked (without fragment), the status
 * of its answer, and the URL its `Location` leads to (resolved against the
 * URL asked, without fragment).
 *
 * @example
 * ```ts
 * const step: RedirectStep = { url: "http://example.com/a", status: 301, location: "https://example.com/a" };
 * ```
 */
export interface RedirectStep {
  readonly url: string;
  readonly status: number;
  readonly location: string;
}

/**
 * The outcome of one target: what was asked, what it led to, and what
 * that means. `target` is the object given to `check`, as it was given.
 *
 * @example
 * ```ts
 * const outcome: ExternalOutcome = {
 *   target: { url: "https://example.com/old#intro" }, url: "https://example.com/old",
 *   kind: "permanent-redirect", severity: "warning", message: "moved permanently (301) to https://example.com/new",
 *   status: 200, finalURL: "https://example.com/new", movedTo: "https://example.com/new",
 *   redirects: [{ url: "https://example.com/old", status: 301, location: "https://example.com/new" }],
 *   fragments: [{ fragment: "intro", kind: "found", detail: "an element with this ID" }],
 *   failure: null, retryAfter: null, attempts: 2, fromCache: false, checkedAt: 1767225600000,
 * };
 * ```
 */
export interface ExternalOutcome<T extends ExternalTarget = ExternalTarget> {
  readonly target: T;
  /** The URL asked: the target's URL, parsed and serialized without its fragment. */
  readonly url: string;
  readonly kind: ExternalKind;
  /** The worst of the kind's severity and the fragments' ({@link outcomeSeverity}). */
  readonly severity: ExternalSeverity;
  /** The kind in words, with the facts: "404 Not Found", "redirect loop: A → B → A". */
  readonly message: string;
  /** The status of the last answer, or null when there was none. */
  readonly status: number | null;
  /** The URL that gave the last answer (the URL asked, unless redirected). */
  readonly finalURL: string;
  /** For `permanent-redirect`: the URL the link should name now (where the leading permanent redirects end). */
  readonly movedTo: string | null;
  readonly redirects: readonly RedirectStep[];
  /** One result per fragment asked for, when fragments are checked and the URL is ok (or a warning). */
  readonly fragments: readonly FragmentResult[];
  /** For the network failures: what failed. */
  readonly failure: NetworkFailure | null;
  /** For `rate-limited`: the wait the server asked for, in ms, if it named one. */
  readonly retryAfter: number | null;
  /** The requests behind this answer (every attempt along the redirects; 0 when skipped or from the cache). Targets that lead to the same URLs share them. */
  readonly attempts: number;
  readonly fromCache: boolean;
  /** When the answer was had (ms since the epoch, the checker's clock); null when nothing was asked. */
  readonly checkedAt: number | null;
}

/**
 * What the checker is asked about: an absolute URL (its fragment, if any,
 * is one of the fragments to check) and the fragments the links to it ask
 * for (serialized, percent-encoded, without "#"). Any other properties
 * (the referrers, say) travel untouched to the outcome's `target`.
 *
 * @example
 * ```ts
 * const target: ExternalTarget = { url: "https://example.com/guide", fragments: new Set(["install", "usage"]) };
 * ```
 */
export interface ExternalTarget {
  readonly url: string;
  readonly fragments?: Iterable<string> | undefined;
}
