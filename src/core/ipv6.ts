/**
 * IPv6 addresses: the IPv6 parser and serializer.
 *
 * https://url.spec.whatwg.org/#concept-ipv6
 *
 * @module
 */

import { codePointWidth, type ErrorSink } from "./error-sink.ts";
import { isASCIIDigit } from "./infra.ts";

function hexDigitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/**
 * https://url.spec.whatwg.org/#concept-ipv6-parser — parses the text between
 * the brackets. Returns eight 16-bit pieces, or null on failure. `errors`,
 * when given, is a sink positioned at `input`.
 *
 * @example
 * ```ts
 * parseIPv6("::ffff:127.0.0.1", null); // [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]
 * ```
 */
export function parseIPv6(input: string, errors: ErrorSink | null): number[] | null {
  const address = [0, 0, 0, 0, 0, 0, 0, 0];
  let pieceIndex = 0;
  let compress: number | null = null;
  let pointer = 0;
  const length = input.length;
  const fail = (type: Parameters<ErrorSink["report"]>[0], start: number, end: number): null => {
    if (errors !== null) errors.report(type, start, Math.min(Math.max(end, start), length));
    return null;
  };

  // 5. If c is U+003A (:), then: if remaining does not start with U+003A (:), IPv6-invalid-compression …
  if (input.charCodeAt(0) === 0x3a) {
    if (input.charCodeAt(1) !== 0x3a) return fail("IPv6-invalid-compression", 0, 1);
    pointer += 2;
    pieceIndex++;
    compress = pieceIndex;
  }

  // 6. While c is not the EOF code point:
  while (pointer < length) {
    // 6.1. If pieceIndex is 8, IPv6-too-many-pieces validation error, return failure.
    if (pieceIndex === 8) return fail("IPv6-too-many-pieces", pointer, length);
    // 6.2. If c is U+003A (:), then: … compression.
    if (input.charCodeAt(pointer) === 0x3a) {
      if (compress !== null) return fail("IPv6-multiple-compression", pointer, pointer + 1);
      pointer++;
      pieceIndex++;
      compress = pieceIndex;
      continue;
    }
    // 6.3–6.4. Up to four hex digits make a piece.
    let value = 0;
    let digits = 0;
    const pieceStart = pointer;
    while (digits < 4 && pointer < length) {
      const d = hexDigitValue(input.charCodeAt(pointer));
      if (d < 0) break;
      value = value * 0x10 + d;
      pointer++;
      digits++;
    }
    const c = pointer < length ? input.charCodeAt(pointer) : -1;
    // 6.5. If c is U+002E (.), then: an embedded IPv4 address.
    if (c === 0x2e) {
      if (digits === 0) return fail("IPv4-in-IPv6-invalid-code-point", pointer, pointer + 1);
      pointer = pieceStart;
      if (pieceIndex > 6) return fail("IPv4-in-IPv6-too-many-pieces", pieceStart, length);
      let numbersSeen = 0;
      while (pointer < length) {
        let ipv4Piece = -1;
        if (numbersSeen > 0) {
          if (input.charCodeAt(pointer) === 0x2e && numbersSeen < 4) pointer++;
          else return fail("IPv4-in-IPv6-invalid-code-point", pointer, pointer + codePointWidth(input, pointer));
        }
        if (pointer >= length || !isASCIIDigit(input.charCodeAt(pointer))) {
          return fail("IPv4-in-IPv6-invalid-code-point", pointer, pointer + codePointWidth(input, pointer));
        }
        const numberStart = pointer;
        while (pointer < length && isASCIIDigit(input.charCodeAt(pointer))) {
          const number = input.charCodeAt(pointer) - 0x30;
          if (ipv4Piece === -1) ipv4Piece = number;
          // "Otherwise, if ipv4Piece is 0, IPv4-in-IPv6-invalid-code-point validation error, return failure." (a leading zero)
          else if (ipv4Piece === 0) return fail("IPv4-in-IPv6-invalid-code-point", numberStart, pointer + 1);
          else ipv4Piece = ipv4Piece * 10 + number;
          if (ipv4Piece > 255) return fail("IPv4-in-IPv6-out-of-range-part", numberStart, pointer + 1);
          pointer++;
        }
        address[pieceIndex] = address[pieceIndex]! * 0x100 + ipv4Piece;
        numbersSeen++;
        if (numbersSeen === 2 || numbersSeen === 4) pieceIndex++;
      }
      if (numbersSeen !== 4) return fail("IPv4-in-IPv6-too-few-parts", pieceStart, length);
      break;
    } else if (c === 0x3a) {
      // 6.6. Otherwise, if c is U+003A (:): increase pointer by 1; if c is the EOF code point, IPv6-invalid-code-point …
      pointer++;
      if (pointer >= length) return fail("IPv6-invalid-code-point", pointer - 1, pointer);
    } else if (c !== -1) {
      // 6.7. Otherwise, if c is not the EOF code point, IPv6-invalid-code-point validation error, return failure.
      return fail("IPv6-invalid-code-point", pointer, pointer + codePointWidth(input, pointer));
    }
    // 6.8. If length is greater than 1 and value is less than 0x10 ** (length − 1),
    //      IPv6-piece-leading-zero validation error. (Its range: the leading zeros.)
    if (errors !== null && digits > 1 && value < 0x10 ** (digits - 1)) {
      let zerosEnd = pieceStart + 1;
      while (zerosEnd < pieceStart + digits - 1 && input.charCodeAt(zerosEnd) === 0x30) zerosEnd++;
      errors.report("IPv6-piece-leading-zero", pieceStart, zerosEnd);
    }
    // 6.9. Set address[pieceIndex] to value. 6.10. Increase pieceIndex by 1.
    address[pieceIndex] = value;
    pieceIndex++;
  }

  if (compress !== null) {
    // 7. Move the pieces after the compression to the end.
    let swaps = pieceIndex - compress;
    pieceIndex = 7;
    while (pieceIndex !== 0 && swaps > 0) {
      const other = compress + swaps - 1;
      const t = address[pieceIndex]!;
      address[pieceIndex] = address[other]!;
      address[other] = t;
      pieceIndex--;
      swaps--;
    }
  } else if (pieceIndex !== 8) {
    // 8. Otherwise, if compress is null and pieceIndex is not 8, IPv6-too-few-pieces validation error, return failure.
    return fail("IPv6-too-few-pieces", 0, length);
  }
  return address;
}

/**
 * https://url.spec.whatwg.org/#concept-ipv6-serializer — without the brackets
 * (the host serializer adds them).
 *
 * @example
 * ```ts
 * serializeIPv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]); // "2001:db8::1"
 * ```
 */
export function serializeIPv6(address: readonly number[]): string {
  // 2. Let compress be an index to the first IPv6 piece in the first longest
  //    sequences of address's IPv6 pieces that are 0 (only sequences longer than 1).
  let compress = -1;
  let longest = 1;
  for (let i = 0; i < 8; ) {
    if (address[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && address[j] === 0) j++;
    if (j - i > longest) {
      longest = j - i;
      compress = i;
    }
    i = j;
  }
  let output = "";
  let ignore0 = false;
  for (let pieceIndex = 0; pieceIndex < 8; pieceIndex++) {
    if (ignore0 && address[pieceIndex] === 0) continue;
    ignore0 = false;
    if (compress === pieceIndex) {
      output += pieceIndex === 0 ? "::" : ":";
      ignore0 = true;
      continue;
    }
    output += address[pieceIndex]!.toString(16);
    if (pieceIndex !== 7) output += ":";
  }
  return output;
}
