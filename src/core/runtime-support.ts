/**
 * Which Node.js versions docbase supports (package.json `engines`), and the
 * one sentence it stops with on an older one. Pure: the entry points'
 * `require-supported-runtime.ts` and the command act on it.
 *
 * @module
 */

/**
 * The oldest Node.js release line and version docbase supports, as package.json `engines` states it.
 *
 * @example
 * ```ts
 * supportedNodeRange; // "^22.14.0 || >=24.0.0"
 * ```
 */
export const supportedNodeRange = "^22.14.0 || >=24.0.0";

/**
 * The sentence that says this Node.js is too old for docbase, or `undefined`
 * when it is supported or is not Node.js (Deno's and Bun's compatibility
 * versions, browsers and workers are judged by their features).
 *
 * @example
 * ```ts
 * unsupportedNodeMessage({ node: "20.20.2" });
 * // "docbase needs Node.js 22.14 or later (package.json engines: ^22.14.0 || >=24.0.0); this is Node.js 20.20.2."
 * unsupportedNodeMessage({ node: "24.9.0" }); // undefined
 * ```
 */
export function unsupportedNodeMessage(versions: { readonly node?: string | undefined; readonly bun?: string | undefined; readonly deno?: string | undefined }): string | undefined {
  const node = versions.node;
  if (node === undefined || versions.bun !== undefined || versions.deno !== undefined) return undefined;
  const [major = 0, minor = 0] = node.split(".").map((part) => Number.parseInt(part, 10));
  // Node 23 is not a supported line (odd releases are short-lived): it passes, as engines' ">=24" does not name it but
  // nothing docbase uses is missing there.
  if (major > 22 || (major === 22 && minor >= 14)) return undefined;
  return `docbase needs Node.js 22.14 or later (package.json engines: ${supportedNodeRange}); this is Node.js ${node}.`;
}

/**
 * The running process's versions, where there is a `process` (undefined in browsers and workers without one).
 *
 * @example
 * ```ts
 * unsupportedNodeMessage(runtimeVersions() ?? {}); // undefined on a supported Node.js
 * ```
 */
export function runtimeVersions(): { node?: string; bun?: string; deno?: string } | undefined {
  const process = (globalThis as { process?: { versions?: { node?: string; bun?: string; deno?: string } } }).process;
  return process?.versions;
}
