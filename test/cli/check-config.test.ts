import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, findingsOf, jsonLines, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

/** A site under `public/` of a project directory, with a warning (the space) and an error (gone.html). */
function project(config: unknown): string {
  const dir = writeTree(temporaryDirectory(), { "public/index.html": '<a href="a b.html">x</a> <a href="gone.html">y</a>', "public/a b.html": "" });
  if (config !== undefined) writeFileSync(path.join(dir, "docbase.config.json"), JSON.stringify(config));
  return dir;
}

describe("docbase.config.json", () => {
  it("is found from the site directory upwards; its keys are the flags' names, top level or under a command", async () => {
    const dir = project({ url: "https://example.com/", check: { exclude: ["gone\\.html$"], strict: true } });
    const run = await docbase(["check", path.join(dir, "public"), "--json"]);
    // exclude: gone.html not reported; strict: the warning fails the run; url: the links resolve under it.
    expect(findingsOf(run.stdout).map((f) => [f["type"], f["url"]])).toEqual([["invalid-URL-unit", "https://example.com/a%20b.html"]]);
    expect(run.code).toBe(1);
    // Top-level keys apply to each command that has the option.
    const links = await docbase(["links", path.join(dir, "public"), "--json"]);
    expect(jsonLines(links.stdout).map((l) => l["url"])).toEqual(["https://example.com/a%20b.html", "https://example.com/gone.html"]);
  });

  it("flags win over it", async () => {
    const dir = project({ url: "https://example.com/", check: { strict: true, format: "sarif" } });
    const run = await docbase(["check", path.join(dir, "public"), "--url", "https://other.example/", "--format", "json", "--exclude", "gone"]);
    expect(findingsOf(run.stdout).map((f) => f["url"])).toEqual(["https://other.example/a%20b.html"]);
    expect(run.code).toBe(1);
  });

  it("--config names another file; a --no- flag is its positive key set to false", async () => {
    const dir = project(undefined);
    writeFileSync(path.join(dir, "ci.json"), JSON.stringify({ check: { fragments: false, format: "json", exclude: "gone" } }));
    const run = await docbase(["check", path.join(dir, "public"), "--config", path.join(dir, "ci.json")]);
    expect(findingsOf(run.stdout).map((f) => f["type"])).toEqual(["invalid-URL-unit"]);
    expect(run.code).toBe(0);
    expect((await docbase(["check", path.join(dir, "public"), "--config", path.join(dir, "nope.json")])).code).toBe(2);
  });

  it("an unknown key, a key of another command, a bad value: a usage error naming it", async () => {
    const cases: [unknown, string][] = [
      [{ excludes: ["x"] }, 'unknown key "excludes"'],
      [{ check: { internal: true } }, 'unknown key "check.internal"'],
      [{ check: { strict: "yes" } }, '"check.strict": must be true or false'],
      [{ check: { format: "xml" } }, '"check.format"'],
      [{ jobs: 0 }, '"jobs": not a positive integer'],
      // check's --exclude is a regular expression, rewrite's a URL pattern: one key cannot say both.
      [{ exclude: ["gone"] }, '"exclude" means different things to different commands'],
      [[1], "must be a JSON object"],
    ];
    for (const [config, message] of cases) {
      const dir = project(config);
      const run = await docbase(["check", path.join(dir, "public")]);
      expect(run.code, JSON.stringify(config)).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});

describe("--url optional for check and links", () => {
  it("without it, the site is read at the placeholder https://docbase.invalid/", async () => {
    const dir = project(undefined);
    const run = await docbase(["check", path.join(dir, "public"), "--json"]);
    expect(findingsOf(run.stdout).map((f) => f["url"])).toEqual(["https://docbase.invalid/a%20b.html", "https://docbase.invalid/gone.html"]);
    expect(run.code).toBe(1);
    const one = await docbase(["links", path.join(dir, "public/index.html"), "--json"]);
    expect(jsonLines(one.stdout)[0]!["url"]).toBe("https://docbase.invalid/a%20b.html");
    const stdin = await docbase(["check", "-", "--json"], { input: '<a href="#nowhere">' });
    expect(findingsOf(stdin.stdout).map((f) => f["url"])).toEqual(["https://docbase.invalid/#nowhere"]);
  });

  it("a site root URL with a path but no trailing slash is read as the directory, with a warning saying so", async () => {
    const dir = project(undefined);
    const run = await docbase(["check", path.join(dir, "public"), "--url", "https://example.com/docs", "--json"]);
    expect(run.stderr).toContain("docbase: warning: --url https://example.com/docs has no trailing slash: read as the site root https://example.com/docs/");
    expect(findingsOf(run.stdout)[0]!["url"]).toBe("https://example.com/docs/a%20b.html");
    const slash = await docbase(["check", path.join(dir, "public"), "--url", "https://example.com/docs/", "--json"]);
    expect(slash.stderr).not.toContain("docbase: warning");
  });
});
