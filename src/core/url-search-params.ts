/**
 * The URLSearchParams class.
 *
 * https://url.spec.whatwg.org/#interface-urlsearchparams
 *
 * @module
 */

import { type NameValue, parseFormURLEncoded, serializeFormURLEncoded } from "./form-urlencoded.ts";
import { toScalarValueString } from "./infra.ts";
import type { URLRecord } from "./url-record.ts";

/**
 * The URL object a URLSearchParams belongs to: a box around its current URL record.
 *
 * @example
 * ```ts
 * const box: URLRecordBox = { record: parseURL("https://a/?q=1")!, pending: null };
 * ```
 */
export interface URLRecordBox {
  record: URLRecord;
  /** A query list not yet written into `record.query`; the URL's record accessor writes it first. */
  pending: URLSearchParams | null;
}

/**
 * Writes a pending query list into its URL's record (see {@link URLRecordBox.pending}).
 *
 * @example
 * ```ts
 * if (box.pending !== null) flushQuery(box.pending); // box.record.query is current
 * ```
 */
export let flushQuery: (params: URLSearchParams) => void;

/**
 * Web IDL USVString conversion.
 *
 * @example
 * ```ts
 * toUSVString("a\uD800"); // "a\uFFFD"
 * toUSVString(1); // "1"
 * ```
 */
export function toUSVString(value: unknown): string {
  if (typeof value === "symbol") throw new TypeError("Cannot convert a Symbol value to a string");
  return toScalarValueString(String(value));
}

function requireArguments(count: number, required: number, method: string): void {
  if (count < required) {
    throw new TypeError(
      `Failed to execute '${method}' on 'URLSearchParams': ${required} argument${required > 1 ? "s" : ""} required, but only ${count} present.`,
    );
  }
}

let attach: (params: URLSearchParams, box: URLRecordBox) => void;
let resetList: (params: URLSearchParams, query: string | null) => void;

/**
 * The WHATWG `URLSearchParams`, a drop-in for the web platform's.
 *
 * https://url.spec.whatwg.org/#urlsearchparams
 *
 * @example
 * ```ts
 * const params = new URLSearchParams("?b=2&a=1&a=3");
 * params.getAll("a"); // ["1", "3"]
 * params.sort();
 * params.toString(); // "a=1&a=3&b=2"
 * ```
 */
export class URLSearchParams {
  #list: NameValue[] = [];
  #url: URLRecordBox | null = null;

  static {
    attach = (params, box) => {
      params.#url = box;
    };
    flushQuery = (params) => params.#flush();
    resetList = (params, query) => {
      params.#list = query === null ? [] : parseFormURLEncoded(query);
    };
  }

  /**
   * https://url.spec.whatwg.org/#dom-urlsearchparams-urlsearchparams — from a
   * query string (a leading "?" is ignored), a sequence of pairs, a record,
   * or another URLSearchParams.
   */
  constructor(init: string | Iterable<Iterable<string>> | Record<string, string> | URLSearchParams = "") {
    if (init !== null && (typeof init === "object" || typeof init === "function")) {
      const iterator = (init as { [Symbol.iterator]?: unknown })[Symbol.iterator];
      if (iterator !== undefined && iterator !== null) {
        if (typeof iterator !== "function") throw new TypeError("The provided value is not iterable.");
        // 1. If init is a sequence, then for each innerSequence of init: if its size is not 2, throw a TypeError.
        for (const pair of init as Iterable<Iterable<unknown>>) {
          if (pair === null || (typeof pair !== "object" && typeof pair !== "function") || !(Symbol.iterator in pair)) {
            throw new TypeError("Each query pair must be an iterable [name, value] tuple.");
          }
          const items = Array.from(pair, toUSVString);
          if (items.length !== 2) throw new TypeError("Each query pair must be an iterable [name, value] tuple.");
          this.#list.push([items[0]!, items[1]!]);
        }
      } else {
        // 2. Otherwise, if init is a record, then for each name → value of init, append (name, value).
        // Web IDL's record<USVString, USVString> conversion: keys that become equal once lone
        // surrogates are U+FFFD collapse; the later value wins, in the first key's place.
        const record = new Map<string, string>();
        for (const key of Reflect.ownKeys(init)) {
          const descriptor = Reflect.getOwnPropertyDescriptor(init, key);
          if (descriptor === undefined || !descriptor.enumerable) continue;
          if (typeof key === "symbol") throw new TypeError("Cannot convert a Symbol value to a string");
          record.set(toUSVString(key), toUSVString((init as Record<string, unknown>)[key]));
        }
        for (const [name, value] of record) this.#list.push([name, value]);
      }
    } else {
      // 3. Otherwise: assert init is a string; set this's list to the result of parsing init
      //    (with a single leading "?" removed).
      let text = toUSVString(init);
      if (text.charCodeAt(0) === 0x3f) text = text.slice(1);
      this.#list = parseFormURLEncoded(text);
    }
  }

  /**
   * https://url.spec.whatwg.org/#concept-urlsearchparams-update
   *
   * Optimisation: the steps serialize the whole list at every change (n
   * appends: O(n²)); the query is only observable through the URL, whose
   * record accessor writes the pending serialization first, so the URL reads
   * exactly what the eager steps would have written.
   */
  #update(): void {
    if (this.#url === null) return;
    this.#url.pending = this;
  }

  /** The update steps' writing of the query, when the URL next reads or writes its record. */
  #flush(): void {
    const box = this.#url;
    if (box === null || box.pending !== this) return;
    box.pending = null;
    // 2. Let serializedQuery be the serialization of query's list.
    // 3. If serializedQuery is the empty string, then set serializedQuery to null.
    const serializedQuery = serializeFormURLEncoded(this.#list);
    box.record.query = serializedQuery === "" ? null : serializedQuery;
  }

  /** https://url.spec.whatwg.org/#dom-urlsearchparams-size */
  get size(): number {
    return this.#list.length;
  }

  /** https://url.spec.whatwg.org/#dom-urlsearchparams-append */
  append(name: string, value: string): void {
    requireArguments(arguments.length, 2, "append");
    this.#list.push([toUSVString(name), toUSVString(value)]);
    this.#update();
  }

  /** https://url.spec.whatwg.org/#dom-urlsearchparams-delete */
  delete(name: string, value?: string): void {
    requireArguments(arguments.length, 1, "delete");
    const n = toUSVString(name);
    const v = value === undefined ? undefined : toUSVString(value);
    this.#list = this.#list.filter(([tn, tv]) => !(tn === n && (v === undefined || tv === v)));
    this.#update();
  }

  /** https://url.spec.whatwg.org/#dom-urlsearchparams-get */
  get(name: string): string | null {
    requireArguments(arguments.length, 1, "get");
    const n = toUSVString(name);
    for (const [tn, tv] of this.#list) if (tn === n) return tv;
    return null;
  }

  /** https://url.spec.whatwg.org/#dom-urlsearchparams-getall */
  getAll(name: string): string[] {
    requireArguments(arguments.length, 1, "getAll");
    const n = toUSVString(name);
    const values: string[] = [];
    for (const [tn, tv] of this.#list) if (tn === n) values.push(tv);
    return values;
  }

  /** https://url.spec.whatwg.org/#dom-urlsearchparams-has */
  has(name: string, value?: string): boolean {
    requireArguments(arguments.length, 1, "has");
    const n = toUSVString(name);
    const v = value === undefined ? undefined : toUSVString(value);
    return this.#list.some(([tn, tv]) => tn === n && (v === undefined || tv === v));
  }

  /** https://url.spec.whatwg.org/#dom-urlsearchparams-set */
  set(name: string, value: string): void {
    requireArguments(arguments.length, 2, "set");
    const n = toUSVString(name);
    const v = toUSVString(value);
    // "If this's list contains any name-value pairs whose name is name, then set the value of
    // the first such name-value pair to value and remove the others. Otherwise, append."
    const index = this.#list.findIndex(([tn]) => tn === n);
    if (index === -1) {
      this.#list.push([n, v]);
    } else {
      this.#list[index] = [n, v];
      this.#list = this.#list.filter(([tn], i) => i <= index || tn !== n);
    }
    this.#update();
  }

  /** https://url.spec.whatwg.org/#dom-urlsearchparams-sort — stable, by the names' UTF-16 code units. */
  sort(): void {
    // Array.prototype.sort is stable; "<" on strings compares code units.
    this.#list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.#update();
  }

  /** https://url.spec.whatwg.org/#urlsearchparams-stringification-behavior */
  toString(): string {
    return serializeFormURLEncoded(this.#list);
  }

  /** Web IDL iterable: live over the list, as the platform's iterators are. */
  *entries(): IterableIterator<[string, string]> {
    for (let i = 0; i < this.#list.length; i++) {
      const [name, value] = this.#list[i]!;
      yield [name, value];
    }
  }

  /** Web IDL iterable keys. */
  *keys(): IterableIterator<string> {
    for (let i = 0; i < this.#list.length; i++) yield this.#list[i]![0];
  }

  /** Web IDL iterable values. */
  *values(): IterableIterator<string> {
    for (let i = 0; i < this.#list.length; i++) yield this.#list[i]![1];
  }

  /** Web IDL iterable forEach. */
  forEach(callback: (value: string, name: string, params: URLSearchParams) => void, thisArg?: unknown): void {
    if (typeof callback !== "function") throw new TypeError("The callback provided as parameter 1 is not a function.");
    for (let i = 0; i < this.#list.length; i++) {
      const [name, value] = this.#list[i]!;
      callback.call(thisArg, value, name, this);
    }
  }

  declare [Symbol.iterator]: () => IterableIterator<[string, string]>;

  get [Symbol.toStringTag](): string {
    return "URLSearchParams";
  }
}

// Web IDL: "the value of the @@iterator property is the same function object as entries".
Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, {
  value: URLSearchParams.prototype.entries,
  writable: true,
  enumerable: false,
  configurable: true,
});

/**
 * Links a URLSearchParams to its URL object (the query object's URL object). Internal.
 *
 * @example
 * ```ts
 * const params = new URLSearchParams("q=1");
 * attachToURL(params, box); // params' changes now reach box.record.query (through box.pending)
 * ```
 */
export function attachToURL(params: URLSearchParams, box: URLRecordBox): void {
  attach(params, box);
}

/**
 * Sets the list to the parse of `query` (or empties it for null). Internal, for the URL class.
 *
 * @example
 * ```ts
 * resetSearchParams(params, "a=1&b=2");
 * params.get("b"); // "2"
 * ```
 */
export function resetSearchParams(params: URLSearchParams, query: string | null): void {
  resetList(params, query);
}
