/**
 * The external-link checker of `docbase check --external`, with outcomes
 * that keep what is broken apart from what could not be checked.
 *
 * @example
 * ```ts
 * import { createExternalChecker, formatExternalSummary, groupExternalLinks, summarizeExternal } from "./external/index.ts";
 * const checker = createExternalChecker({ fragments: true, cache: { file: ".docbase-cache.json", maxAge: 3_600_000 } });
 * const outcomes = [];
 * for await (const outcome of checker.check(groupExternalLinks(links))) outcomes.push(outcome);
 * await checker.close();
 * console.log(formatExternalSummary(summarizeExternal(outcomes, checker.stats.requests)));
 * ```
 *
 * @module
 */

export { createExternalChecker, type ExternalChecker } from "./external-checker.ts";
export { ExternalCheckerError, isExternalCheckerError } from "./errors.ts";
export { EXTERNAL_DEFAULTS, parseStatusRanges, type ExternalCheckerOptions, type ExternalWarning } from "./options.ts";
export { externalSeverity, outcomeSeverity, type ExternalKind, type ExternalOutcome, type ExternalSeverity, type ExternalTarget, type RedirectStep } from "./outcome.ts";
export type { FragmentKind, FragmentResult } from "./page-fragments.ts";
export type { NetworkFailure, NetworkFailureKind } from "./http-exchange.ts";
export { groupExternalLinks, type ExternalLinkGroup } from "./group-links.ts";
export { formatExternalSummary, summarizeExternal, type ExternalSummary } from "./summary.ts";
