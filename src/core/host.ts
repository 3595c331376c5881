/**
 * Hosts: the host parser (domains through UTS #46, IPv4, IPv6, opaque hosts)
 * and the host serializer.
 *
 * https://url.spec.whatwg.org/#hosts-(domains-and-ip-addresses)
 *
 * @module
 */

import tr46 from "tr46";
import { ErrorSink } from "./error-sink.ts";
import { forbiddenDomainCodePoints, forbiddenHostCodePoints, isASCIIHexDigit, isURLCodePoint } from "./infra.ts";
import { endsInANumber, IPV4_FAILURE, parseIPv4, serializeIPv4 } from "./ipv4.ts";
import { parseIPv6, serializeIPv6 } from "./ipv6.ts";
import { c0ControlPercentEncodeSet, percentDecodeToString, utf8PercentEncodeString } from "./percent-encoding.ts";

/**
 * Unicode ToASCII with the flags the URL Standard gives for `beStrict`
 * (https://url.spec.whatwg.org/#concept-domain-to-ascii). Returns null for
 * a failure value.
 */
function unicodeToASCII(domain: string, beStrict: boolean): string | null {
  return tr46.toASCII(domain, {
    checkHyphens: beStrict,
    checkBidi: true,
    checkJoiners: true,
    useSTD3ASCIIRules: beStrict,
    transitionalProcessing: false,
    verifyDNSLength: beStrict,
    ignoreInvalidPunycode: false,
  });
}

/**
 * https://url.spec.whatwg.org/#concept-domain-to-ascii — returns the ASCII
 * domain, or null on failure.
 *
 * Follows the standard as changed in 2026 (whatwg/url#914): with `beStrict`
 * false, an ASCII domain is only lowercased, "regardless of Unicode
 * ToASCII's outcome, due to web compatibility" (so `xn--` labels that are
 * not valid Punycode pass through). Strict ToASCII then only decides whether
 * a domain-to-ASCII validation error is reported.
 *
 * @example
 * ```ts
 * domainToASCII("Bücher.example", false); // "xn--bcher-kva.example"
 * domainToASCII("A.xn--pokxncvks", false); // "a.xn--pokxncvks"
 * domainToASCII("a b", false); // null (a forbidden domain code point)
 * ```
 */
export function domainToASCII(domain: string, beStrict: boolean, errors: ErrorSink | null = null): string | null {
  // 1–2. Let strictResult be the result of running Unicode ToASCII with domain and true. If it is
  //      a failure value, domain-to-ASCII validation error. (This step does not return.)
  // Optimisation: strictResult only matters for beStrict or for the validation error, so it is
  // computed only then.
  if (beStrict || errors !== null) {
    const strictResult = unicodeToASCII(domain, true);
    if (strictResult === null) errors?.report("domain-to-ASCII", 0, domain.length);
    // 3. If beStrict is true: if strictResult is a failure value, then return failure; return strictResult.
    if (beStrict) return strictResult;
  }
  let result: string | null;
  if (isASCII(domain)) {
    // 5. If domain is an ASCII string, then set result to domain, lowercased.
    result = domain.toLowerCase();
  } else {
    // 6. Otherwise, set result to the result of running Unicode ToASCII with domain and false.
    result = unicodeToASCII(domain, false);
    // If result is a failure value, or the empty string, then return failure.
    if (result === null || result === "") {
      if (errors !== null && !errors.errors.some((e) => e.type === "domain-to-ASCII")) {
        errors.report("domain-to-ASCII", 0, domain.length);
      }
      return null;
    }
  }
  // If result contains a forbidden domain code point, domain-invalid-code-point validation error, return failure.
  for (let i = 0; i < result.length; i++) {
    const c = result.charCodeAt(i);
    if (c < 0x80 && forbiddenDomainCodePoints[c] === 1) {
      // Positions in an ASCII result are positions in domain; after IDNA mapping they are not.
      if (errors !== null) {
        if (result.length === domain.length && isASCII(domain)) errors.report("domain-invalid-code-point", i, i + 1);
        else errors.report("domain-invalid-code-point", 0, domain.length);
      }
      return null;
    }
  }
  return result;
}

function isASCII(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/**
 * https://url.spec.whatwg.org/#concept-host-parser — parses a host and
 * returns its serialization (https://url.spec.whatwg.org/#concept-host-serializer),
 * or null on failure. `errors`, when given, is a sink positioned at `input`.
 *
 * Deviation (representation): the host is returned serialized, since the
 * URL record keeps serialized hosts (see URLRecord).
 *
 * @example
 * ```ts
 * parseHost("EXAMPLE.com", false); // "example.com"
 * parseHost("[::1]", false); // "[::1]"
 * parseHost("0x7f.1", false); // "127.0.0.1"
 * parseHost("a b", true); // null (a forbidden host code point)
 * ```
 */
export function parseHost(input: string, isOpaque: boolean, errors: ErrorSink | null = null): string | null {
  // 1. If input starts with U+005B ([), then: …
  if (input.charCodeAt(0) === 0x5b) {
    if (input.charCodeAt(input.length - 1) !== 0x5d) {
      if (errors !== null) errors.report("IPv6-unclosed", 0, input.length);
      return null;
    }
    const address = parseIPv6(input.slice(1, -1), errors === null ? null : errors.within(1, input.length - 2, true));
    return address === null ? null : `[${serializeIPv6(address)}]`;
  }
  // 2. If isOpaque is true, then return the result of opaque-host parsing input.
  if (isOpaque) return parseOpaqueHost(input, errors);
  // 3. Assert: input is not the empty string.
  // 4. Let domain be the result of running UTF-8 decode without BOM on the percent-decoding of input.
  const domain = percentDecodeToString(input);
  const exact = domain === input;
  // 5. Let asciiDomain be the result of running domain to ASCII with domain and false.
  const asciiDomain = domainToASCII(domain, false, errors === null ? null : errors.within(0, input.length, exact));
  // 6. If asciiDomain is failure, then return failure.
  if (asciiDomain === null) return null;
  // 7. If asciiDomain ends in a number, then return the result of IPv4 parsing asciiDomain.
  if (endsInANumber(asciiDomain)) {
    const sink = errors === null ? null : errors.within(0, input.length, exact && asciiDomain.length === input.length);
    const address = parseIPv4(asciiDomain, sink);
    return address === IPV4_FAILURE ? null : serializeIPv4(address);
  }
  // 8. Return asciiDomain.
  return asciiDomain;
}

/**
 * https://url.spec.whatwg.org/#concept-opaque-host-parser
 *
 * @example
 * ```ts
 * parseOpaqueHost("Ex%41mple"); // "Ex%41mple" (opaque hosts keep their case)
 * ```
 */
export function parseOpaqueHost(input: string, errors: ErrorSink | null = null): string | null {
  // 1. If input contains a forbidden host code point, host-invalid-code-point validation error, return failure.
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c < 0x80 && forbiddenHostCodePoints[c] === 1) {
      if (errors !== null) errors.report("host-invalid-code-point", i, i + 1);
      return null;
    }
  }
  // 2. If input contains a code point that is not a URL code point and not U+0025 (%), invalid-URL-unit validation error.
  // 3. If input contains a U+0025 (%) and the two code points following it are not ASCII hex digits, invalid-URL-unit validation error.
  // Each is one error for the whole host; its range spans the first to the last offending code point.
  if (errors !== null) {
    const found = new ErrorSink();
    reportInvalidURLUnits(input, 0, input.length, found);
    for (const percent of [true, false]) {
      const matching = found.errors.filter((e) => (input.charCodeAt(e.start) === 0x25) === percent);
      if (matching.length > 0) errors.report("invalid-URL-unit", matching[0]!.start, matching[matching.length - 1]!.end);
    }
  }
  // 4. Return the result of running UTF-8 percent-encode on input using the C0 control percent-encode set.
  return utf8PercentEncodeString(input, c0ControlPercentEncodeSet);
}

/**
 * Reports an invalid-URL-unit validation error for each code point of
 * `input[start, end)` that is not a URL code point and not "%", and for each
 * "%" not followed by two ASCII hex digits. Only called when errors are asked for.
 */
export function reportInvalidURLUnits(input: string, start: number, end: number, errors: ErrorSink): void {
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x25) {
      if (!(i + 2 < input.length && isASCIIHexDigit(input.charCodeAt(i + 1)) && isASCIIHexDigit(input.charCodeAt(i + 2)))) {
        errors.report("invalid-URL-unit", i, i + 1);
      }
      continue;
    }
    const cp = input.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (!isURLCodePoint(cp)) errors.report("invalid-URL-unit", i, i + width);
    i += width - 1;
  }
}
