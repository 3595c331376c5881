/**
 * Where a site's `_redirects` file (Netlify and Cloudflare Pages rules,
 * read by the links layer's one parser: `redirects-file.ts`) sends a URL
 * of the site that has no file, and whether the page it sends to is there.
 *
 * @module
 */

import { followRedirect, type RedirectRule } from "../links/redirects-file.ts";
import { siteFileForHref, type SiteFiles, siteHas } from "./site.ts";

/**
 * Where a redirect leads: to a file of the site (`found`), to a URL of the
 * site that nothing serves (`missing`), out of the site (`outside`: not
 * checked here), or round a loop or a chain longer than a browser follows
 * (`loop`). `line` is the `_redirects` line of the first rule followed, `to`
 * the URL of the last.
 *
 * @example
 * ```ts
 * const redirect: SiteRedirect = { outcome: "missing", to: "https://example.com/blog/gone.html", line: 3, status: 301 };
 * ```
 */
export interface SiteRedirect {
  readonly outcome: "found" | "missing" | "outside" | "loop";
  readonly to: string;
  readonly line: number;
  readonly status: number;
}

/** The most redirects followed for one link, as fetch follows at most 20 (https://fetch.spec.whatwg.org/#http-redirect-fetch). */
const MAX_REDIRECTS = 20;

/**
 * The rule that applies to `href` (serialized, without query and
 * fragment) and where it sends it, or null. A rule that is not forced
 * (`301!`) applies only where the site has no file: the host serves a
 * file first (Netlify's "shadowing").
 */
function applyRules(rules: readonly RedirectRule[], root: string, href: string, shadowed: boolean): { rule: RedirectRule; to: string } | null {
  for (const rule of rules) {
    if (shadowed && !rule.force) continue;
    const to = followRedirect(rule, href, root);
    if (to !== null) return { rule, to };
  }
  return null;
}

/**
 * Where the site's redirects send `href` (a URL under `root`, serialized,
 * without query and fragment), whose file the site has (`exists`) or not:
 * null when no rule applies; else each redirect followed, as a browser
 * does, until one leads to a file of the site, to nothing, or out of it. A
 * rewrite (status 200) is followed the same way: the host serves what it
 * leads to.
 *
 * @example
 * ```ts
 * const files = { ...siteFilesFromLists(["new.html"], []), redirects: parseRedirects("/old /new.html\n/gone /nowhere.html", root, { rewrites: true }).rules };
 * followSiteRedirects(files, "https://example.com/", "https://example.com/old", false)?.outcome; // "found"
 * followSiteRedirects(files, "https://example.com/", "https://example.com/gone", false)?.outcome; // "missing"
 * ```
 */
export function followSiteRedirects(files: SiteFiles, root: string, href: string, exists: boolean): SiteRedirect | null {
  const rules = files.redirects;
  if (rules === undefined || rules.length === 0) return null;
  const first = applyRules(rules, root, href, exists);
  if (first === null) return null;
  const { line, status } = first.rule;
  const seen = new Set([href]);
  let to = first.to;
  for (let step = 1; ; step++) {
    const cut = to.search(/[?#]/);
    const bare = cut === -1 ? to : to.slice(0, cut);
    const target = siteFileForHref(root, bare);
    if (target === null) return { outcome: "outside", to, line, status };
    const there = siteHas(files, target);
    const next = applyRules(rules, root, bare, there);
    if (next === null) return { outcome: there ? "found" : "missing", to, line, status };
    if (step >= MAX_REDIRECTS || seen.has(bare)) return { outcome: "loop", to, line, status };
    seen.add(bare);
    to = next.to;
  }
}
