/**
 * `docbase check`'s fragment check: whether the fragment of a link names an
 * element of the page it leads to, as a browser scrolling to it finds one
 * (an id, then an `a` name; `#` and `#top` are the top of the page).
 *
 * A link into the page itself (or its srcdoc document) is checked where
 * the page is read. A link into another page of the site waits: each page
 * sends its ids once, with its result, and the main thread checks the
 * waiting links when every page has been read (no page is read twice).
 *
 * https://html.spec.whatwg.org/multipage/browsing-the-web.html#scrolling-to-a-fragment
 *
 * @module
 */

import { percentDecodeString } from "../../../core/index.ts";
import { type FragmentTargets, removeFragmentDirective, selectIndicatedPart } from "../../../links/internal.ts";
import type { FileJob, FileResult } from "../../file-task.ts";
import { excerpt, formatValue } from "../../format.ts";
import { type Finding, findingLine } from "./finding.ts";

/**
 * A link into another page of the site, whose fragment is looked for there
 * once every page is read: where the link is and what it says.
 *
 * @example
 * ```ts
 * const pending: PendingFragment = {
 *   target: "docs/guide.html", fragment: "install", line: 9, column: 12, label: "<a href>",
 *   element: "a", attribute: "href", value: "../docs/guide.html#install", url: "https://example.com/docs/guide.html#install",
 * };
 * ```
 */
export interface PendingFragment {
  /** The page's path relative to the site root. */
  readonly target: string;
  /** The URL's fragment, as serialized (percent-encoded). */
  readonly fragment: string;
  readonly line: number;
  readonly column: number;
  /** The link's element and attribute as printed (`<a href>`, `<a href> in srcdoc`). */
  readonly label: string;
  readonly element: string;
  readonly attribute: string | null;
  readonly value: string;
  readonly url: string;
}

/**
 * A checked page's part of the fragment check across pages: its own
 * fragment targets, for the links of other pages into it, and its links
 * into other pages, to check against theirs.
 *
 * @example
 * ```ts
 * const fragments: FileFragments = { targets: "intro\u0000usage", pending: [], at: null };
 * ```
 */
export interface FileFragments {
  /**
   * The page's ids and `a` names, joined with NUL (no attribute value
   * holds one: the tokenizer makes it U+FFFD), for the page of a site
   * walk; else null.
   *
   * Optimisation: one string crosses between processes, where a Set or an array of
   * thousands of strings (a Wikipedia page's citations) is cloned piece by piece.
   */
  readonly targets: string | null;
  /**
   * Links into other pages of the site, with a fragment to look for there:
   * as objects in the thread that checked the page, and as one string
   * (see `encodePending`) once they have crossed from a worker.
   */
  readonly pending: readonly PendingFragment[] | string;
  /** When `pending` is not empty: the line and column of each line of `out`, in pairs, to place a finding among them. */
  readonly at: Int32Array | null;
}

/**
 * What `check`'s work on one file gives: with fragments checked, the
 * page's part of the fragment check across pages (none for a file that
 * could not be read).
 *
 * @example
 * ```ts
 * const result: CheckResult = { index: 0, out: "", err: "", counts: { files: 1 }, fragments: { targets: "intro", pending: [], at: null } };
 * ```
 */
export interface CheckResult extends FileResult {
  readonly fragments?: FileFragments | undefined;
  /** With `--external`: the page's links to other sites, as JSON (an array of `ExternalRef`). */
  readonly external?: string | undefined;
}

/** The fields of a {@link PendingFragment}, in the order {@link encodePending} writes them. */
const PENDING_FIELDS = 9;

/**
 * Pending fragment checks as one string for another process: each field
 * of each check, joined with NUL (none holds one: the tokenizer makes a
 * NUL of a value or a name U+FFFD, and a serialized URL percent-encodes
 * it; the `attribute` of a `<style>` text, null, is never pending).
 *
 * Optimisation: a page of a multi-page spec has thousands of links into
 * the other pages; one string crosses processes as one copy, where as many
 * objects are cloned field by field, twice.
 *
 * @example
 * ```ts
 * decodePending(encodePending([pending])); // [pending]
 * ```
 */
export function encodePending(pending: readonly PendingFragment[]): string {
  const parts: string[] = [];
  for (const p of pending) parts.push(p.target, p.fragment, String(p.line), String(p.column), p.label, p.element, p.attribute ?? "", p.value, p.url);
  return parts.join("\0");
}

/**
 * The checks {@link encodePending} encoded.
 *
 * @example
 * ```ts
 * decodePending(""); // []
 * ```
 */
export function decodePending(text: string): PendingFragment[] {
  const pending: PendingFragment[] = [];
  forEachPending(text, (_target, _fragment, record) => {
    pending.push(record());
  });
  return pending;
}

/**
 * Calls `visit` with the target and the fragment of each check in `text`
 * (see {@link encodePending}), and a function that decodes the whole check.
 *
 * Optimisation: only the two fields every check needs are cut out; the
 * other seven are read for the checks that fail.
 */
function forEachPending(text: string, visit: (target: string, fragment: string, record: () => PendingFragment) => void): void {
  if (text === "") return;
  let at = 0;
  while (at < text.length) {
    const start = at;
    const targetEnd = text.indexOf("\0", at);
    const fragmentEnd = text.indexOf("\0", targetEnd + 1);
    // The record ends after its ninth field: at the NUL after it, or at the end.
    let end = fragmentEnd;
    for (let f = 2; f < PENDING_FIELDS && end !== -1; f++) end = text.indexOf("\0", end + 1);
    const recordEnd = end === -1 ? text.length : end;
    at = recordEnd + 1;
    visit(text.slice(start, targetEnd), text.slice(targetEnd + 1, fragmentEnd), () => {
      const parts = text.slice(start, recordEnd).split("\0");
      return {
        target: parts[0]!,
        fragment: parts[1]!,
        line: Number(parts[2]),
        column: Number(parts[3]),
        label: parts[4]!,
        element: parts[5]!,
        attribute: parts[6] === "" ? null : parts[6]!,
        value: parts[7]!,
        url: parts[8]!,
      };
    });
  }
}

/** "UTF-8 decode without BOM", for messages. */
const utf8WithoutBOM = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Whether `fragment` (a URL's, as serialized) indicates something in a page
 * with `targets`: "ok" (an element, or the top of the page), "missing", or,
 * without the page's targets (null), "unknown" — unless it is one that
 * needs none: the empty fragment (after removing a text directive, which
 * names no element) and "top" (any case) are the top of any page.
 *
 * @example
 * ```ts
 * const targets = { ids: new Set(["intro"]), names: new Set<string>() };
 * checkFragment("intro", targets); // "ok"
 * checkFragment("intro:~:text=hello", targets); // "ok"
 * checkFragment("outro", targets); // "missing"
 * checkFragment("outro", null); // "unknown"
 * checkFragment("Top", null); // "ok"
 * ```
 */
export function checkFragment(fragment: string, targets: FragmentTargets | null): "ok" | "missing" | "unknown" {
  const stripped = removeFragmentDirective(fragment);
  if (targets === null) return selectIndicatedPart(NO_TARGETS, stripped) === null ? "unknown" : "ok";
  return selectIndicatedPart(targets, stripped) === null ? "missing" : "ok";
}

const NO_TARGETS: FragmentTargets = { ids: new Set(), names: new Set() };

/**
 * The finding of a link whose fragment names nothing in `where` (the page
 * looked in, as printed).
 *
 * @example
 * ```ts
 * missingFragmentFinding(pending, "site/docs/guide.html").message;
 * // '<a href> ../docs/guide.html#instal → https://example.com/docs/guide.html#instal: no element with id or name "instal" in site/docs/guide.html'
 * ```
 */
export function missingFragmentFinding(link: Omit<PendingFragment, "target">, where: string): Finding {
  const stripped = removeFragmentDirective(link.fragment);
  let name = stripped;
  if (/%[0-9A-Fa-f]{2}/.test(stripped)) name = utf8WithoutBOM.decode(percentDecodeString(stripped));
  return {
    line: link.line,
    column: link.column,
    type: "missing-fragment",
    category: "missing-fragment",
    message: `${link.label} ${formatValue(excerpt(link.value, 0, 0))} → ${excerpt(link.url, 0, 0)}: no element with id or name ${JSON.stringify(excerpt(name, 0, 0))} in ${where}`,
    element: link.element,
    attribute: link.attribute,
    value: link.value,
    url: link.url,
    target: where,
  };
}

/**
 * Checks the links that waited for other pages (see {@link PendingFragment})
 * against those pages' targets, once every page is read, and places each
 * missing fragment among its page's other findings (by line and column).
 * Returns the results, changed where a fragment is missing, and how many
 * were. A link into a page that was not read (not HTML, unreadable, outside
 * the run) is not checked.
 *
 * @example
 * ```ts
 * const { results: settled, missing } = settleFragments(results, jobs, false);
 * ```
 */
export function settleFragments(results: readonly CheckResult[], jobs: readonly FileJob[], json: boolean): { results: CheckResult[]; missing: number } {
  const displays = new Map<string, string>();
  for (const job of jobs) displays.set(job.rel, job.display);
  // Each page's targets, made into a set the first time a link looks into it.
  const joined = new Map<string, string>();
  for (const result of results) {
    const job = jobs[result.index];
    const targets = result.fragments?.targets;
    if (job !== undefined && targets !== null && targets !== undefined) joined.set(job.rel, targets);
  }
  const sets = new Map<string, FragmentTargets>();
  const targetsOf = (rel: string): FragmentTargets | null => {
    let set = sets.get(rel);
    if (set === undefined) {
      const text = joined.get(rel);
      if (text === undefined) return null;
      set = { ids: new Set(text === "" ? [] : text.split("\0")), names: new Set() };
      sets.set(rel, set);
    }
    return set;
  };
  let missing = 0;
  const settled: CheckResult[] = [];
  for (const result of results) {
    const pending = result.fragments?.pending;
    if (pending === undefined || pending.length === 0) {
      settled.push(result);
      continue;
    }
    const job = jobs[result.index]!;
    const found: Finding[] = [];
    const check = (target: string, fragment: string, record: () => PendingFragment): void => {
      const targets = targetsOf(target);
      if (targets === null || checkFragment(fragment, targets) !== "missing") return;
      found.push(missingFragmentFinding(record(), displays.get(target) ?? target));
    };
    if (typeof pending === "string") forEachPending(pending, check);
    else for (const link of pending) check(link.target, link.fragment, () => link);
    if (found.length === 0) {
      settled.push(result);
      continue;
    }
    missing += found.length;
    found.sort((a, b) => a.line - b.line || a.column - b.column);
    settled.push({ ...result, out: mergeLines(result, found, (f) => findingLine(job.display, f, json)), counts: addCounts(result.counts, found.length) });
  }
  return { results: settled, missing };
}

function addCounts(counts: Readonly<Record<string, number>>, missing: number): Record<string, number> {
  return { ...counts, problems: (counts["problems"] ?? 0) + missing, "missing-fragment": (counts["missing-fragment"] ?? 0) + missing };
}

/** A result's output lines with the findings `found` (sorted) placed by line and column, each after the lines at its place. */
function mergeLines(result: CheckResult, found: readonly Finding[], format: (finding: Finding) => string): string {
  const text = typeof result.out === "string" ? result.out : new TextDecoder().decode(result.out);
  const lines = text === "" ? [] : text.slice(0, -1).split("\n");
  const at = result.fragments?.at ?? new Int32Array(0);
  const merged: string[] = [];
  let f = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = at[2 * i] ?? 0;
    const column = at[2 * i + 1] ?? 0;
    while (f < found.length && (found[f]!.line < line || (found[f]!.line === line && found[f]!.column < column))) merged.push(format(found[f++]!));
    merged.push(lines[i]!);
  }
  while (f < found.length) merged.push(format(found[f++]!));
  return `${merged.join("\n")}\n`;
}
