/**
 * The `--url` of `links` and `check`: optional (a placeholder origin when
 * the site's URL does not matter), and a warning when a site root URL is
 * read otherwise than written.
 *
 * @module
 */

import path from "node:path";
import { parseURL } from "../core/index.ts";
import type { InputKind } from "./inputs.ts";
import type { Output } from "./output.ts";

/**
 * The origin a run without `--url` reads its documents at. The `.invalid`
 * top-level domain is reserved (RFC 2606, RFC 6761): no such site exists,
 * so no link to another site is taken for one of this site's.
 *
 * @example
 * ```ts
 * PLACEHOLDER_ORIGIN; // "https://docbase.invalid"
 * ```
 */
export const PLACEHOLDER_ORIGIN = "https://docbase.invalid";

/**
 * The URL a run reads `input` at: `--url` as given, or without it the
 * placeholder — the site root `https://docbase.invalid/` for a directory
 * or standard input, `https://docbase.invalid/<file name>` for one file.
 * A directory's `--url` whose path does not end with "/" is read as the
 * directory it names (`https://example.com/docs` as `https://example.com/docs/`):
 * a warning says so.
 *
 * @example
 * ```ts
 * siteURL("public", "directory", undefined, output); // "https://docbase.invalid/"
 * siteURL("public", "directory", "https://example.com/docs", output);
 * // "https://example.com/docs", and on standard error: "docbase: warning: --url https://example.com/docs has no trailing slash: ..."
 * ```
 */
export function siteURL(input: string, kind: InputKind, url: string | undefined, output: Output): string {
  if (url === undefined) return kind === "file" ? `${PLACEHOLDER_ORIGIN}/${encodeURIComponent(path.basename(input))}` : `${PLACEHOLDER_ORIGIN}/`;
  if (kind === "directory") {
    const record = parseURL(url);
    if (record !== null && !record.opaquePath && record.query === null && record.fragment === null && !record.path.endsWith("/")) {
      const root = url.replace(/\/*$/, "/");
      output.err(`docbase: warning: --url ${url} has no trailing slash: read as the site root ${root} (the directory's files are at ${root}<path>), not as a page\n`);
    }
  }
  return url;
}
