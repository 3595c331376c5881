// The web-platform-tests pages of base URLs, URL attributes, <a>/<area>,
// formaction and Node.baseURI (test/wpt/selection.ts), run in jsdom twice:
// plain, and with docbase's install(window) called in beforeParse. The files
// are vendored under test/fixtures/wpt and served from 127.0.0.1 by
// test/wpt/server.ts; test/wpt/runner.ts collects testharness.js's results.
//
// - Each run must give test/wpt/expectations.json's results, both ways: an
//   unexpected failure fails, and so does an unexpected pass.
// - No subtest that passes in plain jsdom fails with docbase installed,
//   asserted on the results themselves, not on the expectations.
// - No failure left is docbase's, and every failure names a known cause.
//
// `node test/wpt/report.ts` prints the counts per page; with --write it
// rewrites the expectations from a run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discrepancies, pageKey, readExpectations } from "./expectations.ts";
import { runWPTPage, type WPTRunResult } from "./runner.ts";
import { runnerTests } from "./selection.ts";
import { startWPTServer, testPagePath, testVariants, type WPTServer } from "./server.ts";

const expectations = readExpectations();
const pages = runnerTests.flatMap((path) => testVariants(path).map((variant) => ({ path, variant, key: pageKey(path, variant) })));

let server: WPTServer;
beforeAll(async () => {
  server = await startWPTServer();
});
afterAll(async () => {
  await server.close();
});

describe("test/wpt/expectations.json", () => {
  it("has one entry per page and variant the runner runs, and no other", () => {
    expect(Object.keys(expectations.tests).sort()).toEqual(pages.map((page) => page.key).sort());
  });

  it("names a known cause for every failure, and lists no cause it does not use", () => {
    const used = new Set<string>();
    for (const page of Object.values(expectations.tests)) {
      for (const failure of Object.values(page.failures)) used.add(failure.cause);
      if (page.harness !== undefined) used.add(page.harness.cause);
    }
    expect([...used].sort()).toEqual(Object.keys(expectations.causes).sort());
    for (const cause of Object.values(expectations.causes)) expect(["jsdom", "docbase", "test"]).toContain(cause.owner);
  });

  it("lists no failure that is docbase's (issue 19: every failure caused by docbase is gone)", () => {
    const docbaseCauses = Object.entries(expectations.causes).filter(([, cause]) => cause.owner === "docbase").map(([key]) => key);
    const listed = Object.entries(expectations.tests).flatMap(([key, page]) =>
      Object.entries(page.failures).filter(([, failure]) => docbaseCauses.includes(failure.cause) && failure.installed !== "PASS").map(([name]) => `${key}: ${name}`));
    expect(listed).toEqual([]);
  });

  it("lists no subtest as passing plain and failing installed", () => {
    const regressions = Object.entries(expectations.tests).flatMap(([key, page]) =>
      Object.entries(page.failures).filter(([, failure]) => failure.plain === "PASS" && failure.installed !== "PASS").map(([name]) => `${key}: ${name}`));
    expect(regressions).toEqual([]);
  });
});

describe("the regression check", () => {
  it("reports a subtest passing plain that fails or is missing installed, and nothing else", () => {
    const result = (subtests: Array<[string, WPTRunResult["subtests"][number]["status"]]>): WPTRunResult =>
      ({ harness: "OK", harnessMessage: null, subtests: subtests.map(([name, status]) => ({ name, status, message: null })), errors: [] });
    const plain = result([["a", "PASS"], ["b", "PASS"], ["c", "FAIL"], ["d", "PASS"]]);
    const installed = result([["a", "PASS"], ["b", "FAIL"], ["c", "PASS"]]);
    expect(regressions(plain, installed)).toEqual(["b: FAIL", "d: did not run"]);
  });
});

describe("WPT in jsdom, plain and with install(window)", () => {
  for (const { path, variant, key } of pages) {
    it(key, async () => {
      const plain = await runWPTPage(server, testPagePath(path), variant, { installed: false, timeoutMs: 20_000 });
      const installed = await runWPTPage(server, testPagePath(path), variant, { installed: true, timeoutMs: 20_000 });
      expect(plain.subtests.length, "the page ran no subtest").toBeGreaterThan(0);
      expect(discrepancies(plain, "plain", expectations.tests[key]), "plain jsdom").toEqual([]);
      expect(discrepancies(installed, "installed", expectations.tests[key]), "with install(window)").toEqual([]);
      expect(regressions(plain, installed), "passing in plain jsdom, not with install(window)").toEqual([]);
    });
  }
});

/** The subtests that pass in `plain` and do not in `installed` (missing ones included). */
function regressions(plain: WPTRunResult, installed: WPTRunResult): string[] {
  const installedStatus = new Map(installed.subtests.map((subtest) => [subtest.name, subtest.status]));
  return plain.subtests
    .filter((subtest) => subtest.status === "PASS" && installedStatus.get(subtest.name) !== "PASS")
    .map((subtest) => `${subtest.name}: ${installedStatus.get(subtest.name) ?? "did not run"}`);
}
