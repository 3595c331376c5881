/**
 * Links a site marks as not to check: those of an element that has one of
 * the given attributes (`data-docbase-ignore`, htmltest's and
 * html-proofer's `data-proofer-ignore`), or whose ancestor has one — the
 * reach html-proofer gives `data-proofer-ignore` (the element and its
 * descendants).
 *
 * @module
 */

import type { LeanElement, LeanParent, ParsedSource } from "./html-source.ts";
import type { Link } from "./link-types.ts";

/** Whether `element` or one of its ancestors has one of `names` (memoized per element). */
function ignoredElement(element: LeanElement, names: readonly string[], memo: Map<LeanParent, boolean>): boolean {
  const known = memo.get(element);
  if (known !== undefined) return known;
  let ignored = false;
  for (const attr of element.attrs) {
    if (attr.namespace === undefined && names.includes(attr.name)) {
      ignored = true;
      break;
    }
  }
  const parent = element.parentNode;
  if (!ignored && parent !== null && "attrs" in parent) ignored = ignoredElement(parent, names, memo);
  memo.set(element, ignored);
  return ignored;
}

/**
 * `links` without those in the start tag of an element that has one of
 * the attributes `names` (lower case) or is inside one (a srcdoc document's
 * links are in its iframe's tag); `parsed` is the document's parse.
 *
 * The tokenizer makes attribute names lower case: the tree's are compared
 * as they are.
 *
 * @example
 * ```ts
 * const text = '<div data-proofer-ignore><a href="x">x</a></div><a href="y">';
 * withoutIgnoredLinks(parseWithPositions(text), links, ["data-proofer-ignore"]).map((l) => l.value); // ["y"]
 * ```
 */
export function withoutIgnoredLinks(parsed: ParsedSource, links: Link[], names: readonly string[]): Link[] {
  if (names.length === 0 || links.length === 0) return links;
  // The source ranges of the ignored elements' start tags, in source order.
  const ranges: number[] = [];
  const memo = new Map<LeanParent, boolean>();
  for (const tag of parsed.tags) {
    if (ignoredElement(tag.element, names, memo)) ranges.push(tag.origin + tag.tagNameEnd, tag.origin + tag.tagEnd);
  }
  if (ranges.length === 0) return links;
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
