// On a Node.js older than `engines`, the library and the command stop with one sentence naming the version
// they need. The old Node is simulated in a child process of the pinned Node by redefining process.versions.node
// before anything of docbase loads (it is configurable), so the real entry points are what is checked.
import { spawnSync } from "node:child_process";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { unsupportedNodeMessage } from "../../src/core/runtime-support.ts";

const root = resolve(import.meta.dirname, "../..");
const scratch = mkdtempSync(join(tmpdir(), "docbase-runtime-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function pretendNode(version: string): string {
  const preload = join(scratch, `node-${version}.mjs`);
  writeFileSync(preload, `Object.defineProperty(process.versions, "node", { value: ${JSON.stringify(version)} });\n`);
  return pathToFileURL(preload).href;
}

const sentence = (version: string): string =>
  `docbase needs Node.js 22.14 or later (package.json engines: ^22.14.0 || >=24.0.0); this is Node.js ${version}.`;

describe("unsupportedNodeMessage", () => {
  it("names the version needed on Node 20, 22.13 and 18", () => {
    for (const version of ["20.20.2", "22.13.1", "18.0.0", "21.7.3"]) expect(unsupportedNodeMessage({ node: version })).toBe(sentence(version));
  });
  it("passes 22.14 and later", () => {
    for (const version of ["22.14.0", "22.20.1", "23.0.0", "24.9.0", "26.1.0"]) expect(unsupportedNodeMessage({ node: version })).toBeUndefined();
  });
  it("leaves other runtimes alone (Bun and Deno report a Node compatibility version of their own; browsers none)", () => {
    expect(unsupportedNodeMessage({ node: "20.0.0", bun: "1.2.0" })).toBeUndefined();
    expect(unsupportedNodeMessage({ node: "20.0.0", deno: "2.1.0" })).toBeUndefined();
    expect(unsupportedNodeMessage({})).toBeUndefined();
  });
});

describe("on an old Node.js", () => {
  const entries = ["src/index.ts", "src/core/index.ts", "src/core/utf-8.ts", "src/core/legacy-encodings.ts", "src/document-base/index.ts", "src/url-utils/index.ts", "src/links/index.ts", "src/jsdom/index.ts", "src/cli/index.ts"];

  for (const entry of entries) {
    it(`importing ${entry} throws UnsupportedRuntimeError with the sentence`, () => {
      const program = `import(${JSON.stringify(pathToFileURL(join(root, entry)).href)}).then(() => console.log("loaded"), (e) => console.log(e.name + ": " + e.message));`;
      const run = spawnSync(process.execPath, ["--import", pretendNode("20.20.2"), "--input-type=module", "-e", program], { encoding: "utf8" });
      expect(run.stdout.trim()).toBe(`UnsupportedRuntimeError: ${sentence("20.20.2")}`);
    });
  }

  it("the command prints the one sentence and exits with 2", () => {
    const run = spawnSync(process.execPath, ["--import", pretendNode("20.20.2"), join(root, "src/cli/main.ts"), "links", "examples/site", "--url", "https://example.com/"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`${sentence("20.20.2")}\n`);
  });

  it("and on a supported one, the command runs", () => {
    const run = spawnSync(process.execPath, ["--import", pretendNode("22.14.0"), join(root, "src/cli/main.ts"), "links", "examples/site/index.html", "--url", "https://example.com/"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(0);
  });
});
