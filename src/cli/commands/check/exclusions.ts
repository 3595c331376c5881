/**
 * What `docbase check` leaves out: links whose URL matches an `--exclude`
 * regular expression, and files whose path matches an `--exclude-path`
 * glob.
 *
 * @module
 */

import { UsageError } from "../../errors.ts";

/**
 * The `--exclude` patterns, compiled; a usage error names one that is not
 * a regular expression.
 *
 * @example
 * ```ts
 * urlPatterns(["^https://twitter\\.com/", "\\.pdf$"]).length; // 2
 * urlPatterns(["("]); // throws UsageError('--exclude: not a regular expression: "(" ...')
 * ```
 */
export function urlPatterns(sources: readonly string[] | undefined): RegExp[] {
  return (sources ?? []).map((source) => {
    try {
      return new RegExp(source, "u");
    } catch (error) {
      throw new UsageError(`--exclude: not a regular expression: ${JSON.stringify(source)} (${(error as Error).message})`);
    }
  });
}

/**
 * Whether a link is excluded: its resolved URL (or, when it does not
 * parse, its text) matches one of `patterns`.
 *
 * @example
 * ```ts
 * isExcluded({ url: "https://example.com/a.pdf", value: "a.pdf" }, [/\.pdf$/u]); // true
 * ```
 */
export function isExcluded(link: { readonly url: string | null; readonly value: string }, patterns: readonly RegExp[]): boolean {
  const text = link.url ?? link.value;
  for (const pattern of patterns) if (pattern.test(text)) return true;
  return false;
}

/**
 * A glob as a regular expression over a "/"-separated relative path:
 * `*` any characters but "/", `**` any path (with the "/" after it: any
 * directories), `?` one character but "/", `{a,b}` either, `[abc]` a class.
 */
function globToRegExp(glob: string): RegExp {
  let source = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        source += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else source += "[^/]*";
    } else if (c === "?") source += "[^/]";
    else if (c === "{") {
      braces++;
      source += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      source += ")";
    } else if (c === "," && braces > 0) source += "|";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) source += "\\[";
      else {
        const body = glob.slice(i + 1, close).replace(/\\/g, "\\\\");
        source += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else source += /[.+^$()|\\\]]/.test(c) ? `\\${c}` : c;
  }
  if (braces > 0) throw new UsageError(`--exclude-path: unclosed "{" in ${JSON.stringify(glob)}`);
  return new RegExp(`^${source}$`, "u");
}

/**
 * A test of paths against the `--exclude-path` globs: a path relative to
 * the site root ("/"-separated) is excluded when a glob matches it or one
 * of its directories (`drafts` and `drafts/**` both exclude `drafts/a.html`).
 * A glob's leading "./" or "/" is the site root.
 *
 * @example
 * ```ts
 * const excluded = pathExclusion(["drafts", "**\/*.amp.html"]);
 * excluded("drafts/a.html"); // true
 * excluded("blog/post.amp.html"); // true
 * excluded("blog/post.html"); // false
 * ```
 */
export function pathExclusion(globs: readonly string[] | undefined): (rel: string) => boolean {
  const patterns = (globs ?? []).map((glob) => globToRegExp(glob.replace(/^\.?\/+/, "").replace(/\/+$/, "")));
  if (patterns.length === 0) return () => false;
  return (rel) => {
    for (let end = rel.length; end > 0; end = rel.lastIndexOf("/", end - 1)) {
      const part = rel.slice(0, end);
      for (const pattern of patterns) if (pattern.test(part)) return true;
    }
    return false;
  };
}
