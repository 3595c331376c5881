// The packed package bundled as a bundler builds it (issue 26): esbuild, from a project that installed the
// tarball, reading its package.json `exports` and `sideEffects`. A module a bundler believes free of side effects
// is dropped when none of its exports is used, and so is every bare `import "./x.js"` of a module believed free
// of them: `sideEffects` must name every module whose evaluation matters, and the entry points that import
// them. So each bundle is run, and what must run does: the Node.js version check of every entry point, the
// legacy encoders of `docbase/core` (registered on import), the install of `docbase/jsdom/setup` and its guard
// for a window without TextEncoder. And the size budget: `parseURL` of UTF-8 URLs alone (`docbase/core/utf-8`)
// is at most whatwg-url's bundle, and holds no legacy encoder.
import vm from "node:vm";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/helpers.ts";
import { makeProject, type PackedPackage, packPackage } from "./packed-package.ts";

let packed: PackedPackage;
let project: string;

beforeAll(async () => {
  await ensureBuilt();
  packed = packPackage();
  project = makeProject(packed, "bundler", { install: ["whatwg-url", "jsdom", "@jest/environment-jsdom-abstract"] });
}, 120_000);

afterAll(() => packed?.remove());

interface Bundle {
  readonly code: string;
  readonly minified: number;
  readonly gzip: number;
  readonly metafile: Metafile;
}

/** Bundles `source` in the project: as a script (iife, or cjs for Node), minified or not. */
async function bundle(source: string, options: { platform?: "browser" | "node"; minify?: boolean; external?: string[] } = {}): Promise<Bundle> {
  const platform = options.platform ?? "browser";
  const result = await build({
    stdin: { contents: source, resolveDir: project, sourcefile: "entry.js", loader: "js" },
    bundle: true,
    minify: options.minify ?? false,
    format: platform === "browser" ? "iife" : "cjs",
    platform,
    external: options.external ?? [],
    write: false,
    metafile: true,
    logLevel: "error",
  });
  const bytes = result.outputFiles[0]!.contents;
  return { code: result.outputFiles[0]!.text, minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, metafile: result.metafile };
}

/** Runs a bundle in a fresh realm with `globals`; what it threw, or undefined. */
function runIn(code: string, globals: Record<string, unknown>): unknown {
  const context = vm.createContext({ TextEncoder, TextDecoder, ...globals });
  try {
    new vm.Script(code).runInContext(context);
    return undefined;
  } catch (error) {
    return error;
  }
}

/** One name each entry point's users import, so that a bundler keeps what that name needs and nothing more. */
const usedName: Readonly<Record<string, { names: string; platform: "browser" | "node" }>> = {
  docbase: { names: "parseURL", platform: "browser" },
  "docbase/core": { names: "parseURL", platform: "browser" },
  "docbase/core/utf-8": { names: "parseURL", platform: "browser" },
  "docbase/document-base": { names: "createDocumentContext", platform: "browser" },
  "docbase/url-utils": { names: "hyperlink", platform: "browser" },
  "docbase/jsdom": { names: "install", platform: "browser" },
  "docbase/links": { names: "extractLinks", platform: "browser" },
  "docbase/links/node": { names: "createLinkRewriterNodeStream", platform: "node" },
  "docbase/cli": { names: "run", platform: "node" },
};

const peers = ["jsdom", "@jest/environment-jsdom-abstract"];
const oldNode = "docbase needs Node.js 22.14 or later (package.json engines: ^22.14.0 || >=24.0.0); this is Node.js 20.20.2.";

describe("sideEffects: what must run, runs in a bundle", () => {
  for (const [entry, { names, platform }] of Object.entries(usedName)) {
    it(`{ ${names} } from "${entry}": the Node.js version check`, async () => {
      const { code } = await bundle(`import { ${names} } from "${entry}"; globalThis.keep = ${names};`, { platform });
      const error = runIn(code, { process: { versions: { node: "20.20.2" } }, require: createRequire(import.meta.url) }) as Error | undefined;
      expect(error?.message).toBe(oldNode);
      const current = platform === "node" ? { process, Buffer, require: createRequire(import.meta.url) } : {};
      expect(runIn(code, current), "and on a supported runtime (or none), it loads").toBeUndefined();
    });
  }

  it('the default export of "docbase/jsdom/jest-environment": the Node.js version check', async () => {
    const { code } = await bundle('import Environment from "docbase/jsdom/jest-environment"; globalThis.keep = Environment;', { platform: "node", external: peers });
    const error = runIn(code, { process: { versions: { node: "20.20.2" } }, require: createRequire(`${project}/`) }) as Error | undefined;
    expect(error?.message).toBe(oldNode);
  });

  it('{ parseURL } from "docbase/core" and from "docbase": the legacy encoders (registered on import)', async () => {
    for (const entry of ["docbase/core", "docbase"]) {
      const { code } = await bundle(`import { parseURL, serializeURL } from "${entry}";
        globalThis.result = serializeURL(parseURL("?q=é", { base: "https://example.com/", encoding: "windows-1252" }));`);
      const context = vm.createContext({ TextEncoder, TextDecoder });
      new vm.Script(code).runInContext(context);
      expect(context["result"], entry).toBe("https://example.com/?q=%E9");
    }
  });

  it('"docbase/core/utf-8" throws for a legacy encoding, and has the encoders once "docbase/core/legacy-encodings" is imported', async () => {
    const parse = 'serializeURL(parseURL("?q=é", { base: "https://example.com/", encoding: "windows-1252" }))';
    const lean = await bundle(`import { parseURL, serializeURL } from "docbase/core/utf-8"; globalThis.result = ${parse};`);
    const error = runIn(lean.code, {}) as Error | undefined;
    expect(error?.name).toBe("LegacyEncodingUnavailableError");
    expect(error?.message).toContain("windows-1252");
    const added = await bundle(`import { parseURL, serializeURL } from "docbase/core/utf-8"; import "docbase/core/legacy-encodings"; globalThis.result = ${parse};`);
    const context = vm.createContext({ TextEncoder, TextDecoder });
    new vm.Script(added.code).runInContext(context);
    expect(context["result"]).toBe("https://example.com/?q=%E9");
  });

  it('"docbase/jsdom/setup": installs docbase into the window it is bundled into', async () => {
    const { code } = await bundle('import { installation } from "docbase/jsdom/setup"; globalThis.docbaseInstallation = installation;');
    const dom = new JSDOM('<base href="/forms/"><form><button formaction="send">go</button></form>', { url: "https://example.com/", runScripts: "outside-only" });
    const { window } = dom;
    expect((window.document.querySelector("button") as unknown as { formAction?: string }).formAction, "plain jsdom has no formAction").toBeUndefined();
    window.eval(code);
    expect((window as unknown as { docbaseInstallation?: unknown }).docbaseInstallation).toBeDefined();
    expect((window.document.querySelector("button") as unknown as { formAction: string }).formAction).toBe("https://example.com/forms/send");
    window.close();
  });

  it('"docbase/jsdom/setup": in a window without TextEncoder, its guard says which environment to use', async () => {
    const { code } = await bundle('import "docbase/jsdom/setup";');
    const window = { document: {} };
    const context = vm.createContext({ window });
    let error: Error | undefined;
    try {
      new vm.Script(code).runInContext(context);
    } catch (thrown) {
      error = thrown as Error;
    }
    expect(error?.message).toMatch(/^docbase\/jsdom\/setup: this window has no TextEncoder\/TextDecoder/);
  });

  it("tree shaking still works through the entry points: parseURL from the root is parseURL from docbase/core", async () => {
    const fromCore = await bundle('import { parseURL } from "docbase/core"; globalThis.keep = parseURL;', { minify: true });
    const fromRoot = await bundle('import { parseURL } from "docbase"; globalThis.keep = parseURL;', { minify: true });
    expect(fromRoot.minified - fromCore.minified).toBeLessThan(2_000);
    expect(inputs(fromRoot.metafile).some((file) => /parse5|jsdom\/install|links\//.test(file))).toBe(false);
  });
});

/** The files a bundle took code from. */
function inputs(metafile: Metafile): string[] {
  return Object.entries(Object.values(metafile.outputs)[0]!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
}

describe("size budget (BENCHMARKS.md, Bundle size)", () => {
  it("parseURL and serializeURL of UTF-8 URLs (docbase/core/utf-8) bundle to at most whatwg-url's, with no legacy encoder", async () => {
    const lean = await bundle('import { parseURL, serializeURL } from "docbase/core/utf-8"; globalThis.keep = [parseURL, serializeURL];', { minify: true });
    const whatwg = await bundle('import { parseURL, serializeURL } from "whatwg-url"; globalThis.keep = [parseURL, serializeURL];', { minify: true });
    expect(lean.minified).toBeLessThanOrEqual(whatwg.minified);
    expect(lean.gzip).toBeLessThanOrEqual(whatwg.gzip);
    const files = inputs(lean.metafile);
    expect(files.filter((file) => /legacy-encoding|encoding-indexes|@exodus\/bytes/.test(file))).toEqual([]);
  });

  it("the legacy encoders are most of the difference between docbase/core and docbase/core/utf-8", async () => {
    const full = await bundle('import { parseURL, serializeURL } from "docbase/core"; globalThis.keep = [parseURL, serializeURL];', { minify: true });
    const lean = await bundle('import { parseURL, serializeURL } from "docbase/core/utf-8"; globalThis.keep = [parseURL, serializeURL];', { minify: true });
    expect(full.minified - lean.minified).toBeGreaterThan(150_000);
  });
});
