/**
 * The encoders "percent-encode after encoding" uses: UTF-8 always, and the
 * Encoding Standard's legacy encoders (legacy-encoding.ts and its indexes)
 * once registered. `docbase/core` registers them (legacy-encodings.ts);
 * `docbase/core/utf-8` does not, so a bundle that only parses UTF-8 leaves
 * them out, and a legacy encoding throws {@link LegacyEncodingUnavailableError}.
 *
 * @module
 */

import { brandedError, brandGuard } from "./branded-error.ts";
import { type EncodingName, getEncoding, getOutputEncoding, type OutputEncodingName } from "./encoding.ts";
import { type PercentEncodeSet, utf8PercentEncodeString } from "./percent-encoding.ts";

/**
 * https://url.spec.whatwg.org/#string-percent-encode-after-encoding for every
 * encoding: what {@link registerLegacyEncoders} takes.
 * @example
 * ```ts
 * import { percentEncodeAfterEncoding } from "./legacy-encoding.ts";
 * const encoder: PercentEncodeAfterEncoding = percentEncodeAfterEncoding;
 * ```
 */
export type PercentEncodeAfterEncoding = (encoding: EncodingName, input: string, percentEncodeSet: PercentEncodeSet, spaceAsPlus?: boolean) => string;

let legacyEncoders: PercentEncodeAfterEncoding | undefined;

/**
 * Makes `encoder` the one every legacy encoding goes through (called once,
 * by legacy-encodings.ts).
 *
 * @example
 * ```ts
 * import { percentEncodeAfterEncoding } from "./legacy-encoding.ts";
 * registerLegacyEncoders(percentEncodeAfterEncoding);
 * ```
 */
export function registerLegacyEncoders(encoder: PercentEncodeAfterEncoding): void {
  legacyEncoders = encoder;
}

/**
 * Thrown by `docbase/core/utf-8` when a legacy encoding would be used (a
 * URL's query, a form, `percentEncodeAfterEncoding`); a `TypeError` whose
 * message and `encoding` name it. Recognise it with
 * {@link isLegacyEncodingUnavailableError}. `docbase/core` (or `import
 * "docbase/core/legacy-encodings"`) has every encoder.
 *
 * @example
 * ```ts
 * import { parseURL } from "docbase/core/utf-8";
 * try {
 *   parseURL("https://example.com/?q=é", { encoding: "windows-1252" });
 * } catch (error) {
 *   if (isLegacyEncodingUnavailableError(error)) error.encoding; // "windows-1252"
 * }
 * ```
 */
export class LegacyEncodingUnavailableError extends brandedError<TypeError>("LegacyEncodingUnavailableError", TypeError) {
  readonly encoding: OutputEncodingName;

  constructor(encoding: OutputEncodingName) {
    super(
      `docbase/core/utf-8 has no legacy encoders, and ${encoding} was asked for: ` +
        'import from "docbase/core" instead, or import "docbase/core/legacy-encodings" once to add them',
    );
    this.encoding = encoding;
  }
}

/**
 * Whether `value` is a {@link LegacyEncodingUnavailableError} from any realm
 * (by its `Symbol.for("docbase.LegacyEncodingUnavailableError")` brand).
 *
 * @example
 * ```ts
 * isLegacyEncodingUnavailableError(new LegacyEncodingUnavailableError("Shift_JIS")); // true
 * isLegacyEncodingUnavailableError(new TypeError("Shift_JIS")); // false
 * ```
 */
export const isLegacyEncodingUnavailableError = brandGuard<LegacyEncodingUnavailableError>("LegacyEncodingUnavailableError");

/**
 * Throws {@link LegacyEncodingUnavailableError} when `encoding` needs a
 * legacy encoder and none is registered, before any input is read, so that
 * it fails alike for every input. A name that is no encoding's is UTF-8 to
 * the parser: no error.
 *
 * @example
 * ```ts
 * requireEncoder("UTF-8"); // nothing
 * requireEncoder("Shift_JIS"); // nothing once registered; else throws LegacyEncodingUnavailableError
 * ```
 */
export function requireEncoder(encoding: string): void {
  if (legacyEncoders !== undefined || encoding === "UTF-8") return;
  const known = getEncoding(encoding);
  if (known === null) return;
  const output = getOutputEncoding(known);
  if (output !== "UTF-8") throw new LegacyEncodingUnavailableError(output);
}

/**
 * https://url.spec.whatwg.org/#string-percent-encode-after-encoding — the
 * registered encoder; until one is, UTF-8 (and the encodings whose output
 * encoding it is), else {@link LegacyEncodingUnavailableError}.
 *
 * @example
 * ```ts
 * import { specialQueryPercentEncodeSet as set } from "./percent-encoding.ts";
 * percentEncodeAfterEncoding("UTF-8", "å", set); // "%C3%A5"
 * percentEncodeAfterEncoding("windows-1252", "a", set); // "a" once registered; else throws LegacyEncodingUnavailableError
 * ```
 */
export function percentEncodeAfterEncoding(encoding: EncodingName, input: string, percentEncodeSet: PercentEncodeSet, spaceAsPlus = false): string {
  if (legacyEncoders !== undefined) return legacyEncoders(encoding, input, percentEncodeSet, spaceAsPlus);
  requireEncoder(encoding);
  return utf8PercentEncodeString(input, percentEncodeSet, spaceAsPlus);
}
