/**
 * wpt url/resources/percent-encoding.json, the "utf-8" entries: in a UTF-8
 * context both the query and the fragment of
 * `https://doesnotmatter.invalid/?<input>#<input>` take the "utf-8" value.
 * (The other keys are the query in a legacy-encoded document: tested with
 * the legacy encoders, not here.)
 */

import { describe, expect, it } from "vitest";
import { loadPercentEncodingTests, type PercentEncodingTestCase } from "../wpt-data.ts";
import { eachCase, itHasNoStaleKnownFailures, show, titled } from "./harness.ts";
import { impl } from "./impl.ts";

const cases = loadPercentEncodingTests().filter(
  (c): c is PercentEncodingTestCase & { output: { "utf-8": string } } => c.output["utf-8"] !== undefined,
);

describe(`${impl.name}: percent-encoding.json (utf-8)`, () => {
  it("has cases", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  eachCase(
    "percent-encoding.json utf-8",
    titled(cases, (c) => `${show(c.input)} → ${show(c.output["utf-8"])}`),
    (c) => {
      const expected = c.output["utf-8"];
      const url = new impl.URL(`https://doesnotmatter.invalid/?${c.input}#${c.input}`);
      expect({ hash: url.hash, search: url.search }).toEqual({ hash: `#${expected}`, search: `?${expected}` });

      const record = impl.parseURL(`https://doesnotmatter.invalid/?${c.input}#${c.input}`);
      expect(record).not.toBeNull();
      const view = impl.recordView(record);
      expect({ query: view.query, fragment: view.fragment }).toEqual({ query: expected, fragment: expected });
    },
  );

  itHasNoStaleKnownFailures(["percent-encoding.json"]);
});
