/**
 * One thing `docbase check` reports, and how it is printed: a line
 * `file:line:column: type: message`, or a JSON line with every field.
 *
 * @module
 */

import { escapeControls, jsonLine } from "../../format.ts";
import { type FindingCategory, type Severity, severityOf } from "./severity.ts";

/**
 * One thing `check` reports.
 *
 * @example
 * ```ts
 * const finding: Finding = {
 *   line: 15, column: 37, type: "port-out-of-range", category: "invalid-url",
 *   message: "<a href> http://example.com:99999/: The input's port is too big. The URL does not parse.",
 *   element: "a", attribute: "href", value: "http://example.com:99999/", url: null,
 * };
 * ```
 */
export interface Finding {
  readonly line: number;
  readonly column: number;
  /** A validation error's name (`"invalid-URL-unit"`), `"missing-file"`, or a base-URL surprise (`"base-after-links"`, …). */
  readonly type: string;
  /** Its category, which gives its severity (see `severity.ts`). */
  readonly category: FindingCategory;
  readonly message: string;
  readonly element: string;
  readonly attribute: string | null;
  /** The link's value; for a link's second and later validation errors, omitted (it is in the first). */
  readonly value?: string;
  readonly url?: string | null;
  /** For a missing fragment: the page looked in (its path as printed). */
  readonly target?: string;
}

/**
 * One finding as a line of output: `file:line:column: type: message`, or
 * a JSON line with every field.
 *
 * @example
 * ```ts
 * findingLine("site/a.html", finding, false); // "site/a.html:15:37: port-out-of-range: <a href> http://example.com:99999/: ..."
 * ```
 */
export function findingLine(display: string, f: Finding, json: boolean): string {
  if (json) {
    return jsonLine({
      file: display,
      line: f.line,
      column: f.column,
      type: f.type,
      category: f.category,
      severity: severityOf(f.category),
      message: f.message,
      element: f.element,
      attribute: f.attribute,
      value: f.value,
      url: f.url,
      ...(f.target === undefined ? {} : { target: f.target }),
    });
  }
  return `${escapeControls(display)}:${f.line}:${f.column}: ${f.type}: ${escapeControls(f.message)}`;
}

/**
 * A finding as a JSON line gives it: with the file it is in and its
 * severity.
 *
 * @example
 * ```ts
 * const reported: ReportedFinding = { ...finding, file: "site/a.html", severity: "error" };
 * ```
 */
export interface ReportedFinding extends Finding {
  readonly file: string;
  readonly severity: Severity;
}
