/**
 * Lines and columns in a document's text, counted as {@link Link}'s
 * `line` and `column` are: CR, LF and CR LF each end a line
 * (https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream
 * makes them one), and a column counts code points, so a surrogate pair
 * is one column.
 *
 * @module
 */

/**
 * A place in a text: 1-based line, and 1-based column in code points from
 * the line's start.
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
 * A known place to count from: a line and column at offset `start`. A
 * {@link Link} is one (its `start`, `line` and `column`).
 *
 * @example
 * ```ts
 * const from: SourceAnchor = { start: 0, line: 1, column: 1 };
 * ```
 */
export interface SourceAnchor extends SourcePosition {
  readonly start: number;
}

const textStart: SourceAnchor = { start: 0, line: 1, column: 1 };

/**
 * The line and column of UTF-16 offset `offset` in `text`, counted from
 * `from` (by default the start of the text; `from.start` must not be after
 * `offset`). Counting from a link (or a known place near `offset`) reads
 * only the text in between.
 *
 * @example
 * ```ts
 * sourcePosition("a\r\nb\u{1D4B3}c", 6); // { line: 2, column: 3 } (the astral character is one column)
 * sourcePosition("ab\ncd", 5, { start: 1, line: 1, column: 2 }); // { line: 2, column: 3 }
 *
 * const html = '<p>\n  <a href="a b">';
 * const [link] = extractLinks(html, { url: "https://example.com/", validate: true });
 * sourcePosition(html, link.errors[0].sourceStart, link); // { line: 2, column: 13 } (the space)
 * ```
 */
export function sourcePosition(text: string, offset: number, from: SourceAnchor = textStart): SourcePosition {
  let { line, column } = from;
  const begin = from.start;
  for (let i = begin; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      column = 1;
    } else if (c === 0x0d) {
      // The CR of a CR LF: the LF ends the line.
    } else if (c >= 0xdc00 && c <= 0xdfff && i > begin && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff) {
      // The second half of a surrogate pair: the same code point.
    } else {
      column++;
    }
  }
  return { line, column };
}
