/**
 * Browser-verified conformance (issue 9): several hundred generated
 * documents run in real headless Chromium and in docbase's layers, every
 * value compared, every disagreement checked against the standard.
 *
 * - Chromium ≠ standard must be exactly the list in
 *   known-browser-deviations.json (new ones, changed ones and vanished ones
 *   all fail);
 * - docbase ≠ standard fails, layer by layer.
 *
 * Needs Debian's chromium at /usr/bin/chromium. Without it the suite is
 * skipped (test/global-setup.ts says so in one line) — unless
 * DOCBASE_REQUIRE_CHROMIUM=1, as in .ci/run, where it fails
 * (.ci/run installs chromium first).
 *
 * The figures go to test/browser/agreement.json (for the README).
 *
 * @module
 */

import { beforeAll, describe, expect, it } from "vitest";
import { browserSuitesRun, chromiumAvailable, chromiumPath } from "./chromium-runner.ts";
import { normalize } from "./classify.ts";
import { docbaseLayers } from "./docbase-layers.ts";
import { runDifferential, summarize, writeAgreement, type DifferentialReport } from "./differential.ts";

const available = chromiumAvailable();

describe.skipIf(!browserSuitesRun())("Chromium differential suite", () => {
  let report: DifferentialReport | undefined;

  beforeAll(async () => {
    if (!available) return;
    report = await runDifferential();
    writeAgreement(report);
    console.log(summarize(report, 40));
  }, 900_000);

  function done(): DifferentialReport {
    if (report === undefined) throw new Error(`${chromiumPath} is missing, and DOCBASE_REQUIRE_CHROMIUM=1: the browser suite must run (.ci/run installs chromium).`);
    return report;
  }

  it("runs in Chromium", () => {
    expect(available, `${chromiumPath} must exist when DOCBASE_REQUIRE_CHROMIUM=1`).toBe(true);
    const r = done();
    expect(r.documents).toBeGreaterThan(300);
    expect(r.reads).toBeGreaterThan(10_000);
  });

  it("observes every read (no harness errors)", () => {
    expect(done().harnessErrors).toEqual([]);
  });

  it("finds no browser deviation that is not listed", () => {
    const r = done();
    const unlisted = r.deviationCheck.unlisted.map((d) => `${d.id}: ${normalize(d.input, r.origin)} — chromium ${JSON.stringify(normalize(d.chromium, r.origin))}, standard ${JSON.stringify(normalize(d.expected, r.origin))}`);
    expect(unlisted, "new disagreements between Chromium and the standard: review, then node test/browser/run.ts --update-deviations").toEqual([]);
  });

  it("still finds every listed browser deviation, unchanged", () => {
    const r = done();
    expect(
      r.deviationCheck.changed.map((c) => `${c.listed.id}: listed ${JSON.stringify(c.listed.chromium)} ≠ ${JSON.stringify(c.listed.expected)}, now ${JSON.stringify(normalize(c.now.chromium, r.origin))} ≠ ${JSON.stringify(normalize(c.now.expected, r.origin))}`),
    ).toEqual([]);
    expect(
      r.deviationCheck.disappeared.map((d) => `${d.id} (${d.reason})`),
      "listed deviations Chromium no longer shows: remove them from known-browser-deviations.json",
    ).toEqual([]);
  });

  for (const layer of docbaseLayers) {
    it(`docbase ${layer.name} agrees with the standard`, (context) => {
      const figures = done().layers.find((l) => l.name === layer.name);
      if (figures?.unavailable !== undefined) {
        console.warn(`docbase ${layer.name}: not compared — ${figures.unavailable}`);
        context.skip();
        return;
      }
      expect(figures?.compared ?? 0).toBeGreaterThan(0);
      expect(figures?.failures.map((f) => `${f.id}: ${f.input}: docbase ${JSON.stringify(f.docbase)}, standard ${JSON.stringify(f.expected)}, chromium ${JSON.stringify(f.chromium)}`)).toEqual([]);
    });
  }
});
