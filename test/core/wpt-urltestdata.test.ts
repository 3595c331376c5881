/**
 * wpt url/resources/urltestdata.json and urltestdata-javascript-only.json,
 * every case, three ways: through the URL class (as wpt's
 * url-constructor.any.js, url-origin.any.js and failure.html do), through
 * parseURL + serializeURL with the base as a string, and through parseURL
 * with the base as an already-parsed record.
 */

import { describe, expect, it } from "vitest";
import { loadURLTestData, type URLTestCase } from "../wpt-data.ts";
import {
  eachCase,
  itHasNoStaleKnownFailures,
  runParseURLCase,
  runParseURLWithRecordBaseCase,
  runURLClassCase,
  titled,
  urlCaseTitle,
} from "./harness.ts";
import { impl } from "./impl.ts";

const files = ["urltestdata.json", "urltestdata-javascript-only.json"] as const;

for (const file of files) {
  const cases = loadURLTestData(file);
  const withBase = cases.filter((c): c is URLTestCase & { base: string } => c.base !== null);

  describe(`${impl.name}: ${file}`, () => {
    it("has cases", () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    describe("new URL(input, base)", () => {
      eachCase(`${file} new URL`, titled(cases, urlCaseTitle), (c) => runURLClassCase(impl, c));
    });

    describe("parseURL(input, { base: string }) + serializeURL", () => {
      eachCase(`${file} parseURL`, titled(cases, urlCaseTitle), (c) => runParseURLCase(impl, c));
    });

    if (withBase.length > 0) {
      describe("parseURL(input, { base: URLRecord })", () => {
        eachCase(`${file} parseURL record base`, titled(withBase, urlCaseTitle), (c) =>
          runParseURLWithRecordBaseCase(impl, c),
        );
      });
    }
  });
}

itHasNoStaleKnownFailures(files);
