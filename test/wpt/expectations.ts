/**
 * The expected results of the WPT pages the runner runs
 * (test/wpt/expectations.json), and their check.
 *
 * The file lists, per test page and variant (`path?variant`), how many
 * subtests it has, its harness status when not OK, and every subtest that
 * does not pass, with its status in plain jsdom and with docbase installed
 * and its cause. A subtest not listed must pass both ways. The check is
 * enforced both ways: a listed failure that passes is a discrepancy too, as
 * is a listed subtest that no longer exists.
 *
 * Each cause names its owner: `jsdom` (what jsdom does not implement or gets
 * wrong, outside docbase's reach), `docbase` (a failure docbase causes or
 * leaves that it should mend), or `test` (the test, or its needs from the
 * runner).
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { HarnessStatus, SubtestStatus, WPTRunResult } from "./runner.ts";

/**
 * The two ways every page runs.
 *
 * @example
 * ```ts
 * const mode: RunMode = "installed";
 * ```
 */
export type RunMode = "plain" | "installed";

/**
 * A subtest that does not pass both ways.
 *
 * @example
 * ```ts
 * const failure: ExpectedFailure = { plain: "FAIL", installed: "PASS", cause: "jsdom-no-formaction" };
 * ```
 */
export interface ExpectedFailure {
  readonly plain: SubtestStatus;
  readonly installed: SubtestStatus;
  /** A key of {@link Expectations.causes}. */
  readonly cause: string;
}

/**
 * One test page (with its variant).
 *
 * @example
 * ```ts
 * const page: PageExpectation = { subtests: 9, failures: {} };
 * ```
 */
export interface PageExpectation {
  readonly subtests: number;
  /** The harness's status per mode, when it is not OK. */
  readonly harness?: { readonly plain: HarnessStatus; readonly installed: HarnessStatus; readonly cause: string };
  readonly failures: Readonly<Record<string, ExpectedFailure>>;
}

/**
 * The whole file.
 *
 * @example
 * ```ts
 * const expectations = readExpectations();
 * expectations.causes["jsdom-no-ping"]?.owner; // "jsdom"
 * ```
 */
export interface Expectations {
  readonly causes: Readonly<Record<string, { readonly owner: "jsdom" | "docbase" | "test"; readonly text: string }>>;
  readonly tests: Readonly<Record<string, PageExpectation>>;
}

/**
 * Where the expectations live.
 *
 * @example
 * ```ts
 * expectationsPath.endsWith("test/wpt/expectations.json"); // true
 * ```
 */
export const expectationsPath: string = join(import.meta.dirname, "expectations.json");

/**
 * Reads test/wpt/expectations.json.
 *
 * @example
 * ```ts
 * Object.keys(readExpectations().tests).length; // one per page and variant
 * ```
 */
export function readExpectations(): Expectations {
  return JSON.parse(readFileSync(expectationsPath, "utf8")) as Expectations;
}

/**
 * The key of a page in the expectations: its WPT path and variant.
 *
 * @example
 * ```ts
 * pageKey("url/a-element.html", "?include=file"); // "url/a-element.html?include=file"
 * ```
 */
export function pageKey(path: string, variant: string): string {
  return `${path}${variant}`;
}

/**
 * Every way `result` (of `mode`) departs from `expected`: a subtest count, a
 * harness status, a subtest status (unexpected failures and unexpected
 * passes alike), a listed subtest that did not run. Empty when it matches.
 *
 * @example
 * ```ts
 * discrepancies(result, "plain", { subtests: 1, failures: {} }); // [] when the one subtest passed
 * ```
 */
export function discrepancies(result: WPTRunResult, mode: RunMode, expected: PageExpectation | undefined): string[] {
  if (expected === undefined) return ["the page has no entry in test/wpt/expectations.json"];
  const found: string[] = [];
  const harness = expected.harness?.[mode] ?? "OK";
  if (result.harness !== harness) found.push(`harness ${result.harness} (${result.harnessMessage ?? ""}), expected ${harness}`);
  if (result.subtests.length !== expected.subtests) found.push(`${result.subtests.length} subtests, expected ${expected.subtests}`);
  const seen = new Set<string>();
  for (const subtest of result.subtests) {
    seen.add(subtest.name);
    const status = expected.failures[subtest.name]?.[mode] ?? "PASS";
    if (subtest.status !== status) {
      found.push(`${JSON.stringify(subtest.name)}: ${subtest.status}, expected ${status}${subtest.message === null ? "" : ` (${subtest.message})`}`);
    }
  }
  for (const name of Object.keys(expected.failures)) {
    if (!seen.has(name)) found.push(`${JSON.stringify(name)} is listed but did not run`);
  }
  return found;
}
