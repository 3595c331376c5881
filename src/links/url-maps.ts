/**
 * URL maps: the files that say where a site's URLs are now — a JSON object
 * of paths or URLs (gulp-rev's `rev-manifest.json`), Vite's
 * `manifest.json`, `_redirects` — read into one plain {@link URLMap}, and
 * the lookup of a URL in it.
 *
 * @module
 */

import { basicURLParse, serializeURL, type URLRecord } from "../core/index.ts";
import { LinksError } from "./errors.ts";
import { followRedirect, parseRedirects, type RedirectNote, type RedirectRule } from "./redirects-file.ts";

/**
 * The formats a URL map is read from: `"json"` (an object of paths or
 * URLs: `{"css/main.css": "css/main-1d87bebe.css"}`), `"vite"` (Vite's
 * `manifest.json`: each entry's `file`), `"redirects"` (`_redirects`).
 *
 * @example
 * ```ts
 * const format: URLMapFormat = "vite";
 * ```
 */
export type URLMapFormat = "json" | "vite" | "redirects";

/**
 * Where URLs are now, as plain data (it crosses to worker threads):
 * exact entries and redirect rules, all absolute URLs.
 *
 * @example
 * ```ts
 * const map: URLMap = { entries: { "https://example.com/css/main.css": "https://example.com/css/main-1d87bebe.css" }, rules: [], root: "https://example.com/", files: null };
 * ```
 */
export interface URLMap {
  /** URL (serialized, without fragment) → its new URL. */
  readonly entries: Readonly<Record<string, string>>;
  /** Redirects, in order: the first that matches applies, and the URL it gives is looked up again (a browser follows each). */
  readonly rules: readonly RedirectRule[];
  /** The site's root URL, which the rules' paths are read against. */
  readonly root: string;
  /**
   * The URLs of the site's files (serialized), where a redirect that is
   * not forced (`!`) does not apply (Netlify serves the file), or null
   * when that is not known: then such a redirect applies.
   */
  readonly files: readonly string[] | null;
}

/**
 * A URL map as read: the map, and the lines of the file not applied
 * (see `parseRedirects`).
 *
 * @example
 * ```ts
 * const read: ReadURLMap = { map: { entries: {}, rules: [], root: "https://example.com/", files: null }, notes: [], format: "json" };
 * ```
 */
export interface ReadURLMap {
  readonly map: URLMap;
  readonly notes: readonly RedirectNote[];
  readonly format: URLMapFormat;
}

/** Line `line` (1-based) of `text`, trimmed. */
function lineText(text: string, line: number): string {
  return (text.split(/\r\n|\r|\n/)[line - 1] ?? "").trim();
}

/** The line (1-based) of offset `at` of `text`. */
function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 0x0a) line++;
  return line;
}

/**
 * Where JSON text `text` stops being JSON (https://www.rfc-editor.org/rfc/rfc8259):
 * the offset of the first character a JSON parser cannot take, to name
 * its line (JSON.parse's messages do not always say where).
 */
function jsonErrorOffset(text: string): number {
  const LITERAL = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
  let i = 0;
  const space = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const value = (): boolean => {
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) return (i++, true);
      for (;;) {
        if (c === "{") {
          space();
          if (text[i] !== '"' || !string()) return false;
          space();
          if (text[i] !== ":") return false;
          i++;
        }
        if (!value()) return false;
        space();
        if (text[i] === ",") i++;
        else if (text[i] === close) return (i++, true);
        else return false;
      }
    }
    if (c === '"') return string();
    return token(LITERAL);
  };
  const token = (pattern: RegExp): boolean => {
    pattern.lastIndex = i;
    if (!pattern.test(text)) return false;
    i = pattern.lastIndex;
    return true;
  };
  const string = (): boolean => token(STRING);
  if (value()) space();
  return i;
}

/** The line of key `key` in JSON text `text` (the first place it is written as a key), or 1. */
function lineOfKey(text: string, key: string): number {
  const at = text.search(new RegExp(`${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*:`));
  return at < 0 ? 1 : lineAt(text, at);
}

/** The format of map text `text`: `_redirects` unless it is a JSON object; Vite's when a value is an object with a `file`. */
function detectFormat(text: string, json: unknown): URLMapFormat {
  if (json === undefined) return /^\s*[{[]/.test(text) ? "json" : "redirects";
  const values = typeof json === "object" && json !== null ? Object.values(json) : [];
  return values.some((v) => typeof v === "object" && v !== null && typeof (v as { file?: unknown }).file === "string") ? "vite" : "json";
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
function tryJSON(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads a URL map of `format` (detected when absent: a JSON object with
 * a value that has a `file` is Vite's, another JSON object a plain map,
 * anything else `_redirects`). Paths are site paths: read against `root`
 * (the site's root URL: `css/main.css` and `/css/main.css` are the same
 * file of a site at a domain's root). Throws a LinksError that says
 * where for a map that does not parse (its line), a key that is not a URL
 * in the site, a value that is not a URL, and a `_redirects` line that
 * cannot be followed exactly.
 *
 * @example
 * ```ts
 * readURLMap('{"css/main.css": "css/main-1d87bebe.css"}', { root: "https://example.com/" }).map.entries;
 * // { "https://example.com/css/main.css": "https://example.com/css/main-1d87bebe.css" }
 * readURLMap('{"src/main.ts": {"file": "assets/main-4d2f.js", "isEntry": true}}', { root: "https://example.com/" }).map.entries;
 * // { "https://example.com/src/main.ts": "https://example.com/assets/main-4d2f.js" }
 * readURLMap("/old /new 301", { root: "https://example.com/" }).format; // "redirects"
 * ```
 */
export function readURLMap(text: string, options: { readonly root: string; readonly format?: URLMapFormat | undefined; readonly files?: readonly string[] | null | undefined }): ReadURLMap {
  const rootURL = basicURLParse(options.root);
  if (rootURL === null) throw new LinksError(`URL map: the site's root is not an absolute URL: ${JSON.stringify(options.root)}`);
  const root = serializeURL(rootURL);
  // A BOM before JSON or a _redirects file is not part of it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const json = options.format === "redirects" ? undefined : tryJSON(text);
  const format = options.format ?? detectFormat(text, json);
  const files = options.files ?? null;
  if (format === "redirects") {
    const { rules, notes } = parseRedirects(text, root);
    const map: URLMap = { entries: {}, rules, root, files };
    // A redirect from a file of the site that is not forced never happens (the host serves the file): said once, here, for a plain path.
    const applied = rules.filter((rule) => {
      if (rule.force || rule.splat || rule.segments.some((s) => s.startsWith(":"))) return true;
      const from = `${rule.origin}/${rule.segments.join("/")}`;
      if (!isSiteFile(map, from)) return true;
      notes.push({ line: rule.line, text: lineText(text, rule.line), reason: "a file of the site is at its path, which the host serves instead (add ! to the status to force it)" });
      return false;
    });
    notes.sort((a, b) => a.line - b.line);
    return { map: { ...map, rules: applied }, notes, format };
  }
  if (json === undefined) throw new LinksError(`URL map line ${lineAt(text, jsonErrorOffset(text))}: not JSON (nor a _redirects file: give the format)`);
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new LinksError(`URL map line 1: a ${format === "vite" ? "Vite manifest" : "JSON map"} is an object`);
  const entries: Record<string, string> = {};
  for (const [key, value] of Object.entries(json)) {
    const line = lineOfKey(text, key);
    let to: unknown = value;
    if (format === "vite") {
      to = typeof value === "object" && value !== null ? (value as { file?: unknown }).file : undefined;
      if (typeof to !== "string") throw new LinksError(`URL map line ${line}: the Vite manifest entry ${JSON.stringify(key)} has no "file"`);
    } else if (typeof to !== "string") {
      throw new LinksError(`URL map line ${line}: the value of ${JSON.stringify(key)} is not a string`);
    }
    const from = siteURL(key, rootURL);
    if (from === null || !from.startsWith(root)) throw new LinksError(`URL map line ${line}: ${JSON.stringify(key)} is not a URL in the site (${root})`);
    const target = siteURL(to as string, rootURL);
    if (target === null) throw new LinksError(`URL map line ${line}: ${JSON.stringify(to)} is not a URL`);
    entries[from] = target;
  }
  return { map: { entries, rules: [], root, files }, notes: [], format };
}

/** A map's path or URL as an absolute URL, serialized without its fragment: a path is a site path (a leading "/" is the root). */
function siteURL(pathOrURL: string, root: URLRecord): string | null {
  const relative = basicURLParse(pathOrURL) === null ? pathOrURL.replace(/^\/+/, "") : pathOrURL;
  const url = basicURLParse(relative, { base: root });
  return url === null ? null : serializeURL(url, { excludeFragment: true });
}

/** The most redirects followed for one link, as fetch follows at most 20 (https://fetch.spec.whatwg.org/#http-redirect-fetch). */
const MAX_REDIRECTS = 20;

/**
 * Where `url` (absolute, serialized) is now according to `map`, or null
 * when the map does not move it. The query and fragment are kept unless
 * the map gives them: an entry for the URL with its query is looked up
 * first, then one without; a redirect keeps the fragment, as a browser
 * does, and the query unless its target has one. Redirects are followed
 * one after the other (at most 20: a longer chain, or a loop, is null,
 * and `onProblem` says why); one that is not forced does not apply to a
 * file of the site (`onProblem` says so too).
 *
 * @example
 * ```ts
 * const { map } = readURLMap('{"css/main.css": "css/main-1d87bebe.css"}', { root: "https://example.com/" });
 * lookUpURL(map, "https://example.com/css/main.css?v=2#x"); // "https://example.com/css/main-1d87bebe.css?v=2#x"
 * lookUpURL(map, "https://example.com/other.css"); // null
 * ```
 */
export function lookUpURL(map: URLMap, url: string, onProblem?: (problem: string) => void): string | null {
  let current = url;
  let moved = false;
  const seen = new Set<string>();
  for (let step = 0; ; step++) {
    const next = lookUpOnce(map, current, onProblem);
    if (next === null) return moved ? current : null;
    if (map.rules.length === 0) return next;
    if (step >= MAX_REDIRECTS || seen.has(next)) {
      onProblem?.(`${url}: more than ${MAX_REDIRECTS} redirects, or a loop`);
      return null;
    }
    seen.add(next);
    current = next;
    moved = true;
  }
}

/** The site's files of each map, as a set (built on first use). */
const fileSets = new WeakMap<URLMap, ReadonlySet<string>>();

function isSiteFile(map: URLMap, url: string): boolean {
  if (map.files === null) return false;
  let set = fileSets.get(map);
  if (set === undefined) fileSets.set(map, (set = new Set(map.files)));
  return set.has(url);
}

/** One step of {@link lookUpURL}. */
function lookUpOnce(map: URLMap, url: string, onProblem: ((problem: string) => void) | undefined): string | null {
  const record = basicURLParse(url);
  if (record === null) return null;
  const withoutFragment = serializeURL(record, { excludeFragment: true });
  const withoutQuery = serializeURL({ ...record, query: null }, { excludeFragment: true });
  let to: string | undefined = map.entries[withoutFragment];
  let queryKept = false;
  if (to === undefined && record.query !== null) {
    to = map.entries[withoutQuery];
    queryKept = true;
  }
  if (to === undefined && map.rules.length > 0) {
    const shadowed = isSiteFile(map, withoutQuery);
    for (const rule of map.rules) {
      const target = followRedirect(rule, url, map.root);
      if (target === null) continue;
      if (shadowed && !rule.force) {
        onProblem?.(`${withoutQuery}: the redirect of line ${rule.line} does not apply: a file of the site is there, which the host serves (add ! to force it)`);
        continue;
      }
      to = target;
      queryKept = true;
      break;
    }
  }
  if (to === undefined) return null;
  const target = basicURLParse(to)!;
  const query = target.query ?? (queryKept ? record.query : null);
  return serializeURL({ ...target, query, fragment: target.fragment ?? record.fragment });
}
