/**
 * What every report of `docbase check` reads: the run's findings, in the
 * order found, as often as it needs, and a sort of lines — in memory for a
 * few findings, from spools (see `line-spool.ts`, `external-sort.ts`) for
 * any number in bounded memory.
 *
 * @module
 */

import { RUN_CHARS, sortLines } from "../external-sort.ts";
import type { ReportedFinding } from "../finding.ts";
import type { LineSpool, SpoolDirectory } from "../line-spool.ts";

/**
 * The findings of a run and a sort, for a report.
 *
 * @example
 * ```ts
 * const source: FindingSource = findingsInMemory([finding]);
 * [...source.findings()].length; // 1
 * ```
 */
export interface FindingSource {
  /** The findings in the order found (each call reads them again). */
  findings(): Iterable<ReportedFinding>;
  /** The same, as JSON lines (none holding a line feed). */
  lines(): Iterable<string>;
  /** Lines (none holding a line feed) in string order. */
  sort(lines: Iterable<string>): Iterable<string>;
  /** The findings, when all are held in memory (grouped without a sort: see groupFindings). */
  readonly held?: readonly ReportedFinding[];
}

/**
 * A number as a sort key: 16 decimal digits, so that keys compare as the
 * numbers do (any place, line or column is below 10^16).
 *
 * @example
 * ```ts
 * numberKey(42); // "0000000000000042"
 * ```
 */
export function numberKey(n: number): string {
  return String(n).padStart(16, "0");
}

/**
 * Findings held in memory, sorted in memory.
 *
 * @example
 * ```ts
 * [...textReport(findingsInMemory(findings))].join("");
 * ```
 */
export function findingsInMemory(findings: readonly ReportedFinding[]): FindingSource {
  return { findings: () => findings, lines: () => findings.map((f) => JSON.stringify(f)), sort: (lines) => [...lines].sort(), held: findings };
}

/**
 * Findings spooled as JSON lines (see `findingLine`) — a spool, or
 * anything that reads its lines again as often as asked — sorted with
 * spools of `place` in bounded memory (in runs of `runChars`: see
 * `sortLines`).
 *
 * @example
 * ```ts
 * const source = spooledFindings(spool, place);
 * ```
 */
export function spooledFindings(spool: Pick<LineSpool, "lines">, place: SpoolDirectory, runChars = RUN_CHARS): FindingSource {
  return {
    *findings() {
      for (const line of spool.lines()) yield JSON.parse(line) as ReportedFinding;
    },
    lines: () => spool.lines(),
    sort: (lines) => sortLines(lines, place, runChars),
  };
}
