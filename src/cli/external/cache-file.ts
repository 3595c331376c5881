/**
 * The external-link checker's cache file: what was asked, when, and what
 * came of it, as JSON written atomically.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../atomic-write.ts";
import type { ExternalWarning } from "./options.ts";
import type { ExternalKind, RedirectStep } from "./outcome.ts";
import type { FragmentKind } from "./page-fragments.ts";

/** The `format` field that makes a JSON file a docbase cache. */
const FORMAT = "docbase-external-links-cache";
const VERSION = 1;

/**
 * One cached answer for a URL, with the results of its checked fragments.
 *
 * @example
 * ```ts
 * const entry: CacheEntry = {
 *   checkedAt: 1767225600000, kind: "ok", status: 200, message: "200 OK", finalURL: "https://example.com/",
 *   movedTo: null, redirects: [], fragmentOverride: null, fragments: { intro: { kind: "found", detail: "an element with this ID" } },
 * };
 * ```
 */
export interface CacheEntry {
  readonly checkedAt: number;
  readonly kind: ExternalKind;
  readonly status: number | null;
  readonly message: string;
  readonly finalURL: string;
  readonly movedTo: string | null;
  readonly redirects: readonly RedirectStep[];
  /** The fragment a redirect's `Location` put in place of the link's, if one did. */
  readonly fragmentOverride: string | null;
  readonly fragments: Readonly<Record<string, { readonly kind: FragmentKind; readonly detail: string }>>;
}

/**
 * What the entries' meaning depends on: a cache made with other settings is not used.
 *
 * @example
 * ```ts
 * const settings: CacheSettings = { accept: [[200, 299]], maxRedirects: 5 };
 * ```
 */
export interface CacheSettings {
  readonly accept: ReadonlyArray<readonly [number, number]>;
  readonly maxRedirects: number;
}

/**
 * A loaded cache: its fresh entries by URL, whether the file may be
 * written (not when it may be someone else's), and the warnings.
 *
 * @example
 * ```ts
 * const loaded: LoadedCache = { entries: new Map(), writable: true, warnings: [] };
 * ```
 */
export interface LoadedCache {
  readonly entries: Map<string, CacheEntry>;
  readonly writable: boolean;
  readonly warnings: ExternalWarning[];
}

const KINDS = new Set<string>([
  "ok",
  "permanent-redirect",
  "bad-status",
  "redirect-loop",
  "too-many-redirects",
  "invalid-redirect",
]);
const FRAGMENT_KINDS = new Set<string>(["found", "missing-fragment", "not-html"]);

/**
 * Whether an answer is worth keeping: what the server said for sure, not
 * what could not be checked nor a 5xx (likely passing).
 *
 * @example
 * ```ts
 * isCacheable("bad-status", 404); // true
 * isCacheable("bad-status", 503); // false
 * isCacheable("timeout", null); // false
 * ```
 */
export function isCacheable(kind: ExternalKind, status: number | null): boolean {
  return KINDS.has(kind) && !(kind === "bad-status" && status !== null && status >= 500);
}

/**
 * Whether a fragment's result is worth keeping: not "could not be checked".
 *
 * @example
 * ```ts
 * isCacheableFragment("missing-fragment"); // true
 * isCacheableFragment("fragment-unchecked"); // false
 * ```
 */
export function isCacheableFragment(kind: FragmentKind): boolean {
  return FRAGMENT_KINDS.has(kind);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";

/** An entry as read from the file, or null when it is not one. */
function readEntry(raw: unknown): CacheEntry | null {
  if (!isObject(raw)) return null;
  const { checkedAt, kind, status, message, finalURL, movedTo, redirects, fragmentOverride, fragments } = raw;
  if (!isString(checkedAt) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/.test(checkedAt)) return null;
  const time = Date.parse(checkedAt);
  if (Number.isNaN(time) || !isString(kind) || !KINDS.has(kind)) return null;
  if (!(status === null || (typeof status === "number" && Number.isInteger(status)))) return null;
  if (!isString(message) || !isString(finalURL) || !(movedTo === null || isString(movedTo)) || !(fragmentOverride === null || isString(fragmentOverride))) return null;
  if (!Array.isArray(redirects) || !redirects.every((r) => isObject(r) && isString(r["url"]) && isString(r["location"]) && typeof r["status"] === "number")) return null;
  if (!isObject(fragments)) return null;
  const kept: Record<string, { kind: FragmentKind; detail: string }> = {};
  for (const [fragment, result] of Object.entries(fragments)) {
    if (!isObject(result) || !isString(result["kind"]) || !FRAGMENT_KINDS.has(result["kind"]) || !isString(result["detail"])) return null;
    kept[fragment] = { kind: result["kind"] as FragmentKind, detail: result["detail"] };
  }
  return {
    checkedAt: time,
    kind: kind as ExternalKind,
    status,
    message,
    finalURL,
    movedTo,
    redirects: redirects as RedirectStep[],
    fragmentOverride,
    fragments: kept,
  };
}

const sameSettings = (a: CacheSettings, b: unknown): boolean =>
  isObject(b) && b["maxRedirects"] === a.maxRedirects && JSON.stringify(b["accept"]) === JSON.stringify(a.accept);

/**
 * Reads the cache `file`, keeping the entries no older than `maxAge` at
 * `now` and made with `settings`. Never throws: a missing or empty file is
 * an empty cache; an unreadable one, or one of another version or
 * settings, is a warning and replaced; one that is not a docbase cache is
 * a warning and left alone (it may be another tool's); bad entries are a
 * warning, and the others are used.
 *
 * @example
 * ```ts
 * const cache = await loadCache(".docbase-cache.json", settings, 3_600_000, Date.now());
 * cache.entries.get("https://example.com/")?.kind; // "ok", when asked in the last hour
 * ```
 */
export async function loadCache(file: string, settings: CacheSettings, maxAge: number, now: number): Promise<LoadedCache> {
  const entries = new Map<string, CacheEntry>();
  const warnings: ExternalWarning[] = [];
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entries, writable: true, warnings };
    warnings.push({ code: "cache-unreadable", message: `the cache ${file} could not be read (${(error as Error).message}): every URL is asked` });
    return { entries, writable: true, warnings };
  }
  if (text.trim() === "") return { entries, writable: true, warnings };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!isObject(json) || json["format"] !== FORMAT) {
    const what = json === undefined ? "is not JSON" : `has no "format": "${FORMAT}"`;
    warnings.push({ code: "cache-foreign", message: `the cache ${file} ${what}: not used, and left as it is (remove it, or name another file, to keep a cache)` });
    return { entries, writable: false, warnings };
  }
  if (json["version"] !== VERSION || !sameSettings(settings, json["settings"]) || !isObject(json["entries"])) {
    const why = json["version"] !== VERSION ? `is of version ${JSON.stringify(json["version"])}, not ${VERSION}` : "was made with other accepted statuses or another redirect limit";
    warnings.push({ code: "cache-outdated", message: `the cache ${file} ${why}: its entries are not used, and it is replaced` });
    return { entries, writable: true, warnings };
  }
  let bad = 0;
  for (const [url, raw] of Object.entries(json["entries"])) {
    const entry = readEntry(raw);
    if (entry === null) bad++;
    else if (isFresh(entry, maxAge, now)) entries.set(url, entry);
  }
  if (bad > 0) warnings.push({ code: "cache-entries", message: `the cache ${file} has ${bad} ${bad === 1 ? "entry" : "entries"} that could not be read: those URLs are asked` });
  return { entries, writable: true, warnings };
}

/**
 * Whether `entry` is no older than `maxAge` at `now`; one from the future
 * (a clock set back) is not.
 *
 * @example
 * ```ts
 * isFresh({ ...entry, checkedAt: 0 }, 1000, 500); // true
 * isFresh({ ...entry, checkedAt: 0 }, 1000, 1001); // false
 * ```
 */
export function isFresh(entry: CacheEntry, maxAge: number, now: number): boolean {
  const age = now - entry.checkedAt;
  return age >= 0 && age <= maxAge;
}

/**
 * Writes `entries`, with their settings, to the cache `file` atomically.
 *
 * @example
 * ```ts
 * await saveCache(".docbase-cache.json", settings, new Map([["https://example.com/", entry]]));
 * ```
 */
export async function saveCache(file: string, settings: CacheSettings, entries: ReadonlyMap<string, CacheEntry>): Promise<void> {
  const out: Record<string, unknown> = {};
  for (const [url, entry] of entries) out[url] = { ...entry, checkedAt: new Date(entry.checkedAt).toISOString() };
  const json = JSON.stringify({ format: FORMAT, version: VERSION, settings, entries: out }, null, 1);
  await writeFileAtomic(file, new TextEncoder().encode(`${json}\n`));
}
