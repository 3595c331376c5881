/**
 * The HTML Standard's parser for `srcset` and `imagesrcset`, with where
 * each URL is in the value.
 *
 * https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute
 *
 * @module
 */

import { isASCIIWhitespace } from "../core/infra.ts";

/**
 * One image candidate string of a srcset value.
 *
 * @example
 * ```ts
 * const candidate: ImageCandidate = { url: "a.png", start: 0, end: 5, descriptors: ["2x"], valid: true };
 * ```
 */
export interface ImageCandidate {
  /** The URL as written (trailing commas removed). */
  readonly url: string;
  /** Where the URL starts and ends in the value. */
  readonly start: number;
  readonly end: number;
  /** The descriptors as the descriptor tokenizer splits them (`["100w"]`, `["2x"]`, `[]`). */
  readonly descriptors: readonly string[];
  /**
   * False when the descriptor parser finds an error: the candidate is then
   * dropped ("Otherwise, ... parse error") and a browser never fetches it.
   */
  readonly valid: boolean;
}

const validNonNegativeInteger = /^[0-9]+$/;
// https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#valid-floating-point-number
const validFloatingPointNumber = /^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/**
 * https://html.spec.whatwg.org/multipage/images.html#parsing-a-srcset-attribute —
 * splits `input` into image candidate strings. Unlike the standard's
 * algorithm, candidates whose descriptors are in error are kept, marked
 * `valid: false` (they are still URLs in the document).
 *
 * @example
 * ```ts
 * parseSrcset("a.png 1x, b,c.png 2x,").map((c) => c.url); // ["a.png", "b,c.png"]
 * parseSrcset("x.png 100w 2x")[0].valid; // false (a width and a density)
 * ```
 */
export function parseSrcset(input: string): ImageCandidate[] {
  const candidates: ImageCandidate[] = [];
  const n = input.length;
  // 3. Let position be a pointer into input, initially pointing at the start of the string.
  let position = 0;
  for (;;) {
    // 5. Splitting loop: Collect a sequence of code points that are ASCII whitespace or U+002C COMMA characters.
    while (position < n) {
      const c = input.charCodeAt(position);
      if (!isASCIIWhitespace(c) && c !== 0x2c) break;
      position++;
    }
    // 6. If position is past the end of input, return candidates.
    if (position >= n) return candidates;
    // 7. Collect a sequence of code points that are not ASCII whitespace, and let that be url.
    const start = position;
    while (position < n && !isASCIIWhitespace(input.charCodeAt(position))) position++;
    let end = position;
    // 8. Let descriptors be a new empty list.
    const descriptors: string[] = [];
    // 9. If url ends with U+002C (,), then: remove all trailing U+002C COMMA characters from url.
    if (input.charCodeAt(end - 1) === 0x2c) {
      while (end > start && input.charCodeAt(end - 1) === 0x2c) end--;
    } else {
      // Otherwise: the descriptor tokenizer.
      position = tokenizeDescriptors(input, position, descriptors);
    }
    if (end > start) {
      candidates.push({ url: input.slice(start, end), start, end, descriptors, valid: descriptorsAreValid(descriptors) });
    }
    // 16. Return to the step labeled splitting loop.
  }
}

/** Step 9's descriptor tokenizer: fills `descriptors` and returns the new position. */
function tokenizeDescriptors(input: string, position: number, descriptors: string[]): number {
  const n = input.length;
  // 1. Descriptor tokeniser: Skip ASCII whitespace within input given position.
  while (position < n && isASCIIWhitespace(input.charCodeAt(position))) position++;
  // 2. Let current descriptor be the empty string.
  let current = "";
  // 3. Let state be in descriptor.
  let state: "in descriptor" | "in parens" | "after descriptor" = "in descriptor";
  // 4. Let c be the character at position. Do the following depending on the value of state.
  for (;;) {
    const c = position < n ? input.charCodeAt(position) : -1;
    if (state === "in descriptor") {
      if (c !== -1 && isASCIIWhitespace(c)) {
        if (current !== "") {
          descriptors.push(current);
          current = "";
          state = "after descriptor";
        }
      } else if (c === 0x2c) {
        position++;
        if (current !== "") descriptors.push(current);
        return position;
      } else if (c === 0x28) {
        current += "(";
        state = "in parens";
      } else if (c === -1) {
        if (current !== "") descriptors.push(current);
        return position;
      } else {
        current += input[position];
      }
    } else if (state === "in parens") {
      if (c === 0x29) {
        current += ")";
        state = "in descriptor";
      } else if (c === -1) {
        descriptors.push(current);
        return position;
      } else {
        current += input[position];
      }
    } else {
      // After descriptor.
      if (c === -1) return position;
      if (!isASCIIWhitespace(c)) {
        state = "in descriptor";
        continue; // Reconsume: position stays where it is.
      }
    }
    position++;
  }
}

/** Steps 10–14: the descriptor parser's error flag, negated. */
function descriptorsAreValid(descriptors: readonly string[]): boolean {
  let width = false;
  let density = false;
  let futureCompatH = false;
  for (const descriptor of descriptors) {
    const last = descriptor[descriptor.length - 1];
    const number = descriptor.slice(0, -1);
    if (last === "w") {
      if (width || density) return false;
      if (!validNonNegativeInteger.test(number) || Number(number) === 0) return false;
      width = true;
    } else if (last === "x") {
      if (width || density || futureCompatH) return false;
      if (!validFloatingPointNumber.test(number) || Number(number) < 0) return false;
      density = true;
    } else if (last === "h") {
      if (futureCompatH || density) return false;
      if (!validNonNegativeInteger.test(number) || Number(number) === 0) return false;
      futureCompatH = true;
    } else {
      return false;
    }
  }
  // 14. If future-compat-h is not absent and width is absent, let error be yes.
  return !(futureCompatH && !width);
}
