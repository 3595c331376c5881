/**
 * Where a validation error is in the file.
 *
 * The URL Standard's validation errors come with offsets into the link's
 * `value`, the decoded text of the URL; the file has the source text,
 * where character references (`&amp;`, `&#x20;`), CR LF pairs, CSS
 * escapes (`\20 `) and, inside an iframe's srcdoc, a second (or third)
 * layer of references make the two differ. What this module does:
 *
 * 1. The link's `[start, end)` is the URL's text in the source. When that
 *    text is the value itself (most URLs), an offset in the value is the
 *    same offset from `start`.
 * 2. Otherwise the source text is decoded again, layer by layer, keeping a
 *    map from each decoded code unit to where it came from: once per srcdoc
 *    level and once for the link's own attribute (the tokenizer's rules in
 *    an attribute value: numeric and named references, with the
 *    "historical reasons" rule for a legacy name before `=` or an
 *    alphanumeric, CR LF → LF, NUL → U+FFFD), then CSS escapes for a
 *    `url()` or `@import`. Named references are decoded by parse5 (the
 *    parser the links layer uses), one reference at a time, cached.
 * 3. An offset then maps to the source position of the code unit it
 *    points at: an error inside a character reference points at its `&`.
 *    If the decoded text is not the value (which would mean this module
 *    and the parser disagree), every offset maps to the value's start: the
 *    error is reported where its URL starts, never at a wrong place inside.
 *
 * @module
 */

import { parseFragment } from "parse5";
import type { Link } from "../links/index.ts";

/** A decoded text and, for each of its code units and its end, the offset in the input it came from. */
interface Decoded {
  readonly text: string;
  readonly from: Int32Array;
}

/** U+0080–U+009F references mapped to windows-1252 characters (https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state). */
const c1Replacements: Readonly<Record<number, number>> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02c6,
  0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c,
  0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc, 0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a,
  0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

function isASCIIAlphanumeric(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
}

function isASCIIHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state */
function numericReferenceText(value: number): string {
  if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return "\uFFFD";
  return String.fromCodePoint(c1Replacements[value] ?? value);
}

const namedCache = new Map<string, { readonly consumed: number; readonly text: string } | null>();

/**
 * The named reference at the start of `run` (the alphanumerics after an
 * `&`, with their `;` if any), read in an attribute value followed by
 * `after` ("=" or ""): how many characters of `run` it takes and its text,
 * or null when it stays as written. parse5 decodes; the match is what is
 * left once the literal rest of the run is taken off the end.
 */
function namedReference(run: string, after: string): { readonly consumed: number; readonly text: string } | null {
  const key = run + after;
  const cached = namedCache.get(key);
  if (cached !== undefined) return cached;
  const fragment = parseFragment(`<a title="&${key}">`);
  const element = fragment.childNodes[0] as { attrs?: { value: string }[] } | undefined;
  const decoded = element?.attrs?.[0]?.value ?? `&${key}`;
  let result: { consumed: number; text: string } | null = null;
  if (decoded !== `&${key}`) {
    const body = decoded.slice(0, decoded.length - after.length);
    // The shortest match that leaves the longest literal rest (a reference decodes to 1–4 code units).
    for (let k = 1; k <= run.length; k++) {
      const rest = run.slice(k);
      const textLength = body.length - rest.length;
      if (textLength >= 1 && body.endsWith(rest)) {
        result = { consumed: k, text: body.slice(0, textLength) };
        break;
      }
    }
  }
  if (namedCache.size > 4096) namedCache.clear();
  namedCache.set(key, result);
  return result;
}

/** A decoder that keeps the map: `push(text, at)` appends decoded text that came from input offset `at`. */
class MapBuilder {
  private readonly parts: string[] = [];
  private readonly offsets: number[] = [];

  push(text: string, at: number): void {
    this.parts.push(text);
    for (let i = 0; i < text.length; i++) this.offsets.push(at);
  }

  finish(inputLength: number): Decoded {
    this.offsets.push(inputLength);
    return { text: this.parts.join(""), from: Int32Array.from(this.offsets) };
  }
}

/**
 * An attribute value as the tokenizer decodes it
 * (https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state,
 * return state an attribute value state), after the input stream's
 * newline normalization (https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream).
 */
function decodeAttribute(input: string): Decoded {
  const out = new MapBuilder();
  const n = input.length;
  let i = 0;
  while (i < n) {
    const c = input.charCodeAt(i);
    if (c === 0x0d) {
      out.push("\n", i);
      i += input.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      continue;
    }
    if (c === 0) {
      out.push("\uFFFD", i);
      i++;
      continue;
    }
    if (c !== 0x26) {
      out.push(input[i]!, i);
      i++;
      continue;
    }
    // A character reference?
    let j = i + 1;
    if (input.charCodeAt(j) === 0x23) {
      j++;
      const hex = (input.charCodeAt(j) | 0x20) === 0x78;
      if (hex) j++;
      const digitsStart = j;
      let value = 0;
      while (j < n && (hex ? isASCIIHexDigit(input.charCodeAt(j)) : input.charCodeAt(j) >= 0x30 && input.charCodeAt(j) <= 0x39)) {
        if (value <= 0x10ffff) value = value * (hex ? 16 : 10) + parseInt(input[j]!, 16);
        j++;
      }
      if (j === digitsStart) {
        out.push("&", i);
        i++;
        continue;
      }
      if (input.charCodeAt(j) === 0x3b) j++;
      out.push(numericReferenceText(value), i);
      i = j;
      continue;
    }
    let k = j;
    while (k < n && isASCIIAlphanumeric(input.charCodeAt(k))) k++;
    if (k === j) {
      out.push("&", i);
      i++;
      continue;
    }
    const semicolon = input.charCodeAt(k) === 0x3b;
    const run = input.slice(j, k) + (semicolon ? ";" : "");
    const after = !semicolon && input.charCodeAt(k) === 0x3d ? "=" : "";
    const match = namedReference(run, after);
    if (match === null) {
      out.push("&", i);
      i++;
      continue;
    }
    out.push(match.text, i);
    i = j + match.consumed;
  }
  return out.finish(n);
}

function isCSSNewline(c: number): boolean {
  return c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * CSS escapes in a `url()` or string token's text
 * (https://drafts.csswg.org/css-syntax/#consume-escaped-code-point), after
 * CSS's input preprocessing (CR LF, CR, FF → LF; NUL → U+FFFD). In a
 * string, a backslash before a newline is a line continuation: both go.
 */
function decodeCSSEscapes(input: string): Decoded {
  const out = new MapBuilder();
  const n = input.length;
  let i = 0;
  while (i < n) {
    const c = input.charCodeAt(i);
    if (c === 0x0d || c === 0x0c) {
      out.push("\n", i);
      i += c === 0x0d && input.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      continue;
    }
    if (c === 0) {
      out.push("\uFFFD", i);
      i++;
      continue;
    }
    if (c !== 0x5c) {
      out.push(input[i]!, i);
      i++;
      continue;
    }
    const next = input.charCodeAt(i + 1);
    if (i + 1 >= n) {
      out.push("\uFFFD", i);
      i++;
      continue;
    }
    if (isCSSNewline(next)) {
      i += next === 0x0d && input.charCodeAt(i + 2) === 0x0a ? 3 : 2;
      continue;
    }
    if (isASCIIHexDigit(next)) {
      let j = i + 1;
      while (j < n && j < i + 7 && isASCIIHexDigit(input.charCodeAt(j))) j++;
      const value = parseInt(input.slice(i + 1, j), 16);
      const w = input.charCodeAt(j);
      if (w === 0x20 || w === 0x09 || w === 0x0a || w === 0x0c) j++;
      else if (w === 0x0d) j += input.charCodeAt(j + 1) === 0x0a ? 2 : 1;
      const text = value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff) ? "\uFFFD" : String.fromCodePoint(value);
      out.push(text, i);
      i = j;
      continue;
    }
    // The escaped code point itself (a whole surrogate pair when there is one).
    const cp = input.codePointAt(i + 1)!;
    const len = cp > 0xffff ? 2 : 1;
    out.push(input.slice(i + 1, i + 1 + len), i);
    i += 1 + len;
  }
  return out.finish(n);
}

/** `outer` then `inner`: offsets of `inner`'s text in `outer`'s input. */
function compose(outer: Decoded, inner: Decoded): Decoded {
  const from = new Int32Array(inner.from.length);
  for (let i = 0; i < from.length; i++) from[i] = outer.from[inner.from[i]!]!;
  return { text: inner.text, from };
}

/**
 * A function from offsets in `link.value` to offsets in `text` (the
 * document's text, as the links layer decoded it); see the module comment.
 *
 * @example
 * ```ts
 * const text = '<a href="a b&amp;c d">';
 * const [link] = extractLinks(text, { url: "https://example.com/" });
 * const at = valueOffsetMapper(text, link);
 * at(5); // 18: the " " after "c" is offset 5 in the value "a b&c d", 18 in the source
 * ```
 */
export function valueOffsetMapper(text: string, link: Link): (offset: number) => number {
  const start = link.start;
  const raw = text.slice(start, link.end);
  if (raw === link.value) return (offset) => start + offset;
  let decoded: Decoded = { text: raw, from: Int32Array.from({ length: raw.length + 1 }, (_, i) => i) };
  const attributeLayers = link.srcdoc + (link.attribute !== null && link.missing !== true ? 1 : 0);
  for (let layer = 0; layer < attributeLayers; layer++) decoded = compose(decoded, decodeAttribute(decoded.text));
  if (link.kind === "css-url" || link.kind === "css-import") decoded = compose(decoded, decodeCSSEscapes(decoded.text));
  if (decoded.text !== link.value) return () => start;
  const from = decoded.from;
  return (offset) => start + from[Math.max(0, Math.min(offset, from.length - 1))]!;
}

/**
 * A position in a text: 1-based line, and 1-based column in code points
 * from the line's start.
 *
 * @example
 * ```ts
 * const position: SourcePosition = { line: 12, column: 7 };
 * ```
 */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/**
 * The line and column of `offset` in `text`, counted from a known
 * position `from` (at offset `fromOffset`, not after `offset`): CR, LF
 * and CR LF end a line, as the links layer counts them.
 *
 * @example
 * ```ts
 * positionAfter("ab\ncd", 0, { line: 1, column: 1 }, 4); // { line: 2, column: 2 }
 * ```
 */
export function positionAfter(text: string, fromOffset: number, from: SourcePosition, offset: number): SourcePosition {
  let { line, column } = from;
  for (let i = fromOffset; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      column = 1;
    } else if (c === 0x0d) {
      // The CR of a CR LF: the LF ends the line.
    } else if (c >= 0xdc00 && c <= 0xdfff && i > fromOffset && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff) {
      // The second half of a surrogate pair: the same code point.
    } else {
      column++;
    }
  }
  return { line, column };
}

/**
 * The line and column of `offset` in `text`, counted from the start (for
 * positions no link gives, such as a `<base>` element's).
 *
 * @example
 * ```ts
 * positionOf("a\r\nb\u{1D4B3}c", 6); // { line: 2, column: 3 } (the astral character is one column)
 * ```
 */
export function positionOf(text: string, offset: number): SourcePosition {
  return positionAfter(text, 0, { line: 1, column: 1 }, offset);
}
