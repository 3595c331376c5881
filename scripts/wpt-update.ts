/**
 * Refreshes the vendored web-platform-tests URL data files
 * (`test/fixtures/wpt/url/resources/*.json`) from one wpt commit. It is run by
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
import { join, resolve } from "node:path";
import {
  parsePercentEncodingTestData,
  parseSetterTestData,
  parseToASCIITestData,
  parseURLTestData,
  type WPTFileName,
} from "../test/wpt-data.ts";

/** Each file, with the check of its format (the same parser the suites use). */
const files: Readonly<Record<WPTFileName, (json: unknown, name: string) => unknown[]>> = {
  "urltestdata.json": parseURLTestData,
  "urltestdata-javascript-only.json": parseURLTestData,
  "setters_tests.json": parseSetterTestData,
  "toascii.json": parseToASCIITestData,
  "percent-encoding.json": parsePercentEncodingTestData,
  "IdnaTestV2.json": parseToASCIITestData,
  "IdnaTestV2-removed.json": parseToASCIITestData,
};

const repoRoot = resolve(import.meta.dirname, "..");
const wptRoot = join(repoRoot, "test/fixtures/wpt");
const outDir = join(wptRoot, "url/resources");
const commit = process.argv[2] ?? "";

if (!/^[0-9a-f]{40}$/.test(commit)) {
  console.error("usage: npm run wpt:update -- <40-hex wpt commit>");
  process.exit(2);
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function urlOf(name: WPTFileName): string {
  return `https://raw.githubusercontent.com/web-platform-tests/wpt/${commit}/url/resources/${name}`;
}

async function download(name: WPTFileName): Promise<Uint8Array> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const response = await fetch(urlOf(name), { signal: AbortSignal.timeout(60_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      lastError = error;
      if (error instanceof Error && error.message.startsWith("HTTP 404")) break;
    }
  }
  throw new Error(`Could not download ${urlOf(name)}: ${String(lastError)}`);
}

/** Checks one file's bytes; returns its digest. */
function check(name: WPTFileName, bytes: Uint8Array): string {
  const digest = sha256(bytes);
  const cases = files[name](JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown, name);
  console.log(
    `  ${name}: ${bytes.length} bytes, ${cases.length} cases, sha256 ${digest}`,
  );
  return digest;
}

async function main(): Promise<void> {
  console.log(`Downloading the WPT URL data of wpt ${commit} …`);
  const names = Object.keys(files) as WPTFileName[];
  const downloads = await Promise.all(names.map(async (name) => [name, await download(name)] as const));
  const sums: string[] = [];
  for (const [name, bytes] of downloads) sums.push(`${check(name, bytes)}  url/resources/${name}`);
  // Everything checked: now write, each file through a temporary name.
  await mkdir(outDir, { recursive: true });
  for (const [name, bytes] of downloads) {
    const path = join(outDir, name);
    await writeFile(`${path}.tmp`, bytes);
    await rename(`${path}.tmp`, path);
  }
  await writeFile(join(wptRoot, "SHA256SUMS"), `${sums.sort((x, y) => x.slice(66).localeCompare(y.slice(66))).join("\n")}\n`);
  console.log(`Done: ${names.length} files in test/fixtures/wpt/url/resources/. Now record wpt ${commit} in test/fixtures/wpt/README.md.`);
}

try {
  await main();
} catch (error) {
  console.error(`wpt:update failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
