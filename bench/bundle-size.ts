/**
 * Question: how many bytes does each entry point of docbase add to a
 * bundle, and how does that compare with whatwg-url's?
 *
 * Method: for each row, a one-line module importing the entry point (all of
 * it, `export * from "docbase/…"`, or the names a typical caller uses) is
 * bundled by esbuild as a user's bundler would: minified, ES module output,
 * tree-shaken through package.json `exports` and `sideEffects`, platform
 * "browser" for what runs in a page or a worker, "node" for the entry points
 * that only run in Node.js (their peers, jsdom and Jest, left external).
 * The figures are the minified bundle's bytes and its gzip -9 bytes. docbase
 * is the repository's build (dist/, through the package's own exports: run
 * `npm run build` first); whatwg-url is the devDependency's installed copy.
 * Bundle sizes do not move from run to run: one run is the figure.
 *
 *   node_modules/.bin/node bench/bundle-size.ts [--inputs]
 *
 * `--inputs` also lists, for the `parseURL` rows, the inputs that weigh
 * most in the bundle (esbuild's metafile).
 *
 * @module
 */

import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface Row {
  /** What the bundle imports, as the table says it. */
  readonly label: string;
  /** The module esbuild bundles. */
  readonly source: string;
  readonly platform: "browser" | "node";
  /** Packages left out of the bundle (peers a Node.js user installs). */
  readonly external?: readonly string[];
}

/** `globalThis.keep` keeps the named imports alive, as a caller's use of them would. */
const use = (names: string, from: string): string => `import { ${names} } from "${from}"; globalThis.keep = [${names}];`;

const peers = ["jsdom", "@jest/environment-jsdom-abstract"];

const rows: readonly Row[] = [
  { label: "`parseURL`, `serializeURL` from `docbase/core/utf-8`", source: use("parseURL, serializeURL", "docbase/core/utf-8"), platform: "browser" },
  { label: "`parseURL`, `serializeURL` from `docbase/core`", source: use("parseURL, serializeURL", "docbase/core"), platform: "browser" },
  { label: "`parseURL`, `serializeURL` from `docbase`", source: use("parseURL, serializeURL", "docbase"), platform: "browser" },
  { label: "`parseURL`, `serializeURL` from whatwg-url", source: use("parseURL, serializeURL", "whatwg-url"), platform: "browser" },
  { label: "`URL` from `docbase/core/utf-8`", source: use("URL", "docbase/core/utf-8"), platform: "browser" },
  { label: "`URL` from whatwg-url", source: use("URL", "whatwg-url"), platform: "browser" },
  { label: "`docbase/core/utf-8` (all of it)", source: 'export * from "docbase/core/utf-8";', platform: "browser" },
  { label: "`docbase/core/legacy-encodings` (alone)", source: 'import "docbase/core/legacy-encodings";', platform: "browser" },
  { label: "`docbase/core` (all of it)", source: 'export * from "docbase/core";', platform: "browser" },
  { label: "whatwg-url (all of it)", source: 'export * from "whatwg-url";', platform: "browser" },
  { label: "`docbase/document-base`", source: 'export * from "docbase/document-base";', platform: "browser" },
  { label: "`docbase/url-utils`", source: 'export * from "docbase/url-utils";', platform: "browser" },
  { label: "`extractLinks` from `docbase/links`", source: use("extractLinks", "docbase/links"), platform: "browser" },
  { label: "`docbase/links`", source: 'export * from "docbase/links";', platform: "browser" },
  { label: "`docbase` (all of it)", source: 'export * from "docbase";', platform: "browser" },
  { label: "`docbase/jsdom`", source: 'export * from "docbase/jsdom";', platform: "node", external: peers },
  { label: "`docbase/jsdom/setup`", source: 'export * from "docbase/jsdom/setup";', platform: "node", external: peers },
  { label: "`docbase/jsdom/jest-environment`", source: 'export { default } from "docbase/jsdom/jest-environment";', platform: "node", external: peers },
  { label: "`docbase/links/node`", source: 'export * from "docbase/links/node";', platform: "node" },
  { label: "`docbase/cli`", source: 'export * from "docbase/cli";', platform: "node" },
];

/**
 * One bundle's size: minified bytes, gzip -9 bytes, and esbuild's metafile
 * (what each input contributed).
 *
 * @example
 * ```ts
 * const size: BundleSize = await bundleSize('export * from "docbase/core";', repo, "browser");
 * size.gzip < size.minified; // true
 * ```
 */
export interface BundleSize {
  readonly minified: number;
  readonly gzip: number;
  readonly metafile: Metafile;
}

/**
 * Bundles `source` (resolved from `resolveDir`) as a user's bundler would and
 * measures it.
 *
 * @example
 * ```ts
 * const { minified, gzip } = await bundleSize('import { parseURL } from "docbase/core/utf-8"; globalThis.keep = parseURL;', repo, "browser");
 * ```
 */
export async function bundleSize(source: string, resolveDir: string, platform: "browser" | "node", external: readonly string[] = []): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: source, resolveDir, sourcefile: "entry.js", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform,
    external: [...external],
    write: false,
    metafile: true,
    logLevel: "error",
  });
  const bytes = result.outputFiles[0]!.contents;
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, metafile: result.metafile };
}

/** The inputs that weigh most in a bundle, as "bytes path" lines. */
function heaviestInputs(metafile: Metafile, count: number): string[] {
  const output = Object.values(metafile.outputs)[0]!;
  return Object.entries(output.inputs)
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, count)
    .map(([file, input]) => `    ${String(input.bytesInOutput).padStart(7)}  ${file}`);
}

const kB = (bytes: number): string => (bytes / 1000).toFixed(1);

async function main(): Promise<void> {
  if (!existsSync(path.join(repo, "dist/core/index.js"))) {
    console.error("bench/bundle-size.ts measures the build: run `npm run build` first");
    process.exit(2);
  }
  const showInputs = process.argv.includes("--inputs");
  const { version: esbuildVersion } = await import("esbuild");
  console.log(`esbuild ${esbuildVersion}, minified, ES module output; gzip -9. kB = 1,000 bytes.\n`);
  console.log("| import | platform | minified | gzipped |");
  console.log("|---|---|---:|---:|");
  const details: string[] = [];
  for (const row of rows) {
    const size = await bundleSize(row.source, repo, row.platform, row.external);
    const platform = row.external === undefined ? row.platform : `${row.platform} (${row.external.join(", ")} external)`;
    console.log(`| ${row.label} | ${platform} | ${kB(size.minified)} kB | ${kB(size.gzip)} kB |`);
    if (showInputs && row.label.startsWith("`parseURL`")) details.push(`${row.label}:`, ...heaviestInputs(size.metafile, 8));
  }
  if (details.length > 0) console.log(`\nHeaviest inputs (bytes in the minified bundle):\n${details.join("\n")}`);
}

if (import.meta.main) await main();
