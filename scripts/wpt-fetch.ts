/**
 * Downloads the web-platform-tests URL data files (wpt `url/resources/*.json`)
 * from a pinned wpt commit into `.wpt/` (git-ignored), for machines that do
 * not have the shared copy in `../shared/wpt/`. The test suites read
 * `../shared/wpt/` first and `.wpt/` otherwise (see test/wpt-data.ts).
 *
 * Usage:
 *
 * ```sh
 * npm run wpt:fetch            # node scripts/wpt-fetch.ts
 * node scripts/wpt-fetch.ts --force              # download again
 * WPT_COMMIT=<40 hex digits> node scripts/wpt-fetch.ts   # another commit (to update the pin)
 * ```
 *
 * Each file is checked: it must parse as JSON in the format the suites
 * expect, and, where this script records its SHA-256 for the commit, match
 * it. `.wpt/SHA256SUMS` and `.wpt/COMMIT` record what was downloaded; a
 * second run with the same commit and intact files downloads nothing.
 *
 * web-platform-tests is under the 3-Clause BSD License; these are its data
 * files, kept byte for byte.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  parsePercentEncodingTestData,
  parseSetterTestData,
  parseToASCIITestData,
  parseURLTestData,
  type WPTFileName,
} from "../test/wpt-data.ts";

/**
 * The pinned wpt commit. It is the commit upa-url/upa (a WHATWG URL library
 * whose test/download-tests.sh fetches these same seven files) pins, so all
 * seven exist there, IdnaTestV2-removed.json included.
 */
const pinnedCommit = "efb889eb4c9ca0b4e3ebd8ab308646b7483a8f54";

/**
 * SHA-256 of each file at a commit, where known: a download that does not
 * match fails. A file without a recorded digest is accepted after its format
 * check, and its digest is printed so that it can be recorded here.
 */
const knownDigests: Readonly<Record<string, Readonly<Partial<Record<WPTFileName, string>>>>> = {
  [pinnedCommit]: {},
};

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
const outDir = join(repoRoot, ".wpt");
const commit = process.env["WPT_COMMIT"] ?? pinnedCommit;
const force = process.argv.includes("--force");

if (!/^[0-9a-f]{40}$/.test(commit)) {
  throw new Error(`WPT_COMMIT must be a full 40-hex-digit commit, got ${JSON.stringify(commit)}`);
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
  const expected = knownDigests[commit]?.[name];
  if (expected !== undefined && expected !== digest) {
    throw new Error(`${name} at wpt ${commit}: SHA-256 ${digest}, expected ${expected}`);
  }
  const cases = files[name](JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown, name);
  console.log(
    `  ${name}: ${bytes.length} bytes, ${cases.length} cases, sha256 ${digest}${expected === undefined ? " (not recorded)" : " (verified)"}`,
  );
  return digest;
}

/** Whether .wpt/ already holds this commit's files, intact. */
async function upToDate(): Promise<boolean> {
  const commitFile = join(outDir, "COMMIT");
  const sumsFile = join(outDir, "SHA256SUMS");
  if (!existsSync(commitFile) || !existsSync(sumsFile)) return false;
  if ((await readFile(commitFile, "utf8")).trim() !== commit) return false;
  const sums = new Map(
    (await readFile(sumsFile, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [digest, name] = line.split(/\s+/);
        return [name, digest] as const;
      }),
  );
  for (const name of Object.keys(files) as WPTFileName[]) {
    const path = join(outDir, name);
    if (!existsSync(path) || sums.get(name) !== sha256(await readFile(path))) return false;
  }
  return true;
}

async function main(): Promise<void> {
  if (!force && (await upToDate())) {
    console.log(`.wpt/ already holds the WPT URL data of wpt ${commit} (use --force to download again).`);
  } else {
    console.log(`Downloading the WPT URL data of wpt ${commit} into .wpt/ …`);
    await mkdir(outDir, { recursive: true });
    const names = Object.keys(files) as WPTFileName[];
    const downloads = await Promise.all(names.map(async (name) => [name, await download(name)] as const));
    const sums: string[] = [];
    for (const [name, bytes] of downloads) sums.push(`${check(name, bytes)}  ${name}`);
    // Everything checked: now write, each file through a temporary name.
    for (const [name, bytes] of downloads) {
      const path = join(outDir, name);
      await writeFile(`${path}.tmp`, bytes);
      await rename(`${path}.tmp`, path);
    }
    await writeFile(join(outDir, "SHA256SUMS"), `${sums.join("\n")}\n`);
    await writeFile(join(outDir, "COMMIT"), `${commit}\n`);
    console.log(`Done: ${names.length} files in .wpt/.`);
    if (existsSync(resolve(repoRoot, "../shared/wpt"))) {
      console.log("Note: ../shared/wpt exists, and the suites read it before .wpt/.");
    }
  }
}

try {
  await main();
} catch (error) {
  console.error(`wpt:fetch failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
