/**
 * `docbase/core/legacy-encodings` — importing this module gives the URL
 * parser and the form serializer the Encoding Standard's legacy encoders
 * (legacy-encoding.ts: windows-1252 and the other single-byte encodings,
 * gb18030, Big5, EUC-JP, ISO-2022-JP, Shift_JIS, EUC-KR), for the query of a
 * URL parsed in a legacy-encoded document. `docbase/core`, and every entry
 * point built on it, imports it; `docbase/core/utf-8` does not, and a page
 * that uses that entry point can load the encoders when it first meets such
 * a document, after which the same synchronous calls encode in every
 * encoding.
 *
 * @example
 * ```ts
 * import { parseURL, serializeURL } from "docbase/core/utf-8";
 * await import("docbase/core/legacy-encodings"); // once, when a windows-1252 page turns up
 * serializeURL(parseURL("?q=é", { base: "https://example.com/", encoding: "windows-1252" })!); // "https://example.com/?q=%E9"
 * ```
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "./require-supported-runtime.ts";
import { registerLegacyEncoders } from "./encoders.ts";
import { percentEncodeAfterEncoding } from "./legacy-encoding.ts";

registerLegacyEncoders(percentEncodeAfterEncoding);
