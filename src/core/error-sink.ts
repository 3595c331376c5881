/**
 * Where the parser reports validation errors when, and only when, someone
 * asked for them (see validateURL). On the normal parse path the sink is
 * null and no error is ever built.
 *
 * @module
 */

import type { ValidationError, ValidationErrorType } from "./validation-errors.ts";

/**
 * Collects validation errors with offsets into the parser's input (after
 * trimming and tab/newline removal); validateURL maps them back to the
 * caller's input.
 *
 * @example
 * ```ts
 * const sink = new ErrorSink();
 * sink.within(8, 3, true).report("IPv4-empty-part", 2, 3);
 * sink.errors; // [{ type: "IPv4-empty-part", start: 10, end: 11 }]
 * ```
 */
export class ErrorSink {
  readonly errors: ValidationError[];
  /** The most errors kept, and how many more were reported, shared by every sink of one parse. */
  private readonly tally: { readonly limit: number; omitted: number };
  private readonly offset: number;
  /** When >= 0, every report covers [0, span): the substring was transformed and positions inside it don't map. */
  private readonly span: number;
  /** When non-null, position k of the text reported on is position map[k] of the substring (map[length] is its length). */
  private readonly map: readonly number[] | null;

  constructor(errors: ValidationError[] = [], offset = 0, span = -1, map: readonly number[] | null = null, tally: { readonly limit: number; omitted: number } = { limit: Infinity, omitted: 0 }) {
    this.errors = errors;
    this.tally = tally;
    this.offset = offset;
    this.span = span;
    this.map = map;
  }

  /**
   * A sink that keeps at most `limit` errors and counts the rest
   * ({@link omitted}): an input of millions of errors is reported in
   * bounded memory.
   *
   * @example
   * ```ts
   * const sink = ErrorSink.bounded(100);
   * ```
   */
  static bounded(limit: number): ErrorSink {
    return new ErrorSink([], 0, -1, null, { limit, omitted: 0 });
  }

  /** How many errors were reported beyond the limit, and not kept. */
  get omitted(): number {
    return this.tally.omitted;
  }

  /** A new, empty sink with this one's limit (and a count of its own). */
  sibling(): ErrorSink {
    return new ErrorSink([], 0, -1, null, { limit: this.tally.limit, omitted: 0 });
  }

  /** Counts `count` errors that a {@link sibling} did not keep as not kept here too. */
  addOmitted(count: number): void {
    this.tally.omitted += count;
  }

  /** Records one validation error covering `[start, end)` of the text this sink stands for. */
  report(type: ValidationErrorType, start: number, end: number): void {
    if (this.errors.length >= this.tally.limit) {
      this.tally.omitted++;
      return;
    }
    if (this.span >= 0) {
      start = 0;
      end = this.span;
    } else if (this.map !== null) {
      start = this.map[start]!;
      end = this.map[end]!;
    }
    this.errors.push({ type, start: this.offset + start, end: this.offset + end });
  }

  /**
   * Whether positions reported here are positions of the caller's input
   * (false when every report covers a whole transformed substring).
   */
  get positional(): boolean {
    return this.span < 0;
  }

  /**
   * Reports one `type` error for each contiguous run of offending units in
   * `input[start, end)`: `offending(input, i)` returns the length in code
   * units of the offending unit at `i` (a code point, or a "%XX" triple), or 0.
   * The scan moves by whole code points, so no run starts or ends inside a
   * surrogate pair. When positions do not map (see `positional`), runs
   * cannot be told apart: one error, as the standard signals it.
   */
  reportRuns(
    type: ValidationErrorType,
    input: string,
    start: number,
    end: number,
    offending: (input: string, i: number) => number,
  ): void {
    let runStart = -1;
    let i = start;
    while (i < end) {
      const width = offending(input, i);
      if (width > 0) {
        if (runStart === -1) runStart = i;
        i += width;
        continue;
      }
      if (runStart !== -1) {
        this.report(type, runStart, i);
        if (this.span >= 0) return;
        runStart = -1;
      }
      i += codePointWidth(input, i);
    }
    if (runStart !== -1) this.report(type, runStart, Math.min(i, end));
  }

  /**
   * A sink for a substring that starts at `offset` and is `length` long. When
   * `exact` is false the algorithm works on a transformed copy (percent-decoded,
   * IDNA-mapped), so each error covers the whole substring.
   */
  within(offset: number, length: number, exact: boolean): ErrorSink {
    if (this.span >= 0) return this;
    if (this.map === null) return new ErrorSink(this.errors, this.offset + offset, exact ? -1 : length, null, this.tally);
    if (exact) return new ErrorSink(this.errors, this.offset, -1, this.map.slice(offset, offset + length + 1), this.tally);
    const start = this.map[offset]!;
    return new ErrorSink(this.errors, this.offset + start, this.map[offset + length]! - start, null, this.tally);
  }

  /**
   * A sink for a copy of this sink's text in which position k stands for
   * `[map[k], map[k + 1])` of this text (a percent-decoded copy: one
   * position per "%XX"). `map` has one more entry than the copy has code units.
   */
  through(map: readonly number[]): ErrorSink {
    if (this.span >= 0) return this;
    return new ErrorSink(this.errors, this.offset, -1, this.map === null ? map : map.map((k) => this.map![k]!), this.tally);
  }
}

/**
 * The number of UTF-16 code units (1 or 2) of the code point at `i`; 1 at or
 * past the end and for a lone surrogate.
 *
 * @example
 * ```ts
 * codePointWidth("a😀", 1); // 2
 * codePointWidth("a😀", 0); // 1
 * ```
 */
export function codePointWidth(input: string, i: number): number {
  const c = input.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = input.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}
