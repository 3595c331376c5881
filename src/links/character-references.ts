/**
 * Character references in attribute values, with a map from the decoded
 * text back to the source: where each URL inside an attribute value starts
 * and ends in the file, and which `&` a new value must escape.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state
 *
 * The named references are parse5's own (the parser this layer uses for
 * everything else), asked through the same parse as the documents and
 * cached: see {@link namedReference}. So a value decodes here exactly as
 * the parser decoded it, with no second copy of the 2,231-entry table.
 * (Optimisation: the same parse, not `parse5.parseFragment`, so that
 * parse5's code sees one tokenizer and one tree adapter, and stays fast.)
 *
 * @module
 */

import { type LeanText, parseWithPositions } from "./html-source.ts";

/**
 * A decoded attribute value (or any decoded run of source text) and the
 * map back to the source.
 *
 * The map is a list of segments. A literal segment copies source code units
 * one for one; any other (a character reference, a CR LF pair) turns a run
 * of source code units into its decoded text, all of which maps to the
 * whole run.
 */
export interface DecodedText {
  /** The decoded text (what parse5 puts in the tree). */
  readonly text: string;
  /** Where the source text starts. */
  readonly sourceStart: number;
  /** Where the source text ends. */
  readonly sourceEnd: number;
  /** The segments (null: the text is the source slice itself). */
  readonly segments: Segments | null;
}

/**
 * The segments of a {@link DecodedText}, in order (a decoder builds them:
 * this one for attribute values, `cssValueMap` for CSS escapes).
 *
 * @example
 * ```ts
 * // "a&lt;b" decoded to "a<b": "a" as is, "&lt;" → "<", "b" as is.
 * const segments: Segments = { decoded: [0, 1, 2], source: [0, 1, 5], literal: [1, 0, 1] };
 * ```
 */
export interface Segments {
  /** Decoded offset where each segment starts. */
  readonly decoded: number[];
  /** Source offset where each segment starts. */
  readonly source: number[];
  /** 1 for a literal segment. */
  readonly literal: number[];
}

/** U+0080–U+009F references mapped to windows-1252 characters (the numeric character reference end state's table). */
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

/** A character reference found in the source: how many code units it takes, and what it decodes to. */
export interface CharacterReference {
  readonly length: number;
  readonly text: string;
}

// --- Named references: parse5 as the table --------------------------------------

/** The longest entity name with its ";" ("CounterClockwiseContourIntegral;"). */
const MAX_NAME = 32;
const CACHE_LIMIT = 8192;
const namedCache = new Map<string, { consumed: number; text: string } | null>();
const membershipCache = new Map<string, string | null>();

/** What `text` decodes to in the data state (the text of an SVG style element keeps it). */
function decodeData(text: string): string {
  const style = parseWithPositions(`<svg><style>${text}</style></svg>`).tags[0]?.element;
  const node = style?.childNodes[0];
  return node !== undefined && node.nodeName === "#text" ? (node as LeanText).value : "";
}

/**
 * What `&` + `name` decodes to in an attribute value followed by a quote,
 * or null when it stays as it is. In that position a reference is decoded
 * only when the whole of `name` is one entity name: a shorter legacy match
 * ("&not" in "&notx") is followed by an alphanumeric and so is not decoded.
 */
function membership(name: string): string | null {
  let result = membershipCache.get(name);
  if (result !== undefined) return result;
  const a = parseWithPositions(`<a href="&${name}">`).tags[0]?.element;
  const value = a?.attrs[0]?.value ?? `&${name}`;
  result = value === `&${name}` ? null : value;
  if (membershipCache.size >= CACHE_LIMIT) membershipCache.clear();
  membershipCache.set(name, result);
  return result;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#named-character-reference-state —
 * "Consume the maximum number of characters possible, where the consumed
 * characters are one of the identifiers in the named character references
 * table." `run` is the ASCII alphanumerics after the `&`, with a `;` after
 * them when there is one. Returns how many of them the match takes and what
 * it decodes to, or null when nothing matches.
 *
 * The table is parse5's: the text that parse5 gives for `&` + run (data
 * state, so no attribute rule) is the decoded match followed by the rest of
 * the run, which tells the match's length to within the length of its
 * decoded text (1 to 4 code units); {@link membership} settles which.
 *
 * @example
 * ```ts
 * namedReference("notin;"); // { consumed: 6, text: "∉" }
 * namedReference("notit"); // { consumed: 3, text: "¬" } (the legacy "&not")
 * namedReference("bogus"); // null
 * ```
 */
export function namedReference(run: string): { consumed: number; text: string } | null {
  const cached = namedCache.get(run);
  if (cached !== undefined) return cached;
  let result: { consumed: number; text: string } | null = null;
  // Optimisation: the commonest names, without asking the parser.
  const common = commonNames[run];
  if (common !== undefined) {
    result = { consumed: run.length, text: common };
  } else if (run.length > 0 && ((run.charCodeAt(0) | 0x20) >= 0x61 && (run.charCodeAt(0) | 0x20) <= 0x7a)) {
    const decoded = decodeData(`&${run}`);
    if (decoded !== `&${run}`) {
      const len = run.length;
      for (let k = Math.min(len, len - decoded.length + 4); k >= Math.max(1, len - decoded.length + 1); k--) {
        const textLength = decoded.length - (len - k);
        if (!decoded.endsWith(run.slice(k))) continue;
        const text = membership(run.slice(0, k));
        if (text !== null && text === decoded.slice(0, textLength)) {
          result = { consumed: k, text };
          break;
        }
      }
    }
  }
  if (namedCache.size >= CACHE_LIMIT) namedCache.clear();
  namedCache.set(run, result);
  return result;
}

const commonNames: Readonly<Record<string, string>> = {
  "amp;": "&",
  "lt;": "<",
  "gt;": ">",
  "quot;": '"',
  "apos;": "'",
  "nbsp;": "\u00a0",
};

/**
 * The character reference that starts at `s[i]` (an `&`), read as the
 * tokenizer reads it in an attribute value
 * (https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state
 * with the return state an attribute value state), not looking at or past
 * `end`; null when the `&` and what follows stay as they are.
 *
 * @example
 * ```ts
 * attributeReferenceAt("&amp;x", 0, 6); // { length: 5, text: "&" }
 * attributeReferenceAt("&copy=1", 0, 7); // null (an attribute keeps "&copy" before "=")
 * attributeReferenceAt("&#x41", 0, 5); // { length: 5, text: "A" }
 * ```
 */
export function attributeReferenceAt(s: string, i: number, end: number): CharacterReference | null {
  let j = i + 1;
  if (j >= end) return null;
  let c = s.charCodeAt(j);
  if (c === 0x23) {
    // Numeric character reference state.
    j++;
    let hex = false;
    if (j < end && (s.charCodeAt(j) | 0x20) === 0x78) {
      hex = true;
      j++;
    }
    const digitsStart = j;
    let value = 0;
    while (j < end) {
      c = s.charCodeAt(j);
      if (hex ? !isASCIIHexDigit(c) : !(c >= 0x30 && c <= 0x39)) break;
      const digit = c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10;
      // Past 0x10FFFF the value only matters as "too big".
      if (value <= 0x10ffff) value = value * (hex ? 16 : 10) + digit;
      j++;
    }
    // "absence-of-digits-in-numeric-character-reference": flushed as is.
    if (j === digitsStart) return null;
    if (j < end && s.charCodeAt(j) === 0x3b) j++;
    return { length: j - i, text: numericReferenceText(value) };
  }
  if (!isASCIIAlphanumeric(c)) return null;
  // Named character reference state.
  let k = j;
  while (k < end && k - j <= MAX_NAME && isASCIIAlphanumeric(s.charCodeAt(k))) k++;
  const semicolon = k < end && s.charCodeAt(k) === 0x3b;
  const run = s.slice(j, k) + (semicolon ? ";" : "");
  const match = namedReference(run);
  if (match === null) return null;
  const after = j + match.consumed;
  // "If the character reference was consumed as part of an attribute, and
  // the last character matched is not a U+003B SEMICOLON character (;), and
  // the next input character is either a U+003D EQUALS SIGN character (=) or
  // an ASCII alphanumeric, then, for historical reasons, flush code points
  // consumed as a character reference and switch to the return state."
  if (s.charCodeAt(after - 1) !== 0x3b && after < end) {
    const next = s.charCodeAt(after);
    if (next === 0x3d || isASCIIAlphanumeric(next)) return null;
  }
  return { length: after - i, text: match.text };
}

/** https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state */
function numericReferenceText(value: number): string {
  if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return "\uFFFD";
  const replacement = c1Replacements[value];
  return String.fromCodePoint(replacement ?? value);
}

// --- Decoding with a map -------------------------------------------------------

/**
 * Decodes the attribute value `html.slice(start, end)` as the tokenizer
 * does (character references, CR and CR LF → LF, NUL → U+FFFD) and keeps
 * the map back to the source.
 *
 * @example
 * ```ts
 * const d = decodeAttributeValue('x="a&amp;b"', 3, 10);
 * d.text; // "a&b"
 * sourceStart(d, 2); // 9 (the "b")
 * ```
 */
export function decodeAttributeValue(html: string, start: number, end: number): DecodedText {
  // Optimisation: most values have nothing to decode.
  let i = start;
  for (; i < end; i++) {
    const c = html.charCodeAt(i);
    if (c === 0x26 || c === 0x0d || c === 0) break;
  }
  if (i === end) return { text: html.slice(start, end), sourceStart: start, sourceEnd: end, segments: null };

  const out = new DecodedTextBuilder(html, start, end);
  while (i < end) {
    const c = html.charCodeAt(i);
    if (c === 0x26) {
      const ref = attributeReferenceAt(html, i, end);
      if (ref !== null) {
        out.replace(i, i + ref.length, ref.text);
        i += ref.length;
        continue;
      }
    } else if (c === 0x0d) {
      const next = i + 1 < end && html.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
      out.replace(i, next, "\n");
      i = next;
      continue;
    } else if (c === 0) {
      out.replace(i, i + 1, "\uFFFD");
      i++;
      continue;
    }
    i++;
  }
  return out.finish();
}

/**
 * Builds the {@link DecodedText} of `input[start, end)` as a decoder goes
 * through it: the input is kept as it is (literal segments) except where
 * the decoder replaces a piece of it ({@link DecodedTextBuilder.replace}:
 * a character reference, a CSS escape, a CR LF) or drops one
 * ({@link DecodedTextBuilder.skip}: a CSS line continuation).
 *
 * @example
 * ```ts
 * const b = new DecodedTextBuilder("a&lt;b", 0, 6);
 * b.replace(1, 5, "<");
 * b.finish(); // { text: "a<b", sourceStart: 0, sourceEnd: 6, segments: { decoded: [0, 1, 2], source: [0, 1, 5], literal: [1, 0, 1] } }
 * ```
 */
export class DecodedTextBuilder {
  private readonly decoded: number[] = [];
  private readonly source: number[] = [];
  private readonly literal: number[] = [];
  private readonly parts: string[] = [];
  private length = 0;
  private literalStart: number;
  private readonly input: string;
  private readonly start: number;
  private readonly end: number;

  constructor(input: string, start: number, end: number) {
    this.input = input;
    this.start = start;
    this.end = end;
    this.literalStart = start;
  }

  /** Decodes `input[from, to)` (after everything before `from`, kept as it is) to `text`. */
  replace(from: number, to: number, text: string): void {
    this.flushLiteral(from);
    this.decoded.push(this.length);
    this.source.push(from);
    this.literal.push(0);
    this.parts.push(text);
    this.length += text.length;
    this.literalStart = to;
  }

  /** Drops `input[from, to)` (after everything before `from`, kept as it is). */
  skip(from: number, to: number): void {
    this.flushLiteral(from);
    this.literalStart = to;
  }

  /** The decoded text, the rest of the input kept as it is. */
  finish(): DecodedText {
    this.flushLiteral(this.end);
    return {
      text: this.parts.join(""),
      sourceStart: this.start,
      sourceEnd: this.end,
      segments: { decoded: this.decoded, source: this.source, literal: this.literal },
    };
  }

  private flushLiteral(to: number): void {
    const from = this.literalStart;
    if (to <= from) return;
    this.decoded.push(this.length);
    this.source.push(from);
    this.literal.push(1);
    this.parts.push(this.input.slice(from, to));
    this.length += to - from;
  }
}

/** The index of the segment that holds decoded offset `d` (the last segment starting at or before it). */
function segmentAt(segments: Segments, d: number): number {
  const starts = segments.decoded;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= d) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The source offset where the decoded code unit `d` starts (`sourceEnd` for
 * `d` = the text's length); inside a character reference, where it starts.
 *
 * @example
 * ```ts
 * sourceStart(decodeAttributeValue("a&lt;b", 0, 6), 2); // 5
 * ```
 */
export function sourceStart(text: DecodedText, d: number): number {
  if (text.segments === null) return text.sourceStart + d;
  if (d >= text.text.length) return text.sourceEnd;
  const s = text.segments;
  const k = segmentAt(s, d);
  return s.literal[k] === 1 ? s.source[k]! + (d - s.decoded[k]!) : s.source[k]!;
}

/**
 * The source offset where the decoded text up to `d` (exclusive) ends;
 * after a character reference, where it ends.
 *
 * @example
 * ```ts
 * sourceEnd(decodeAttributeValue("a&lt;b", 0, 6), 2); // 5
 * ```
 */
export function sourceEnd(text: DecodedText, d: number): number {
  if (text.segments === null) return text.sourceStart + d;
  if (d <= 0) return text.sourceStart;
  const s = text.segments;
  const k = segmentAt(s, d - 1);
  if (s.literal[k] === 1) return s.source[k]! + (d - s.decoded[k]!);
  return k + 1 < s.source.length ? s.source[k + 1]! : text.sourceEnd;
}

/**
 * A builder and its result, kept alive for the life of the module for
 * their shapes (see `retainedShapes` in html-source.ts): without them each
 * full garbage collection threw away the optimised code of
 * {@link decodeAttributeValue}. Exported so that it lives as long as the
 * module.
 *
 * @example
 * ```ts
 * retainedDecoding.length; // 3: a builder, its result, and a decoded value
 * ```
 */
export const retainedDecoding: readonly object[] = (() => {
  const builder = new DecodedTextBuilder("a&amp;b", 0, 7);
  builder.replace(1, 6, "&");
  return [builder, builder.finish(), decodeAttributeValue("a&lt;\r\nb", 0, 9)];
})();
