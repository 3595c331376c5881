/**
 * The package's version, as `--version` prints it and reports name it.
 *
 * @module
 */

import { createRequire } from "node:module";

/**
 * The version in package.json, or "unknown" when it cannot be read.
 *
 * @example
 * ```ts
 * programVersion(); // "0.9.0"
 * ```
 */
export function programVersion(): string {
  try {
    // dist/cli/ and src/cli/ are both two levels below package.json.
    return (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
  } catch {
    return "unknown";
  }
}
