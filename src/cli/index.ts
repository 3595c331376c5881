/**
 * docbase/cli — the `docbase` command as a function, and the mapping
 * between a static site's files and their URLs that the command uses.
 * The command itself is `dist/cli/main.js` (package.json `bin`).
 *
 * @example
 * ```ts
 * import { run, siteFileURL } from "docbase/cli";
 * siteFileURL("https://example.com/", "blog/index.html"); // "https://example.com/blog/"
 * process.exitCode = await run(["node", "docbase", "check", "site", "--url", "https://example.com/"]);
 * ```
 *
 * @module
 */

/// <reference types="node" preserve="true" />
// Node.js only: its declaration file names @types/node (an optional peer dependency), so that a TypeScript 6+ project
// with the default `types: []` finds Node's types when it imports this entry point.

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "../core/require-supported-runtime.ts";

export { run } from "./program.ts";
export type { Output } from "./output.ts";
export { UsageError, isUsageError } from "./errors.ts";
export { siteFileURL, siteFileForURL, type SiteTarget } from "./site.ts";
