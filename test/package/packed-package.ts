/**
 * The package as its users install it, for the tests of test/package/: the
 * tarball `npm pack` makes of the built repository, unpacked, and temporary
 * projects that have it in their node_modules.
 *
 * A project is laid out as `npm install <tarball>` lays one out, without the
 * network: docbase is a copy of the unpacked tarball in node_modules/docbase,
 * and every other package (docbase's dependencies, and what the project
 * itself installs: @types/node, the peers) is a symbolic link to the
 * repository's installed copy. The projects live in the system's temporary
 * directory, away from the repository, so that nothing else resolves: a
 * package docbase needs but does not declare is missing there, as it is for
 * a user.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The repository's root (what `npm pack` packs).
 *
 * @example
 * ```ts
 * path.join(repo, "package.json");
 * ```
 */
export const repo = path.resolve(import.meta.dirname, "../..");

/**
 * The fields of package.json these tests read.
 *
 * @example
 * ```ts
 * const { exports, sideEffects }: Manifest = packed.manifest;
 * ```
 */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly exports: Record<string, string | { readonly types: string; readonly default: string }>;
  readonly dependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly peerDependenciesMeta: Record<string, { readonly optional?: boolean }>;
  readonly sideEffects: readonly string[];
  readonly files: readonly string[];
  readonly [field: string]: unknown;
}

/**
 * The packed tarball and what it unpacks to.
 *
 * @example
 * ```ts
 * const packed: PackedPackage = packPackage();
 * packed.manifest.name; // "docbase"
 * ```
 */
export interface PackedPackage {
  /** The temporary directory everything lives in (removed by `remove`). */
  readonly root: string;
  /** The tarball `npm pack` wrote. */
  readonly tarball: string;
  /** The tarball unpacked: what `node_modules/docbase` holds after an install. */
  readonly dir: string;
  /** Its package.json. */
  readonly manifest: Manifest;
  /** Every file in the tarball, as a path relative to `dir` with "/" separators. */
  readonly files: readonly string[];
  /** Removes the temporary directory. */
  remove(): void;
}

/**
 * Packs the repository with `npm pack` (the build is the caller's: see
 * `ensureBuilt` in test/cli/helpers.ts; `--ignore-scripts` keeps prepack from
 * rebuilding dist/ under the other test files' feet) and unpacks the tarball.
 *
 * @example
 * ```ts
 * const packed = packPackage();
 * packed.files.includes("dist/index.js"); // true
 * packed.remove();
 * ```
 */
export function packPackage(): PackedPackage {
  const root = mkdtempSync(path.join(tmpdir(), "docbase-package-"));
  const pack = spawnSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", root], { cwd: repo, encoding: "utf8" });
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stdout}\n${pack.stderr}`);
  const [report] = JSON.parse(pack.stdout) as [{ filename: string }];
  const tarball = path.join(root, report.filename);
  const unpacked = path.join(root, "unpacked");
  mkdirSync(unpacked);
  const tar = spawnSync("tar", ["-xzf", tarball, "-C", unpacked], { encoding: "utf8" });
  if (tar.status !== 0) throw new Error(`tar could not unpack ${tarball}:\n${tar.stderr}`);
  const dir = path.join(unpacked, "package");
  return {
    root,
    tarball,
    dir,
    manifest: JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest,
    files: listFiles(dir),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

function listFiles(dir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...listFiles(dir, relative));
    else files.push(relative);
  }
  return files.sort();
}

/**
 * What a temporary project installs and holds besides docbase.
 *
 * @example
 * ```ts
 * const options: ProjectOptions = { install: ["@types/node"], files: { "index.ts": 'import "docbase";' } };
 * ```
 */
export interface ProjectOptions {
  /** The project's package.json (default: an ES module package). */
  readonly packageJson?: Record<string, unknown>;
  /**
   * The packages the project installs besides docbase, linked from the
   * repository's node_modules (docbase's own dependencies always are).
   */
  readonly install?: readonly string[];
  /** Its files, by path relative to the project. */
  readonly files?: Readonly<Record<string, string>>;
}

/**
 * A temporary project with docbase installed from the tarball, as
 * `npm install docbase` (plus `options.install`) leaves one.
 *
 * @example
 * ```ts
 * const project = makeProject(packed, "node", { install: ["@types/node"], files: { "index.ts": 'import "docbase";' } });
 * ```
 */
export function makeProject(packed: PackedPackage, name: string, options: ProjectOptions = {}): string {
  const project = path.join(packed.root, name);
  const modules = path.join(project, "node_modules");
  mkdirSync(modules, { recursive: true });
  cpSync(packed.dir, path.join(modules, "docbase"), { recursive: true });
  for (const dependency of [...Object.keys(packed.manifest.dependencies), ...(options.install ?? [])]) {
    const installed = realpathSync(path.join(repo, "node_modules", dependency));
    if (!statSync(installed).isDirectory()) throw new Error(`${dependency} is not installed in the repository`);
    const link = path.join(modules, dependency);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(installed, link, "dir");
  }
  writeFileSync(path.join(project, "package.json"), `${JSON.stringify(options.packageJson ?? { name, private: true, type: "module" }, null, 2)}\n`);
  for (const [file, text] of Object.entries(options.files ?? {})) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), text);
  }
  return project;
}

/**
 * The entry points of package.json `exports`, as a user imports them, package.json left out.
 *
 * @example
 * ```ts
 * entryPoints(packed.manifest).slice(0, 2); // ["docbase", "docbase/core"]
 * ```
 */
export function entryPoints(manifest: Manifest): string[] {
  return Object.keys(manifest.exports)
    .filter((key) => key !== "./package.json")
    .map((key) => (key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}
