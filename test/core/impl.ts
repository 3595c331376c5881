/**
 * The implementation under test, as one object, so that every core suite can
 * run against any implementation of docbase/core's public contract.
 *
 * By default the suites test docbase (`src/core/index.ts`). Set
 * `DOCBASE_IMPL=whatwg-url` to run the same suites against whatwg-url (the
 * reference implementation), which is how the suites themselves are checked:
 *
 * ```sh
 * DOCBASE_IMPL=whatwg-url npx vitest run test/core/
 * ```
 *
 * @module
 */

import {
  URL as WhatwgURL,
  URLSearchParams as WhatwgURLSearchParams,
  parseURL as whatwgParseURL,
  serializeURL as whatwgSerializeURL,
  serializeHost as whatwgSerializeHost,
  serializePath as whatwgSerializePath,
  type URLRecord as WhatwgURLRecord,
} from "whatwg-url";
import type { URLRecord } from "../../src/core/url-record.ts";

export type { URLRecord };

/** The URLSearchParams interface, as the suites use it. */
export interface URLSearchParamsLike {
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  forEach(callback: (value: string, name: string, searchParams: URLSearchParamsLike) => void, thisArg?: unknown): void;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  entries(): IterableIterator<[string, string]>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
  toString(): string;
}

/** What `new URLSearchParams(init)` accepts (WebIDL: sequence, record or string). */
export type URLSearchParamsInit =
  string | Iterable<Iterable<string>> | Readonly<Record<string, string>> | URLSearchParamsLike;

/** The URLSearchParams class. */
export interface URLSearchParamsClass {
  new (init?: URLSearchParamsInit): URLSearchParamsLike;
}

/** The URL interface, as the suites use it. */
export interface URLLike {
  href: string;
  readonly origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  readonly searchParams: URLSearchParamsLike;
  hash: string;
  toJSON(): string;
  toString(): string;
}

/** The URL class, with its statics. */
export interface URLClass {
  new (url: string, base?: string): URLLike;
  parse(url: string, base?: string): URLLike | null;
  canParse(url: string, base?: string): boolean;
}

/**
 * docbase/core's public contract (see ARCHITECTURE.md), over the record type
 * `R` that the implementation's parser returns.
 */
export interface CoreImpl<R = unknown> {
  /** Shown in suite titles. */
  readonly name: string;
  readonly URL: URLClass;
  readonly URLSearchParams: URLSearchParamsClass;
  /** Returns null on failure; never throws for a bad URL. */
  parseURL(input: string, options?: { base?: string | R | null }): R | null;
  serializeURL(record: R, options?: { excludeFragment?: boolean }): string;
  /** The record as docbase's URLRecord (serialized host and path). */
  recordView(record: R): URLRecord;
}

/** Adapts whatwg-url (the reference implementation) to {@link CoreImpl}. */
export const whatwgURLImpl: CoreImpl<WhatwgURLRecord> = {
  name: "whatwg-url",
  URL: WhatwgURL as unknown as URLClass,
  URLSearchParams: WhatwgURLSearchParams as unknown as URLSearchParamsClass,
  parseURL(input, options) {
    const base = options?.base ?? null;
    if (typeof base === "string") {
      const baseURL = whatwgParseURL(base);
      return baseURL === null ? null : whatwgParseURL(input, { baseURL });
    }
    return base === null ? whatwgParseURL(input) : whatwgParseURL(input, { baseURL: base });
  },
  serializeURL(record, options) {
    return whatwgSerializeURL(record, options?.excludeFragment ?? false);
  },
  recordView(record) {
    return {
      scheme: record.scheme,
      username: record.username,
      password: record.password,
      host: record.host === null ? null : whatwgSerializeHost(record.host),
      port: record.port,
      path: whatwgSerializePath(record),
      opaquePath: typeof record.path === "string",
      query: record.query,
      fragment: record.fragment,
    };
  },
};

async function loadDocbase(): Promise<CoreImpl<URLRecord>> {
  const core = await import("../../src/core/index.ts");
  return {
    name: "docbase",
    URL: core.URL,
    URLSearchParams: core.URLSearchParams,
    parseURL: core.parseURL,
    serializeURL: core.serializeURL,
    recordView: (record) => record,
  } satisfies CoreImpl<URLRecord>;
}

/**
 * IdnaTestV2 (Unicode 17) says U+3E8AC, unassigned in plane 3, is disallowed
 * (V7); tr46 7.0.0, which whatwg-url and docbase use for UTS #46, lets it
 * through. Node's URL (ada) throws, as expected.
 */
const tr46AcceptsUnassigned: [string, string][] = [
  ["IdnaTestV2.json new URL: \u{3E8AC}\u3002\u0729\u3002\uCBD95 → null (V7)", "tr46 7.0.0 accepts U+3E8AC"],
  ["IdnaTestV2.json new URL: \u{3E8AC}\u3002\u0729\u3002\u110D\u1173\u11AC5 → null (V7)", "tr46 7.0.0 accepts U+3E8AC"],
];

/**
 * Cases each implementation is known to fail, as "<scope>: <title>" (the
 * scope is the data file and the way it is run; the title is the test's).
 * They run as `it.fails`, so the list is enforced both ways: a listed case
 * that starts passing fails the suite, and so does a listed key that no
 * longer names any case.
 */
export const knownFailuresByImpl: Readonly<Record<string, ReadonlyMap<string, string>>> = {
  docbase: new Map([...tr46AcceptsUnassigned]),
  "whatwg-url": new Map([...tr46AcceptsUnassigned]),
};

/** Which implementation the suites test: `DOCBASE_IMPL` ("docbase", the default, or "whatwg-url"). */
export const implName: string = process.env["DOCBASE_IMPL"] ?? "docbase";

/** The known failures of the implementation under test ({@link knownFailuresByImpl}). */
export const knownFailures: ReadonlyMap<string, string> = knownFailuresByImpl[implName] ?? new Map();

/** The implementation under test. */
export const impl: CoreImpl = await (async (): Promise<CoreImpl> => {
  switch (implName) {
    case "docbase":
      return (await loadDocbase()) as CoreImpl;
    case "whatwg-url":
      return whatwgURLImpl as CoreImpl;
    default:
      throw new Error(`Unknown DOCBASE_IMPL ${JSON.stringify(implName)}: use "docbase" or "whatwg-url".`);
  }
})();
