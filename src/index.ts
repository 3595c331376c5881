/**
 * docbase — what every URL in an HTML document really points to, exactly as
 * the WHATWG URL and HTML standards define it.
 *
 * The root entry point re-exports every layer's public API; each layer also
 * has its own entry point (`docbase/core`, `docbase/links`, `docbase/jsdom`).
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "./core/require-supported-runtime.ts";

export * from "./core/index.ts";
export * from "./document-base/index.ts";
export * from "./url-utils/index.ts";
export * from "./links/index.ts";
export * from "./jsdom/index.ts";
