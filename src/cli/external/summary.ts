/**
 * The summary of an external-link check: URLs counted by severity and by
 * kind, and as lines of text.
 *
 * @module
 */

import type { ExternalKind, ExternalOutcome, ExternalSeverity } from "./outcome.ts";
import type { FragmentKind } from "./page-fragments.ts";

/**
 * The counts of a check: each URL once, by severity; `kinds` counts the
 * outcome kinds and the fragments missing or unchecked.
 *
 * @example
 * ```ts
 * const summary: ExternalSummary = {
 *   urls: 3, ok: 1, warnings: 0, broken: 1, unchecked: 1, skipped: 0, fromCache: 1, requests: 4,
 *   kinds: { ok: 2, timeout: 1, "missing-fragment": 1 },
 * };
 * ```
 */
export interface ExternalSummary {
  readonly urls: number;
  readonly ok: number;
  readonly warnings: number;
  readonly broken: number;
  readonly unchecked: number;
  readonly skipped: number;
  readonly fromCache: number;
  readonly requests: number;
  readonly kinds: Readonly<Partial<Record<ExternalKind | "missing-fragment" | "fragment-unchecked", number>>>;
}

const FIELD: Readonly<Record<ExternalSeverity, "ok" | "warnings" | "broken" | "unchecked" | "skipped">> = {
  ok: "ok",
  warning: "warnings",
  error: "broken",
  unchecked: "unchecked",
  skipped: "skipped",
};

/**
 * Counts `outcomes`; `requests` is the checker's count (`checker.stats.requests`).
 *
 * @example
 * ```ts
 * summarizeExternal(outcomes, checker.stats.requests).broken; // 1
 * ```
 */
export function summarizeExternal(outcomes: Iterable<ExternalOutcome>, requests: number): ExternalSummary {
  const counts = { urls: 0, ok: 0, warnings: 0, broken: 0, unchecked: 0, skipped: 0, fromCache: 0 };
  const kinds: Partial<Record<ExternalKind | FragmentKind, number>> = {};
  for (const outcome of outcomes) {
    counts.urls++;
    counts[FIELD[outcome.severity]]++;
    if (outcome.fromCache) counts.fromCache++;
    kinds[outcome.kind] = (kinds[outcome.kind] ?? 0) + 1;
    for (const f of outcome.fragments) {
      if (f.kind === "missing-fragment" || f.kind === "fragment-unchecked") kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
    }
  }
  return { ...counts, requests, kinds };
}

/** The kinds of each group of the text, in the order they are listed. */
const GROUPS: ReadonlyArray<readonly [string, ReadonlyArray<ExternalKind | "missing-fragment" | "fragment-unchecked">]> = [
  ["broken", ["bad-status", "redirect-loop", "too-many-redirects", "invalid-redirect", "missing-fragment"]],
  ["could not be checked", ["dns-failure", "tls-error", "timeout", "connection-refused", "connection-reset", "network-error", "rate-limited", "redirect-not-followed", "fragment-unchecked"]],
  ["warnings", ["permanent-redirect"]],
  ["skipped", ["excluded", "unsupported-scheme"]],
];

/**
 * The summary as lines of text: the totals, then each group that has any
 * kinds, counted.
 *
 * @example
 * ```ts
 * formatExternalSummary(summary);
 * // "external links: 3 URLs: 1 ok, 1 broken, 1 could not be checked (1 from the cache, 4 requests)\n" +
 * // "  broken: 1 missing-fragment\n" +
 * // "  could not be checked: 1 timeout"
 * ```
 */
export function formatExternalSummary(summary: ExternalSummary): string {
  const parts = [`${summary.ok} ok`];
  if (summary.warnings > 0) parts.push(`${summary.warnings} ${summary.warnings === 1 ? "warning" : "warnings"}`);
  if (summary.broken > 0) parts.push(`${summary.broken} broken`);
  if (summary.unchecked > 0) parts.push(`${summary.unchecked} could not be checked`);
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped`);
  const lines = [
    `external links: ${summary.urls} ${summary.urls === 1 ? "URL" : "URLs"}: ${parts.join(", ")} (${summary.fromCache} from the cache, ${summary.requests} ${summary.requests === 1 ? "request" : "requests"})`,
  ];
  for (const [label, kinds] of GROUPS) {
    const counted = kinds.filter((k) => (summary.kinds[k] ?? 0) > 0).map((k) => `${summary.kinds[k]} ${k}`);
    if (counted.length > 0) lines.push(`  ${label}: ${counted.join(", ")}`);
  }
  return lines.join("\n");
}

