/**
 * `docbase check --external`: the site's links to other sites, each URL
 * asked once by the external-link checker (`src/cli/external/`), and its
 * outcome reported at each link to it, as a finding with its severity.
 *
 * @module
 */

import { createExternalChecker, type ExternalCheckerOptions, type ExternalLinkGroup, type ExternalOutcome, externalSeverity, type ExternalSummary, groupExternalLinks, summarizeExternal } from "../../external/index.ts";
import { excerpt, formatValue } from "../../format.ts";
import type { ReportedFinding } from "./finding.ts";
import type { FindingCategory } from "./severity.ts";

/**
 * A link to another site, where it is: what crosses from a worker.
 *
 * @example
 * ```ts
 * const ref: ExternalRef = { url: "https://example.org/a#b", file: "site/index.html", line: 3, column: 10, element: "a", attribute: "href", value: "https://example.org/a#b" };
 * ```
 */
export interface ExternalRef {
  readonly url: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly element: string;
  readonly attribute: string | null;
  readonly value: string;
}

/** The category of an outcome's severity; null for ok and skipped. */
function categoryOf(severity: string): FindingCategory | null {
  return severity === "error" ? "external-broken" : severity === "unchecked" ? "external-unchecked" : severity === "warning" ? "external-warning" : null;
}

function finding(ref: ExternalRef, category: FindingCategory, type: string, what: string): ReportedFinding {
  const severity = category === "external-broken" ? "error" : "warning";
  return {
    file: ref.file,
    line: ref.line,
    column: ref.column,
    type,
    category,
    severity,
    message: `<${ref.element}${ref.attribute === null ? "" : ` ${ref.attribute}`}> ${formatValue(excerpt(ref.value, 0, 0))}: ${what}`,
    element: ref.element,
    attribute: ref.attribute,
    value: ref.value,
    url: ref.url,
  };
}

/** The findings of one URL's outcome: at every link to it (the URL's own), and at the links asking for each fragment that is missing or could not be checked. */
function outcomeFindings(outcome: ExternalOutcome<ExternalLinkGroup<ExternalRef>>, found: ReportedFinding[]): void {
  const whole = categoryOf(externalSeverity(outcome.kind));
  if (whole !== null) {
    const what = outcome.movedTo !== null ? `${outcome.message} (link to ${outcome.movedTo})` : outcome.message;
    for (const ref of outcome.target.referrers) found.push(finding(ref, whole, outcome.kind, what));
  }
  for (const f of outcome.fragments) {
    const category = f.kind === "missing-fragment" ? "external-broken" : f.kind === "fragment-unchecked" ? "external-unchecked" : null;
    if (category === null) continue;
    for (const ref of outcome.target.fragmentReferrers.get(f.fragment) ?? []) found.push(finding(ref, category, f.kind, `#${f.fragment}: ${f.detail}`));
  }
}

/**
 * Checks the external links `refs` (one request per URL, within the
 * checker's limits) and gives the findings, sorted by file, line and
 * column, and the checker's summary; `onWarning` hears the checker's
 * warnings (the cache file's).
 *
 * @example
 * ```ts
 * const { findings, summary } = await checkExternalLinks(refs, { timeout: 5000, fragments: true }, (w) => output.err(w.message));
 * ```
 */
export async function checkExternalLinks(refs: readonly ExternalRef[], options: ExternalCheckerOptions, onWarning: (message: string) => void): Promise<{ findings: ReportedFinding[]; summary: ExternalSummary }> {
  const checker = createExternalChecker({ ...options, onWarning: (warning) => onWarning(warning.message) });
  const outcomes: ExternalOutcome[] = [];
  const found: ReportedFinding[] = [];
  try {
    for await (const outcome of checker.check(groupExternalLinks(refs))) {
      outcomes.push(outcome);
      outcomeFindings(outcome, found);
    }
  } finally {
    await checker.close();
  }
  found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
  return { findings: found, summary: summarizeExternal(outcomes, checker.stats.requests) };
}
