/**
 * `docbase check --format sarif`: the findings as a SARIF 2.1.0 log, for
 * GitHub code scanning and other SARIF viewers: one result per finding at
 * its file:line:column, one rule per finding type.
 *
 * https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
 *
 * @module
 */

import type { FindingSource } from "./finding-source.ts";

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

/** A SARIF rule: one per finding type. */
interface Rule {
  readonly id: string;
  readonly name: string;
  readonly shortDescription: { readonly text: string };
  readonly defaultConfiguration: { readonly level: string };
  readonly properties: { readonly category: string };
}

/**
 * The SARIF 2.1.0 log of a run's findings, as JSON text, a piece at a
 * time: the rules are gathered in a first reading of the findings, the
 * results written as they come in a second.
 *
 * @example
 * ```ts
 * JSON.parse([...sarifReport(findingsInMemory(findings), "1.0.0")].join("")).runs[0].results[0].locations[0].physicalLocation.region;
 * // { startLine: 4, startColumn: 10 }
 * ```
 */
export function* sarifReport(source: FindingSource, version: string): Generator<string> {
  const rules: Rule[] = [];
  const ruleIndex = new Map<string, number>();
  for (const f of source.findings()) {
    if (ruleIndex.has(f.type)) continue;
    ruleIndex.set(f.type, rules.length);
    rules.push({ id: f.type, name: f.type, shortDescription: { text: `${f.category}: ${f.type}` }, defaultConfiguration: { level: f.severity }, properties: { category: f.category } });
  }
  // The log as JSON.stringify(log, null, 2) writes it, its results spliced in where a mark stands.
  const MARK = "\u0000results";
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{ tool: { driver: { name: "docbase", version, informationUri: INFORMATION_URI, rules } }, columnKind: "unicodeCodePoints", results: rules.length === 0 ? [] : [MARK] }],
  };
  const text = JSON.stringify(log, null, 2);
  if (rules.length === 0) {
    yield `${text}\n`;
    return;
  }
  const mark = text.indexOf(JSON.stringify(MARK));
  const lineStart = text.lastIndexOf("\n", mark) + 1;
  const indent = text.slice(lineStart, mark);
  let first = true;
  yield text.slice(0, lineStart);
  for (const f of source.findings()) {
    const result = {
      ruleId: f.type,
      ruleIndex: ruleIndex.get(f.type)!,
      level: f.severity,
      message: { text: f.message },
      locations: [{ physicalLocation: { artifactLocation: { uri: artifactURI(f.file) }, region: { startLine: f.line, startColumn: f.column } } }],
      properties: { category: f.category, element: f.element, attribute: f.attribute, ...(f.url === undefined ? {} : { url: f.url }) },
    };
    yield `${first ? "" : ",\n"}${indent}${JSON.stringify(result, null, 2).replace(/\n/g, `\n${indent}`)}`;
    first = false;
  }
  yield `${text.slice(mark + JSON.stringify(MARK).length)}\n`;
}
