/**
 * The URL class: a thin shell over the URL record that re-enters the basic
 * URL parser with a state override for its setters.
 *
 * https://url.spec.whatwg.org/#url-class
 *
 * @module
 */

import { parseURL } from "./api-url-parser.ts";
import { serializeOrigin, urlOrigin } from "./origin.ts";
import { basicURLParse } from "./parser.ts";
import { userinfoPercentEncodeSet, utf8PercentEncodeString } from "./percent-encoding.ts";
import { serializeURL } from "./serializer.ts";
import { cannotHaveUsernamePasswordPort, type URLRecord } from "./url-record.ts";
import { attachToURL, flushQuery, resetSearchParams, toUSVString, URLSearchParams, type URLRecordBox } from "./url-search-params.ts";

/** A record URL.parse() has parsed, for the constructor call it makes to take (see the constructor). */
let adopting: URLRecord | null = null;

/**
 * The arguments of the constructor, parse() and canParse(), converted as
 * Web IDL converts a USVString (each toString called once, in order; its
 * exceptions propagate, and a Symbol throws a TypeError), then parsed.
 */
function parseWithOptionalBase(url: unknown, base: unknown): { input: string; parsed: URLRecord | null } {
  const input = toUSVString(url);
  const parsed = parseURL(input, base === undefined ? {} : { base: toUSVString(base) });
  return { input, parsed };
}

/**
 * The WHATWG `URL`, a drop-in for the web platform's: same getters and
 * setters, `TypeError` where the platform throws.
 *
 * @example
 * ```ts
 * const url = new URL("../x?y#z", "https://example.com/a/b");
 * url.href; // "https://example.com/x?y#z"
 * url.hostname = "example.org";
 * url.searchParams.append("k", "v w");
 * url.href; // "https://example.org/x?y=&k=v+w#z"
 * URL.canParse("nope"); // false
 * ```
 */
export class URL {
  readonly #box: URLRecordBox;
  // Optimisation: the query object is made on first use of searchParams. Until then nothing can
  // observe it, and a URL that is only parsed and read never pays for it.
  #query: URLSearchParams | null = null;

  /** https://url.spec.whatwg.org/#dom-url-url — throws TypeError when `url` (or `base`) is not a valid URL. */
  constructor(url: string | { toString(): string }, base?: string | { toString(): string }) {
    if (arguments.length === 0) throw new TypeError("Failed to construct 'URL': 1 argument required, but only 0 present.");
    // URL.parse() hands over the record it parsed: nothing is converted or parsed twice.
    const adopted = adopting;
    if (adopted !== null) {
      adopting = null;
      this.#box = { record: adopted, pending: null };
      return;
    }
    const { input, parsed } = parseWithOptionalBase(url, base);
    if (parsed === null) throw new TypeError(`Invalid URL: ${input}`);
    this.#box = { record: parsed, pending: null };
  }

  /** https://url.spec.whatwg.org/#dom-url-parse — the URL, or null instead of throwing. */
  static parse(url: string | { toString(): string }, base?: string | { toString(): string }): URL | null {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'parse' on 'URL': 1 argument required, but only 0 present.");
    // Conversion errors propagate (as Node's and browsers' URL.parse do); only a parse failure is null.
    const { parsed } = parseWithOptionalBase(url, base);
    if (parsed === null) return null;
    adopting = parsed;
    return new URL("");
  }

  /** https://url.spec.whatwg.org/#dom-url-canparse */
  static canParse(url: string | { toString(): string }, base?: string | { toString(): string }): boolean {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'canParse' on 'URL': 1 argument required, but only 0 present.");
    return parseWithOptionalBase(url, base).parsed !== null;
  }

  get #url(): URLRecord {
    const box = this.#box;
    // A change of searchParams not yet written into the record (see URLSearchParams' #update).
    if (box.pending !== null) flushQuery(box.pending);
    return box.record;
  }

  /** https://url.spec.whatwg.org/#dom-url-href */
  get href(): string {
    return serializeURL(this.#url);
  }

  set href(value: string) {
    const input = toUSVString(value);
    const parsed = parseURL(input);
    // "If parsedURL is failure, then throw a TypeError."
    if (parsed === null) throw new TypeError(`Invalid URL: ${input}`);
    // The new record replaces whatever the query object had pending.
    this.#box.pending = null;
    this.#box.record = parsed;
    if (this.#query !== null) resetSearchParams(this.#query, parsed.query);
  }

  /** https://url.spec.whatwg.org/#dom-url-origin */
  get origin(): string {
    return serializeOrigin(urlOrigin(this.#url));
  }

  /** https://url.spec.whatwg.org/#dom-url-protocol */
  get protocol(): string {
    return this.#url.scheme + ":";
  }

  set protocol(value: string) {
    basicURLParse(toUSVString(value) + ":", { url: this.#url, stateOverride: "scheme start state" });
  }

  /** https://url.spec.whatwg.org/#dom-url-username */
  get username(): string {
    return this.#url.username;
  }

  set username(value: string) {
    if (cannotHaveUsernamePasswordPort(this.#url)) return;
    // https://url.spec.whatwg.org/#set-the-username
    this.#url.username = utf8PercentEncodeString(toUSVString(value), userinfoPercentEncodeSet);
  }

  /** https://url.spec.whatwg.org/#dom-url-password */
  get password(): string {
    return this.#url.password;
  }

  set password(value: string) {
    if (cannotHaveUsernamePasswordPort(this.#url)) return;
    // https://url.spec.whatwg.org/#set-the-password
    this.#url.password = utf8PercentEncodeString(toUSVString(value), userinfoPercentEncodeSet);
  }

  /** https://url.spec.whatwg.org/#dom-url-host */
  get host(): string {
    const url = this.#url;
    if (url.host === null) return "";
    if (url.port === null) return url.host;
    return url.host + ":" + url.port;
  }

  set host(value: string) {
    if (this.#url.opaquePath) return;
    basicURLParse(toUSVString(value), { url: this.#url, stateOverride: "host state" });
  }

  /** https://url.spec.whatwg.org/#dom-url-hostname */
  get hostname(): string {
    return this.#url.host ?? "";
  }

  set hostname(value: string) {
    if (this.#url.opaquePath) return;
    basicURLParse(toUSVString(value), { url: this.#url, stateOverride: "hostname state" });
  }

  /** https://url.spec.whatwg.org/#dom-url-port */
  get port(): string {
    return this.#url.port === null ? "" : String(this.#url.port);
  }

  set port(value: string) {
    if (cannotHaveUsernamePasswordPort(this.#url)) return;
    const text = toUSVString(value);
    if (text === "") this.#url.port = null;
    else basicURLParse(text, { url: this.#url, stateOverride: "port state" });
  }

  /** https://url.spec.whatwg.org/#dom-url-pathname */
  get pathname(): string {
    return this.#url.path;
  }

  set pathname(value: string) {
    if (this.#url.opaquePath) return;
    this.#url.path = "";
    basicURLParse(toUSVString(value), { url: this.#url, stateOverride: "path start state" });
  }

  /** https://url.spec.whatwg.org/#dom-url-search */
  get search(): string {
    const query = this.#url.query;
    return query === null || query === "" ? "" : "?" + query;
  }

  set search(value: string) {
    const url = this.#url;
    let input = toUSVString(value);
    if (input === "") {
      url.query = null;
      if (this.#query !== null) resetSearchParams(this.#query, null);
      return;
    }
    if (input.charCodeAt(0) === 0x3f) input = input.slice(1);
    url.query = "";
    basicURLParse(input, { url, stateOverride: "query state" });
    if (this.#query !== null) resetSearchParams(this.#query, url.query);
  }

  /** https://url.spec.whatwg.org/#dom-url-searchparams */
  get searchParams(): URLSearchParams {
    if (this.#query === null) {
      this.#query = new URLSearchParams();
      resetSearchParams(this.#query, this.#url.query);
      attachToURL(this.#query, this.#box);
    }
    return this.#query;
  }

  /** https://url.spec.whatwg.org/#dom-url-hash */
  get hash(): string {
    const fragment = this.#url.fragment;
    return fragment === null || fragment === "" ? "" : "#" + fragment;
  }

  set hash(value: string) {
    const url = this.#url;
    let input = toUSVString(value);
    if (input === "") {
      url.fragment = null;
      return;
    }
    if (input.charCodeAt(0) === 0x23) input = input.slice(1);
    url.fragment = "";
    basicURLParse(input, { url, stateOverride: "fragment state" });
  }

  /** https://url.spec.whatwg.org/#dom-url-tojson */
  toJSON(): string {
    return this.href;
  }

  /** https://url.spec.whatwg.org/#URL-stringification-behavior */
  toString(): string {
    return this.href;
  }

  get [Symbol.toStringTag](): string {
    return "URL";
  }
}
