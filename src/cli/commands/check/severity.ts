/**
 * The kinds of `docbase check` findings and how severe each is: an error
 * fails the run; a warning is shown and fails it only with `--strict`.
 * Adding a kind of finding is one line in {@link FINDING_CATEGORIES}.
 *
 * @module
 */

/**
 * How much a finding counts: `error` fails the run, `warning` fails it
 * only with `--strict`.
 *
 * @example
 * ```ts
 * const severity: Severity = "warning";
 * ```
 */
export type Severity = "error" | "warning";

/**
 * Every category of finding, with its severity and its name in the
 * summary (singular). The one place a kind of finding is declared.
 *
 * @example
 * ```ts
 * FINDING_CATEGORIES["missing-file"].severity; // "error"
 * ```
 */
export const FINDING_CATEGORIES = {
  /** A link whose URL does not parse (its validation errors): no browser can follow it. */
  "invalid-url": { severity: "error", noun: "invalid URL" },
  /** A link to a file that is not in the site. */
  "missing-file": { severity: "error", noun: "missing file" },
  /** A link to a directory of the site that has no index file (`--index-files`). */
  "missing-index": { severity: "error", noun: "missing index file" },
  /** A link that the site's `_redirects` sends to a page the site does not have (or round a loop). */
  "redirect-to-missing": { severity: "error", noun: "broken redirect" },
  /** A link whose fragment names no element of its page. */
  "missing-fragment": { severity: "error", noun: "missing fragment" },
  /** An external link that is broken (`--external`: a 404, a redirect loop, …). */
  "external-broken": { severity: "error", noun: "broken external link" },
  /** Validation errors of a URL that parses: every browser follows it. */
  "url-validation": { severity: "warning", noun: "URL validation warning" },
  /** A `<base>` that is ignored, misplaced, or after links it changes. */
  "base-url": { severity: "warning", noun: "base-URL surprise" },
  /** A part of the document not read (a srcdoc document nested too deep). */
  limit: { severity: "warning", noun: "too-deep srcdoc document" },
  /** An external link that could not be checked (DNS, TLS, timeout, rate limit). */
  "external-unchecked": { severity: "warning", noun: "unchecked external link" },
  /** An external link that works but should change (a permanent redirect). */
  "external-warning": { severity: "warning", noun: "external-link warning" },
} as const satisfies Record<string, { readonly severity: Severity; readonly noun: string }>;

/**
 * A category of finding (a key of {@link FINDING_CATEGORIES}).
 *
 * @example
 * ```ts
 * const category: FindingCategory = "base-url";
 * ```
 */
export type FindingCategory = keyof typeof FINDING_CATEGORIES;

/**
 * The categories, errors first, in the table's order.
 *
 * @example
 * ```ts
 * CATEGORIES[0]; // "invalid-url"
 * ```
 */
export const CATEGORIES: readonly FindingCategory[] = Object.keys(FINDING_CATEGORIES) as FindingCategory[];

/**
 * The severity of a category of finding.
 *
 * @example
 * ```ts
 * severityOf("url-validation"); // "warning"
 * severityOf("invalid-url"); // "error"
 * ```
 */
export function severityOf(category: FindingCategory): Severity {
  return FINDING_CATEGORIES[category].severity;
}

/**
 * Whether findings of these counts fail the run: any error, or with
 * `strict` any warning.
 *
 * @example
 * ```ts
 * failsRun({ errors: 0, warnings: 2 }, false); // false
 * failsRun({ errors: 0, warnings: 2 }, true); // true
 * ```
 */
export function failsRun(counts: { readonly errors: number; readonly warnings: number }, strict: boolean): boolean {
  return counts.errors > 0 || (strict && counts.warnings > 0);
}
