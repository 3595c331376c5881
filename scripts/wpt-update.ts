/**
 * Refreshes the vendored web-platform-tests files from one wpt commit: the URL
 * data files (`test/fixtures/wpt/url/resources/*.json`) and the test pages,
 * scripts and resources the jsdom runner needs (test/wpt/selection.ts's
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
 * Every file is downloaded first and checked (a data file must parse in the
 * format the suites expect, a runner file must be UTF-8 text); only when all
 * are good are they written, each through a temporary name, and
 * `test/fixtures/wpt/SHA256SUMS` rewritten. Then update the pin table in
 * test/fixtures/wpt/README.md and `runnerWPTCommit` in test/wpt/selection.ts,
 * run `npm test` (`node test/wpt/report.ts --write` rewrites the runner's
 * expectations, whose new failures then need their cause), and commit the
 * data change on its own.
 *
 * web-platform-tests is under the 3-Clause BSD License
 * (test/fixtures/wpt/LICENSE.md); these are its data files, kept byte for byte.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import {
  parsePercentEncodingTestData,
  parseSetterTestData,
  parseToASCIITestData,
  parseURLTestData,
  type WPTFileName,
} from "../test/wpt-data.ts";
import { runnerFiles } from "../test/wpt/selection.ts";

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

/** Checks one file's bytes (by its WPT path); returns its digest. */
function check(path: string, bytes: Uint8Array): string {
  const digest = sha256(bytes);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  const name = path.slice("url/resources/".length) as WPTFileName;
  if (path.startsWith("url/resources/") && name in files) {
    const cases = files[name](JSON.parse(text) as unknown, name);
    console.log(`  ${path}: ${bytes.length} bytes, ${cases.length} cases, sha256 ${digest}`);
  } else {
    console.log(`  ${path}: ${bytes.length} bytes, sha256 ${digest}`);
  }
  return digest;
}

async function main(): Promise<void> {
  console.log(`Downloading the WPT files of wpt ${commit} …`);
  const paths = [...(Object.keys(files) as WPTFileName[]).map((name) => `url/resources/${name}`), ...runnerFiles];
  const downloads = await Promise.all(paths.map(async (path) => [path, await download(path)] as const));
  const sums: string[] = [];
  for (const [path, bytes] of downloads) sums.push(`${check(path, bytes)}  ${path}`);
  // Everything checked: now write, each file through a temporary name.
  for (const [path, bytes] of downloads) {
    const file = join(wptRoot, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(`${file}.tmp`, bytes);
    await rename(`${file}.tmp`, file);
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
