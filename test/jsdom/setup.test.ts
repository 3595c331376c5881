// docbase/jsdom/setup in a real Vitest project with `environment: "jsdom"` (test/fixtures/vitest-jsdom):
// the document exists before any test code runs, and its tests set innerHTML, then read a.href with a
// <base> and a srcdoc frame. The project resolves `docbase` as an installed package would: through
// package.json exports to dist/ (npm test builds first, see the pretest script).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const project = join(root, "test/fixtures/vitest-jsdom");

function linkPackage(): void {
  const modules = join(project, "node_modules");
  const link = join(modules, "docbase");
  mkdirSync(modules, { recursive: true });
  if (existsSync(link) || readlinkOrNull(link) !== null) {
    if (readlinkOrNull(link) === root) return;
    rmSync(link, { recursive: true, force: true });
  }
  symlinkSync(root, link, "dir");
}

function readlinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

interface Report {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
}

/** Runs the fixture project with the repository's Vitest; its JSON report. */
function runProject(withSetup: boolean): { report: Report; log: string } {
  linkPackage();
  const output = join(mkdtempSync(join(tmpdir(), "docbase-vitest-")), "report.json");
  const vitest = join(root, "node_modules/vitest/vitest.mjs");
  const run = spawnSync(process.execPath, [vitest, "run", "--config", join(project, "vitest.config.ts"), "--reporter=default", "--reporter=json", `--outputFile=${output}`], {
    cwd: project,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: "", DOCBASE_FIXTURE_NO_SETUP: withSetup ? "" : "1" },
  });
  const log = `${run.stdout}\n${run.stderr}`;
  expect(existsSync(output), `vitest wrote its JSON report\n${log}`).toBe(true);
  return { report: JSON.parse(readFileSync(output, "utf8")) as Report, log };
}

describe("docbase/jsdom/setup in a Vitest jsdom project", () => {
  it("passes the project's tests (innerHTML with <base>, a srcdoc frame, formAction, a changed base)", () => {
    expect(existsSync(join(root, "dist/jsdom/setup.js")), "dist/ is built (npm test's pretest runs the build)").toBe(true);
    const { report, log } = runProject(true);
    expect(report.numFailedTests, log).toBe(0);
    expect(report.numPassedTests, log).toBe(5);
  });

  it("and the same project fails without the setup file (its tests see docbase at work)", () => {
    const { report, log } = runProject(false);
    // Plain jsdom: the srcdoc frame is an empty about:blank document, button.formAction is missing, nothing is installed.
    expect(report.numFailedTests, log).toBeGreaterThanOrEqual(3);
  });
});
