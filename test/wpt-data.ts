/**
 * Loads the web-platform-tests URL data files (wpt `url/resources/*.json`)
 * and the HTML reflection data files (wpt `html/dom/elements-*.js`).
 *
 * They are vendored, pinned and byte-exact in `test/fixtures/wpt/` (see its
 * README for the pin, the license and the refresh command), so a fresh clone
 * tests itself with nothing beside it and no network.
 *
 * A missing or malformed file throws: a suite that passes by testing nothing
 * is a defect, so nothing here ever returns an empty list quietly.
 *
 * The formats are described in wpt's `url/README.md` and in
 * `test/fixtures/wpt/README.md`.
 *
 * @module
 */

import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { createContext, runInContext } from "node:vm";

/** The repository root (this file lives in `test/`). */
export const repoRoot: string = resolve(import.meta.dirname, "..");

/** The root of the vendored WPT files: each file sits at its WPT path below it. */
export const vendoredWPTRoot: string = resolve(repoRoot, "test/fixtures/wpt");

/** The WPT data files this project's suites read. */
export type WPTFileName =
  | "urltestdata.json"
  | "urltestdata-javascript-only.json"
  | "setters_tests.json"
  | "toascii.json"
  | "percent-encoding.json"
  | "IdnaTestV2.json"
  | "IdnaTestV2-removed.json";

/** Thrown when the WPT data cannot be found or does not have the expected shape. */
export class WPTDataError extends Error {
  override name = "WPTDataError";
}

const refreshHint = "The files are vendored in test/fixtures/wpt/ (see its README); `npm run wpt:update -- <commit>` refreshes them.";

/** The directory the WPT URL data files are read from (`url/resources/` of the vendored tree). */
export function wptDirectory(): string {
  return join(vendoredWPTRoot, "url/resources");
}

/** Reads and parses one JSON file; throws {@link WPTDataError} if it is missing or not JSON. */
export function readJSONFile(path: string): unknown {
  if (!existsSync(path)) {
    throw new WPTDataError(`Test data file missing: ${path}. ${refreshHint}`);
  }
  const text = readFileSync(path, "utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new WPTDataError(`Test data file is not valid JSON: ${path} (${String(error)})`);
  }
}

/** Reads one WPT data file, from {@link wptDirectory}. */
export function readWPTFile(name: WPTFileName): unknown {
  return readJSONFile(join(wptDirectory(), name));
}

/** A short, repository-relative name for a data file, for test titles. */
export function displayPath(path: string): string {
  return relative(repoRoot, path) || path;
}

// ---------------------------------------------------------------------------
// Shape checks: fail loudly on anything unexpected.

function fail(where: string, message: string): never {
  throw new WPTDataError(`${where}: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function expectString(where: string, value: unknown, key: string): string {
  if (!isRecord(value) || typeof value[key] !== "string") fail(where, `expected a string "${key}"`);
  return value[key];
}

function expectNonEmpty<T>(where: string, list: T[]): T[] {
  if (list.length === 0) fail(where, "contains no test cases");
  return list;
}

/** The getters a urltestdata case lists, in the order WPT checks them. */
export const urlComponentGetters = [
  "href",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
] as const;

/** One of the getters every urltestdata success case lists. */
export type URLComponentGetter = (typeof urlComponentGetters)[number];

/** A urltestdata case where parsing succeeds. */
export type URLTestSuccess = {
  readonly input: string;
  readonly base: string | null;
  readonly failure?: undefined;
  readonly comment?: string;
  /** Absent: origin is not checked. */
  readonly origin?: string;
  /** Absent: searchParams is not checked. */
  readonly searchParams?: string;
} & { readonly [K in URLComponentGetter]: string };

/** A urltestdata case where parsing fails. */
export interface URLTestFailure {
  readonly input: string;
  readonly base: string | null;
  readonly failure: true;
  readonly comment?: string;
  /** Inputs that fail without a base but that a base of this kind would resolve. */
  readonly relativeTo?: "non-opaque-path-base" | "any-base";
}

/** One case of urltestdata.json (or a file in its format). */
export type URLTestCase = URLTestSuccess | URLTestFailure;

/**
 * Checks and returns the cases of a file in the urltestdata.json format
 * (comment strings dropped).
 */
export function parseURLTestData(json: unknown, where: string): URLTestCase[] {
  if (!Array.isArray(json)) fail(where, "expected a JSON array");
  const cases: URLTestCase[] = [];
  json.forEach((item: unknown, index) => {
    if (typeof item === "string") return;
    const at = `${where} item ${index}`;
    if (!isRecord(item)) fail(at, "expected a string (comment) or an object");
    expectString(at, item, "input");
    if (item["base"] !== null) expectString(at, item, "base");
    if (item["failure"] === true) {
      const relativeTo = item["relativeTo"];
      if (relativeTo !== undefined && relativeTo !== "non-opaque-path-base" && relativeTo !== "any-base") {
        fail(at, `unknown relativeTo ${JSON.stringify(relativeTo)}`);
      }
    } else {
      if (item["failure"] !== undefined) fail(at, "failure must be true when present");
      for (const key of urlComponentGetters) expectString(at, item, key);
      if ("origin" in item) expectString(at, item, "origin");
      if ("searchParams" in item) expectString(at, item, "searchParams");
    }
    cases.push(item as unknown as URLTestCase);
  });
  return expectNonEmpty(where, cases);
}

/** The URL attributes setters_tests.json has cases for. */
export const setterAttributes = [
  "href",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
] as const;

/** One of {@link setterAttributes}. */
export type SetterAttribute = (typeof setterAttributes)[number];

/** A getter a setters_tests case may check (every setter attribute, and origin). */
export type CheckedGetter = SetterAttribute | "origin";

/** One case of setters_tests.json. */
export interface SetterTestCase {
  readonly comment?: string;
  readonly href: string;
  readonly new_value: string;
  readonly expected: Readonly<Partial<Record<CheckedGetter, string>>>;
}

/** A case of setters_tests.json, with the attribute it sets. */
export interface SetterTest extends SetterTestCase {
  readonly attribute: SetterAttribute;
}

const checkedGetters: ReadonlySet<string> = new Set<string>([...setterAttributes, "origin"]);

/**
 * Checks and returns the cases of a file in the setters_tests.json format,
 * flattened, in file order, each with the attribute it sets.
 */
export function parseSetterTestData(json: unknown, where: string): SetterTest[] {
  if (!isRecord(json)) fail(where, "expected a JSON object");
  const tests: SetterTest[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (key === "comment") continue;
    if (!(setterAttributes as readonly string[]).includes(key)) fail(where, `unknown attribute "${key}"`);
    if (!Array.isArray(value)) fail(`${where} "${key}"`, "expected an array");
    value.forEach((item: unknown, index) => {
      const at = `${where} "${key}" item ${index}`;
      expectString(at, item, "href");
      expectString(at, item, "new_value");
      const expected = isRecord(item) ? item["expected"] : undefined;
      if (!isRecord(expected) || Object.keys(expected).length === 0) fail(at, 'expected a non-empty object "expected"');
      for (const getter of Object.keys(expected)) {
        if (!checkedGetters.has(getter)) fail(at, `unknown getter "${getter}" in expected`);
        expectString(at, expected, getter);
      }
      tests.push({ ...(item as unknown as SetterTestCase), attribute: key as SetterAttribute });
    });
  }
  return expectNonEmpty(where, tests);
}

/** One case of toascii.json, IdnaTestV2.json or IdnaTestV2-removed.json. */
export interface ToASCIITestCase {
  readonly comment?: string;
  readonly input: string;
  /** The expected ASCII host, or null for failure. */
  readonly output: string | null;
  readonly urlStandardOnly?: boolean;
}

/**
 * Checks and returns the cases of a file in the toascii.json format (also
 * the format of IdnaTestV2.json). As wpt's toascii harness does, a missing
 * `output` means "same as input".
 */
export function parseToASCIITestData(json: unknown, where: string): ToASCIITestCase[] {
  if (!Array.isArray(json)) fail(where, "expected a JSON array");
  const cases: ToASCIITestCase[] = [];
  json.forEach((item: unknown, index) => {
    if (typeof item === "string") return;
    const at = `${where} item ${index}`;
    const input = expectString(at, item, "input");
    const output = isRecord(item) ? item["output"] : undefined;
    if (output !== undefined && output !== null && typeof output !== "string")
      fail(at, "output must be a string or null");
    cases.push({ ...(item as object), input, output: output === undefined ? input : output });
  });
  return expectNonEmpty(where, cases);
}

/** One case of percent-encoding.json. */
export interface PercentEncodingTestCase {
  readonly input: string;
  /** Encoding label → expected percent-encoded string. */
  readonly output: Readonly<Record<string, string>>;
}

/** Checks and returns the cases of percent-encoding.json. */
export function parsePercentEncodingTestData(json: unknown, where: string): PercentEncodingTestCase[] {
  if (!Array.isArray(json)) fail(where, "expected a JSON array");
  const cases: PercentEncodingTestCase[] = [];
  json.forEach((item: unknown, index) => {
    if (typeof item === "string") return;
    const at = `${where} item ${index}`;
    expectString(at, item, "input");
    const output = isRecord(item) ? item["output"] : undefined;
    if (!isRecord(output)) fail(at, 'expected an object "output"');
    for (const label of Object.keys(output)) expectString(at, output, label);
    cases.push(item as unknown as PercentEncodingTestCase);
  });
  return expectNonEmpty(where, cases);
}

// ---------------------------------------------------------------------------
// One loader per WPT file.

/** urltestdata.json, or urltestdata-javascript-only.json (lone surrogates). */
export function loadURLTestData(
  name: "urltestdata.json" | "urltestdata-javascript-only.json" = "urltestdata.json",
): URLTestCase[] {
  return parseURLTestData(readWPTFile(name), name);
}

/** setters_tests.json, flattened. */
export function loadSetterTests(): SetterTest[] {
  return parseSetterTestData(readWPTFile("setters_tests.json"), "setters_tests.json");
}

/** toascii.json, IdnaTestV2.json or IdnaTestV2-removed.json. */
export function loadToASCIITests(
  name: "toascii.json" | "IdnaTestV2.json" | "IdnaTestV2-removed.json" = "toascii.json",
): ToASCIITestCase[] {
  return parseToASCIITestData(readWPTFile(name), name);
}

/** percent-encoding.json. */
export function loadPercentEncodingTests(): PercentEncodingTestCase[] {
  return parsePercentEncodingTestData(readWPTFile("percent-encoding.json"), "percent-encoding.json");
}

// ---------------------------------------------------------------------------
// The HTML reflection data (wpt html/dom/elements-*.js).

/**
 * The reflection data files vendored (wpt `html/dom/`): each lists, per
 * element, its reflected IDL attributes with their reflection type, for
 * wpt's html/dom/reflection-*.html tests (which load them with
 * html/dom/reflection.js). `elements-grouping.js` (blockquote.cite) is not
 * among them: see test/fixtures/wpt/README.md.
 */
export const wptReflectionFiles = [
  "elements-embedded.js",
  "elements-forms.js",
  "elements-metadata.js",
  "elements-misc.js",
  "elements-obsolete.js",
  "elements-sections.js",
  "elements-text.js",
] as const;

/** One of {@link wptReflectionFiles}. */
export type WPTReflectionFileName = (typeof wptReflectionFiles)[number];

/** One reflected IDL attribute of the data: its reflection type and the content attribute it reflects. */
export interface ReflectionDataEntry {
  /** The element's local name. */
  readonly element: string;
  /** The IDL attribute. */
  readonly idl: string;
  /** The reflection type ("url", "string", "boolean", "enum", …; "urls" in old data for ping). */
  readonly type: string;
  /** The content attribute: the entry's `domAttrName`, else the IDL name lower-cased (as reflection.js does). */
  readonly contentAttribute: string;
  /** The file it came from. */
  readonly file: WPTReflectionFileName;
}

/**
 * Evaluates one reflection data file and returns its entries. The file is
 * JavaScript (`var xElements = {…}; mergeElements(xElements);`, sometimes
 * with `extraTests.push(function…)`), run in a fresh `vm` context whose
 * only globals are stubs of what reflection.js provides: `mergeElements`
 * collects the objects, `extraTests` keeps the functions without calling
 * them, `elements` is an empty object. String code generation (eval,
 * `Function`) and WebAssembly are off in that context, and a run is
 * stopped after one second.
 */
export function parseReflectionData(source: string, file: WPTReflectionFileName): ReflectionDataEntry[] {
  const merged: unknown[] = [];
  const sandbox = createContext(
    {
      mergeElements(elements: unknown): void {
        merged.push(elements);
      },
      extraTests: { push(): void {} },
      elements: {},
    },
    { codeGeneration: { strings: false, wasm: false } },
  );
  try {
    runInContext(source, sandbox, { filename: file, timeout: 1000 });
  } catch (error) {
    fail(file, `does not evaluate: ${String(error)}`);
  }
  if (merged.length !== 1) fail(file, `calls mergeElements ${merged.length} times, not once`);
  const elements = merged[0];
  if (!isRecord(elements)) fail(file, "mergeElements is not given an object");
  const entries: ReflectionDataEntry[] = [];
  for (const [element, attributes] of Object.entries(elements)) {
    if (!isRecord(attributes)) fail(file, `${element} is not an object`);
    for (const [idl, description] of Object.entries(attributes)) {
      const where = `${file}: ${element}.${idl}`;
      let type: unknown;
      let domAttrName: unknown;
      if (typeof description === "string") type = description;
      else if (isRecord(description)) {
        // {type: "url"}, or {type: {type: "enum", …}} in newer data.
        type = isRecord(description.type) ? description.type.type : description.type;
        domAttrName = description.domAttrName;
      }
      if (typeof type !== "string") fail(where, "has no reflection type");
      if (domAttrName !== undefined && typeof domAttrName !== "string") fail(where, "has a domAttrName that is not a string");
      entries.push({ element, idl, type, contentAttribute: domAttrName ?? idl.toLowerCase(), file });
    }
  }
  return entries;
}

/** Every entry of every vendored reflection data file. */
export function loadReflectionData(): ReflectionDataEntry[] {
  return wptReflectionFiles.flatMap((file) => {
    const path = join(vendoredWPTRoot, "html/dom", file);
    if (!existsSync(path)) throw new WPTDataError(`Test data file missing: ${path}. ${refreshHint}`);
    return expectNonEmpty(file, parseReflectionData(readFileSync(path, "utf8"), file));
  });
}
