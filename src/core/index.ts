/**
 * docbase/core — the WHATWG URL Standard: URL records, the basic URL parser
 * (every state, state override, encoding override), hosts, percent-encoding,
 * serializers, origins, validation errors with input offsets, and the `URL`
 * and `URLSearchParams` classes. Knows nothing of HTML or trees.
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "./require-supported-runtime.ts";
// Every legacy encoder, for the `encoding` option of the parser and the form serializer (docbase/core/utf-8 leaves them out).
import "./legacy-encodings.ts";

export * from "./exports.ts";
export { percentEncodeAfterEncoding } from "./legacy-encoding.ts";
