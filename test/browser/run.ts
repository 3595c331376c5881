/**
 * The browser differential suite from the command line:
 *
 *   node test/browser/run.ts                      # run, print figures and problems, write agreement.json
 *   node test/browser/run.ts --update-deviations  # also rewrite known-browser-deviations.json from this run
 *   node test/browser/run.ts --categories base,frames --json failures.json
 *
 * Exit status 1 when the run has harness errors, unlisted/changed/gone
 * browser deviations, or failures of ours (as the vitest suite would).
 *
 * @module
 */

import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { chromiumAvailable, chromiumPath } from "./chromium-runner.ts";
import { readDeviationList, writeDeviationList, checkDeviations } from "./classify.ts";
import { runDifferential, summarize, writeAgreement } from "./differential.ts";

const { values } = parseArgs({
  options: {
    "update-deviations": { type: "boolean", default: false },
    categories: { type: "string" },
    seed: { type: "string" },
    json: { type: "string" },
    limit: { type: "string", default: "30" },
    quiet: { type: "boolean", default: false },
  },
});

if (!chromiumAvailable()) {
  console.error(`${chromiumPath} is missing: install Debian's chromium (apt-get install chromium).`);
  process.exit(2);
}

const report = await runDifferential({
  ...(values.categories === undefined ? {} : { categories: values.categories.split(",") }),
  ...(values.seed === undefined ? {} : { seed: values.seed }),
  log: values.quiet ? () => {} : (line) => console.error(line),
});

let check = report.deviationCheck;
if (values["update-deviations"]) {
  if (values.categories !== undefined || values.seed !== undefined) {
    console.error("--update-deviations needs the whole suite with the default seed");
    process.exit(2);
  }
  const list = writeDeviationList(report.browser.deviations, report.observations, readDeviationList(), {
    chromium: report.chromium,
    seed: report.seed,
    origin: report.origin,
  });
  check = checkDeviations(report.browser.deviations, list, report.origin);
  console.error(`known-browser-deviations.json: ${list.deviations.length} deviations`);
}
const final = { ...report, deviationCheck: check };
if (values.categories === undefined && values.seed === undefined) writeAgreement(final);
console.log(summarize(final, Number(values.limit)));
if (values.json !== undefined) {
  writeFileSync(
    values.json,
    JSON.stringify(
      {
        harnessErrors: final.harnessErrors,
        unlisted: check.unlisted.map((d) => ({ id: d.id, input: d.input, chromium: d.chromium, expected: d.expected })),
        changed: check.changed.map((c) => ({ listed: c.listed, chromium: c.now.chromium, expected: c.now.expected })),
        disappeared: check.disappeared,
        failures: final.layers.flatMap((l) => l.failures),
      },
      null,
      1,
    ),
  );
}
const failed =
  final.harnessErrors.length > 0 ||
  (values.categories === undefined && values.seed === undefined && (check.unlisted.length > 0 || check.changed.length > 0 || check.disappeared.length > 0)) ||
  final.layers.some((l) => l.ourFailures > 0);
process.exitCode = failed ? 1 : 0;
