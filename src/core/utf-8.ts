/**
 * docbase/core/utf-8 — `docbase/core` without the Encoding Standard's legacy
 * encoders: every URL parses and serializes alike, but queries and forms
 * encode in UTF-8 only, and bundled `parseURL` is less than half the size
 * (BENCHMARKS.md, "Bundle size"). A legacy encoding asked of it throws
 * {@link LegacyEncodingUnavailableError}, never a query quietly encoded in
 * UTF-8; `import "docbase/core/legacy-encodings"` adds the encoders.
 *
 * @example
 * ```ts
 * import { parseURL, serializeURL } from "docbase/core/utf-8";
 * serializeURL(parseURL("../api/?q=é", { base: "https://example.com/docs/guide/" })!); // "https://example.com/docs/api/?q=%C3%A9"
 * parseURL("?q=é", { base: "https://example.com/", encoding: "windows-1252" }); // throws LegacyEncodingUnavailableError
 * ```
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "./require-supported-runtime.ts";

export * from "./exports.ts";
export { percentEncodeAfterEncoding, LegacyEncodingUnavailableError, isLegacyEncodingUnavailableError } from "./encoders.ts";
