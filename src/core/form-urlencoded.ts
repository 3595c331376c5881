/**
 * application/x-www-form-urlencoded: the parser and the serializer.
 *
 * https://url.spec.whatwg.org/#application/x-www-form-urlencoded
 *
 * @module
 */

import type { OutputEncodingName } from "./encoding.ts";
import { percentEncodeAfterEncoding, requireEncoder } from "./encoders.ts";
import { formURLEncodedPercentEncodeSet, percentDecodeToString, utf8PercentEncodeString } from "./percent-encoding.ts";

/**
 * A name-value tuple of a form-urlencoded list.
 *
 * @example
 * ```ts
 * const pair: NameValue = ["q", "docs"];
 * ```
 */
export type NameValue = [name: string, value: string];

function decodeComponent(input: string, start: number, end: number): string {
  // "Replace any 0x2B (+) in name and value with 0x20 (SP)."
  let text = input.slice(start, end);
  if (text.includes("+")) text = text.replaceAll("+", " ");
  // "Let nameString and valueString be the result of running UTF-8 decode without BOM on the
  // percent-decoding of name and value, respectively."
  return percentDecodeToString(text);
}

/**
 * https://url.spec.whatwg.org/#concept-urlencoded-string-parser — parses a
 * string (the standard UTF-8 encodes it and parses the bytes; working on the
 * string gives the same tuples).
 *
 * @example
 * ```ts
 * parseFormURLEncoded("a=1&b=%C3%A9&c+d&&=e"); // [["a","1"],["b","é"],["c d",""],["","e"]]
 * ```
 */
export function parseFormURLEncoded(input: string): NameValue[] {
  const output: NameValue[] = [];
  let start = 0;
  // 1. Let sequences be the result of splitting input on 0x26 (&).
  while (start <= input.length) {
    let end = input.indexOf("&", start);
    if (end === -1) end = input.length;
    // 3.1. If bytes is the empty byte sequence, then continue.
    if (end > start) {
      // 3.2–3.3. Split at the first "=", if any.
      const eq = input.indexOf("=", start);
      if (eq !== -1 && eq < end) output.push([decodeComponent(input, start, eq), decodeComponent(input, eq + 1, end)]);
      else output.push([decodeComponent(input, start, end), ""]);
    }
    start = end + 1;
  }
  return output;
}

/**
 * https://url.spec.whatwg.org/#concept-urlencoded-serializer
 *
 * @example
 * ```ts
 * serializeFormURLEncoded([["a b", "é&"]]); // "a+b=%C3%A9%26"
 * ```
 */
export function serializeFormURLEncoded(tuples: readonly NameValue[], encoding: OutputEncodingName = "UTF-8"): string {
  // Without the legacy encoders (docbase/core/utf-8), a legacy encoding throws whatever the tuples.
  if (encoding !== "UTF-8") requireEncoder(encoding);
  let output = "";
  for (let i = 0; i < tuples.length; i++) {
    const [name, value] = tuples[i]!;
    const encode = (text: string): string =>
      encoding === "UTF-8"
        ? utf8PercentEncodeString(text, formURLEncodedPercentEncodeSet, true)
        : percentEncodeAfterEncoding(encoding, text, formURLEncodedPercentEncodeSet, true);
    if (i > 0) output += "&";
    output += encode(name) + "=" + encode(value);
  }
  return output;
}
