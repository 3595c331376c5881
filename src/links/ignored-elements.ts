/**
 * Links a site marks as not to check: those of an element that carries an
 * ignore mark (`data-docbase-ignore`, htmltest's and html-proofer's
 * `data-proofer-ignore`; see ignore-marks.ts), or whose ancestor does —
 * the reach html-proofer gives `data-proofer-ignore` (the element and its
 * descendants).
 *
 * @module
 */

import { IGNORE_MARKS } from "./ignore-marks.ts";
import type { LeanParent, ParsedSource } from "./html-source.ts";
import type { Link } from "./link-types.ts";

/** Whether `node` is a marked element or inside one (memoized per element). */
function ignoredNode(node: LeanParent, marked: ReadonlySet<LeanParent>, memo: Map<LeanParent, boolean>): boolean {
  if (marked.has(node)) return true;
  const known = memo.get(node);
  if (known !== undefined) return known;
  const parent = "parentNode" in node ? node.parentNode : null;
  const ignored = parent !== null && ignoredNode(parent, marked, memo);
  memo.set(node, ignored);
  return ignored;
}

/**
 * `links` without those in the start tag of an element that carries an
 * ignore mark or is inside one (a srcdoc document's links are in its
 * iframe's tag); `parsed` is the document's parse, which records every
 * element with a mark (an element's own attributes are read from its
 * record: the lean parse keeps those of recorded elements only).
 *
 * @example
 * ```ts
 * const text = '<div data-proofer-ignore><a href="x">x</a></div><a href="y">';
 * withoutIgnoredLinks(parseWithPositions(text), links).map((l) => l.value); // ["y"]
 * ```
 */
export function withoutIgnoredLinks(parsed: ParsedSource, links: Link[]): Link[] {
  if (links.length === 0) return links;
  const marked = new Set<LeanParent>();
  for (const tag of parsed.tags) {
    for (let i = 0; i < tag.attrCount; i++) {
      const attr = tag.tokenAttrs[i]!;
      if (attr.namespace === undefined && IGNORE_MARKS.has(attr.name)) marked.add(tag.element);
    }
  }
  if (marked.size === 0) return links;
  // The source ranges of the ignored elements' start tags, in source order.
  const ranges: number[] = [];
  const memo = new Map<LeanParent, boolean>();
  for (const tag of parsed.tags) {
    if (ignoredNode(tag.element, marked, memo)) ranges.push(tag.origin + tag.tagNameEnd, tag.origin + tag.tagEnd);
  }
  return links.filter((link) => {
    // The last range starting at or before the link (binary search over the starts).
    let lo = 0;
    let hi = ranges.length / 2 - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[2 * mid]! <= link.start) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found === -1 || link.start > ranges[2 * found + 1]!;
  });
}
