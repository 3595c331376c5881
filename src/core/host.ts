/**
 * Hosts: the host parser (domains through UTS #46, IPv4, IPv6, opaque hosts)
 * and the host serializer.
 *
 * https://url.spec.whatwg.org/#hosts-(domains-and-ip-addresses)
 *
 * @module
 */

import tr46 from "tr46";
import { codePointWidth, ErrorSink } from "./error-sink.ts";
import { forbiddenDomainCodePoints, forbiddenHostCodePoints, isASCIIAlphanumeric, isASCIIHexDigit, isURLCodePoint } from "./infra.ts";
import { endsInANumber, IPV4_FAILURE, parseIPv4, serializeIPv4 } from "./ipv4.ts";
import { parseIPv6, serializeIPv6 } from "./ipv6.ts";
import { c0ControlPercentEncodeSet, percentDecodeToString, utf8PercentEncodeString } from "./percent-encoding.ts";

/** Unicode ToASCII with the URL Standard's flags for `beStrict` (https://url.spec.whatwg.org/#concept-domain-to-ascii); null for failure. */
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
 * https://url.spec.whatwg.org/#concept-domain-to-ascii — the standard's
 * "domain parser" (the export keeps its older name): the ASCII domain, or
 * null on failure. With `beStrict` false, an ASCII domain is only
 * lowercased "regardless of Unicode ToASCII's outcome, due to web
 * compatibility" (whatwg/url#914); strict ToASCII then only decides the
 * domain-to-ASCII validation error, the only one reported here.
 * @example
 * ```ts
 * domainToASCII("Bücher.example", false); // "xn--bcher-kva.example"
 * domainToASCII("A.xn--pokxncvks", false); // "a.xn--pokxncvks"
 * domainToASCII("a b", false); // null (a forbidden domain code point)
 * ```
 */
export function domainToASCII(domain: string, beStrict: boolean, errors: ErrorSink | null = null): string | null {
  // 1. Let strictResult be the result of running domain parser ToASCII with domain and true.
  // 2. If strictResult is a failure value, domain-to-ASCII validation error. (This step does not return.)
  // Optimisation: strictResult is computed only for beStrict or for the validation error.
  if (beStrict || errors !== null) {
    const strictResult = unicodeToASCII(domain, true);
    if (strictResult === null && errors !== null) reportDomainToASCII(domain, errors);
    // 3. If beStrict is true: if strictResult is a failure value, then return failure; return strictResult.
    if (beStrict) return strictResult;
  }
  let result: string | null;
  if (isASCII(domain)) {
    // 5. If domain is an ASCII string, then set result to domain, lowercased.
    result = domain.toLowerCase();
  } else {
    // 6. Otherwise: set result to the result of running domain parser ToASCII with domain and
    //    false; if result is a failure value, then return failure.
    result = unicodeToASCII(domain, false);
    if (result === null) return null;
  }
  // 7. If result is the empty string, then return failure.
  if (result === "") return null;
  // 8. If result contains a forbidden domain code point, then return failure.
  for (let i = 0; i < result.length; i++) {
    const c = result.charCodeAt(i);
    if (c < 0x80 && forbiddenDomainCodePoints[c] === 1) return null;
  }
  // 9. Return result.
  return result;
}

/**
 * Reports the domain-to-ASCII validation error of `domain`, pointing at what
 * fails strict Unicode ToASCII: each run of ASCII code points UseSTD3ASCIIRules
 * disallows; without any, each failing label (an empty one by the separator
 * before it); without any, the whole domain.
 */
function reportDomainToASCII(domain: string, errors: ErrorSink): void {
  const before = errors.errors.length;
  // Deviation (count): one error per offending run or label, where the standard signals one per
  // domain (see ValidationError).
  errors.reportRuns("domain-to-ASCII", domain, 0, domain.length, isSTD3Disallowed);
  if (errors.errors.length !== before) return;
  if (errors.positional) {
    // The offending ranges in order; adjacent ones ("a-..") make one run.
    let runStart = -1;
    let runEnd = -1;
    const offending = (start: number, end: number): void => {
      if (start <= runEnd) {
        runEnd = Math.max(runEnd, end);
        return;
      }
      if (runStart !== -1) errors.report("domain-to-ASCII", runStart, runEnd);
      runStart = start;
      runEnd = end;
    };
    let labelStart = 0;
    for (let i = 0; i <= domain.length; i++) {
      if (i < domain.length && !isLabelSeparator(domain.charCodeAt(i))) continue;
      if (labelStart === i) {
        // An empty label: the separator before it ("a..b", "a.b."), or the one after it (".a").
        if (i > 0) offending(i - 1, i);
        else if (domain.length > 0) offending(0, 1);
      } else if (unicodeToASCII(domain.slice(labelStart, i), true) === null) {
        offending(labelStart, i);
      }
      labelStart = i + 1;
    }
    if (runStart !== -1) {
      errors.report("domain-to-ASCII", runStart, runEnd);
      return;
    }
  }
  errors.report("domain-to-ASCII", 0, domain.length);
}

/** The code points UTS #46 maps to U+002E (.), which separate labels: U+002E, U+3002, U+FF0E and U+FF61. */
function isLabelSeparator(c: number): boolean {
  return c === 0x2e || c === 0x3002 || c === 0xff0e || c === 0xff61;
}

/** 1 when the code point at `i` is ASCII and not allowed by UseSTD3ASCIIRules in a domain, else 0. */
function isSTD3Disallowed(input: string, i: number): number {
  const c = input.charCodeAt(i);
  if (c >= 0x80 || c === 0x2d || c === 0x2e) return 0;
  return isASCIIAlphanumeric(c) ? 0 : 1;
}

function isASCII(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/**
 * https://url.spec.whatwg.org/#concept-host-parser — the host, serialized
 * (https://url.spec.whatwg.org/#concept-host-serializer), or null on failure;
 * `errors`, when given, is a sink positioned at `input`.
 *
 * Deviation (representation): the URL record keeps serialized hosts.
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
  // 4. If input contains a percent-encoded byte, domain-percent-encoded validation error.
  // Deviation (count): one error per run of percent-encoded bytes (see ValidationError).
  if (errors !== null) errors.reportRuns("domain-percent-encoded", input, 0, input.length, percentEncodedByteLength);
  // 5. Let domain be the result of running UTF-8 decode without BOM on the percent-decoding of input.
  const domain = percentDecodeToString(input);
  // Positions in domain are positions in input when nothing was decoded; an ASCII domain maps
  // back through its percent-decoding; otherwise (UTF-8 decoding) errors cover the whole host.
  let domainErrors: ErrorSink | null = null;
  if (errors !== null) {
    if (domain === input) domainErrors = errors;
    else if (isASCII(domain)) domainErrors = errors.through(percentDecodingMap(input));
    else domainErrors = errors.within(0, input.length, false);
  }
  // 6. Let asciiDomain be the result of running domain parser with domain and false.
  const asciiDomain = domainToASCII(domain, false, domainErrors);
  // 7. If asciiDomain is failure, then return failure.
  if (asciiDomain === null) return null;
  // 8. If asciiDomain ends in a number: …
  if (endsInANumber(asciiDomain)) {
    // 8.1. If domain is not an ASCII string, IPv4-non-ASCII-input validation error.
    // The offending code points are the input's non-ASCII ones and its percent-encoded bytes
    // above 0x7F. Deviation (count): one error per run of them (see ValidationError).
    let sink: ErrorSink | null = null;
    if (errors !== null) {
      if (!isASCII(domain)) {
        errors.reportRuns("IPv4-non-ASCII-input", input, 0, input.length, nonASCIIUnitLength);
        // IDNA mapping leaves no correspondence between positions in asciiDomain and in input.
        sink = errors.within(0, input.length, false);
      } else {
        // An ASCII domain is only lowercased: positions in asciiDomain are positions in domain.
        sink = domainErrors;
      }
    }
    // 8.2. Return the result of IPv4 parsing asciiDomain.
    const address = parseIPv4(asciiDomain, sink);
    return address === IPV4_FAILURE ? null : serializeIPv4(address);
  }
  // 9. Return asciiDomain.
  return asciiDomain;
}

/** 3 when a percent-encoded byte (https://url.spec.whatwg.org/#percent-encoded-byte) starts at `i`, else 0. */
function percentEncodedByteLength(input: string, i: number): number {
  return input.charCodeAt(i) === 0x25 && isASCIIHexDigit(input.charCodeAt(i + 1)) && isASCIIHexDigit(input.charCodeAt(i + 2)) ? 3 : 0;
}

/** The length of the non-ASCII code point or the percent-encoded byte above 0x7F at `i`, else 0. */
function nonASCIIUnitLength(input: string, i: number): number {
  const c = input.charCodeAt(i);
  if (c >= 0x80) return codePointWidth(input, i);
  // A percent-encoded byte above 0x7F: "%" followed by 8–F and a hex digit.
  if (percentEncodedByteLength(input, i) === 3 && hexValue(input.charCodeAt(i + 1)) >= 8) return 3;
  return 0;
}

function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10;
}

/**
 * For an input whose percent-decoding is ASCII: where each decoded code unit
 * starts in `input` ("%XX" is one), then input's length.
 */
function percentDecodingMap(input: string): number[] {
  const map: number[] = [];
  let i = 0;
  while (i < input.length) {
    map.push(i);
    i += percentEncodedByteLength(input, i) || 1;
  }
  map.push(input.length);
  return map;
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
      // Deviation (count): one error per run of forbidden host code points (see ValidationError).
      if (errors !== null) errors.reportRuns("host-invalid-code-point", input, i, input.length, isForbiddenHostCodePoint);
      return null;
    }
  }
  if (errors !== null) {
    // 2. If input contains a code point that is not a URL code point and not U+0025 (%), invalid-URL-unit validation error.
    // 3. If input contains a U+0025 (%) and the two code points following it are not ASCII hex digits, invalid-URL-unit validation error.
    // Deviation (count): each step reports one error per run of its offending code points (see ValidationError).
    errors.reportRuns("invalid-URL-unit", input, 0, input.length, nonURLCodePointLength);
    errors.reportRuns("invalid-URL-unit", input, 0, input.length, invalidPercentLength);
  }
  // 4. Return the result of running UTF-8 percent-encode on input using the C0 control percent-encode set.
  return utf8PercentEncodeString(input, c0ControlPercentEncodeSet);
}

function isForbiddenHostCodePoint(input: string, i: number): number {
  const c = input.charCodeAt(i);
  return c < 0x80 && forbiddenHostCodePoints[c] === 1 ? 1 : 0;
}

/** The width of the code point at `i` when it is neither a URL code point nor "%", else 0. */
function nonURLCodePointLength(input: string, i: number): number {
  const cp = input.codePointAt(i)!;
  return cp === 0x25 || isURLCodePoint(cp) ? 0 : codePointWidth(input, i);
}

/** 1 when a "%" not followed by two ASCII hex digits is at `i`, else 0. */
function invalidPercentLength(input: string, i: number): number {
  return input.charCodeAt(i) === 0x25 && percentEncodedByteLength(input, i) === 0 ? 1 : 0;
}

/**
 * Reports an invalid-URL-unit validation error for each code point of
 * `input[start, end)` that is not a URL code point or "%", and for each "%"
 * not followed by two hex digits, as the path, query and fragment states do.
 * @example
 * ```ts
 * const sink = new ErrorSink();
 * reportInvalidURLUnits("a b%zz😀", 0, 8, sink);
 * sink.errors; // [{ type: "invalid-URL-unit", start: 1, end: 2 }, { type: "invalid-URL-unit", start: 3, end: 4 }]
 * ```
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
