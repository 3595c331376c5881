/**
 * Telling Chromium's deviations from the standard apart from ours.
 *
 * Every read has three values: Chromium's, the standard's (./reference.ts,
 * from whatwg-url and the model of the document) and, for each docbase
 * layer that answers it, docbase's.
 *
 * - Chromium ≠ standard: a browser deviation. Each must be listed in
 *   known-browser-deviations.json with the same Chromium value and the same
 *   expected value; a listed one that is gone (or changed) fails too, so the
 *   list is enforced both ways.
 * - docbase ≠ standard: our failure, whatever Chromium says.
 * - docbase = standard ≠ Chromium: a known browser deviation for that layer.
 * - docbase = standard = Chromium: agreed.
 *
 * The URL-level layer (core) is compared with the standard's answer for the
 * inputs Chromium had (its document base URL and encoding), so a deviation
 * in Chromium's base does not count against the URL parser.
 *
 * @module
 */

import { readFileSync, writeFileSync } from "node:fs";
import * as whatwgURL from "whatwg-url";
import type { DocumentFact, GeneratedDocument, ModelContext, Observation, ReadAction } from "./cases.ts";
import { referenceBaseHref, referenceFrozenBaseURL, referenceGetter, referenceHyperlinkSetter, referenceValue } from "./reference.ts";

/** One entry of known-browser-deviations.json. */
export interface ListedDeviation {
  readonly id: string;
  /** Chromium's value (the local server's origin written `{origin}`). */
  readonly chromium: string | null;
  /** The standard's value. */
  readonly expected: string;
  /** A key of the file's `reasons`. */
  readonly reason: string;
  /** What was read, for people: the element, attribute value, base. */
  readonly input?: string;
}

export interface DeviationList {
  readonly comment?: string;
  readonly chromium?: string;
  readonly seed?: string;
  readonly reasons: Readonly<Record<string, string>>;
  readonly deviations: readonly ListedDeviation[];
}

/** A case where Chromium and the standard disagree now. */
export interface Deviation {
  readonly id: string;
  readonly chromium: string | null;
  readonly expected: string;
  readonly input: string;
  readonly document: GeneratedDocument;
  readonly action: ReadAction;
}

export interface DeviationCheck {
  /** Disagreements the list does not have. */
  readonly unlisted: readonly Deviation[];
  /** Listed, but Chromium or the standard now says something else. */
  readonly changed: readonly { readonly listed: ListedDeviation; readonly now: Deviation }[];
  /** Listed, but Chromium now agrees with the standard (or the case is gone). */
  readonly disappeared: readonly ListedDeviation[];
  /** Listed and still there, by reason. */
  readonly confirmed: ReadonlyMap<string, number>;
}

export const deviationsFile = new URL("./known-browser-deviations.json", import.meta.url);

export function readDeviationList(): DeviationList {
  return JSON.parse(readFileSync(deviationsFile, "utf8")) as DeviationList;
}

/**
 * Values in the list write the local server's origin (its port changes
 * from run to run) as `{origin}`, and its port elsewhere (a `host` or
 * `port` getter, a host set by a setter) as `{port}`.
 */
export function normalize(value: string | null, origin: string): string | null {
  if (value === null) return null;
  const port = /:(\d+)$/.exec(origin)?.[1];
  let out = value.replaceAll(origin, "{origin}");
  if (port !== undefined) {
    if (out === port) return "{port}";
    out = out.replace(new RegExp(`:${port}(?!\\d)`, "g"), ":{port}");
  }
  return out;
}

/** A one-line description of what a read reads, for the list and for failure messages. */
export function describeRead(document: GeneratedDocument, action: ReadAction, origin: string): string {
  const model = document.model[action.id];
  const where = action.f.length === 0 ? "" : ` in frame ${action.f.join(">")}`;
  if (action.t === "doc") return `document.${action.what}${where}`;
  const context = model as ModelContext;
  const base = normalize(context.base, origin);
  if (action.t === "set") return `<${action.tag} href=${JSON.stringify(action.href)}>.${action.prop} = ${JSON.stringify(action.value)}; .href (base ${base}, ${context.encoding})${where}`;
  return `<${action.tag} ${action.attr}=${context.attr === null ? "(absent)" : JSON.stringify(context.attr)}>.${action.prop} (base ${base}, ${context.encoding})${where}`;
}

// ---------------------------------------------------------------------------
// Reasons: a first classification of a new deviation, for the list (people review it).

export const reasonDescriptions: Readonly<Record<string, string>> = {
  "invalid-base-href":
    "A <base href> that fails to parse (//test:test, http://[::1, http://a:b/): the standard makes the frozen base URL the fallback base URL; Chromium makes the document base URL invalid (baseURI about:blank, relative URLs do not resolve).",
  "empty-base-href-keeps-fragment":
    "<base href=\"\"> (or only spaces): the standard parses \"\" against the fallback base URL, which drops its fragment; Chromium uses the fallback base URL as it is, fragment and all.",
  "base-href-utf8-query":
    "<base href> in a legacy-encoded document: the standard parses it with the document's encoding (so its query is encoded with it); Chromium parses it as UTF-8.",
  "follows-base-deviation":
    "The read resolves against Chromium's document base URL, which deviates from the standard's (see the same document's baseURI case).",
  "file-origin": "The origin of a file: URL: the standard says opaque (\"null\"); Chromium says \"file://\".",
  "legacy-query-non-special":
    "Query of a ws:, wss: or non-special URL in a legacy-encoded document: the standard encodes it as UTF-8; Chromium uses the document's encoding.",
  "space-in-host": "A space (or other forbidden host code point) in a host: the standard fails (or keeps it in an opaque host); Chromium percent-encodes it and accepts the host.",
  "pipe-in-path": "\"|\" in a path: the standard leaves it; Chromium percent-encodes it as %7C.",
  "setter-special-switch":
    "The protocol setter between special and non-special schemes, or onto/off file: — the standard refuses the switch (or applies the URL Standard's rules); Chromium does otherwise.",
  "file-url": "file: URL parsing (drive letters, empty and localhost hosts, slashes): Chromium's file: URL parser differs from the URL Standard.",
  "idna": "Domain to ASCII (UTS #46 processing, CheckHyphens, forbidden code points, xn-- labels): Chromium's IDNA differs from the URL Standard's.",
  "ip-address": "IPv4/IPv6 address parsing or serialization: Chromium differs from the URL Standard.",
  "non-special-url":
    "Non-special URLs (foo://, sc:, web+x:): Chromium's parsing of their hosts, paths, backslashes or relative references differs from the URL Standard.",
  "percent-encode-set": "The same URL, percent-encoded differently: Chromium's percent-encode sets differ from the URL Standard's (query, fragment, path or userinfo).",
  "failure-getter-value":
    "A URL that does not parse: the standard's getter returns the attribute value as it is; Chromium returns something else (\"\" or a partly parsed URL).",
  "setter": "An HTMLHyperlinkElementUtils setter: Chromium's result differs from the URL Standard's setter (state override) rules.",
  "document-url": "A document's URL differs from the HTML Standard's.",
  "url-parser": "Chromium's URL parser gives another result than the URL Standard for this input (see the case).",
};

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const specialSchemes = new Set(["http", "https", "ftp", "file", "ws", "wss"]);

function schemeOf(url: string | null): string | null {
  if (url === null) return null;
  const record = whatwgURL.basicURLParse(url);
  return record === null ? null : record.scheme;
}

/** A first guess at why Chromium deviates, from the shape of the case. */
export function explainDeviation(deviation: Deviation, observation: Observation | undefined): string {
  const { action, document, chromium, expected } = deviation;
  const model = document.model[action.id] as ModelContext | DocumentFact;
  if (action.t === "doc") {
    const fact = model as DocumentFact;
    if (action.what === "URL") return "document-url";
    if (action.what === "baseURI" && fact.baseHref === null && chromium === "about:blank") return "follows-base-deviation";
    if (action.what === "baseURI" && fact.baseHref !== undefined && fact.baseHref !== null && fact.fallback !== undefined) {
      if (chromium === "about:blank") return referenceFrozenBaseURL(fact.baseHref, "about:blank", "UTF-8") === "about:blank" ? "invalid-base-href" : "follows-base-deviation";
      if (fact.baseHref.trim() === "" && chromium !== null && chromium.startsWith(`${expected}#`)) return "empty-base-href-keeps-fragment";
      if (chromium === referenceFrozenBaseURL(fact.baseHref, fact.fallback, "UTF-8")) return "base-href-utf8-query";
    }
    return "url-parser";
  }
  const context = model as ModelContext;
  if (action.t === "get" && action.kind === "base-href") {
    if (chromium === referenceBaseHref(context.attr, { ...context, encoding: "UTF-8" })) return "base-href-utf8-query";
  }
  // A read that resolves against a deviating base: Chromium's base differs from the model's.
  if (observation?.b !== undefined && observation.b !== context.base && action.t === "get") return "follows-base-deviation";
  if (action.t === "get" && action.prop === "origin" && expected === "null" && chromium === "file://") return "file-origin";
  const attr = context.attr ?? "";
  const encoding = context.encoding.toLowerCase();
  if (encoding !== "utf-8" && encoding !== "utf-16le" && encoding !== "utf-16be") {
    const scheme = schemeOf(action.t === "set" ? expected : (referenceGetter(action.kind === "hyperlink" ? "hyperlink" : "reflect", "href", context) ?? null));
    if (scheme !== null && (!specialSchemes.has(scheme) || scheme === "ws" || scheme === "wss")) {
      if (chromium !== null && chromium.split("?")[0] === expected.split("?")[0]) return "legacy-query-non-special";
    }
    if (action.t === "get" && action.prop === "search" && scheme !== null && (!specialSchemes.has(scheme) || scheme === "ws" || scheme === "wss")) return "legacy-query-non-special";
  }
  if (action.t === "set" && action.prop === "protocol") {
    const from = schemeOf(expected);
    const to = action.value.replace(/[\t\n\r]/g, "").split(":")[0]?.toLowerCase() ?? "";
    if (from !== null && (specialSchemes.has(from) !== specialSchemes.has(to) || (from === "file") !== (to === "file"))) return "setter-special-switch";
    return "setter";
  }
  const host = /^\s*(?:[a-z][a-z0-9+.-]*:)?[\\/\t\n\r]{2,}([^/?#\\]*)/i.exec(attr)?.[1]?.split("@").pop() ?? "";
  const setHost = action.t === "set" && (action.prop === "host" || action.prop === "hostname") ? action.value : "";
  if (/\S[ ]|[ ]\S/.test(setHost)) return "space-in-host";
  if (/^\s*file:/i.test(attr) || expected.startsWith("file:") || (chromium ?? "").startsWith("file:") || context.base.startsWith("file:")) return "file-url";
  if (/\S[ \u3000]|[ \u3000]\S|%20/.test(host)) return "space-in-host";
  if (chromium !== null && chromium.replaceAll("%7C", "|") === expected) return "pipe-in-path";
  if (action.t === "set") return "setter";
  if (/\/\/[^/?#]*(?:[^\x00-\x7f]|xn--)/i.test(attr) || /\/\/[^/?#]*xn--/i.test(chromium ?? "")) return "idna";
  if (/\/\/[^/?#]*(?:\[|0x|\d+\.\d)/i.test(attr)) return "ip-address";
  if (action.t === "get" && (action.kind === "reflect" || action.kind === "document-url-if-empty" || action.kind === "hyperlink") && expected === attr.toWellFormed()) {
    return "failure-getter-value";
  }
  if (chromium !== null && safeDecode(chromium) === safeDecode(expected)) return "percent-encode-set";
  const scheme = schemeOf(expected) ?? schemeOf(chromium);
  if (scheme !== null && !specialSchemes.has(scheme)) return "non-special-url";
  if (!context.base.startsWith("http") && context.base !== "about:blank") return "non-special-url";
  return "url-parser";
}

// ---------------------------------------------------------------------------
// The three comparisons.

/** The standard's value for a read, for the whole document (the model) or for the URL level (Chromium's document context). */
export function standardValue(document: GeneratedDocument, action: ReadAction, level: "document" | "url", observation?: Observation): string | undefined {
  const model = document.model[action.id];
  if (model === undefined) return undefined;
  if (level === "document" || action.t === "doc") return referenceValue(action, model);
  if (observation === undefined || observation.b === undefined || observation.c === undefined || observation.u === undefined) return undefined;
  const context: ModelContext = {
    attr: observation.a ?? null,
    base: observation.b,
    // A document with an http URL: its fallback base URL is its URL (the URL level answers base.href only there).
    fallback: observation.u,
    url: observation.u,
    encoding: observation.c,
  };
  if (action.t === "set") return referenceHyperlinkSetter(action.prop, action.value, action.href, context);
  return referenceGetter(action.kind, action.prop, context);
}

export function checkDeviations(deviations: readonly Deviation[], list: DeviationList, origin: string): DeviationCheck {
  const listed = new Map(list.deviations.map((d) => [d.id, d]));
  const unlisted: Deviation[] = [];
  const changed: { listed: ListedDeviation; now: Deviation }[] = [];
  const confirmed = new Map<string, number>();
  const seen = new Set<string>();
  for (const d of deviations) {
    seen.add(d.id);
    const entry = listed.get(d.id);
    if (entry === undefined) unlisted.push(d);
    else if (entry.chromium !== normalize(d.chromium, origin) || entry.expected !== normalize(d.expected, origin)) changed.push({ listed: entry, now: d });
    else confirmed.set(entry.reason, (confirmed.get(entry.reason) ?? 0) + 1);
  }
  const disappeared = list.deviations.filter((d) => !seen.has(d.id));
  return { unlisted, changed, disappeared, confirmed };
}

/** Rewrites the list from the current deviations: listed reasons are kept, new ones get a first guess. */
export function writeDeviationList(
  deviations: readonly Deviation[],
  observations: ReadonlyMap<string, Observation>,
  previous: DeviationList,
  meta: { chromium: string; seed: string; origin: string },
): DeviationList {
  const old = new Map(previous.deviations.map((d) => [d.id, d]));
  const entries: ListedDeviation[] = deviations.map((d) => {
    const chromium = normalize(d.chromium, meta.origin);
    const expected = normalize(d.expected, meta.origin) as string;
    const before = old.get(d.id);
    const reason = before !== undefined && before.chromium === chromium && before.expected === expected ? before.reason : explainDeviation(d, observations.get(d.id));
    return { id: d.id, chromium, expected, reason, input: normalize(d.input, meta.origin) as string };
  });
  const used = new Set(entries.map((e) => e.reason));
  const reasons: Record<string, string> = {};
  for (const [key, text] of Object.entries({ ...reasonDescriptions, ...previous.reasons })) if (used.has(key)) reasons[key] = text;
  const list: DeviationList = {
    comment:
      "Known deviations of Chromium from the URL and HTML standards, found by test/browser (see its README). Enforced both ways: a deviation not listed here, or a listed one that disappears or changes, fails the suite. Values write the local server's origin as {origin} and its port as {port}. Regenerate with: node test/browser/run.ts --update-deviations (then review the reasons).",
    chromium: meta.chromium,
    seed: meta.seed,
    reasons,
    deviations: entries,
  };
  writeFileSync(deviationsFile, `${JSON.stringify(list, null, 1)}\n`);
  return list;
}
