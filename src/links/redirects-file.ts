/**
 * `_redirects` files (Netlify, https://docs.netlify.com/routing/redirects/,
 * and Cloudflare Pages, https://developers.cloudflare.com/pages/configuration/redirects/):
 * each line `from to [status]`, read into the rules a link can follow
 * exactly — paths, `:placeholder` segments and a final `*` splat — and
 * the lines that are not redirects or depend on the request, noted as
 * not applied.
 *
 * @module
 */

import { basicURLParse, serializeURL } from "../core/index.ts";
import { LinksError } from "./errors.ts";

/**
 * One redirect a link can follow exactly: a request for a URL of origin
 * `origin` whose path segments match `segments` (a literal, or a
 * `:name` placeholder matching one segment) — and, with `splat`, any
 * segments after them — is redirected to `to`, with `:name` and `:splat`
 * filled in.
 *
 * @example
 * ```ts
 * const rule: RedirectRule = { line: 3, origin: "https://example.com", segments: ["news", ":year", ":slug"], splat: false, to: "/blog/:year/:slug", status: 301, force: false };
 * ```
 */
export interface RedirectRule {
  /** Its line in the file (1-based). */
  readonly line: number;
  /** The origin of the URLs it matches, serialized. */
  readonly origin: string;
  /** Its path's segments, percent-encoded as the URL parser writes them (`:name` for a placeholder). */
  readonly segments: readonly string[];
  /** Whether the path ends in `/*`: any further segments match, as `:splat`. */
  readonly splat: boolean;
  /** Where it redirects: a path or an absolute URL, with `:name` and `:splat`. */
  readonly to: string;
  readonly status: number;
  /** `301!`: it applies even where a file exists at its path (Netlify's shadowing). */
  readonly force: boolean;
}

/**
 * A line of a `_redirects` file that is read and not applied, and why.
 *
 * @example
 * ```ts
 * const note: RedirectNote = { line: 7, text: "/api/* https://api.example.com/:splat 200", reason: "a rewrite (200), not a redirect: the URL stays" };
 * ```
 */
export interface RedirectNote {
  readonly line: number;
  readonly text: string;
  readonly reason: string;
}

/** https://fetch.spec.whatwg.org/#redirect-status */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

function placeholderName(segment: string): string | null {
  return /^:[A-Za-z_][A-Za-z0-9_]*$/.test(segment) ? segment.slice(1) : null;
}

/**
 * Reads a `_redirects` file whose paths are on the origin of `root` (the
 * site's root URL): its redirects (3xx, the default 301) as rules, in
 * order — the first that matches applies — and the lines not applied
 * with their reason: rewrites and proxies (200; with `rewrites`, they are
 * rules too, for a check of what the host serves), error pages (404),
 * rules on the query string or on the visitor (country, language, role,
 * cookie). Throws a LinksError naming the line for a line that does not
 * parse, or a redirect that cannot be followed exactly (a `*` that is
 * not the path's last segment, a `:name` in `to` that `from` does not
 * bind).
 *
 * @example
 * ```ts
 * const { rules, notes } = parseRedirects("/old.html /new.html\n/news/:year/* /blog/:year/:splat 302\n/api/* https://api.example.com/:splat 200\n", "https://example.com/");
 * rules.map((r) => [r.segments, r.splat, r.to, r.status]);
 * // [[["old.html"], false, "/new.html", 301], [["news", ":year"], true, "/blog/:year/:splat", 302]]
 * notes[0]?.line; // 3
 * parseRedirects("/* /index.html 200", "https://example.com/", { rewrites: true }).rules[0]?.status; // 200
 * ```
 */
export function parseRedirects(text: string, root: string, options: { readonly rewrites?: boolean } = {}): { rules: RedirectRule[]; notes: RedirectNote[] } {
  const rootURL = basicURLParse(root);
  if (rootURL === null) throw new LinksError(`_redirects: the site's root is not an absolute URL: ${JSON.stringify(root)}`);
  const rules: RedirectRule[] = [];
  const notes: RedirectNote[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const source = lines[index]!.trim();
    if (source === "" || source.startsWith("#")) continue;
    const fail = (why: string): LinksError => new LinksError(`_redirects line ${line}: ${why}: ${JSON.stringify(source)}`);
    const fields = source.split(/\s+/);
    const from = fields[0]!;
    let i = 1;
    const queryConditions: string[] = [];
    while (i < fields.length && fields[i]!.includes("=") && !fields[i]!.startsWith("/") && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(fields[i]!)) queryConditions.push(fields[i++]!);
    const to = fields[i++];
    if (to === undefined) throw fail("a rule is `from to [status]`, and this one has no `to`");
    let status = 301;
    let force = false;
    const statusField = fields[i];
    if (statusField !== undefined && /^\d{3}!?$/.test(statusField)) {
      status = Number(statusField.slice(0, 3));
      force = statusField.endsWith("!");
      i++;
    }
    const conditions = fields.slice(i);
    if (conditions.some((c) => !c.includes("="))) throw fail(`unexpected ${JSON.stringify(conditions.find((c) => !c.includes("=")))} after the status`);
    const note = (reason: string): void => void notes.push({ line, text: source, reason });
    if (!REDIRECT_STATUSES.has(status) && !(status === 200 && options.rewrites === true)) {
      note(status === 200 ? "a rewrite (200), not a redirect: the URL stays" : `status ${status} is not a redirect`);
      continue;
    }
    if (queryConditions.length > 0) {
      note("it matches on the query string");
      continue;
    }
    if (conditions.length > 0) {
      note(`it depends on the visitor (${conditions.join(" ")})`);
      continue;
    }
    const pathOrURL = /^(?:\/|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/;
    if (!pathOrURL.test(from)) throw fail(`\`from\` is a path (/…) or a URL: ${JSON.stringify(from)}`);
    if (!pathOrURL.test(to)) throw fail(`\`to\` is a path (/…) or a URL: ${JSON.stringify(to)}`);
    const fromURL = basicURLParse(from, { base: rootURL });
    if (fromURL === null || fromURL.host === null || fromURL.opaquePath) throw fail(`${JSON.stringify(from)} is not a path or a URL`);
    if (fromURL.query !== null || fromURL.fragment !== null) throw fail("`from` has a query or a fragment, which a rule does not match");
    const segments = fromURL.path.slice(1).split("/");
    const splat = segments[segments.length - 1] === "*";
    if (splat) segments.pop();
    if (segments.some((s) => s.includes("*"))) throw fail("a splat `*` is only followed exactly as the last segment of the path (`/news/*`)");
    const bound = new Set(segments.map(placeholderName).filter((name) => name !== null));
    if (splat) bound.add("splat");
    for (const [, name] of to.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
      if (!bound.has(name!)) throw fail(`\`to\` uses :${name}, which \`from\` does not bind`);
    }
    const origin = `${fromURL.scheme}://${fromURL.host}${fromURL.port === null ? "" : `:${fromURL.port}`}`;
    rules.push({ line, origin, segments, splat, to, status, force });
  }
  return { rules, notes };
}

/**
 * Where `url` (absolute, serialized) is redirected by `rule`, or null
 * when the rule does not match it: the rule's `to` with its placeholders
 * filled in from the path, resolved against `root`. The URL's query and
 * fragment are not part of the match.
 *
 * @example
 * ```ts
 * const [rule] = parseRedirects("/news/:year/* /blog/:year/:splat", "https://example.com/").rules;
 * followRedirect(rule!, "https://example.com/news/2024/a/b.html?x#y", "https://example.com/"); // "https://example.com/blog/2024/a/b.html"
 * followRedirect(rule!, "https://example.com/news/2024", "https://example.com/"); // null
 * ```
 */
export function followRedirect(rule: RedirectRule, url: string, root: string): string | null {
  const record = basicURLParse(url);
  if (record === null || record.host === null || record.opaquePath) return null;
  const origin = `${record.scheme}://${record.host}${record.port === null ? "" : `:${record.port}`}`;
  if (origin !== rule.origin) return null;
  const path = record.path.slice(1).split("/");
  const { segments } = rule;
  if (rule.splat ? path.length <= segments.length : path.length !== segments.length) return null;
  const values = new Map<string, string>();
  for (let i = 0; i < segments.length; i++) {
    const name = placeholderName(segments[i]!);
    if (name === null) {
      if (path[i] !== segments[i]) return null;
    } else {
      if (path[i] === "") return null;
      values.set(name, path[i]!);
    }
  }
  if (rule.splat) values.set("splat", path.slice(segments.length).join("/"));
  const to = rule.to.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => values.get(name) ?? whole);
  const target = basicURLParse(to, { base: basicURLParse(root)! });
  return target === null ? null : serializeURL(target);
}
