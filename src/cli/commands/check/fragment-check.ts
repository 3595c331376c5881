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
import type { FileResult } from "../../file-task.ts";
import { excerpt, formatValue } from "../../format.ts";
import type { Finding } from "./finding.ts";

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
 * const fragments: FileFragments = { targets: "intro\u0000usage", pending: [] };
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
}

/**
 * What `check`'s work on one file gives: with fragments checked, the
 * page's part of the fragment check across pages (none for a file that
 * could not be read).
 *
 * @example
 * ```ts
 * const result: CheckResult = { index: 0, out: "", err: "", counts: { files: 1 }, fragments: { targets: "intro", pending: [] } };
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
 * Pending fragment checks as a line of a file's output (a file read as a
 * stream sends them with its findings, a batch at a time, instead of
 * holding them to the end): `P`, then {@link encodePending}'s string as
 * JSON. A finding's line starts with `{`.
 *
 * @example
 * ```ts
 * pendingLine([pending]); // 'P"docs/guide.html\u0000install\u00009\u000012\u0000<a href>\u0000a\u0000href\u0000../docs/guide.html#install\u0000https://example.com/docs/guide.html#install"'
 * ```
 */
export function pendingLine(pending: readonly PendingFragment[]): string {
  return `P${JSON.stringify(encodePending(pending))}`;
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
 *
 * @example
 * ```ts
 * forEachPending(encodePending([pending]), (target, fragment, record) => console.log(target, fragment, record().line));
 * ```
 */
export function forEachPending(text: string, visit: (target: string, fragment: string, record: () => PendingFragment) => void): void {
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
