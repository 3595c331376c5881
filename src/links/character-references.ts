/**
 * Character references in attribute values, with a map from the decoded
 * text back to the source: where each URL inside an attribute value starts
 * and ends in the file, and which `&` a new value must escape.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state
 *
 * References are read by the `entities` package's decoder, as the
 * tokenizer (html-tokenizer.ts) reads them: a value decodes here exactly as
 * the parser decoded it.
 *
 * @module
 */

import { DecodingMode, HtmlEntityDecoder } from "entities/decode";

/**
 * A decoded attribute value (or any decoded run of source text) and the
 * map back to the source.
 *
 * The map is a list of segments. A literal segment copies source code units
 * one for one; any other (a character reference, a CR LF pair) turns a run
 * of source code units into its decoded text, all of which maps to the
 * whole run.
  *
  * @example
  * ```ts
  * decodeAttributeValue('x="a&amp;b"', 3, 10).text; // "a&b"
  * ```
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

/**
 * A character reference found in the source: how many code units it takes, and what it decodes to.
 *
 * @example
 * ```ts
 * const reference: CharacterReference = { length: 5, text: "&" }; // "&amp;"
 * ```
 */
export interface CharacterReference {
  readonly length: number;
  readonly text: string;
}

/** How much of a value the reader hands the decoder at a time when the value does not end the string. */
const CHUNK = 64;

/**
 * Reads character references
 * (https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state)
 * with the `entities` package's decoder, the one parse5 uses: the named
 * references of the standard's table (the longest match, legacy names
 * without a semicolon included), numeric references with the numeric
 * character reference end state's replacements, and in an attribute value
 * the historical rule: "if the character reference was consumed as part of
 * an attribute, and the last character matched is not a U+003B SEMICOLON
 * character (;), and the next input character is either a U+003D EQUALS
 * SIGN character (=) or an ASCII alphanumeric, then [...] flush code points
 * consumed as a character reference".
 *
 * @example
 * ```ts
 * const reader = new CharacterReferenceReader();
 * reader.read("a &notin; b", 2, 11, false); // 7, reader.text "∉"
 * reader.read("&notit", 0, 6, false); // 4, reader.text "¬" (the legacy "&not")
 * reader.read("&copy=1", 0, 7, true); // 0 (an attribute keeps "&copy" before "=")
 * ```
 */
export class CharacterReferenceReader {
  /** The text of the reference last read. */
  text = "";
  private length = 0;
  private readonly decoder = new HtmlEntityDecoder((cp, consumed) => {
    this.text += String.fromCodePoint(cp);
    this.length = consumed;
  });

  /**
   * The reference whose `&` is at `amp` in `s`, reading no further than
   * `end`, where the input ends (in an attribute value, the next input
   * character after `end` is a quote, whitespace or `>`, which end a
   * reference just as the end of the input does). Returns how many code
   * units it takes from the `&` on, with its text in {@link text}; 0 when
   * there is none (the `&` is a character of its own).
   */
  read(s: string, amp: number, end: number, inAttribute: boolean): number {
    this.text = "";
    this.length = 0;
    const decoder = this.decoder;
    decoder.startEntity(inAttribute ? DecodingMode.Attribute : DecodingMode.Legacy);
    let length = -1;
    if (end === s.length) {
      length = decoder.write(s, amp + 1);
    } else {
      // Optimisation: the decoder takes its input in chunks, so a value inside a
      // larger text is not copied whole for each reference (a numeric reference
      // may have any number of digits, so there is no fixed bound to slice to).
      for (let at = amp + 1; length < 0 && at < end; at += CHUNK) length = decoder.write(s.slice(at, Math.min(end, at + CHUNK)), 0);
    }
    if (length < 0) length = decoder.end();
    return length > 0 && this.text !== "" ? this.length : 0;
  }
}

const attributeReferences = new CharacterReferenceReader();

/**
 * The character reference that starts at `s[i]` (an `&`), read as the
 * tokenizer reads it in an attribute value (the character reference state
 * with an attribute value state as the return state), not looking at or
 * past `end`; null when the `&` and what follows stay as they are.
 *
 * @example
 * ```ts
 * attributeReferenceAt("&amp;x", 0, 6); // { length: 5, text: "&" }
 * attributeReferenceAt("&copy=1", 0, 7); // null (an attribute keeps "&copy" before "=")
 * attributeReferenceAt("&#x41", 0, 5); // { length: 5, text: "A" }
 * ```
 */
export function attributeReferenceAt(s: string, i: number, end: number): CharacterReference | null {
  const length = attributeReferences.read(s, i, end, true);
  return length === 0 ? null : { length, text: attributeReferences.text };
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
