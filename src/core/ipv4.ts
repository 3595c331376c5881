/**
 * IPv4 addresses: the IPv4 parser, the "ends in a number" checker and the
 * IPv4 serializer.
 *
 * https://url.spec.whatwg.org/#concept-ipv4
 *
 * @module
 */

import type { ErrorSink } from "./error-sink.ts";

/**
 * Failure of the IPv4 parser (a unique value, never thrown).
 *
 * @example
 * ```ts
 * parseIPv4("1.2.3.4.5", null) === IPV4_FAILURE; // true (too many parts)
 * ```
 */
export const IPV4_FAILURE = -1;

/**
 * Optimisation: an IPv4 number is only ever compared with 255 and with
 * 256 ** (5 - n), so accumulating stops growing past this cap. That keeps a
 * 100k-digit part linear and exact in the comparisons that matter.
 */
const NUMBER_CAP = 2 ** 40;

/**
 * https://url.spec.whatwg.org/#ipv4-number-parser — parses `input[start, end)`.
 * Returns the number (capped, see NUMBER_CAP) or -1 on failure;
 * `nonDecimal.value` is set when the part used hex or octal.
 */
function parseIPv4Number(input: string, start: number, end: number, nonDecimal: { value: boolean }): number {
  // 1. If input is the empty string, then return failure.
  if (start === end) return IPV4_FAILURE;
  let radix = 10;
  // 4. If input contains at least two code points and the first two code points are either "0X" or "0x", …
  if (end - start >= 2 && input.charCodeAt(start) === 0x30 && (input.charCodeAt(start + 1) | 0x20) === 0x78) {
    nonDecimal.value = true;
    start += 2;
    radix = 16;
  } else if (end - start >= 2 && input.charCodeAt(start) === 0x30) {
    // 5. Otherwise, if input contains at least two code points and the first code point is U+0030 (0), …
    nonDecimal.value = true;
    start += 1;
    radix = 8;
  }
  // 6. If input is the empty string, then return (0, true).
  if (start === end) return 0;
  let output = 0;
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    let digit: number;
    if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
    else if (radix === 16 && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) digit = (c | 0x20) - 0x61 + 10;
    else return IPV4_FAILURE;
    if (digit >= radix) return IPV4_FAILURE;
    if (output < NUMBER_CAP) output = output * radix + digit;
  }
  return output;
}

/**
 * https://url.spec.whatwg.org/#ends-in-a-number-checker
 *
 * @example
 * ```ts
 * endsInANumber("example.0x1f"); // true
 * endsInANumber("example.com"); // false
 * ```
 */
export function endsInANumber(input: string): boolean {
  // 1–2. Strictly split on "."; when the last item is empty (a trailing "."), remove it
  //      ("If parts's size is 1, then return false" only happens for the empty input).
  let end = input.length;
  if (end > 0 && input.charCodeAt(end - 1) === 0x2e) end--;
  if (end === 0) return false;
  const start = input.lastIndexOf(".", end - 1) + 1;
  // 3–4. If last is non-empty and contains only ASCII digits, then return true.
  if (start === end) return false;
  let allDigits = true;
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c < 0x30 || c > 0x39) {
      allDigits = false;
      break;
    }
  }
  if (allDigits) return true;
  // 5. If parsing last as an IPv4 number does not return failure, then return true.
  return parseIPv4Number(input, start, end, { value: false }) !== IPV4_FAILURE;
}

/**
 * https://url.spec.whatwg.org/#concept-ipv4-parser — returns the address as
 * an unsigned 32-bit number, or {@link IPV4_FAILURE}. `errors`, when given,
 * is a sink positioned at `input` (see ErrorSink.within).
 *
 * @example
 * ```ts
 * parseIPv4("0x7f.1", null); // 2130706433 (127.0.0.1)
 * ```
 */
export function parseIPv4(input: string, errors: ErrorSink | null): number {
  // 1. Let parts be the result of strictly splitting input on U+002E (.).
  let end = input.length;
  // 2. If the last item in parts is the empty string, then: IPv4-empty-part; remove it if parts's size > 1.
  if (end > 0 && input.charCodeAt(end - 1) === 0x2e) {
    if (errors !== null) errors.report("IPv4-empty-part", end - 1, end);
    // A trailing "." always makes at least two parts, so the last (empty) one goes.
    end--;
  }
  let dots = 0;
  for (let i = 0; i < end; i++) if (input.charCodeAt(i) === 0x2e) dots++;
  // 3. If parts's size is less than 4, IPv4-too-few-parts validation error. (The address as a whole.)
  if (dots < 3 && errors !== null) errors.report("IPv4-too-few-parts", 0, input.length);
  // 4. If parts's size is greater than 4, IPv4-too-many-parts validation error, return failure.
  if (dots > 3) {
    if (errors !== null) errors.report("IPv4-too-many-parts", 0, input.length);
    return IPV4_FAILURE;
  }
  // 5–6. Parse each part.
  const numbers: number[] = [];
  let partStart = 0;
  for (let i = 0; i <= end; i++) {
    if (i === end || input.charCodeAt(i) === 0x2e) {
      const nonDecimal = { value: false };
      const n = parseIPv4Number(input, partStart, i, nonDecimal);
      if (n === IPV4_FAILURE) {
        if (errors !== null) errors.report("IPv4-non-numeric-part", partStart, i);
        return IPV4_FAILURE;
      }
      if (nonDecimal.value && errors !== null) errors.report("IPv4-non-decimal-part", partStart, i);
      numbers.push(n);
      partStart = i + 1;
    }
  }
  // 7. If any item in numbers is greater than 255, IPv4-out-of-range-part validation error.
  // Deviation (count): one error per such part, each covering its part, where the standard
  // signals one for the address (see ValidationError); one when positions do not map.
  if (errors !== null) {
    partStart = 0;
    for (let k = 0; k < numbers.length; k++) {
      let partEnd = input.indexOf(".", partStart);
      if (partEnd === -1 || partEnd > end) partEnd = end;
      if (numbers[k]! > 255) {
        errors.report("IPv4-out-of-range-part", partStart, partEnd);
        if (!errors.positional) break;
      }
      partStart = partEnd + 1;
    }
  }
  // 8. If any but the last item in numbers is greater than 255, then return failure.
  for (let i = 0; i < numbers.length - 1; i++) if (numbers[i]! > 255) return IPV4_FAILURE;
  // 9. If the last item in numbers is greater than or equal to 256 ** (5 − numbers's size), then return failure.
  const last = numbers[numbers.length - 1]!;
  if (last >= 256 ** (5 - numbers.length)) return IPV4_FAILURE;
  // 10–14. The address is the last number plus each earlier number times 256 ** (3 − counter).
  let ipv4 = last;
  for (let i = 0; i < numbers.length - 1; i++) ipv4 += numbers[i]! * 256 ** (3 - i);
  return ipv4;
}

/**
 * https://url.spec.whatwg.org/#concept-ipv4-serializer
 *
 * @example
 * ```ts
 * serializeIPv4(2130706433); // "127.0.0.1"
 * ```
 */
export function serializeIPv4(address: number): string {
  return `${Math.floor(address / 16777216) % 256}.${Math.floor(address / 65536) % 256}.${Math.floor(address / 256) % 256}.${address % 256}`;
}
