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
 */
export class ErrorSink {
  readonly errors: ValidationError[];
  private readonly offset: number;
  /** When >= 0, every report covers [0, span): the substring was transformed and positions inside it don't map. */
  private readonly span: number;

  constructor(errors: ValidationError[] = [], offset = 0, span = -1) {
    this.errors = errors;
    this.offset = offset;
    this.span = span;
  }

  /** Records one validation error covering `[start, end)` of the text this sink stands for. */
  report(type: ValidationErrorType, start: number, end: number): void {
    if (this.span >= 0) {
      start = 0;
      end = this.span;
    }
    this.errors.push({ type, start: this.offset + start, end: this.offset + end });
  }

  /**
   * A sink for a substring that starts at `offset` and is `length` long. When
   * `exact` is false the algorithm works on a transformed copy (percent-decoded,
   * IDNA-mapped), so each error covers the whole substring.
   */
  within(offset: number, length: number, exact: boolean): ErrorSink {
    if (this.span >= 0) return this;
    return new ErrorSink(this.errors, this.offset + offset, exact ? -1 : length);
  }
}
