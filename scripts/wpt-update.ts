/**
 * Refreshes the vendored web-platform-tests files from one wpt commit: the URL
 * data (`test/fixtures/wpt/url/resources/*.json`), the HTML reflection data
 * (`test/fixtures/wpt/html/dom/elements-*.js`), and the test pages, scripts
 * and resources the jsdom runner needs (test/wpt/selection.ts's
 * `runnerFiles`). It is run by
 * a person updating the pin; it needs the network, and the test suites never
 * run it (they read the vendored copies, see test/wpt-data.ts).
 *
 * Usage:
 *
 * ```sh
 * npm run wpt:update -- <40-hex wpt commit>
 * ```
 *
 * Every file is downloaded first and checked (it must parse in the format the
 * suites expect); only when all are good are they written, each through a
 * temporary name, and `test/fixtures/wpt/SHA256SUMS` rewritten. Then update
 * the pin table in test/fixtures/wpt/README.md, run `npm test`, and commit
 * the data change on its own.
 *
 * web-platform-tests is under the 3-Clause BSD License
 * (test/fixtures/wpt/LICENSE.md); these are its data files, kept byte for byte.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import {
  parsePercentEncodingTestData,
  parseSetterTestData,
  parseToASCIITestData,
  parseReflectionData,
  parseURLTestData,
  type WPTFileName,
  wptReflectionFiles,
} from "../test/wpt-data.ts";
import { runnerFiles } from "../test/wpt/selection.ts";

/** A JSON file of url/resources, checked with the same parser the suites use. */
function json(parse: (json: unknown, name: string) => unknown[]): (text: string, name: string) => unknown[] {
  return (text, name) => parse(JSON.parse(text) as unknown, name);
}

/** Each URL data file, with the check of its format. */
const urlFiles: Readonly<Record<WPTFileName, (text: string, name: string) => unknown[]>> = {
  "urltestdata.json": json(parseURLTestData),
  "urltestdata-javascript-only.json": json(parseURLTestData),
  "setters_tests.json": json(parseSetterTestData),
  "toascii.json": json(parseToASCIITestData),
  "percent-encoding.json": json(parsePercentEncodingTestData),
  "IdnaTestV2.json": json(parseToASCIITestData),
  "IdnaTestV2-removed.json": json(parseToASCIITestData),
};

/** Every file, by its wpt path, with the check of its format (the reflection data: evaluated as the suite does). */
const files: ReadonlyMap<string, (text: string, name: string) => unknown[]> = new Map([
  ...Object.entries(urlFiles).map(([name, check]) => [`url/resources/${name}`, check] as const),
  ...wptReflectionFiles.map((name) => [`html/dom/${name}`, (text: string) => parseReflectionData(text, name)] as const),
]);

const repoRoot = resolve(import.meta.dirname, "..");
const wptRoot = join(repoRoot, "test/fixtures/wpt");
const commit = process.argv[2] ?? "";

if (!/^[0-9a-f]{40}$/.test(commit)) {
  console.error("usage: npm run wpt:update -- <40-hex wpt commit>");
  process.exit(2);
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function urlOf(path: string): string {
  return `https://raw.githubusercontent.com/web-platform-tests/wpt/${commit}/${path}`;
}

async function download(path: string): Promise<Uint8Array> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const response = await fetch(urlOf(path), { signal: AbortSignal.timeout(60_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      lastError = error;
      if (error instanceof Error && error.message.startsWith("HTTP 404")) break;
    }
  }
  throw new Error(`Could not download ${urlOf(path)}: ${String(lastError)}`);
}

/** Checks one file's bytes (a data file with the suites' own parser); returns its digest. */
function check(path: string, bytes: Uint8Array): string {
  const digest = sha256(bytes);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  const parse = files.get(path);
  if (parse === undefined) {
    console.log(`  ${path}: ${bytes.length} bytes, sha256 ${digest}`);
  } else {
    console.log(`  ${path}: ${bytes.length} bytes, ${parse(text, basename(path)).length} entries, sha256 ${digest}`);
  }
  return digest;
}

async function main(): Promise<void> {
  console.log(`Downloading the WPT files of wpt ${commit} …`);
  const paths = [...files.keys(), ...runnerFiles];
  const downloads = await Promise.all(paths.map(async (path) => [path, await download(path)] as const));
  const sums: string[] = [];
  for (const [path, bytes] of downloads) sums.push(`${check(path, bytes)}  ${path}`);
  // Everything checked: now write, each file through a temporary name.
  for (const [path, bytes] of downloads) {
    const target = join(wptRoot, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(`${target}.tmp`, bytes);
    await rename(`${target}.tmp`, target);
  }
  await writeFile(join(wptRoot, "SHA256SUMS"), `${sums.sort((x, y) => x.slice(66).localeCompare(y.slice(66))).join("\n")}\n`);
  console.log(`Done: ${paths.length} files in test/fixtures/wpt/. Now record wpt ${commit} in test/fixtures/wpt/README.md and test/wpt/selection.ts.`);
}

try {
  await main();
} catch (error) {
  console.error(`wpt:update failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
