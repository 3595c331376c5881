/**
 * The README's code blocks are tests, so the README cannot go stale:
 *
 * - every ```ts block runs as a module of its own, with docbase's modules
 *   fresh (`docbase/…` imports map to the src/ file each entry point is built
 *   from), and each one-line expression statement followed by a comment that
 *   is a JavaScript literal (`expr; // "value"`, or the literal on the lines
 *   after it, optionally followed by " — prose") must evaluate to that value
 *   (test/package/consumer.test.ts type-checks the same blocks, strictly, in a
 *   project that installed the packed package);
 * - the sample output under "Quick start" is what `npm start` prints (each
 *   line a prefix of an output line: timings vary);
 * - every option of the command's synopsis is one `docbase <command> --help`
 *   lists;
 * - the install command names the package, the quick-start commands are the
 *   package's scripts, and the test-framework
 *   configuration is the one the Vitest and Jest fixture projects use;
 * - no block is left unchecked.
 *
 * @module
 */

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Block, codeBlocks } from "./readme-blocks.ts";

const root = resolve(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

function blocks(): Block[] {
  return codeBlocks(readme);
}

/** The value a comment states, or undefined when the comment is prose. */
function statedValue(comment: string): { value: unknown } | undefined {
  const literal = comment.split(" — ")[0]!.trim();
  if (literal === "") return undefined;
  try {
    // A literal: no identifiers to resolve (a prose word throws a ReferenceError or a SyntaxError).
    return { value: new Function(`"use strict"; return (${literal});`)() as unknown };
  } catch {
    return undefined;
  }
}

const { exports: entryPoints } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, string | { default: string }> };

/** The source file of an entry point ("docbase/links/node" → src/links/node-stream.ts), as a file URL: the module the built one comes from. */
function sourceOf(specifier: string): string {
  const target = entryPoints[specifier === "docbase" ? "." : `./${specifier.slice("docbase/".length)}`];
  if (typeof target !== "object") throw new Error(`README.md imports ${specifier}, which package.json does not export`);
  return pathToFileURL(join(root, target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"))).href;
}

interface Rewritten {
  readonly source: string;
  readonly checks: number;
}

/** The block as a module, each stated result turned into a check. */
function rewriteBlock(block: Block): Rewritten {
  const lines = block.code.split("\n");
  const out: string[] = [];
  let checks = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const statement = /^(\S(?:.*?\S)?);(?:\s*\/\/ (.*))?$/.exec(line);
    const isExpression =
      statement !== null && !/^(?:import|export|const|let|var|function|class|if|for|while|return)\b/.test(statement[1]!) && !/[^=!<>]=[^=>]/.test(statement[1]!.replace(/(["'`]).*?\1/g, '""'));
    if (statement === null || !isExpression) {
      out.push(line);
      continue;
    }
    // The stated value: inline, or the comment lines below (joined until they form a literal).
    let stated = statement[2] === undefined ? undefined : statedValue(statement[2]);
    let consumed = 0;
    if (statement[2] === undefined) {
      let text = "";
      for (let j = i + 1; j < lines.length && lines[j]!.startsWith("// "); j++) {
        text += `${lines[j]!.slice(3)}\n`;
        const value = statedValue(text);
        if (value !== undefined) {
          stated = value;
          consumed = j - i;
          break;
        }
      }
    }
    if (stated === undefined) {
      out.push(line);
      continue;
    }
    checks++;
    out.push(`__check(${statement[1]}, ${JSON.stringify(stated.value)}, ${block.line + 1 + i});`);
    for (let k = 0; k < consumed; k++) out.push(`// ${lines[i + 1 + k]!.slice(3)}`);
    i += consumed;
  }
  const imports = out.join("\n").replace(/(from |import |import\()"(docbase(?:\/[a-z0-9/-]+)?)"/g, (_, before: string, specifier: string) => `${before}${JSON.stringify(sourceOf(specifier))}`);
  return {
    checks,
    source: `export const results: { line: number; actual: unknown; expected: unknown }[] = [];
function __check(actual: unknown, expected: unknown, line: number): void {
  results.push({ line, actual: JSON.parse(JSON.stringify(actual ?? null)), expected });
}
${imports}
`,
  };
}

const scratch = join(root, "test/.readme-blocks");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("README.md code blocks", () => {
  const all = blocks();
  const tsBlocks = all.filter((b) => b.lang === "ts");

  it("has TypeScript examples, each checked", () => {
    expect(tsBlocks.length).toBeGreaterThanOrEqual(5);
  });

  for (const block of tsBlocks) {
    it(`runs the block at README.md:${block.line} and gives the results it states`, async () => {
      const { source, checks } = rewriteBlock(block);
      const file = join(scratch, `block-${block.line}.ts`);
      writeFileSync(file, source);
      // Each block is a program of its own: its own instances of docbase's modules (docbase/core/utf-8 has no
      // legacy encoders in a program that does not import them, whatever another block imported).
      vi.resetModules();
      const module = (await import(pathToFileURL(file).href)) as { results: { line: number; actual: unknown; expected: unknown }[] };
      expect(module.results.length, "every stated result was reached").toBe(checks);
      for (const { line, actual, expected } of module.results) {
        if (!isDeepStrictEqual(actual, expected)) {
          expect.fail(`README.md:${line}: the code gives ${JSON.stringify(actual)}, the README says ${JSON.stringify(expected)}`);
        }
      }
    });
  }

  it("states a result in every TypeScript block", () => {
    for (const block of tsBlocks) expect(rewriteBlock(block).checks, `README.md:${block.line}`).toBeGreaterThan(0);
  });

  const node = process.execPath;
  const cli = join(root, "src/cli/main.ts");

  it("shows what `npm start` prints", () => {
    const sample = all.find((b) => b.lang === "" && b.code.includes("docbase links:"));
    expect(sample, "the sample output block under Quick start").toBeDefined();
    const script = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
    expect(script).toBe("node src/cli/main.ts links examples/site --url https://example.com/");
    const run = spawnSync(node, [cli, "links", "examples/site", "--url", "https://example.com/"], { cwd: root, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const outputLines = `${run.stdout}\n${run.stderr}`.split("\n").map((l) => l.trimEnd());
    for (const line of sample!.code.split("\n").filter((l) => l.trim() !== "")) {
      expect(outputLines.some((o) => o.startsWith(line.trimEnd())), `npm start prints a line starting with ${JSON.stringify(line)}`).toBe(true);
    }
  });

  it("runs each rewrite job of the README, one command line each, on a copy of the example site", () => {
    const jobs = all.find((b) => b.lang === "text" && b.code.includes("docbase rewrite examples/site"));
    expect(jobs, "the block of rewrite jobs").toBeDefined();
    const lines = jobs!.code.split("\n").filter((l) => l.startsWith("docbase rewrite "));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) {
      const site = join(scratch, "jobs", "site");
      rmSync(join(scratch, "jobs"), { recursive: true, force: true });
      cpSync(join(root, "examples/site"), site, { recursive: true });
      // The words of the line (single quotes as a shell reads them), the comment left out; paths into the copy.
      const words = [...line.replace(/\s+#.*$/, "").matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
      const args = words.map((w, i) => (w === "examples/site" ? site : words[i - 1] === "--out" ? join(scratch, "jobs", w) : w));
      const run = spawnSync(node, [cli, ...args], { cwd: root, encoding: "utf8" });
      expect(run.status, `${line}\n${run.stderr}`).toBe(0);
      expect(run.stderr, line).toMatch(/docbase rewrite: (would rewrite|rewrote) [1-9]\d* links? in /);
      if (args.includes("--dry-run")) expect(run.stdout, line).not.toBe("");
      if (args.includes("--json")) for (const change of run.stdout.trim().split("\n")) expect(Object.keys(JSON.parse(change) as object)).toContain("rewritten");
    }
  });

  it("checks every block", () => {
    const kinds = new Set(all.map((b) => b.lang));
    expect([...kinds].sort()).toEqual(["", "js", "sh", "text", "ts"]);
  });

  it("opens with the package's install command, then the quick start's two commands, the package's start and test scripts", () => {
    const [install, quick, ...more] = all.filter((b) => b.lang === "sh");
    const { name } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string };
    expect(install!.code).toBe(`npm install ${name}`);
    expect(quick!.code).toContain("npm install && npm start");
    expect(quick!.code).toContain("npm install && npm test");
    expect(more).toHaveLength(0);
    expect(install!.line, "the install command is on the first screen").toBeLessThan(15);
  });

  it("the test-framework setup is the Vitest and Jest fixture projects'", () => {
    const config = all.find((b) => b.lang === "js" && b.code.includes("setupFiles"))!;
    const fixture = readFileSync(join(root, "test/fixtures/vitest-jsdom/vitest.config.ts"), "utf8");
    expect(config.code).toContain('environment: "jsdom", setupFiles: ["docbase/jsdom/setup"]');
    expect(fixture).toContain('environment: "jsdom"');
    expect(fixture).toContain('"docbase/jsdom/setup"');
    const jestLine = 'module.exports = { testEnvironment: "docbase/jsdom/jest-environment" };';
    expect(config.code).toContain(jestLine);
    expect(readFileSync(join(root, "test/fixtures/jest-jsdom/jest.config.js"), "utf8")).toContain(jestLine);
    expect(all.filter((b) => b.lang === "js")).toHaveLength(1);
  });

  it("lists only options the command has", () => {
    const synopsis = all.find((b) => b.lang === "text" && b.code.includes("docbase links"));
    expect(synopsis, "the command synopsis block").toBeDefined();
    for (const line of synopsis!.code.split("\n").filter((l) => l.startsWith("docbase "))) {
      // "docbase links|check|rewrite … --x": each of the commands named has the options.
      for (const command of line.split(/\s+/)[1]!.split("|")) {
        const help = execFileSync(node, command.startsWith("--") ? [cli, "--help"] : [cli, command, "--help"], { cwd: root, encoding: "utf8" });
        for (const option of line.replace(/#.*$/, "").match(/--[a-z][a-z-]*/g) ?? []) {
          expect(help, `\`docbase ${command} --help\` lists ${option}`).toContain(option);
        }
      }
    }
  });
});
