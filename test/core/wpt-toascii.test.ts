/**
 * Domain to ASCII through the URL class:
 *
 * - wpt url/resources/toascii.json as `new URL("https://" + input + "/x")`,
 *   and through the host and hostname setters from `https://x/x` (a failure
 *   leaves "x"), as wpt's toascii.window.js does for URL;
 * - wpt url/resources/IdnaTestV2.json and IdnaTestV2-removed.json as
 *   `new URL("https://" + input + "/x")` (null: TypeError), as wpt's
 *   IdnaTestV2.window.js and IdnaTestV2-removed.window.js do. The removed
 *   file is part of current wpt (cases dropped from Unicode's IdnaTestV2 that
 *   still hold under UTS #46 as the URL Standard uses it; all expect failure).
 */

import { describe, expect, it } from "vitest";
import { loadToASCIITests, type ToASCIITestCase } from "../wpt-data.ts";
import { eachCase, itHasNoStaleKnownFailures, show, titled } from "./harness.ts";
import { impl } from "./impl.ts";

function title(c: ToASCIITestCase): string {
  const comment = c.comment === undefined ? "" : ` (${show(c.comment, 60)})`;
  return `${show(c.input)} → ${show(c.output)}${comment}`;
}

function checkParsed(c: ToASCIITestCase): void {
  const input = `https://${c.input}/x`;
  if (c.output === null) {
    expect(() => new impl.URL(input)).toThrow(TypeError);
    return;
  }
  const url = new impl.URL(input);
  expect({ host: url.host, hostname: url.hostname, pathname: url.pathname, href: url.href }).toEqual({
    host: c.output,
    hostname: c.output,
    pathname: "/x",
    href: `https://${c.output}/x`,
  });
}

function checkSetter(c: ToASCIITestCase, attribute: "host" | "hostname"): void {
  const url = new impl.URL("https://x/x");
  url[attribute] = c.input;
  expect(url[attribute]).toBe(c.output ?? "x");
}

const toascii = loadToASCIITests("toascii.json");

describe(`${impl.name}: toascii.json`, () => {
  it("has cases", () => {
    expect(toascii.length).toBeGreaterThan(0);
  });
  describe('new URL("https://" + input + "/x")', () => {
    eachCase("toascii.json new URL", titled(toascii, title), checkParsed);
  });
  describe("host setter", () => {
    eachCase("toascii.json host setter", titled(toascii, title), (c) => checkSetter(c, "host"));
  });
  describe("hostname setter", () => {
    eachCase("toascii.json hostname setter", titled(toascii, title), (c) => checkSetter(c, "hostname"));
  });
});

for (const file of ["IdnaTestV2.json", "IdnaTestV2-removed.json"] as const) {
  const all = loadToASCIITests(file);
  // As wpt does: the empty input cannot be tested this way ("https:///x"
  // parses with host "x"), so it is left out, and only it.
  const cases = all.filter((c) => c.input !== "");

  describe(`${impl.name}: ${file}`, () => {
    it("has cases (all but the empty input)", () => {
      expect(cases.length).toBeGreaterThan(0);
      expect(all.length - cases.length).toBeLessThanOrEqual(1);
    });
    describe('new URL("https://" + input + "/x")', () => {
      eachCase(`${file} new URL`, titled(cases, title), checkParsed);
    });
  });
}

itHasNoStaleKnownFailures(["toascii.json", "IdnaTestV2.json", "IdnaTestV2-removed.json"]);
