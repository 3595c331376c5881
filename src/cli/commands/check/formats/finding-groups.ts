/**
 * Findings grouped by target: the same missing page, invalid URL or base
 * surprise referred to from many places is one group, with its referrers
 * — in bounded memory, whatever the number of findings (see
 * `finding-source.ts`).
 *
 * @module
 */

import type { ReportedFinding } from "../finding.ts";
import { numberKey, type FindingSource } from "./finding-source.ts";
import { CATEGORIES, type FindingCategory, type Severity } from "../severity.ts";

/**
 * Findings of one kind about one target.
 *
 * @example
 * ```ts
 * const group: FindingGroup = { severity: "error", category: "missing-file", type: "missing-file", target: "https://example.com/nope.html", first: 0 };
 * ```
 */
export interface FindingGroup {
  readonly severity: Severity;
  readonly category: FindingCategory;
  readonly type: string;
  /** The resolved URL (or, when it does not parse, the link's text; else the message). */
  readonly target: string;
  /** The place of its first finding among all (the groups of a rank are listed in this order). */
  readonly first: number;
}

/**
 * A finding with its group and its place among all findings.
 *
 * @example
 * ```ts
 * const grouped: GroupedFinding = { group, finding, place: 3 };
 * ```
 */
export interface GroupedFinding {
  /** The same object for every finding of the group. */
  readonly group: FindingGroup;
  readonly finding: ReportedFinding;
  readonly place: number;
}

/**
 * Whether a finding counts as a reference to its group's target (a link's
 * later validation errors are not counted again).
 *
 * @example
 * ```ts
 * isReference(finding); // true for a link's first finding
 * ```
 */
export function isReference(f: ReportedFinding): boolean {
  return f.value !== undefined || f.url !== undefined;
}

/**
 * Where a group is listed: errors first, then by category (in the order of
 * `FINDING_CATEGORIES`); groups of one rank as first found.
 *
 * @example
 * ```ts
 * groupRank({ ...group, severity: "error", category: "invalid-url" }); // 0
 * ```
 */
export function groupRank(group: FindingGroup): number {
  return (group.severity === "error" ? 0 : CATEGORIES.length) + CATEGORIES.indexOf(group.category);
}

/**
 * The findings grouped by severity, type and target: each group's findings
 * together, in the order found (groups in no order: sort them by
 * {@link groupRank} and `first`).
 *
 * @example
 * ```ts
 * for (const { group, finding } of groupFindings(source)) console.log(group.target, finding.line);
 * ```
 */
export function* groupFindings(source: FindingSource): Generator<GroupedFinding> {
  if (source.held !== undefined) {
    yield* groupHeldFindings(source.held);
    return;
  }
  let group: FindingGroup | null = null;
  let key = "";
  for (const line of source.sort(keyedFindings(source))) {
    const tab = line.indexOf("\t");
    const place = Number(line.slice(tab - 16, tab));
    const finding = JSON.parse(line.slice(tab + 1)) as ReportedFinding;
    if (group === null || line.slice(0, tab - 16) !== key) {
      key = line.slice(0, tab - 16);
      group = { severity: finding.severity, category: finding.category, type: finding.type, target: finding.url ?? finding.value ?? finding.message, first: place };
    }
    yield { group, finding, place };
  }
}

/**
 * The group keys of findings given in the order found: their type and
 * target, as JSON (no tab nor line feed, and no key is the start of
 * another); a link's second and later validation errors carry neither
 * value nor URL (see checkDocument): they join its first's group.
 */
class GroupKeys {
  /** The group key of the last finding of each category in the file. */
  private last = new Map<string, string>();
  private file = "";

  keyOf(f: ReportedFinding): string {
    if (f.file !== this.file) {
      this.file = f.file;
      this.last = new Map();
    }
    let key = isReference(f) ? undefined : this.last.get(f.category);
    if (key === undefined) {
      key = JSON.stringify(`${f.type}\0${f.url ?? f.value ?? f.message}`);
      this.last.set(f.category, key);
    }
    return key;
  }
}

/** The findings as lines to sort: their group's key (type and target), their place, a tab, the finding as JSON. */
function* keyedFindings(source: FindingSource): Generator<string> {
  const keys = new GroupKeys();
  let place = 0;
  for (const line of source.lines()) yield `${keys.keyOf(JSON.parse(line) as ReportedFinding)}${numberKey(place++)}\t${line}`;
}

/**
 * {@link groupFindings} of findings all in memory: grouped in a map, the
 * groups in their keys' order (as the sort of the keyed lines gives them).
 * Optimisation: no finding is written as JSON and parsed again, and only
 * the keys are sorted.
 */
function* groupHeldFindings(held: readonly ReportedFinding[]): Generator<GroupedFinding> {
  const keys = new GroupKeys();
  const groups = new Map<string, GroupedFinding[]>();
  for (let place = 0; place < held.length; place++) {
    const finding = held[place]!;
    const key = keys.keyOf(finding);
    let members = groups.get(key);
    if (members === undefined) {
      const group = { severity: finding.severity, category: finding.category, type: finding.type, target: finding.url ?? finding.value ?? finding.message, first: place };
      members = [];
      groups.set(key, members);
      members.push({ group, finding, place });
    } else members.push({ group: members[0]!.group, finding, place });
  }
  for (const key of [...groups.keys()].sort()) yield* groups.get(key)!;
}
