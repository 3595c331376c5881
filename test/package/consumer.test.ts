// The package as its users install it (issue 26): `npm pack`, the tarball installed into temporary projects
// (see packed-package.ts), then what a TypeScript user meets. A file importing every entry point
// (test/fixtures/consumer/entry-points.ts, and its CommonJS twin entry-points.cts) and the README's TypeScript
// blocks are type-checked strictly, without skipLibCheck, under every module setting the README's
// "TypeScript" section lists, with TypeScript's current release (7) and the last 5.x (5.9, still widely used),
// both pinned; the settings the README says cannot work must fail the way it says. Each entry point alone needs
// exactly what the README's table says (nothing, the web streams' types, @types/node, the Jest peers). Every
// entry point loads in Node.js, as an ES module and through require(esm). The tarball holds what the README
// links to, its source maps resolve, and package.json has what a registry page and a bundler read.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/helpers.ts";
import { codeBlocks } from "../readme-blocks.ts";
import { entryPoints, makeProject, type PackedPackage, packPackage, repo } from "./packed-package.ts";

const run = promisify(execFile);

/** The TypeScript releases the projects are checked with, pinned (package.json, and the workspace of the 5.9 one). */
const typescripts = [
  { version: "7.0.2", tsc: path.join(repo, "node_modules/typescript/bin/tsc") },
  { version: "5.9.3", tsc: path.join(repo, "test/fixtures/consumer/typescript-5.9/node_modules/typescript/bin/tsc") },
] as const;
type TypeScriptVersion = (typeof typescripts)[number]["version"];

/** A project's tsconfig: one module setting, strict, no skipLibCheck. */
interface Setup {
  readonly name: string;
  readonly compilerOptions: Readonly<Record<string, unknown>>;
  /** What it checks: the ES module (with the README's blocks, or alone) or the CommonJS one. */
  readonly check: "esm+readme" | "esm" | "cjs";
  readonly typescript: readonly TypeScriptVersion[];
  /** The one error code every import of the file gets, where the README says the setting cannot work. */
  readonly failsWith?: string;
}

const both: readonly TypeScriptVersion[] = ["7.0.2", "5.9.3"];

/**
 * The README's "TypeScript" section, as tsconfig settings. TypeScript 7 checks every one; 5.9 (a JavaScript
 * program, three times slower) the two most projects use, nodenext and bundler, and node10 (below), which 7
 * no longer has.
 */
const setups: readonly Setup[] = [
  { name: "nodenext", compilerOptions: { module: "nodenext" }, check: "esm+readme", typescript: both },
  { name: "node16", compilerOptions: { module: "node16" }, check: "esm+readme", typescript: ["7.0.2"] },
  { name: "bundler", compilerOptions: { module: "esnext", moduleResolution: "bundler" }, check: "esm+readme", typescript: both },
  { name: "preserve", compilerOptions: { module: "preserve" }, check: "esm+readme", typescript: ["7.0.2"] },
  {
    name: "nodenext-strictest",
    compilerOptions: { module: "nodenext", exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noImplicitOverride: true, verbatimModuleSyntax: true },
    check: "esm",
    typescript: ["7.0.2"],
  },
  // CommonJS: TypeScript models Node's require(esm) under nodenext (5.8+) and node20 (5.9+), not under node16.
  { name: "nodenext-cjs", compilerOptions: { module: "nodenext" }, check: "cjs", typescript: ["7.0.2"] },
  { name: "node20-cjs", compilerOptions: { module: "node20" }, check: "cjs", typescript: ["7.0.2"] },
  { name: "node16-cjs", compilerOptions: { module: "node16" }, check: "cjs", typescript: ["7.0.2"], failsWith: "TS1479" },
];

/**
 * What each entry point's types need besides docbase's dependencies: the README's table. "web streams":
 * the types of ReadableStream and TransformStream, from `lib: ["dom"]` (or "webworker") or from @types/node.
 */
const needs: Readonly<Record<string, "nothing" | "web streams" | "@types/node" | "Jest">> = {
  docbase: "web streams",
  "docbase/core": "nothing",
  "docbase/core/utf-8": "nothing",
  "docbase/core/legacy-encodings": "nothing",
  "docbase/document-base": "nothing",
  "docbase/url-utils": "nothing",
  "docbase/jsdom": "nothing",
  "docbase/jsdom/setup": "nothing",
  "docbase/jsdom/jest-environment": "Jest",
  "docbase/links": "web streams",
  "docbase/links/node": "@types/node",
  "docbase/cli": "@types/node",
};

/** What a Node.js project of the README installs for every entry point: @types/node and the Jest environment's peers. */
const nodeProjectInstalls = ["@types/node", "jsdom", "@types/jsdom", "@jest/environment-jsdom-abstract", "@jest/environment"];

const fixtures = path.join(repo, "test/fixtures/consumer");
const readmeBlocks = codeBlocks(readFileSync(path.join(repo, "README.md"), "utf8")).filter((block) => block.lang === "ts");

/** At most two compilers at once: the machine's two cores (the tests start together, see it.concurrent). */
const slots = (() => {
  let free = 2;
  const waiting: (() => void)[] = [];
  return {
    acquire: (): Promise<void> => {
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release: (): void => {
      const next = waiting.shift();
      if (next === undefined) free++;
      else next();
    },
  };
})();

interface Diagnostic {
  readonly file: string;
  readonly code: string;
  readonly text: string;
}

/** Runs a pinned tsc on a project's tsconfig; its diagnostics (none: it passed). */
async function typeCheck(version: TypeScriptVersion, project: string, config: Record<string, unknown>, name: string): Promise<{ diagnostics: Diagnostic[]; output: string }> {
  const file = `tsconfig.${version}.${name}.json`;
  writeFileSync(path.join(project, file), `${JSON.stringify(config, null, 2)}\n`);
  const tsc = typescripts.find((t) => t.version === version)!.tsc;
  let output: string;
  await slots.acquire();
  try {
    const result = await run(process.execPath, [tsc, "-p", file, "--pretty", "false"], { cwd: project, encoding: "utf8" });
    output = result.stdout + result.stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    output = `${failed.stdout ?? ""}${failed.stderr ?? ""}`;
    if (output === "") throw error;
  } finally {
    slots.release();
  }
  const diagnostics = [...output.matchAll(/^(.*?)(?:\(\d+,\d+\))?: error (TS\d+): (.*)$/gm)].map((m) => ({ file: m[1]!, code: m[2]!, text: m[3]! }));
  return { diagnostics, output };
}

/** The strict options every check uses, and no skipLibCheck. */
const strict = { strict: true, noEmit: true, target: "es2022", skipLibCheck: false };

let packed: PackedPackage;
let nodeProject: string;
let bareProject: string;
let readmeFiles: string[];

beforeAll(async () => {
  await ensureBuilt();
  packed = packPackage();
  const blocks = Object.fromEntries(readmeBlocks.map((block) => [`readme/block-${block.line}.ts`, `${block.code}\nexport {};\n`]));
  readmeFiles = Object.keys(blocks);
  nodeProject = makeProject(packed, "node", {
    install: nodeProjectInstalls,
    files: {
      "entry-points.ts": readFileSync(path.join(fixtures, "entry-points.ts"), "utf8"),
      "entry-points.cts": readFileSync(path.join(fixtures, "entry-points.cts"), "utf8"),
      ...blocks,
      ...entryFiles(),
    },
  });
  bareProject = makeProject(packed, "bare", { files: entryFiles() });
}, 180_000);

afterAll(() => packed?.remove());

/** One module per entry point, importing it alone. */
function entryFiles(): Record<string, string> {
  return Object.fromEntries(Object.keys(needs).map((entry) => [entryFile(entry), `import * as entry from "${entry}";\nexport default entry;\n`]));
}

function entryFile(entry: string): string {
  return `entries/${entry.replaceAll("/", "_")}.ts`;
}

describe("the packed package, type-checked as its users' projects check it", () => {
  it("pins the TypeScript releases it checks with", () => {
    for (const { version, tsc } of typescripts) {
      const manifest = JSON.parse(readFileSync(path.join(path.dirname(tsc), "../package.json"), "utf8")) as { version: string };
      expect(manifest.version).toBe(version);
    }
  });

  it("the fixtures import every entry point of package.json, and the README's table covers each", () => {
    const entries = entryPoints(packed.manifest);
    for (const file of ["entry-points.ts", "entry-points.cts"]) {
      const text = readFileSync(path.join(fixtures, file), "utf8");
      for (const entry of entries) expect(text, `${file} imports ${entry}`).toMatch(new RegExp(`^import (.* from )?"${entry}";$`, "m"));
    }
    expect(Object.keys(needs).sort()).toEqual([...entries].sort());
    expect(readmeBlocks.length).toBeGreaterThanOrEqual(5);
  });

  for (const setup of setups) {
    for (const version of setup.typescript) {
      const title = setup.failsWith === undefined ? "passes" : `fails with ${setup.failsWith} on each import, as the README says`;
      it.concurrent(`TypeScript ${version}, ${setup.name}: ${title}`, async () => {
        const files = setup.check === "cjs" ? ["entry-points.cts"] : setup.check === "esm" ? ["entry-points.ts"] : ["entry-points.ts", ...readmeFiles];
        const config = { compilerOptions: { ...strict, ...setup.compilerOptions, types: ["node"] }, files };
        const { diagnostics, output } = await typeCheck(version, nodeProject, config, setup.name);
        if (setup.failsWith === undefined) {
          expect(diagnostics, output).toEqual([]);
        } else {
          const imports = readFileSync(path.join(fixtures, files[0]!), "utf8").match(/^import (.* from )?"docbase[^"]*";$/gm)!;
          expect(diagnostics.map((d) => d.code), output).toEqual(imports.map(() => setup.failsWith));
        }
      }, 180_000);
    }
  }

  // moduleResolution node10 (TypeScript 5.9; 6 deprecates it, 7 removes it) reads no `exports`: typesVersions
  // gives it every entry point. parse5's declarations, which most entry points expose, import `entities/decode`,
  // which node10 cannot resolve: those errors, parse5's, are the only ones (the README says to set skipLibCheck).
  it.concurrent("TypeScript 5.9.3, node10: finds every entry point; the only errors are parse5's entities/decode", async () => {
    const config = { compilerOptions: { ...strict, module: "commonjs", moduleResolution: "node10", types: ["node"] }, files: ["entry-points.ts"] };
    const { diagnostics, output } = await typeCheck("5.9.3", nodeProject, config, "node10");
    expect(diagnostics.length, output).toBeGreaterThan(0);
    for (const d of diagnostics) {
      expect(d.file, output).toMatch(/node_modules\/parse5\/dist\/.*\.d\.ts$/);
      expect(d.text, output).toBe("Cannot find module 'entities/decode' or its corresponding type declarations.");
    }
  }, 180_000);
});

describe("what each entry point's types need (the README's table), TypeScript 7", () => {
  const entriesNeeding = (...kinds: string[]): string[] => Object.keys(needs).filter((entry) => kinds.includes(needs[entry]!));
  const check = (project: () => string, entries: string[], compilerOptions: Record<string, unknown>, name: string) =>
    typeCheck("7.0.2", project(), { compilerOptions: { ...strict, module: "nodenext", ...compilerOptions }, files: entries.map(entryFile) }, name);

  it.concurrent("with nothing installed but docbase: the entry points that need nothing, lib es2022 alone", async () => {
    const { diagnostics, output } = await check(() => bareProject, entriesNeeding("nothing"), { lib: ["es2022"], types: [] }, "nothing");
    expect(diagnostics, output).toEqual([]);
  }, 180_000);

  it.concurrent("with lib dom: the web streams' entry points too", async () => {
    const { diagnostics, output } = await check(() => bareProject, entriesNeeding("nothing", "web streams"), { lib: ["es2022", "dom"], types: [] }, "dom");
    expect(diagnostics, output).toEqual([]);
  }, 180_000);

  for (const entry of entriesNeeding("web streams")) {
    it.concurrent(`without lib dom or @types/node, ${entry} lacks only the web streams' and fetch's types`, async () => {
      const { diagnostics, output } = await check(() => bareProject, [entry], { lib: ["es2022"], types: [] }, `no-streams-${entry.replaceAll("/", "_")}`);
      expect(diagnostics.length, output).toBeGreaterThan(0);
      for (const d of diagnostics) expect(d.text, output).toMatch(/^Cannot find name '(ReadableStream|TransformStream|WritableStream|Response)'/);
    }, 180_000);
  }

  it.concurrent("with @types/node installed, under TypeScript 6+'s default types: [], the Node.js entry points (alone: Jest's types would bring Node's)", async () => {
    const { diagnostics, output } = await check(() => nodeProject, entriesNeeding("@types/node"), { lib: ["es2022"], types: [] }, "node-default-types");
    expect(diagnostics, output).toEqual([]);
  }, 180_000);

  it.concurrent("with @types/node and the Jest peers installed, under types: [], the Jest environment", async () => {
    const { diagnostics, output } = await check(() => nodeProject, entriesNeeding("Jest"), { lib: ["es2022"], types: [] }, "jest-default-types");
    expect(diagnostics, output).toEqual([]);
  }, 180_000);

  for (const entry of entriesNeeding("@types/node")) {
    it.concurrent(`without @types/node, ${entry} says that it needs it`, async () => {
      const { diagnostics, output } = await check(() => bareProject, [entry], { lib: ["es2022"], types: [] }, `no-node-${entry.replaceAll("/", "_")}`);
      expect(diagnostics.map((d) => d.code), output).toContain("TS2688");
      expect(output).toContain("Cannot find type definition file for 'node'");
    }, 180_000);
  }
});

describe("the packed package, loaded by Node.js", () => {
  /** Loads each entry point in the node project; what each gave. */
  async function load(how: "import" | "require"): Promise<Record<string, string>> {
    const entries = JSON.stringify(entryPoints(packed.manifest));
    const script =
      how === "import"
        ? `const r = {}; for (const e of ${entries}) { try { await import(e); r[e] = "ok"; } catch (error) { r[e] = String(error); } } console.log(JSON.stringify(r));`
        : `const r = {}; for (const e of ${entries}) { try { require(e); r[e] = "ok"; } catch (error) { r[e] = String(error); } } console.log(JSON.stringify(r));`;
    const args = how === "import" ? ["--input-type=module", "-e", script] : ["--input-type=commonjs", "-e", script];
    const { stdout } = await run(process.execPath, args, { cwd: nodeProject, encoding: "utf8" });
    return JSON.parse(stdout) as Record<string, string>;
  }

  const expected = (results: Record<string, string>): void => {
    for (const [entry, result] of Object.entries(results)) {
      if (entry === "docbase/jsdom/setup") expect(result).toMatch(/^TypeError: docbase\/jsdom\/setup: there is no global window here/);
      else expect(result, entry).toBe("ok");
    }
  };

  it("imports every entry point (docbase/jsdom/setup: its error for a process without a window)", async () => {
    expected(await load("import"));
  });

  it("requires every entry point (Node's require(esm), 22.12 and later)", async () => {
    expected(await load("require"));
  });
});

describe("the tarball's files", () => {
  it("holds every file the README links to", () => {
    const readme = readFileSync(path.join(packed.dir, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
    expect(links.length).toBeGreaterThan(0);
    for (const target of new Set(links)) expect(packed.files, `README.md links to ${target}`).toContain(path.posix.normalize(target));
    for (const file of ["README.md", "LICENSE", "CHANGELOG.md", "BENCHMARKS.md"]) expect(packed.files).toContain(file);
  });

  it("every source map's sources are in the package or inlined, and every mapped file's map is there", () => {
    const maps = packed.files.filter((file) => file.endsWith(".map"));
    for (const file of maps) {
      const map = JSON.parse(readFileSync(path.join(packed.dir, file), "utf8")) as { sources: string[]; sourceRoot?: string; sourcesContent?: (string | null)[] };
      map.sources.forEach((source, i) => {
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), map.sourceRoot ?? "", source));
        const inlined = typeof map.sourcesContent?.[i] === "string";
        expect(inlined || packed.files.includes(resolved), `${file}: its source ${source} (${resolved}) is in the package or inlined`).toBe(true);
      });
    }
    for (const file of packed.files.filter((f) => /\.(js|d\.ts)$/.test(f))) {
      const mapping = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(path.join(packed.dir, file), "utf8"));
      if (mapping !== null) expect(packed.files, `${file} names its map`).toContain(path.posix.join(path.posix.dirname(file), mapping[1]!));
    }
  });
});

describe("package.json", () => {
  it("says where the project lives, what it is about, and which Node.js it needs", () => {
    const manifest = packed.manifest as Record<string, unknown>;
    for (const field of ["description", "license", "repository", "homepage", "bugs", "keywords", "engines"]) expect(manifest[field], field).toBeDefined();
  });

  it("every export names its types first, then the module", () => {
    for (const [key, target] of Object.entries(packed.manifest.exports)) {
      if (key === "./package.json") continue;
      expect(typeof target, key).toBe("object");
      expect(Object.keys(target as object), key).toEqual(["types", "default"]);
      for (const file of Object.values(target as object) as string[]) expect(existsSync(path.join(packed.dir, file)), `${key}: ${file}`).toBe(true);
    }
  });

  it("every peer dependency is optional", () => {
    const { peerDependencies, peerDependenciesMeta } = packed.manifest;
    for (const peer of Object.keys(peerDependencies)) expect(peerDependenciesMeta[peer]?.optional, peer).toBe(true);
  });
});
