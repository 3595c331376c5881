/**
 * `docbase check`'s text report: findings grouped by target, each group a
 * heading (severity, type, target, how many places refer to it) and its
 * referrers as `file:line:column: type: message` lines.
 *
 * @module
 */

import { escapeControls, excerpt, plural } from "../../../format.ts";
import type { ReportedFinding } from "../finding.ts";
import { type FindingGroup, groupFindings, groupRank, isReference } from "./finding-groups.ts";
import { type FindingSource, numberKey } from "./finding-source.ts";

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
 * The text report, a piece at a time: per group, `error missing-file
 * https://example.com/nope.html (2 references)`, then each referrer
 * indented by two spaces.
 *
 * @example
 * ```ts
 * [...textReport(findingsInMemory(findings))].join("");
 * // "error missing-file https://example.com/nope.html (2 references)\n  site/a.html:4:10: missing-file: ...\n  site/b.html:7:3: missing-file: ...\n"
 * ```
 */
export function* textReport(source: FindingSource): Generator<string> {
  for (const line of source.sort(reportLines(source))) yield `${line.slice(line.indexOf("\t") + 1)}\n`;
}

/** The report's lines, each after its sort key (group rank, group's first place, the line's place: 0 for the heading), a tab. */
function* reportLines(source: FindingSource): Generator<string> {
  let group: FindingGroup | null = null;
  let prefix = "";
  let references = 0;
  // The heading counts the group's references: it is made after them, and sorted before them.
  const heading = (g: FindingGroup): string => `${prefix}${numberKey(0)}\t${g.severity} ${g.type} ${escapeControls(excerpt(g.target, 0, 0))} (${plural(Math.max(references, 1), "reference")})`;
  for (const grouped of groupFindings(source)) {
    if (grouped.group !== group) {
      if (group !== null) yield heading(group);
      group = grouped.group;
      prefix = numberKey(groupRank(group)) + numberKey(group.first);
      references = 0;
    }
    if (isReference(grouped.finding)) references++;
    yield `${prefix}${numberKey(grouped.place + 1)}\t  ${referrerLine(grouped.finding)}`;
  }
  if (group !== null) yield heading(group);
}
