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
import type { Severity } from "../severity.ts";
import { type FindingGroup, groupFindings, groupRank, isReference } from "./finding-groups.ts";
import { type FindingSource, numberKey } from "./finding-source.ts";

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
 * The Markdown report, a piece at a time.
 *
 * @example
 * ```ts
 * [...markdownReport(findingsInMemory(findings), summary)].join("");
 * // "## docbase check: 1 error (1 missing file)\n\n### Errors\n\n| type | target | referrers |\n..."
 * ```
 */
export function* markdownReport(source: FindingSource, summary: CheckSummary): Generator<string> {
  yield `## docbase check: ${summaryWords(summary)}\n\n${plural(summary.files, "file")}, ${plural(summary.links, "link")}${summary.unreadable > 0 ? `; ${plural(summary.unreadable, "file")} could not be read` : ""}.\n`;
  let severity: Severity | null = null;
  for (const line of source.sort(rows(source))) {
    const tab = line.indexOf("\t");
    const these: Severity = line[tab + 1] === "e" ? "error" : "warning";
    if (these !== severity) {
      severity = these;
      yield `\n### ${severity === "error" ? "Errors" : "Warnings"}\n\n| type | target | referrers |\n| --- | --- | --- |\n`;
    }
    yield `${line.slice(tab + 2)}\n`;
  }
}

/** A row per group, after its sort key (group rank, group's first place), a tab and its severity's initial. */
function* rows(source: FindingSource): Generator<string> {
  let group: FindingGroup | null = null;
  let shown: string[] = [];
  let references = 0;
  const row = (g: FindingGroup): string => {
    if (references > MAX_REFERRERS) shown.push(`and ${references - MAX_REFERRERS} more`);
    return `${numberKey(groupRank(g))}${numberKey(g.first)}\t${g.severity === "error" ? "e" : "w"}| ${textCell(g.type)} | ${codeCell(excerpt(g.target, 0, 0))} | ${shown.join("<br>")} |`;
  };
  for (const { group: g, finding: f } of groupFindings(source)) {
    if (g !== group) {
      if (group !== null) yield row(group);
      group = g;
      shown = [];
      references = 0;
    }
    if (!isReference(f)) continue;
    if (++references <= MAX_REFERRERS) shown.push(codeCell(`${f.file}:${f.line}:${f.column}`));
  }
  if (group !== null) yield row(group);
}
