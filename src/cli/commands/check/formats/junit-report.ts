/**
 * `docbase check --format junit`: the findings as a JUnit XML report, for
 * CI test reports (GitLab, Jenkins, Azure, GitHub actions that read
 * JUnit): a test case per file checked, a failure per finding that fails
 * the run, the other findings in the case's `system-out`.
 *
 * @module
 */

import type { ReportedFinding } from "../finding.ts";
import type { CheckSummary } from "../check-summary.ts";
import { referrerLine } from "./text-report.ts";

/**
 * Text as XML 1.0 character data or an attribute value: markup characters
 * escaped, and the characters XML 1.0 cannot carry at all (C0 controls but
 * tab, LF, CR; lone surrogates; U+FFFE, U+FFFF) replaced by U+FFFD.
 */
function xmlText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

/**
 * The JUnit XML report: `testsuites` > `testsuite name="docbase check"` >
 * one `testcase` per file (`classname` "docbase.check", `name` the file),
 * with a `failure` for each finding that fails the run (type, message,
 * file:line:column) and the rest in `system-out`.
 *
 * @example
 * ```ts
 * junitReport(["site/a.html"], findings, summary);
 * // '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="docbase check" tests="1" failures="1" ...'
 * ```
 */
export function junitReport(files: readonly string[], findings: readonly ReportedFinding[], summary: CheckSummary): string {
  const byFile = new Map<string, ReportedFinding[]>();
  for (const file of files) byFile.set(file, []);
  for (const f of findings) {
    let list = byFile.get(f.file);
    if (list === undefined) byFile.set(f.file, (list = []));
    list.push(f);
  }
  const fails = (f: ReportedFinding): boolean => f.severity === "error" || summary.strict;
  const cases: string[] = [];
  let failed = 0;
  for (const [file, list] of byFile) {
    const failures = list.filter(fails);
    const others = list.filter((f) => !fails(f));
    if (failures.length > 0) failed++;
    const body = [
      ...failures.map((f) => `      <failure type="${xmlText(f.type)}" message="${xmlText(`${f.line}:${f.column}: ${f.message}`)}">${xmlText(referrerLine(f))}</failure>`),
      ...(others.length === 0 ? [] : [`      <system-out>${xmlText(others.map(referrerLine).join("\n"))}</system-out>`]),
    ];
    const open = `    <testcase classname="docbase.check" name="${xmlText(file)}" file="${xmlText(file)}"`;
    cases.push(body.length === 0 ? `${open}/>` : `${open}>\n${body.join("\n")}\n    </testcase>`);
  }
  const counts = `tests="${byFile.size}" failures="${failed}" errors="${summary.unreadable}"`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="docbase check" ${counts}>`,
    `  <testsuite name="docbase check" ${counts} skipped="0">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
