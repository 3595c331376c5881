/**
 * wpt url/resources/setters_tests.json, every case, through the URL class's
 * setters (as wpt's url-setters.any.js does).
 */

import { describe, expect, it } from "vitest";
import { loadSetterTests, setterAttributes } from "../wpt-data.ts";
import { eachCase, itHasNoStaleKnownFailures, runSetterCase, setterCaseTitle, titled } from "./harness.ts";
import { impl } from "./impl.ts";

const tests = loadSetterTests();

describe(`${impl.name}: setters_tests.json`, () => {
  it("has cases", () => {
    expect(tests.length).toBeGreaterThan(0);
  });

  for (const attribute of setterAttributes) {
    const forAttribute = tests.filter((t) => t.attribute === attribute);
    if (forAttribute.length === 0) continue;
    describe(attribute, () => {
      eachCase(`setters_tests.json ${attribute}`, titled(forAttribute, setterCaseTitle), (t) => runSetterCase(impl, t));
    });
  }

  itHasNoStaleKnownFailures(["setters_tests.json"]);
});
