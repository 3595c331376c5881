/**
 * docbase/core/utf-8 — `docbase/core` without the Encoding Standard's legacy
 * encoders: the same functions and classes, which parse and serialize every
 * URL exactly as `docbase/core` does, but encode queries and forms in UTF-8
 * only. For a page or a worker that never parses URLs of a legacy-encoded
 * document: bundled, `parseURL` is then less than half the size (see
 * BENCHMARKS.md, "Bundle size").
 *
 * A legacy encoding asked of it (an `encoding` option or argument naming
 * windows-1252, Shift_JIS, …; UTF-16 and replacement are UTF-8 to URLs)
 * throws {@link LegacyEncodingUnavailableError}, whatever the input: never a
 * query quietly encoded in UTF-8. `import "docbase/core/legacy-encodings"`
 * (statically, or `await import(…)` when the first such document turns up)
 * adds the encoders, after which every call encodes as `docbase/core`'s.
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
