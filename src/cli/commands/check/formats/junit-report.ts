/**
 * `docbase check --format junit`: the findings as a JUnit XML report, for
 * CI test reports (GitLab, Jenkins, Azure, GitHub actions that read
 * JUnit): a test case per file checked, a failure per finding that fails
 * the run, the other findings in the case's `system-out`.
 *
 * @module
 */

import type { ReportedFinding } from "../finding.ts";
import { type FindingSource, numberKey } from "./finding-source.ts";
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
 * The JUnit XML report, a piece at a time: `testsuites` > `testsuite
 * name="docbase check"` > one `testcase` per file (`classname`
 * "docbase.check", `name` the file), with a `failure` for each finding
 * that fails the run (type, message, file:line:column) and the rest in
 * `system-out`. The files are `files`, then those of findings in no
 * other (in the order found).
 *
 * @example
 * ```ts
 * [...junitReport(["site/a.html"], findingsInMemory(findings), summary)].join("");
 * // '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="docbase check" tests="1" failures="1" ...'
 * ```
 */
export function* junitReport(files: readonly string[], source: FindingSource, summary: CheckSummary): Generator<string> {
  const fails = (f: ReportedFinding): boolean => f.severity === "error" || summary.strict;
  // Each file's place in the report, and the files with a failure: counted in a first reading.
  const order = new Map<string, number>();
  for (const file of files) if (!order.has(file)) order.set(file, order.size);
  const failing = new Set<number>();
  for (const f of source.findings()) {
    let at = order.get(f.file);
    if (at === undefined) order.set(f.file, (at = order.size));
    if (fails(f)) failing.add(at);
  }
  const counts = `tests="${order.size}" failures="${failing.size}" errors="${summary.unreadable}"`;
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="docbase check" ${counts}>\n  <testsuite name="docbase check" ${counts} skipped="0">\n`;
  // Each file's failures, then its other findings, each in the order found: sorted by file, kind and place.
  const keyed = function* (): Generator<string> {
    let place = 0;
    for (const f of source.findings()) {
      const line = fails(f) ? `<failure type="${xmlText(f.type)}" message="${xmlText(`${f.line}:${f.column}: ${f.message}`)}">${xmlText(referrerLine(f))}</failure>` : xmlText(referrerLine(f));
      yield `${numberKey(order.get(f.file)!)}${fails(f) ? "0" : "1"}${numberKey(place++)}\t${line}`;
    }
  };
  const sorted = source.sort(keyed())[Symbol.iterator]();
  let next = sorted.next();
  for (const [file, at] of order) {
    const open = `    <testcase classname="docbase.check" name="${xmlText(file)}" file="${xmlText(file)}"`;
    const key = numberKey(at);
    if (next.done === true || !next.value.startsWith(key)) {
      yield `${open}/>\n`;
      continue;
    }
    yield `${open}>\n`;
    let others = false;
    for (; next.done !== true && next.value.startsWith(key); next = sorted.next()) {
      const line = next.value;
      const text = line.slice(line.indexOf("\t") + 1);
      if (line[16] === "0") yield `      ${text}\n`;
      else {
        // The other findings' lines, one system-out: its line feeds as XML writes them.
        yield others ? `&#10;${text}` : `      <system-out>${text}`;
        others = true;
      }
    }
    yield `${others ? "</system-out>\n" : ""}    </testcase>\n`;
  }
  yield `  </testsuite>\n</testsuites>\n`;
}
