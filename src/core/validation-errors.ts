/**
 * The URL Standard's validation errors: their names and what each means.
 *
 * https://url.spec.whatwg.org/#validation-error
 *
 * @module
 */

/**
 * Every validation error type the URL Standard names, with its description,
 * in the standard's table order, as of whatwg/url commit fde3f74 (July 2026,
 * whatwg-url 17.3). `failure: true` marks the ones after which parsing can
 * fail. domain-to-ASCII is marked so: its table says it fails only for a
 * non-ASCII domain, but the domain parser's later steps also fail an ASCII
 * one that is empty or has a forbidden domain code point ("https://a<b/").
 * IPv4-out-of-range-part fails unless it is the last part and that fits.
 *
 * @example
 * ```ts
 * validationErrorTypes["port-out-of-range"].description;
 * // "The input's port is too big."
 * ```
 */
export const validationErrorTypes = {
  // https://url.spec.whatwg.org/#idna
  "domain-to-ASCII": {
    description:
      "Unicode ToASCII records an error when CheckHyphens, UseSTD3ASCIIRules, and VerifyDnsLength are all set to true.",
    failure: true,
  },
  // https://url.spec.whatwg.org/#host-parsing
  "domain-percent-encoded": { description: "The input's host to be processed as a domain contains a percent-encoded byte.", failure: false },
  "host-invalid-code-point": { description: "An opaque host (in a URL that is not special) contains a forbidden host code point.", failure: true },
  "IPv4-empty-part": { description: "An IPv4 address ends with a U+002E (.).", failure: false },
  "IPv4-too-few-parts": { description: "An IPv4 address has fewer than 4 parts.", failure: false },
  "IPv4-too-many-parts": { description: "An IPv4 address has more than 4 parts.", failure: true },
  "IPv4-non-numeric-part": { description: "An IPv4 address part is not numeric.", failure: true },
  "IPv4-non-decimal-part": { description: "The IPv4 address contains numbers expressed using hexadecimal or octal digits.", failure: false },
  "IPv4-out-of-range-part": { description: "An IPv4 address part exceeds 255.", failure: true },
  "IPv4-non-ASCII-input": { description: "An IPv4 address is derived from a non-ASCII string through IDNA processing.", failure: false },
  "IPv6-unclosed": { description: "An IPv6 address is missing the closing U+005D (]).", failure: true },
  "IPv6-invalid-compression": { description: "An IPv6 address begins with improper compression.", failure: true },
  "IPv6-too-many-pieces": { description: "An IPv6 address contains more than 8 pieces.", failure: true },
  "IPv6-multiple-compression": { description: "An IPv6 address is compressed in more than one spot.", failure: true },
  "IPv6-invalid-code-point": { description: "An IPv6 address contains a code point that is neither an ASCII hex digit nor a U+003A (:). Or it unexpectedly ends.", failure: true },
  "IPv6-too-few-pieces": { description: "An uncompressed IPv6 address contains fewer than 8 pieces.", failure: true },
  "IPv6-piece-leading-zero": { description: "An IPv6 address piece contains a leading U+0030 (0).", failure: false },
  "IPv4-in-IPv6-too-many-pieces": { description: "An IPv6 address with IPv4 address syntax: the IPv6 address has more than 6 pieces.", failure: true },
  "IPv4-in-IPv6-invalid-code-point": { description: "An IPv6 address with IPv4 address syntax: an IPv4 part is empty or contains a non-ASCII digit, an IPv4 part contains a leading 0, or there are too many IPv4 parts.", failure: true },
  "IPv4-in-IPv6-out-of-range-part": { description: "An IPv6 address with IPv4 address syntax: an IPv4 part exceeds 255.", failure: true },
  "IPv4-in-IPv6-too-few-parts": { description: "An IPv6 address with IPv4 address syntax: an IPv4 address contains too few parts.", failure: true },
  // https://url.spec.whatwg.org/#url-parsing
  "invalid-URL-unit": { description: "A code point is found that is not a URL unit.", failure: false },
  "special-scheme-missing-following-solidus": { description: "The input's scheme is not followed by \"//\".", failure: false },
  "missing-scheme-non-relative-URL": { description: "The input is missing a scheme, because it does not begin with an ASCII alpha, and either no base URL was provided or the base URL cannot be used as a base URL because it has an opaque path.", failure: true },
  "invalid-reverse-solidus": { description: "The URL has a special scheme and it uses U+005C (\\) instead of U+002F (/).", failure: false },
  "invalid-credentials": { description: "The input includes credentials.", failure: false },
  "host-missing": { description: "The input has a special scheme, but does not contain a host.", failure: true },
  "port-out-of-range": { description: "The input's port is too big.", failure: true },
  "port-invalid": { description: "The input's port is invalid.", failure: true },
  "file-invalid-Windows-drive-letter": { description: "The input is a relative-URL string that starts with a Windows drive letter and the base URL's scheme is \"file\".", failure: false },
  "file-invalid-Windows-drive-letter-host": { description: "A file: URL's host is a Windows drive letter.", failure: false },
} as const satisfies Record<string, { description: string; failure: boolean }>;

/**
 * The name of a validation error, exactly as the URL Standard spells it.
 *
 * @example
 * ```ts
 * const type: ValidationErrorType = "invalid-credentials";
 * ```
 */
export type ValidationErrorType = keyof typeof validationErrorTypes;

/**
 * One validation error: its type and the UTF-16 range `[start, end)` of the
 * offending code points in the input as given (before trimming and tab and
 * newline removal).
 *
 * A range never splits a surrogate pair and covers only offending code
 * points: the one the step looks at, or, for a step about the whole input
 * or host, each run of them (one error per run, where the standard reports
 * one). An error about a part (an IPv4 part, a port) covers the part; one
 * about the host covers the host, as does one found in text that UTF-8
 * decoding or IDNA mapping produced. A missing piece (a "//", a host) is an
 * empty range where it is missing.
 * @example
 * ```ts
 * validateURL("https://user@host/").errors;
 * // [{ type: "invalid-credentials", start: 12, end: 13 }]
 * ```
 */
export interface ValidationError {
  type: ValidationErrorType;
  start: number;
  end: number;
}
