/**
 * Which links a rewrite job touches: by what following them does (a
 * resource the page loads, or a navigation), read from the catalogue, and
 * by URL patterns (https://urlpattern.spec.whatwg.org/) to include or
 * exclude.
 *
 * @module
 */

import { linkTypesLoad } from "../html/index.ts";
import { lookupAttribute } from "./catalogue.ts";
import { LinksError } from "./errors.ts";
import type { Link } from "./link-types.ts";

/**
 * What following a link does: `"resource"` (fetched for the page as it
 * loads: `img`, `script`, a `<link rel=stylesheet|icon|preload…>`, srcset,
 * CSS `url()`, media, `object`/`embed`), `"navigation"` (a document gone
 * to: `a`, `area`, a form's action, `iframe`, a refresh, a `<link
 * rel=canonical|alternate…>`), or null (neither: `cite`, `itemid`,
 * `ping`, `<base href>`). Derived from the catalogue's `load` column.
 *
 * @example
 * ```ts
 * const links = extractLinks('<link rel=stylesheet href=a.css><a href=b.html><base href="/">', { url: "https://example.com/" });
 * links.map(linkLoad); // ["resource", "navigation", null]
 * ```
 */
export function linkLoad(link: Link): "resource" | "navigation" | null {
  // The text of a style element: CSS, whose url() and @import load resources.
  if (link.attribute === null) return "resource";
  const row = lookupAttribute(link.namespace, link.element, link.attribute);
  switch (row?.load ?? null) {
    case "resource":
      return "resource";
    case "navigation":
      return "navigation";
    case "link-type":
      return linkTypesLoad(link.rel ?? null);
    case "svg-element":
      return link.element === "a" ? "navigation" : "resource";
    default:
      return null;
  }
}

/**
 * Which links a rewrite job touches. Patterns are URL patterns
 * (https://urlpattern.spec.whatwg.org/, as `new URLPattern(pattern,
 * baseURL)`): `/assets/*`, `*.png`, `https://example.com/drafts/*`; a
 * relative one is read against `baseURL` (the site's root), and matched
 * against each link's resolved URL.
 *
 * This one description serves every command that chooses links by URL
 * (`--only`, `--include`, `--exclude`).
 *
 * @example
 * ```ts
 * const options: LinkFilterOptions = { only: "resources", exclude: ["/drafts/*"], baseURL: "https://example.com/" };
 * ```
 */
export interface LinkFilterOptions {
  /** Only links whose {@link linkLoad} is this. */
  readonly only?: "resources" | "navigations" | undefined;
  /** Only links whose URL matches one of these patterns. */
  readonly include?: readonly string[] | undefined;
  /** No link whose URL matches one of these patterns. */
  readonly exclude?: readonly string[] | undefined;
  /** What relative patterns are read against (the site's root URL). */
  readonly baseURL?: string | undefined;
}

/** The global URLPattern class, where the runtime has one (Node.js 23.8 and later, browsers, Deno). */
interface URLPatternLike {
  test(input: string): boolean;
}
type URLPatternClass = new (input: string, baseURL?: string) => URLPatternLike;

/**
 * A URL pattern as a matcher, or a LinksError that names the pattern.
 *
 * @example
 * ```ts
 * compileURLPattern("/assets/*", "https://example.com/").test("https://example.com/assets/a.png"); // true
 * ```
 */
export function compileURLPattern(pattern: string, baseURL?: string): URLPatternLike {
  const URLPattern = (globalThis as { URLPattern?: URLPatternClass }).URLPattern;
  if (URLPattern === undefined) throw new LinksError(`URL patterns need a runtime with URLPattern (Node.js 24 or later): ${JSON.stringify(pattern)}`);
  try {
    return baseURL === undefined ? new URLPattern(pattern) : new URLPattern(pattern, baseURL);
  } catch {
    throw new LinksError(`Not a URL pattern: ${JSON.stringify(pattern)} (see https://urlpattern.spec.whatwg.org/#syntax)`);
  }
}

/**
 * The test of which links a job touches, as `options` say (every link
 * when they say nothing). A link whose URL does not parse matches no
 * pattern. Throws a LinksError for a pattern that does not compile.
 *
 * @example
 * ```ts
 * const assets = linkFilter({ only: "resources", include: ["/assets/*"], baseURL: "https://example.com/" });
 * rewriteLinks('<img src="/assets/a.png"><a href="/assets/b.html"><img src="/c.png">', {
 *   url: "https://example.com/",
 *   rewrite: (link) => (assets(link) ? `https://cdn.example.net${new URL(link.url!).pathname}` : undefined),
 * });
 * // '<img src="https://cdn.example.net/assets/a.png"><a href="/assets/b.html"><img src="/c.png">'
 * ```
 */
export function linkFilter(options: LinkFilterOptions): (link: Link) => boolean {
  const only = options.only === "resources" ? "resource" : options.only === "navigations" ? "navigation" : null;
  if (options.only !== undefined && only === null) throw new LinksError(`"only" is "resources" or "navigations": ${JSON.stringify(options.only)}`);
  const include = (options.include ?? []).map((pattern) => compileURLPattern(pattern, options.baseURL));
  const exclude = (options.exclude ?? []).map((pattern) => compileURLPattern(pattern, options.baseURL));
  return (link) => {
    if (only !== null && linkLoad(link) !== only) return false;
    const url = link.url;
    if (include.length > 0 && (url === null || !include.some((pattern) => pattern.test(url)))) return false;
    return url === null || !exclude.some((pattern) => pattern.test(url));
  };
}
