/**
 * The settle stage: where each link, its validation errors and each
 * srcdoc too deep to read are in the top document's source — the errors
 * placed through character references, CSS escapes and srcdoc levels, the
 * links put in source order, lines and columns counted.
 *
 * @module
 */

import type { ValidationError } from "../core/index.ts";
import { sourceEnd, sourceStart } from "./character-references.ts";
import type { Layer, LinkSite } from "./link-site.ts";
import type { Link, LinkValidationError, SrcdocTooDeep } from "./link-types.ts";
import { type SourceAnchor, sourcePosition } from "./source-position.ts";

/**
 * Where the code units of a link's value come from in its own document's
 * text (the srcdoc's, for a link in a srcdoc document), to place its
 * validation errors: `start(d)` is where code unit `d` starts (for one
 * that a character reference or a CSS escape stands for, where that
 * starts), `end(d)` where the text before `d` ends (after a reference or
 * an escape that ends there).
 *
 * @example
 * ```ts
 * // The value of `<a href="x">`, at offset 9 of its document.
 * const map: ValueMap = { start: (d) => 9 + d, end: (d) => 9 + d };
 * ```
 */
export interface ValueMap {
  start(d: number): number;
  end(d: number): number;
}


/**
 * Places each validation error of a link's value (of length
 * `valueLength`) in the top document's source: through `map` into the
 * link's own document, then out through its srcdoc `layers` (innermost
 * first), as the link's own range `[linkStart, linkEnd)` (already in the
 * top document's source) was. An empty range at the value's end is at
 * `linkEnd`. Without a map (a form without an action, or a value that
 * could not be mapped: text that does not decode to the value, which
 * would mean a decoder here and the parser disagree) each error gets the
 * link's range: where its URL is, never a wrong place inside. `line` and
 * `column` are left 0 for {@link extractSites} to count.
 *
 * @example
 * ```ts
 * // '<a href="a&amp;b c">': the value "a&b c" is at 9–19, "&amp;" at 10–15.
 * const map: ValueMap = { start: (d) => [9, 10, 15, 16, 17, 18][d], end: (d) => [9, 10, 15, 16, 17, 18][d] };
 * placeValidationErrors([{ type: "invalid-URL-unit", start: 3, end: 4 }], 5, map, [], 9, 18);
 * // [{ type: "invalid-URL-unit", start: 3, end: 4, sourceStart: 16, sourceEnd: 17, line: 0, column: 0 }]
 * placeValidationErrors([{ type: "invalid-URL-unit", start: 3, end: 4 }], 5, null, [], 9, 18)[0].sourceStart; // 9
 * ```
 */
export function placeValidationErrors(
  errors: readonly ValidationError[],
  valueLength: number,
  map: ValueMap | null,
  layers: readonly Layer[],
  linkStart: number,
  linkEnd: number,
): LinkValidationError[] {
  const placed: LinkValidationError[] = [];
  for (const error of errors) {
    let start = linkStart;
    let end = linkEnd;
    if (map !== null) {
      if (error.start === valueLength && error.end === valueLength) {
        start = linkEnd;
      } else {
        start = map.start(error.start);
        end = error.end === error.start ? start : map.end(error.end);
        // Lift the range through the srcdoc levels, as `add` lifts the link's.
        for (const layer of layers) {
          const s = sourceStart(layer.map, start);
          end = end === start ? s : sourceEnd(layer.map, end);
          start = s;
        }
      }
    }
    placed.push({ type: error.type, start: error.start, end: error.end, sourceStart: start, sourceEnd: end, line: 0, column: 0 });
  }
  return placed;
}


/**
 * Fills in `line` and `column` of every validation error of `links` in
 * `text`, counting from its link's (errors are inside their link's range;
 * the links' own are set).
 *
 * Optimisation: each error counts on from the one before when it is not
 * before it (the parser reports errors mostly in order), so a long value
 * with many errors is read about once, not once per error.
 *
 * @example
 * ```ts
 * const text = "<a href='a b'>";
 * const links = extractLinks(text, { url: "https://example.com/", validate: true });
 * setErrorPositions(text, links); // sets them again, the same
 * ```
 */
export function setErrorPositions(text: string, links: readonly Link[]): void {
  for (const link of links) {
    const errors = link.errors;
    if (errors === undefined) continue;
    let from: SourceAnchor = link;
    for (const error of errors) {
      if (error.sourceStart < from.start) from = link;
      const { line, column } = sourcePosition(text, error.sourceStart, from);
      (error as { line: number }).line = line;
      (error as { column: number }).column = column;
      from = { start: error.sourceStart, line, column };
    }
  }
}


const surrogatePair = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Fills in `line` and `column` of every link (sorted by start, none before
 * `from`), in one pass over the text from `from` (default: its start, line
 * 1, column 1): a streamed document's piece starts where the last one's
 * links were counted to. Returns where counting stopped (the last link's
 * place, or `from`), to go on from.
 *
 * Optimisation: line breaks are found with `indexOf` and surrogate pairs
 * with a regular expression (both native scans); columns count code units,
 * less one for each surrogate pair before the link on its line.
 *
 * @example
 * ```ts
 * const links = [{ start: 5, line: 0, column: 0 }];
 * setLinesAndColumns("ab\ncdef", links); // { start: 5, line: 2, column: 3 }
 * ```
 */
export function setLinesAndColumns(text: string, links: readonly { readonly start: number; line: number; column: number }[], from: SourceAnchor = { start: 0, line: 1, column: 1 }): SourceAnchor {
  let line = from.line;
  // Where the line of `from` would start if each code unit before it were a column (pairs before `from` are in its column).
  let lineStart = from.start - (from.column - 1);
  let at = from.start; // Everything before `at` is counted.
  let nextLF = -2;
  let nextCR = -2;
  // Surrogate pairs between the later of lineStart and from.start and the last link, and where the next one is (-1: none).
  let pairs = 0;
  let nextPair = -2;
  surrogatePair.lastIndex = 0;
  let last: SourceAnchor = from;
  for (const link of links) {
    const target = link.start;
    if (target > at) {
      for (;;) {
        if (nextLF !== -1 && nextLF < at) nextLF = text.indexOf("\n", at);
        if (nextCR !== -1 && nextCR < at) nextCR = text.indexOf("\r", at);
        const next = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
        if (next === -1 || next >= target) break;
        // CR LF is one line break.
        at = next + (text.charCodeAt(next) === 0x0d && text.charCodeAt(next + 1) === 0x0a ? 2 : 1);
        line++;
        lineStart = at;
        pairs = 0;
      }
      at = target;
    }
    // Count the pairs that end before the link's first code unit.
    for (;;) {
      if (nextPair !== -1 && nextPair < Math.max(lineStart, from.start)) {
        surrogatePair.lastIndex = Math.max(lineStart, from.start);
        nextPair = surrogatePair.exec(text)?.index ?? -1;
      }
      if (nextPair === -1 || nextPair + 2 > target) break;
      pairs++;
      surrogatePair.lastIndex = nextPair + 2;
      nextPair = surrogatePair.exec(text)?.index ?? -1;
    }
    link.line = line;
    link.column = target - lineStart + 1 - pairs;
    last = link;
  }
  return { start: last.start, line: last.line, column: last.column };
}

const textStart: SourceAnchor = { start: 0, line: 1, column: 1 };

/**
 * Puts `links` (and their `sites`, when rewriting) in source order. Tree
 * order is source order, but for the links of srcdoc documents, which are
 * read after their iframe's own.
 *
 * @example
 * ```ts
 * const links = extractLinks('<iframe srcdoc="<a href=x>" src=y>', { url: "https://example.com/" });
 * sortBySource(links, null); // already in order: the srcdoc's x, then y
 * ```
 */
export function sortBySource(links: Link[], sites: LinkSite[] | null): void {
  for (let i = 1; i < links.length; i++) {
    if (links[i]!.start < links[i - 1]!.start) {
      links.sort((a, b) => a.start - b.start || a.end - b.end);
      sites?.sort((a, b) => a.link.start - b.link.start || a.link.end - b.link.end);
      return;
    }
  }
}

/**
 * Settles links read from `text` (their offsets into it): puts them in
 * source order, counts their lines and columns, and with `validate` their
 * errors' too, from `from`; then moves every offset by `shift`, where
 * `text` starts in the whole input (a streamed document's piece; 0 for a
 * whole document). `from` is in the whole input's offsets, not before
 * `shift`, and no link is before it. Returns where counting stopped, to go
 * on from.
 *
 * @example
 * ```ts
 * const links = [{ start: 5, end: 6, line: 0, column: 0 }] as Link[];
 * settleLinks("ab\ncdef", links, null, false); // links[0]: line 2, column 3
 * ```
 */
export function settleLinks(text: string, links: Link[], sites: LinkSite[] | null, validate: boolean, from: SourceAnchor = textStart, shift = 0): SourceAnchor {
  sortBySource(links, sites);
  const local: SourceAnchor = shift === 0 ? from : { start: from.start - shift, line: from.line, column: from.column };
  const last = setLinesAndColumns(text, links as { start: number; line: number; column: number }[], local);
  if (validate) setErrorPositions(text, links);
  if (shift === 0) return last;
  for (const link of links) {
    (link as { start: number }).start += shift;
    (link as { end: number }).end += shift;
    for (const error of link.errors ?? []) {
      (error as { sourceStart: number }).sourceStart += shift;
      (error as { sourceEnd: number }).sourceEnd += shift;
    }
  }
  return { start: last.start + shift, line: last.line, column: last.column };
}

/**
 * Reports each srcdoc too deep to read (`start`: where its value starts in
 * `text`) to `report`, with its line and column counted from `from` (as in
 * {@link settleLinks}: in the whole input's offsets, `text` starting at
 * `shift`).
 *
 * @example
 * ```ts
 * settleTooDeep("<p>\n<iframe srcdoc=…>", [{ depth: 33, start: 19 }], (place) => console.log(place.line)); // 2
 * ```
 */
export function settleTooDeep(
  text: string,
  tooDeep: readonly { readonly depth: number; readonly start: number }[],
  report: ((place: SrcdocTooDeep) => void) | undefined,
  from: SourceAnchor = textStart,
  shift = 0,
): void {
  if (report === undefined) return;
  const local: SourceAnchor = { start: from.start - shift, line: from.line, column: from.column };
  for (const { depth, start } of tooDeep) {
    const { line, column } = sourcePosition(text, start, local);
    report({ depth, start: start + shift, line, column });
  }
}
