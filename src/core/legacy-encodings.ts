/**
 * `docbase/core/legacy-encodings` — importing it gives the URL parser and the
 * form serializer the Encoding Standard's legacy encoders (legacy-encoding.ts).
 * `docbase/core` imports it; a user of `docbase/core/utf-8` can load it when
 * a legacy-encoded document first turns up.
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
