/**
 * Helpers for the command's tests: build the command once (dist/, with
 * the repository's tsc), run it as a subprocess, and make temporary sites.
 */

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const main = path.join(repo, "dist/cli/main.js");
export const exampleSite = path.join(repo, "examples/site");

/** A fingerprint of src/ (paths, sizes, modification times): the build is redone when it changes. */
function sourceFingerprint(): string {
  const hash = createHash("sha256");
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const s = statSync(full);
        hash.update(`${full}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  walk(path.join(repo, "src"));
  hash.update(readFileSync(path.join(repo, "tsconfig.build.json")));
  return hash.digest("hex");
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Builds dist/ with `tsc -p tsconfig.build.json` unless the sources are
 * unchanged since the last build: once for all the test files, which run
 * in parallel (a lock directory serializes them; the others wait).
 */
export async function ensureBuilt(): Promise<void> {
  const key = createHash("sha256").update(repo).digest("hex").slice(0, 16);
  const stamp = path.join(os.tmpdir(), `docbase-cli-build-${key}.stamp`);
  const lock = `${stamp}.lock`;
  const fingerprint = sourceFingerprint();
  const built = (): boolean => existsSync(stamp) && readFileSync(stamp, "utf8") === fingerprint && existsSync(main);
  for (let waited = 0; ; waited += 100) {
    if (built()) return;
    try {
      mkdirSync(lock);
    } catch {
      // A lock older than two minutes is a crashed run's.
      if (waited > 120_000) rmdirSync(lock);
      await sleep(100);
      continue;
    }
    try {
      if (built()) return;
      const tsc = spawnSync(path.join(repo, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: repo, encoding: "utf8" });
      if (!existsSync(main)) throw new Error(`the build did not produce ${main}:\n${tsc.stdout}${tsc.stderr}`);
      writeFileSync(stamp, fingerprint);
      return;
    } finally {
      rmdirSync(lock);
    }
  }
}

export interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link docbaseBytes}. */
export interface RunOptions {
  /** Standard input: all of it, or pieces written `delay` ms apart. */
  readonly input?: string | Uint8Array | readonly (string | Uint8Array)[];
  readonly delay?: number;
  /** Flags for node before the script (`--max-old-space-size=160`). */
  readonly nodeArgs?: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** Runs `node ...nodeArgs dist/cli/main.js ...args` with `input` on standard input; standard output as bytes. */
export function docbaseBytes(args: readonly string[], options: RunOptions = {}): Promise<Omit<Run, "stdout"> & { readonly stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), main, ...args], {
      cwd: options.cwd ?? repo,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }));
    // A command that stops reading early (an error) must not fail the test with EPIPE.
    child.stdin.on("error", () => {});
    const input = options.input ?? "";
    if (typeof input === "string" || input instanceof Uint8Array) {
      child.stdin.end(input);
      return;
    }
    void (async () => {
      for (const piece of input) {
        child.stdin.write(piece);
        if ((options.delay ?? 0) > 0) await new Promise((r) => setTimeout(r, options.delay));
      }
      child.stdin.end();
    })();
  });
}

/** Runs `node dist/cli/main.js ...args`, with `input` on standard input. */
export async function docbase(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  const run = await docbaseBytes(args, options);
  return { ...run, stdout: run.stdout.toString("utf8") };
}

/** The findings of `check --json`: its JSON lines without the summary object that ends them (which must be there, once, last). */
export function findingsOf(stdout: string): Record<string, unknown>[] {
  const lines = jsonLines(stdout);
  const last = lines.pop();
  if (last?.["type"] !== "summary" || lines.some((l) => l["type"] === "summary")) throw new Error(`check --json must end with one summary object: ${stdout.slice(-300)}`);
  return lines;
}

/** The JSON lines of a run's standard output. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A new temporary directory; removed by {@link cleanup}. */
const made: string[] = [];
export function temporaryDirectory(prefix = "docbase-cli-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanup(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes the files of `tree` (relative path → content) under `dir`. */
export function writeTree(dir: string, tree: Readonly<Record<string, string | Uint8Array>>): string {
  for (const [rel, content] of Object.entries(tree)) {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

/** Every file under `dir` (relative paths, "/"-separated, sorted) with its bytes. */
export function readTree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string, rel: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const r = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path.join(d, entry.name), r);
      else files.set(r, readFileSync(path.join(d, entry.name)));
    }
  };
  walk(dir, "");
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}
