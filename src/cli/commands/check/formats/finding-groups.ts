/**
 * Findings grouped by target: the same missing page, invalid URL or base
 * surprise referred to from many places is one group, with its referrers.
 *
 * @module
 */

import type { ReportedFinding } from "../finding.ts";
import { CATEGORIES, type FindingCategory, type Severity } from "../severity.ts";

/**
 * Findings of one kind about one target, in the order they were found.
 *
 * @example
 * ```ts
 * const group: FindingGroup = { severity: "error", category: "missing-file", type: "missing-file", target: "https://example.com/nope.html", findings: [] };
 * ```
 */
export interface FindingGroup {
  readonly severity: Severity;
  readonly category: FindingCategory;
  readonly type: string;
  /** The resolved URL (or, when it does not parse, the link's text; else the message). */
  readonly target: string;
  /** Its findings: one per link, and after a link's first validation error, its others. */
  readonly findings: ReportedFinding[];
}

/**
 * How many links a group's findings are about (a link's later validation
 * errors are not counted again).
 *
 * @example
 * ```ts
 * referenceCount(group); // 2
 * ```
 */
export function referenceCount(group: FindingGroup): number {
  let n = 0;
  for (const f of group.findings) if (f.value !== undefined || f.url !== undefined) n++;
  return Math.max(n, 1);
}

/**
 * The findings grouped by severity, type and target: errors first, then by
 * category (in the order of `FINDING_CATEGORIES`), then as first found.
 *
 * @example
 * ```ts
 * groupFindings(findings)[0]!.findings.length; // the referrers of the first error's target
 * ```
 */
export function groupFindings(findings: readonly ReportedFinding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  // The group of the last finding of each file and category.
  let last = new Map<string, FindingGroup>();
  let file = "";
  for (const f of findings) {
    if (f.file !== file) {
      file = f.file;
      last = new Map();
    }
    // A link's second and later validation errors carry neither value nor URL (see checkDocument): they join its first's group.
    const previous = f.value === undefined && f.url === undefined ? last.get(f.category) : undefined;
    if (previous !== undefined) {
      previous.findings.push(f);
      continue;
    }
    const target = f.url ?? f.value ?? f.message;
    const key = `${f.type}\0${target}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { severity: f.severity, category: f.category, type: f.type, target, findings: [] };
      groups.set(key, group);
    }
    group.findings.push(f);
    last.set(f.category, group);
  }
  const rank = (g: FindingGroup): number => (g.severity === "error" ? 0 : CATEGORIES.length) + CATEGORIES.indexOf(g.category);
  return [...groups.values()].sort((a, b) => rank(a) - rank(b));
}
