/**
 * Shared case runners for the WPT-format data (wpt's own files and our extra
 * files in test/data/), written against {@link CoreImpl} so that they run
 * against any implementation.
 *
 * @module
 */

import { expect, it } from "vitest";
import type { CheckedGetter, SetterTest, URLTestCase, URLTestSuccess } from "../wpt-data.ts";
import { urlComponentGetters } from "../wpt-data.ts";
import { knownFailures, implName, type CoreImpl, type URLLike, type URLRecord } from "./impl.ts";

// ---------------------------------------------------------------------------
// Readable test titles.

function isInvisible(c: number): boolean {
  return (
    c < 0x20 ||
    (c >= 0x7f && c <= 0xa0) ||
    c === 0xad ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x2028 && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2064) ||
    c === 0x3000 ||
    (c >= 0xfdd0 && c <= 0xfdef) ||
    c === 0xfeff ||
    c >= 0xfff0
  );
}

/**
 * A string made safe and readable for a test title: invisible and control
 * code points, and lone surrogates, become `\u{…}` escapes; visible
 * non-ASCII stays as is; long strings are cut in the middle.
 */
export function show(value: string | null, max = 140): string {
  if (value === null) return "null";
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += value[i]! + value[i + 1]!;
        i++;
        continue;
      }
    }
    if ((c >= 0xd800 && c <= 0xdfff) || isInvisible(c) || c === 0x5c /* keep "\" unambiguous */) {
      out += c === 0x5c ? "\\\\" : `\\u{${c.toString(16).toUpperCase()}}`;
    } else {
      out += value[i]!;
    }
  }
  if (out.length > max) {
    const keep = Math.floor((max - 20) / 2);
    out = `${out.slice(0, keep)}…(${value.length} code units)…${out.slice(-keep)}`;
  }
  return out;
}

/** "<input> against <base>", as wpt titles its urltestdata cases. */
export function urlCaseTitle(c: URLTestCase): string {
  const title = `<${show(c.input)}> against <${show(c.base)}>`;
  return c.failure ? `${title} fails` : title;
}

/** "Setting <href>.attr = 'value' (comment)", as wpt titles its setters cases. */
export function setterCaseTitle(t: SetterTest): string {
  const comment = t.comment === undefined ? "" : ` (${show(t.comment, 80)})`;
  return `<${show(t.href)}>.${t.attribute} = '${show(t.new_value)}'${comment}`;
}

/** Rows for `it.each(rows)("%s", (title, item) => …)`: one test per item, each with a readable title. */
export function titled<T>(items: readonly T[], title: (item: T) => string): [string, T][] {
  return items.map((item) => [title(item), item]);
}

/**
 * One test per row, titled by the row's title. A row whose
 * "<scope>: <title>" is a known failure of the implementation under test
 * runs as `it.fails` (so it must still fail).
 */
export function eachCase<T>(scope: string, rows: readonly [string, T][], run: (item: T) => void): void {
  const passing: [string, T][] = [];
  const failing: [string, T][] = [];
  for (const row of rows) {
    const key = `${scope}: ${row[0]}`;
    usedKnownFailures.add(key);
    (knownFailures.has(key) ? failing : passing).push(row);
  }
  if (passing.length > 0) it.each(passing)("%s", (_title, item) => run(item));
  if (failing.length > 0) {
    it.fails.each(failing)(`%s [known failure of ${implName}]`, (_title, item) => run(item));
  }
}

const usedKnownFailures = new Set<string>();

/**
 * A test that every known failure listed for these scopes names a case that
 * exists (call it after the {@link eachCase} calls of a file).
 */
export function itHasNoStaleKnownFailures(scopes: readonly string[]): void {
  it("lists no stale known failures", () => {
    const stale = [...knownFailures.keys()].filter(
      (key) => scopes.some((scope) => key.startsWith(`${scope}: `)) && !usedKnownFailures.has(key),
    );
    expect(stale).toEqual([]);
  });
}

// ---------------------------------------------------------------------------
// Expected values.

/** The values of the given getters of a URL object. */
export function getters<K extends CheckedGetter>(url: URLLike, keys: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of keys) out[key] = url[key];
  return out;
}

/** The getters a urltestdata success case expects (href … hash, and origin when listed). */
export function expectedGetters(c: URLTestSuccess): Partial<Record<CheckedGetter, string>> {
  const out: Partial<Record<CheckedGetter, string>> = {};
  for (const key of urlComponentGetters) out[key] = c[key];
  if (c.origin !== undefined) out.origin = c.origin;
  return out;
}

/**
 * The URL record a urltestdata success case implies, in docbase's
 * representation (serialized host and path). The getters alone lose null
 * versus empty for host, query and fragment; the href keeps them: a URL has a
 * host iff "//" follows the scheme (the serializer writes "/." before a path
 * that starts with "//" when there is no host), and a null query or fragment
 * has no "?" or "#".
 */
export function expectedRecord(c: URLTestSuccess): URLRecord {
  const hasHost = c.href.startsWith("//", c.protocol.length);
  const fragment = c.hash !== "" ? c.hash.slice(1) : c.href.endsWith("#") ? "" : null;
  const withoutFragment = hrefWithoutFragment(c);
  const query = c.search !== "" ? c.search.slice(1) : withoutFragment.endsWith("?") ? "" : null;
  return {
    scheme: c.protocol.slice(0, -1),
    username: c.username,
    password: c.password,
    host: hasHost ? c.hostname : null,
    port: c.port === "" ? null : Number(c.port),
    path: c.pathname,
    // An opaque path never starts with "/"; a list path without a host always does.
    opaquePath: !hasHost && !c.pathname.startsWith("/"),
    query,
    fragment,
  };
}

/** The href with its fragment (and "#") removed: the serializer's "exclude fragment". */
export function hrefWithoutFragment(c: URLTestSuccess): string {
  const hashIndex = c.href.length - c.hash.length - (c.hash === "" && c.href.endsWith("#") ? 1 : 0);
  return c.href.slice(0, hashIndex);
}

// ---------------------------------------------------------------------------
// Runners.

function construct(impl: CoreImpl, input: string, base: string | null): URLLike {
  return base === null ? new impl.URL(input) : new impl.URL(input, base);
}

/**
 * A urltestdata case through the URL class: the constructor (every getter,
 * origin and searchParams when listed, toString, toJSON), URL.parse and
 * URL.canParse. For a failure case, the constructor throws TypeError, and so
 * does using the input as a base (wpt's rule: "about:blank" against it).
 */
export function runURLClassCase(impl: CoreImpl, c: URLTestCase): void {
  const base = c.base ?? undefined;
  if (c.failure) {
    expect(() => construct(impl, c.input, c.base), "constructor").toThrow(TypeError);
    expect(impl.URL.canParse(c.input, base), "URL.canParse").toBe(false);
    expect(impl.URL.parse(c.input, base), "URL.parse").toBeNull();
    expect(() => new impl.URL("about:blank", c.input), "input as base").toThrow(TypeError);
    return;
  }
  const url = construct(impl, c.input, c.base);
  const expected = expectedGetters(c);
  expect(getters(url, Object.keys(expected) as CheckedGetter[])).toEqual(expected);
  if (c.searchParams !== undefined) expect(url.searchParams.toString(), "searchParams").toBe(c.searchParams);
  expect(url.toString(), "toString()").toBe(c.href);
  expect(url.toJSON(), "toJSON()").toBe(c.href);
  expect(impl.URL.canParse(c.input, base), "URL.canParse").toBe(true);
  expect(impl.URL.parse(c.input, base)?.href, "URL.parse").toBe(c.href);
}

/**
 * A urltestdata case through parseURL (base as a string) and serializeURL:
 * null on failure; otherwise the href, the href without fragment, and the
 * record's fields.
 */
export function runParseURLCase(impl: CoreImpl, c: URLTestCase): void {
  const record = c.base === null ? impl.parseURL(c.input) : impl.parseURL(c.input, { base: c.base });
  checkRecord(impl, c, record);
}

/**
 * A urltestdata case with a base through parseURL, the base given as an
 * already-parsed record (which the parser must leave unchanged).
 */
export function runParseURLWithRecordBaseCase(impl: CoreImpl, c: URLTestCase & { base: string }): void {
  const baseRecord = impl.parseURL(c.base);
  if (baseRecord === null) {
    // The base itself fails: so must the case.
    expect(c.failure, "the base fails to parse, so the case must be a failure case").toBe(true);
    return;
  }
  const before = structuredClone(baseRecord);
  const record = impl.parseURL(c.input, { base: baseRecord });
  checkRecord(impl, c, record);
  expect(baseRecord, "the base record is left unchanged").toEqual(before);
}

function checkRecord(impl: CoreImpl, c: URLTestCase, record: unknown): void {
  if (c.failure) {
    expect(record).toBeNull();
    return;
  }
  expect(record).not.toBeNull();
  expect(impl.serializeURL(record), "serializeURL").toBe(c.href);
  expect(impl.serializeURL(record, { excludeFragment: true }), "serializeURL excludeFragment").toBe(
    hrefWithoutFragment(c),
  );
  expect(impl.recordView(record), "record").toEqual(expectedRecord(c));
}

/** A setters_tests case: parse href, set the attribute, check every expected getter. */
export function runSetterCase(impl: CoreImpl, t: SetterTest): void {
  const url = new impl.URL(t.href);
  url[t.attribute] = t.new_value;
  const keys = Object.keys(t.expected) as CheckedGetter[];
  expect(getters(url, keys)).toEqual(t.expected);
}
