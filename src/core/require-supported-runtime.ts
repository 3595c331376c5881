/**
 * Imported first by every entry point of the library: on a Node.js older
 * than `engines` allows, importing docbase throws one
 * {@link UnsupportedRuntimeError} whose message names the version needed,
 * instead of failing later with an obscure syntax, import or runtime error.
 *
 * @module
 */

import { runtimeVersions, unsupportedNodeMessage } from "./runtime-support.ts";

/**
 * Thrown on import on a Node.js older than docbase supports.
 *
 * @example
 * ```ts
 * try {
 *   await import("docbase");
 * } catch (error) {
 *   if (error instanceof Error && error.name === "UnsupportedRuntimeError") console.error(error.message);
 * }
 * ```
 */
export class UnsupportedRuntimeError extends Error {
  override readonly name = "UnsupportedRuntimeError";
}

const versions = runtimeVersions();
const message = versions === undefined ? undefined : unsupportedNodeMessage(versions);
if (message !== undefined) throw new UnsupportedRuntimeError(message);
