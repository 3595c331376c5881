// docbase/jsdom/jest-environment in a real Jest project (test/fixtures/jest-jsdom, CommonJS, its jest.config.js the
// README's line): the document exists before any test code runs, and its tests set innerHTML, then read a.href with
// a <base> and a srcdoc frame. docbase is installed into the project's node_modules as npm would put it (package.json
// and the built dist/; npm test builds first, see the pretest script): Jest resolves real paths and treats files
// under node_modules apart (no transform), so a symlink to the repository would not be an install.
// The control runs use Jest's own `testEnvironment: "jsdom"` (jest-environment-jsdom 30, on jsdom 26).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const project = join(root, "test/fixtures/jest-jsdom");

/** Puts docbase into the project's node_modules as `npm install` would: its package.json and dist/. */
function installPackage(): void {
  const target = join(project, "node_modules/docbase");
  rmSync(target, { recursive: true, force: true });
  // Left by an interrupted run of the version test below.
  rmSync(join(project, "node_modules/jsdom"), { force: true });
  mkdirSync(target, { recursive: true });
  cpSync(join(root, "package.json"), join(target, "package.json"));
  cpSync(join(root, "dist"), join(target, "dist"), { recursive: true });
}

interface AssertionResult {
  readonly title: string;
  readonly status: string;
}

interface Report {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numRuntimeErrorTestSuites: number;
  readonly testResults: readonly { readonly name: string; readonly message: string; readonly assertionResults: readonly AssertionResult[] }[];
}

interface Run {
  /** Jest's ES module support (`node --experimental-vm-modules`), as its documentation says to turn it on. */
  readonly esm?: boolean;
  /** More arguments of the jest command (configuration overrides, test path patterns). */
  readonly args?: readonly string[];
}

/** Runs the fixture project with the repository's Jest; its JSON report. */
function runProject({ esm = false, args = [] }: Run): { report: Report; log: string } {
  const output = join(mkdtempSync(join(tmpdir(), "docbase-jest-")), "report.json");
  const jest = join(root, "node_modules/jest/bin/jest.js");
  const run = spawnSync(process.execPath, [jest, "--runInBand", "--json", `--outputFile=${output}`, ...args], {
    cwd: project,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, NODE_OPTIONS: esm ? "--experimental-vm-modules" : "" },
  });
  const log = `${run.stdout}\n${run.stderr}`;
  expect(existsSync(output), `jest wrote its JSON report\n${log}`).toBe(true);
  return { report: JSON.parse(readFileSync(output, "utf8")) as Report, log };
}

function failedTitles(report: Report): string[] {
  return report.testResults.flatMap((file) => file.assertionResults.filter((test) => test.status === "failed").map((test) => test.title));
}

describe("docbase/jsdom/jest-environment in a Jest project", () => {
  beforeAll(() => {
    expect(existsSync(join(root, "dist/jsdom/jest-environment.js")), "dist/ is built (npm test's pretest runs the build)").toBe(true);
    installPackage();
  });

  it("passes the project's tests without Jest's ES module support (innerHTML with <base>, a srcdoc frame, formAction, a changed base)", () => {
    const { report, log } = runProject({ args: ["--testPathPatterns", "/links\\.test\\.js$"] });
    expect(report.numFailedTests, log).toBe(0);
    expect(report.numRuntimeErrorTestSuites, log).toBe(0);
    expect(report.numPassedTests, log).toBe(5);
  });

  it("and with it, where a test file imports the environment's installation from docbase/jsdom/setup", () => {
    const { report, log } = runProject({ esm: true, args: ["--testPathPatterns", "/installation\\.test\\.mjs$"] });
    expect(report.numFailedTests, log).toBe(0);
    expect(report.numRuntimeErrorTestSuites, log).toBe(0);
    expect(report.numPassedTests, log).toBe(1);
  });

  it("and the same tests fail on Jest's own jsdom environment (its tests see docbase at work)", () => {
    const { report, log } = runProject({ args: ["--testEnvironment", "jsdom", "--testPathPatterns", "/links\\.test\\.js$"] });
    // Plain jsdom 26: the srcdoc frame is an empty about:blank document, button.formAction is missing, nothing is installed.
    expect(failedTitles(report), log).toEqual([
      "gives a srcdoc frame its document, which inherits the container's base URL",
      "reflects button.formAction (missing in plain jsdom)",
      "was installed by the environment, before this file ran",
    ]);
    expect(report.numPassedTests, log).toBe(2);
  });

  it("where docbase/jsdom/setup throws one TypeError naming the supported jsdom and the environment to use", () => {
    const { report, log } = runProject({
      esm: true,
      args: ["--testEnvironment", "jsdom", "--setupFilesAfterEnv=docbase/jsdom/setup", "--testPathPatterns", "/links\\.test\\.js$"],
    });
    expect(report.numRuntimeErrorTestSuites, log).toBe(1);
    const message = report.testResults[0]?.message ?? "";
    expect(message, log).toContain("TypeError: docbase/jsdom/setup: this window has no TextEncoder/TextDecoder");
    expect(message, log).toContain("(jsdom 31)");
    expect(message, log).toContain('use testEnvironment: "docbase/jsdom/jest-environment" instead');
  });

  it("refuses, in one TypeError naming the supported jsdom, a project where jsdom resolves to another version", () => {
    // The project without its own jsdom 31, where `jsdom` resolves to the jsdom 26 that jest-environment-jsdom brings.
    const jsdom26 = join(root, "node_modules/jest-environment-jsdom/node_modules/jsdom");
    expect((JSON.parse(readFileSync(join(jsdom26, "package.json"), "utf8")) as { version: string }).version).toMatch(/^26\./);
    const link = join(project, "node_modules/jsdom");
    symlinkSync(jsdom26, link, "dir");
    try {
      const { report, log } = runProject({ args: ["--testPathPatterns", "/links\\.test\\.js$"] });
      expect(report.numRuntimeErrorTestSuites, log).toBe(1);
      const message = report.testResults[0]?.message ?? "";
      expect(message, log).toContain("TypeError: docbase/jsdom/jest-environment: the jsdom found is 26.");
      expect(message, log).toContain("docbase supports jsdom 31 (>=31.0.0 <32.0.0): npm install -D jsdom@31");
    } finally {
      rmSync(link, { force: true });
    }
  });
});
