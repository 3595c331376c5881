/**
 * `docbase check`'s text report: findings grouped by target, each group a
 * heading (severity, type, target, how many places refer to it) and its
 * referrers as `file:line:column: type: message` lines.
 *
 * @module
 */

import { escapeControls, excerpt, plural } from "../../../format.ts";
import type { ReportedFinding } from "../finding.ts";
import { groupFindings, referenceCount } from "./finding-groups.ts";

/**
 * One referrer as a line: `file:line:column: type: message`.
 *
 * @example
 * ```ts
 * referrerLine(finding); // "site/a.html:4:10: missing-file: <a href> nope.html → ...: no file nope.html in the site"
 * ```
 */
export function referrerLine(f: ReportedFinding): string {
  return `${escapeControls(f.file)}:${f.line}:${f.column}: ${f.type}: ${escapeControls(f.message)}`;
}

/**
 * The text report: per group, `error missing-file https://example.com/nope.html (2 references)`,
 * then each referrer indented by two spaces.
 *
 * @example
 * ```ts
 * textReport(findings);
 * // "error missing-file https://example.com/nope.html (2 references)\n  site/a.html:4:10: missing-file: ...\n  site/b.html:7:3: missing-file: ...\n"
 * ```
 */
export function textReport(findings: readonly ReportedFinding[]): string {
  const lines: string[] = [];
  for (const group of groupFindings(findings)) {
    lines.push(`${group.severity} ${group.type} ${escapeControls(excerpt(group.target, 0, 0))} (${plural(referenceCount(group), "reference")})`);
    for (const f of group.findings) lines.push(`  ${referrerLine(f)}`);
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
