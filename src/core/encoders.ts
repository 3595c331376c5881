/**
 * The encoders "percent-encode after encoding" uses, as the parser and the
 * form serializer reach them: UTF-8 always, and the Encoding Standard's
 * legacy encoders (windows-1252, Shift_JIS, gb18030, …: legacy-encoding.ts
 * and its indexes, most of core's size once bundled) only once registered.
 *
 * `docbase/core`, and every entry point built on it, registers them when it
 * is imported (legacy-encodings.ts), so nothing changes there. The
 * `docbase/core/utf-8` entry point does not: a page or a worker that only
 * ever parses UTF-8 URLs leaves the legacy encoders out of its bundle, and a
 * legacy encoding asked of it throws {@link LegacyEncodingUnavailableError}
 * instead of encoding anything else.
 *
 * @module
 */

import { brandedError, brandGuard } from "./branded-error.ts";
import { type EncodingName, getEncoding, getOutputEncoding, type OutputEncodingName } from "./encoding.ts";
import { type PercentEncodeSet, utf8PercentEncodeString } from "./percent-encoding.ts";

/**
 * https://url.spec.whatwg.org/#string-percent-encode-after-encoding, for
 * every encoding: the form of legacy-encoding.ts's function, which
 * {@link registerLegacyEncoders} takes.
 *
 * @example
 * ```ts
 * import { percentEncodeAfterEncoding } from "./legacy-encoding.ts";
 * const encoder: PercentEncodeAfterEncoding = percentEncodeAfterEncoding;
 * ```
 */
export type PercentEncodeAfterEncoding = (encoding: EncodingName, input: string, percentEncodeSet: PercentEncodeSet, spaceAsPlus?: boolean) => string;

let legacyEncoders: PercentEncodeAfterEncoding | undefined;

/**
 * Makes `encoder` (legacy-encoding.ts's `percentEncodeAfterEncoding`) the
 * one every legacy encoding goes through. Called once, by legacy-encodings.ts.
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
 * Thrown by `docbase/core/utf-8` when a legacy encoding would be used: a URL
 * parsed with an `encoding` other than UTF-8 whose query is encoded with it
 * (special URLs other than ws: and wss:), a form serialized in one, or
 * `percentEncodeAfterEncoding` called with one. Its message and its
 * `encoding` property name the encoding. A `TypeError`; use
 * {@link isLegacyEncodingUnavailableError} across realms. `docbase/core` (or
 * `import "docbase/core/legacy-encodings"` once) has every encoder.
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
  /** The output encoding that was asked for. */
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
 * Whether `value` is a {@link LegacyEncodingUnavailableError}, from this
 * realm or any other: it checks the
 * `Symbol.for("docbase.LegacyEncodingUnavailableError")` brand.
 *
 * @example
 * ```ts
 * isLegacyEncodingUnavailableError(new LegacyEncodingUnavailableError("Shift_JIS")); // true
 * isLegacyEncodingUnavailableError(new TypeError("Shift_JIS")); // false
 * ```
 */
export const isLegacyEncodingUnavailableError = brandGuard<LegacyEncodingUnavailableError>("LegacyEncodingUnavailableError");

/**
 * Throws {@link LegacyEncodingUnavailableError} when `encoding` (an output
 * encoding's name, as the parser and the form serializer take it) needs a
 * legacy encoder and none is registered: what `docbase/core/utf-8` does with
 * a legacy encoding, before any input is read, so that it fails the same
 * for every input (an ASCII query would encode the same, but a caller that
 * works with ASCII and fails with the first "é" would learn of it too
 * late). A name that is no encoding's is UTF-8 to the parser: no error.
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
 * https://url.spec.whatwg.org/#string-percent-encode-after-encoding — as
 * legacy-encoding.ts's, which it calls once registered. Until then, UTF-8
 * (and the encodings whose output encoding is UTF-8: UTF-16BE/LE,
 * replacement) is encoded here, and any other encoding throws
 * {@link LegacyEncodingUnavailableError}, whatever the input.
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
