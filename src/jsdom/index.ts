/**
 * docbase/jsdom — make a jsdom window resolve URLs as a browser does.
 *
 * @example
 * ```ts
 * import { JSDOM } from "jsdom";
 * import { install } from "docbase/jsdom";
 * const dom = new JSDOM(html, { url, beforeParse(window) { install(window); } });
 * ```
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "../core/require-supported-runtime.ts";

export { install } from "./install.ts";
export type { InstallOptions, Installation, InstallationWarning, JSDOMBaseURLChange } from "./installation.ts";
export type { WindowLike, DocumentLike, ElementLike, NodeLike } from "./window.ts";
