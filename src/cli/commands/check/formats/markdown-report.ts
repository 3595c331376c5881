/**
 * `docbase check --format markdown`: the findings for a pull-request
 * comment: the summary, then a table per severity, one row per target
 * with its referrers.
 *
 * @module
 */

import { excerpt, plural } from "../../../format.ts";
import type { CheckSummary } from "../check-summary.ts";
import { summaryWords } from "../check-summary.ts";
import type { ReportedFinding } from "../finding.ts";
import { groupFindings } from "./finding-groups.ts";

/** Text in a Markdown table cell, as code: no "|" or newline breaks the row, no backtick ends the code span. */
function codeCell(text: string): string {
  const clean = text.replace(/[\r\n]+/g, " ").replace(/\|/g, "\\|");
  const ticks = /`+/g.test(clean) ? "``" : "`";
  return `${ticks} ${clean} ${ticks}`;
}

/** Plain text in a Markdown table cell. */
function textCell(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/([\\|*_<>[\]`])/g, "\\$1");
}

/** How many referrers a row lists before "and N more". */
const MAX_REFERRERS = 10;

/**
 * The Markdown report.
 *
 * @example
 * ```ts
 * markdownReport(findings, summary);
 * // "## docbase check: 1 error (1 missing file)\n\n### Errors\n\n| type | target | referrers |\n..."
 * ```
 */
export function markdownReport(findings: readonly ReportedFinding[], summary: CheckSummary): string {
  const lines = [`## docbase check: ${summaryWords(summary)}`, "", `${plural(summary.files, "file")}, ${plural(summary.links, "link")}${summary.unreadable > 0 ? `; ${plural(summary.unreadable, "file")} could not be read` : ""}.`];
  const groups = groupFindings(findings);
  for (const severity of ["error", "warning"] as const) {
    const these = groups.filter((g) => g.severity === severity);
    if (these.length === 0) continue;
    lines.push("", `### ${severity === "error" ? "Errors" : "Warnings"}`, "", "| type | target | referrers |", "| --- | --- | --- |");
    for (const g of these) {
      const references = g.findings.filter((f) => f.value !== undefined || f.url !== undefined);
      const shown = references.slice(0, MAX_REFERRERS).map((f) => codeCell(`${f.file}:${f.line}:${f.column}`));
      if (references.length > MAX_REFERRERS) shown.push(`and ${references.length - MAX_REFERRERS} more`);
      lines.push(`| ${textCell(g.type)} | ${codeCell(excerpt(g.target, 0, 0))} | ${shown.join("<br>")} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
