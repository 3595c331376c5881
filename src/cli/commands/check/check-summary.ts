/**
 * The summary of a `docbase check` run: the counts by severity and by
 * category, whether the run fails, as one object (the last JSON line) and
 * as the line on standard error.
 *
 * @module
 */

import type { ExternalSummary } from "../../external/index.ts";
import { plural } from "../../format.ts";
import { CATEGORIES, FINDING_CATEGORIES, type FindingCategory, failsRun, type Severity } from "./severity.ts";

/**
 * The summary of a run: files and links read, findings by severity and
 * by category, files that could not be read, and whether the run fails.
 *
 * @example
 * ```ts
 * const summary: CheckSummary = {
 *   type: "summary", files: 13, links: 64, errors: 5, warnings: 4, unreadable: 0, strict: false, failed: true,
 *   categories: { "invalid-url": 2, "missing-file": 3, "url-validation": 1, "base-url": 3 },
 * };
 * ```
 */
export interface CheckSummary {
  readonly type: "summary";
  readonly files: number;
  readonly links: number;
  readonly errors: number;
  readonly warnings: number;
  /** Findings by category (only the categories found). */
  readonly categories: Readonly<Partial<Record<FindingCategory, number>>>;
  /** Files (and directories) that could not be read, decoded or written. */
  readonly unreadable: number;
  /** Whether warnings fail the run (`--strict`). */
  readonly strict: boolean;
  /** Whether the run fails (exit code 1). */
  readonly failed: boolean;
  /** With `--external`: the URLs asked, by outcome (broken apart from could-not-be-checked), and the requests made. */
  readonly external?: ExternalSummary | undefined;
}

/**
 * The summary of a run from its summed counts (see `checkWork`: one count
 * per category, `files`, `links`) and the files that failed.
 *
 * @example
 * ```ts
 * checkSummary({ files: 2, links: 9, "missing-file": 1 }, 0, false).failed; // true
 * ```
 */
export function checkSummary(counts: Readonly<Record<string, number>>, unreadable: number, strict: boolean, external: ExternalSummary | null = null): CheckSummary {
  const categories: Partial<Record<FindingCategory, number>> = {};
  const by: Record<Severity, number> = { error: 0, warning: 0 };
  for (const category of CATEGORIES) {
    const n = counts[category] ?? 0;
    if (n === 0) continue;
    categories[category] = n;
    by[FINDING_CATEGORIES[category].severity] += n;
  }
  const failed = failsRun({ errors: by.error, warnings: by.warning }, strict) || unreadable > 0;
  const summary: CheckSummary = { type: "summary", files: counts["files"] ?? 0, links: counts["links"] ?? 0, errors: by.error, warnings: by.warning, categories, unreadable, strict, failed };
  return external === null ? summary : { ...summary, external };
}

/**
 * The findings of a summary in words: "2 errors (1 invalid URL, 1 missing
 * file), 3 warnings (3 base-URL surprises)", or "no problems".
 *
 * @example
 * ```ts
 * summaryWords(checkSummary({ "missing-file": 2 }, 0, false)); // "2 errors (2 missing files)"
 * ```
 */
export function summaryWords(summary: CheckSummary): string {
  const part = (severity: Severity, count: number): string => {
    const kinds = CATEGORIES.filter((c) => FINDING_CATEGORIES[c].severity === severity && (summary.categories[c] ?? 0) > 0).map((c) => plural(summary.categories[c]!, FINDING_CATEGORIES[c].noun));
    return `${plural(count, severity)} (${kinds.join(", ")})`;
  };
  const parts: string[] = [];
  if (summary.errors > 0) parts.push(part("error", summary.errors));
  if (summary.warnings > 0) parts.push(part("warning", summary.warnings) + (summary.strict ? ", failing the run (--strict)" : ""));
  return parts.length === 0 ? "no problems" : parts.join(", ");
}
