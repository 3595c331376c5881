/**
 * What the external-link checker says of a URL: the outcome, its kind and
 * its severity.
 *
 * @module
 */

import type { NetworkFailure, NetworkFailureKind } from "./http-exchange.ts";
import type { FragmentKind, FragmentResult } from "./page-fragments.ts";

/**
 * The kind of an outcome (its severity: {@link externalSeverity}). Not
 * obvious: `permanent-redirect` (the first answer is 301 or 308: the link
 * should name `movedTo`), `bad-status` (not accepted, or a 5xx after the
 * retries), `rate-limited` (429 after the retries, or a `Retry-After`
 * beyond the maximum wait), `redirect-not-followed` (to an excluded or
 * non-http(s) URL). A missing fragment is a {@link FragmentKind}.
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
 * How an outcome counts: `error` (broken), `unchecked` (the network or the
 * server would not say), `warning`, `ok`, `skipped` (not asked).
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
 * The severity of a URL's outcome: the worst of its kind's and its
 * fragments' (a fragment into a page that is not HTML counts for nothing).
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
 * One redirect: the URL asked, its status, and the URL its `Location`
 * leads to (resolved, without fragment).
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
 * The outcome of one target (`target`: the object given to `check`).
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
  /** The target's URL, serialized without its fragment. */
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
  /** For `permanent-redirect`: where the leading permanent redirects end. */
  readonly movedTo: string | null;
  readonly redirects: readonly RedirectStep[];
  /** One result per fragment asked for, when fragments are checked and the URL is ok (or a warning). */
  readonly fragments: readonly FragmentResult[];
  /** For the network failures: what failed. */
  readonly failure: NetworkFailure | null;
  /** For `rate-limited`: the wait the server asked for, in ms, if it named one. */
  readonly retryAfter: number | null;
  /** The requests behind this answer, shared by targets that lead to the same URLs (0 when skipped or cached). */
  readonly attempts: number;
  readonly fromCache: boolean;
  /** When the answer was had (ms since the epoch, the checker's clock); null when nothing was asked. */
  readonly checkedAt: number | null;
}

/**
 * What the checker is asked about: an absolute URL (its fragment checked
 * too) and the fragments asked for (serialized, without "#"); any other
 * properties travel untouched to the outcome's `target`.
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
