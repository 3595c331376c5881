/**
 * `docbase check --format sarif`: the findings as a SARIF 2.1.0 log, for
 * GitHub code scanning and other SARIF viewers: one result per finding at
 * its file:line:column, one rule per finding type.
 *
 * https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
 *
 * @module
 */

import type { ReportedFinding } from "../finding.ts";

/** Where the tool is described. */
const INFORMATION_URI = "https://github.com/docbase/docbase#docbase-check";

/**
 * A file path as a SARIF `artifactLocation.uri`: a relative reference with
 * "/" separators, each segment percent-encoded where a URI needs it.
 */
function artifactURI(file: string): string {
  return file
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/**
 * The SARIF 2.1.0 log of a run's findings, as JSON text.
 *
 * @example
 * ```ts
 * JSON.parse(sarifReport(findings, "1.0.0")).runs[0].results[0].locations[0].physicalLocation.region;
 * // { startLine: 4, startColumn: 10 }
 * ```
 */
export function sarifReport(findings: readonly ReportedFinding[], version: string): string {
  const rules: { id: string; name: string; shortDescription: { text: string }; defaultConfiguration: { level: string }; properties: { category: string } }[] = [];
  const ruleIndex = new Map<string, number>();
  const results = findings.map((f) => {
    let index = ruleIndex.get(f.type);
    if (index === undefined) {
      index = rules.length;
      ruleIndex.set(f.type, index);
      rules.push({ id: f.type, name: f.type, shortDescription: { text: `${f.category}: ${f.type}` }, defaultConfiguration: { level: f.severity }, properties: { category: f.category } });
    }
    return {
      ruleId: f.type,
      ruleIndex: index,
      level: f.severity,
      message: { text: f.message },
      locations: [{ physicalLocation: { artifactLocation: { uri: artifactURI(f.file) }, region: { startLine: f.line, startColumn: f.column } } }],
      properties: { category: f.category, element: f.element, attribute: f.attribute, ...(f.url === undefined ? {} : { url: f.url }) },
    };
  });
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{ tool: { driver: { name: "docbase", version, informationUri: INFORMATION_URI, rules } }, columnKind: "unicodeCodePoints", results }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
