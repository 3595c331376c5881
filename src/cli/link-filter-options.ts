/**
 * The command-line flags that choose which links a command works on —
 * `--only resources|navigations`, `--include PATTERN`, `--exclude
 * PATTERN` (URL patterns, repeatable) — described once for every command
 * that takes them, and read into the links layer's `LinkFilterOptions`.
 *
 * @module
 */

import { Option } from "commander";
import type { LinkFilterOptions } from "../links/link-filters.ts";
import { UsageError } from "./errors.ts";

/**
 * The flags as commander gives them.
 *
 * @example
 * ```ts
 * const flags: LinkFilterFlags = { only: "resources", exclude: ["/drafts/*"] };
 * ```
 */
export interface LinkFilterFlags {
  readonly only?: "resources" | "navigations" | undefined;
  readonly include?: readonly string[] | undefined;
  readonly exclude?: readonly string[] | undefined;
}

function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * The flags, for a command's declaration (`verb`: what the command does
 * to the links it chooses, as "rewrite").
 *
 * @example
 * ```ts
 * linkFilterFlags("rewrite").map((option) => option.long); // ["--only", "--include", "--exclude"]
 * ```
 */
export function linkFilterFlags(verb: string): Option[] {
  return [
    new Option("--only <kind>", `${verb} only resources (loaded with the page: img, script, stylesheets, srcset, CSS url(), media…) or navigations (a, area, form, iframe…)`).choices([
      "resources",
      "navigations",
    ]),
    new Option("--include <pattern>", `${verb} only links whose URL matches this URL pattern (repeatable; relative to the root: '/assets/*')`).argParser(collect),
    new Option("--exclude <pattern>", `do not ${verb} links whose URL matches this URL pattern (repeatable)`).argParser(collect),
  ];
}

/**
 * The flags as the links layer's filter options, relative patterns read
 * against `root`, or null when they choose every link. A pattern that
 * does not compile is a usage error naming it.
 *
 * @example
 * ```ts
 * await linkFilterOptions({ include: ["/assets/*"] }, "https://example.com/");
 * // { only: undefined, include: ["/assets/*"], exclude: [], baseURL: "https://example.com/" }
 * await linkFilterOptions({ include: ["("] }, "https://example.com/"); // throws UsageError('--include: not a URL pattern: "(" …')
 * ```
 */
export async function linkFilterOptions(flags: LinkFilterFlags, root: string): Promise<LinkFilterOptions | null> {
  const include = flags.include ?? [];
  const exclude = flags.exclude ?? [];
  if (flags.only === undefined && include.length === 0 && exclude.length === 0) return null;
  const { compileURLPattern } = await import("../links/link-filters.ts");
  for (const [flag, patterns] of [
    ["--include", include],
    ["--exclude", exclude],
  ] as const) {
    for (const pattern of patterns) {
      try {
        compileURLPattern(pattern, root);
      } catch (error) {
        throw new UsageError(`${flag}: ${(error as Error).message.replace(/^Not a URL pattern/, "not a URL pattern")}`);
      }
    }
  }
  return { only: flags.only, include, exclude, baseURL: root };
}
