/**
 * Runs every selected WPT page in jsdom, plain and with docbase installed,
 * and prints per page the subtests, how many pass each way and the
 * difference. With `--write`, it also rewrites test/wpt/expectations.json
 * from what it saw: the causes already named are kept; a failure with no
 * cause yet gets the cause "unknown", which test/wpt/wpt.test.ts rejects
 * until a person names it.
 *
 * ```sh
 * node test/wpt/report.ts [--write] [path filter]
 * ```
 *
 * @module
 */

import { writeFileSync } from "node:fs";
import { type Expectations, expectationsPath, type PageExpectation, pageKey, readExpectations } from "./expectations.ts";
import { runWPTPage, type WPTRunResult } from "./runner.ts";
import { runnerTests } from "./selection.ts";
import { startWPTServer, testPagePath, testVariants } from "./server.ts";

const write = process.argv.includes("--write");
const filter = process.argv.slice(2).find((argument) => !argument.startsWith("--")) ?? "";
const old = readExpectations();
const tests: Record<string, PageExpectation> = {};
const passes = (result: WPTRunResult): number => result.subtests.filter((subtest) => subtest.status === "PASS").length;
const totals = { subtests: 0, plain: 0, installed: 0 };
const server = await startWPTServer();
try {
  console.log("| test | subtests | pass plain | pass installed | difference |\n|---|---:|---:|---:|---:|");
  for (const path of runnerTests) {
    if (!path.includes(filter)) continue;
    for (const variant of testVariants(path)) {
      const key = pageKey(path, variant);
      const plain = await runWPTPage(server, testPagePath(path), variant, { installed: false });
      const installed = await runWPTPage(server, testPagePath(path), variant, { installed: true });
      const difference = passes(installed) - passes(plain);
      console.log(`| ${key} | ${installed.subtests.length} | ${passes(plain)} | ${passes(installed)} | ${difference > 0 ? "+" : ""}${difference} |`);
      totals.subtests += installed.subtests.length;
      totals.plain += passes(plain);
      totals.installed += passes(installed);
      const failures: Record<string, PageExpectation["failures"][string]> = {};
      const plainStatus = new Map(plain.subtests.map((subtest) => [subtest.name, subtest.status]));
      for (const subtest of installed.subtests) {
        const status = plainStatus.get(subtest.name) ?? "NOTRUN";
        if (status === "PASS" && subtest.status === "PASS") continue;
        failures[subtest.name] = { plain: status, installed: subtest.status, cause: old.tests[key]?.failures[subtest.name]?.cause ?? "unknown" };
      }
      const harness = plain.harness === "OK" && installed.harness === "OK"
        ? {}
        : { harness: { plain: plain.harness, installed: installed.harness, cause: old.tests[key]?.harness?.cause ?? "unknown" } };
      tests[key] = { subtests: installed.subtests.length, ...harness, failures };
    }
  }
  const difference = totals.installed - totals.plain;
  console.log(`| **all** | ${totals.subtests} | ${totals.plain} | ${totals.installed} | ${difference > 0 ? "+" : ""}${difference} |`);
} finally {
  await server.close();
}
if (write) {
  const written: Expectations = { causes: old.causes, tests: filter === "" ? tests : { ...old.tests, ...tests } };
  writeFileSync(expectationsPath, `${JSON.stringify(written, null, 2)}\n`);
  console.log(`Wrote ${expectationsPath}.`);
}
