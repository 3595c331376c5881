import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, type MisbehavingServer, startServer } from "./external-server.ts";
import { cleanup, docbase, ensureBuilt, findingsOf, temporaryDirectory, writeTree } from "./helpers.ts";

let server: MisbehavingServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer({
    "/ok": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end('<h2 id="here">x</h2>'),
    "/moved": (_req, res) => res.writeHead(301, { location: "/ok" }).end(),
    "/loop-a": (_req, res) => res.writeHead(302, { location: "/loop-b" }).end(),
    "/loop-b": (_req, res) => res.writeHead(302, { location: "/loop-a" }).end(),
    "/busy": (_req, res) => res.writeHead(429, { "retry-after": "3600" }).end(),
    "/slow": () => {
      // Never answers: the request times out.
    },
  });
}, 120_000);

afterAll(async () => {
  await server.close();
  cleanup();
}, 120_000);

describe("docbase check --external, against misbehaving local servers", () => {
  it("asks each URL once, reports each outcome at every link to it with its severity, and keeps broken apart from could-not-be-checked", async () => {
    const o = server.origin;
    const refused = `http://127.0.0.1:${await closedPort()}/`;
    const dir = writeTree(temporaryDirectory(), {
      "index.html": [`<a href="${o}/ok">`, `<a href="${o}/nope">`, `<a href="${o}/moved">`, `<a href="${o}/loop-a">`, `<a href="${o}/slow">`, `<a href="${refused}">`, '<a href="local.html">'].join("\n"),
      "other.html": `<a href="${o}/nope">again</a> <a href="${o}/ok#here">frag</a> <a href="${o}/ok#gone">frag</a>`,
      "local.html": "",
    });
    const before = server.seen.length;
    const run = await docbase(["check", dir, "--url", "https://example.com/", "--external", "--external-fragments", "--timeout", "1", "--retries", "0", "--json"]);
    const findings = findingsOf(run.stdout).map((f) => [path.basename(String(f["file"])), f["line"], f["type"], f["category"], f["severity"]]);
    expect(findings).toEqual([
      ["index.html", 2, "bad-status", "external-broken", "error"],
      ["index.html", 3, "permanent-redirect", "external-warning", "warning"],
      ["index.html", 4, "redirect-loop", "external-broken", "error"],
      ["index.html", 5, "timeout", "external-unchecked", "warning"],
      ["index.html", 6, "connection-refused", "external-unchecked", "warning"],
      ["other.html", 1, "bad-status", "external-broken", "error"],
      ["other.html", 1, "missing-fragment", "external-broken", "error"],
    ]);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!) as { categories: Record<string, number>; external: { urls: number; broken: number; unchecked: number; warnings: number; ok: number } };
    expect(summary.categories).toEqual({ "external-broken": 4, "external-unchecked": 2, "external-warning": 1 });
    // /ok (with its fragments: one missing) counts as broken; the others as above.
    expect(summary.external).toMatchObject({ urls: 6, ok: 0, broken: 3, unchecked: 2, warnings: 1 });
    expect(run.stderr).toMatch(/external links: 6 URLs: .*3 broken, 2 could not be checked/);
    // One request per URL (a HEAD; a GET after a HEAD that failed, or for a page's fragments): /nope is linked twice.
    const seen = server.seen.slice(before);
    expect(seen.filter((r) => r.path === "/nope").map((r) => r.method)).toEqual(["HEAD", "GET"]);
    expect(seen.filter((r) => r.path === "/ok").length).toBeLessThanOrEqual(2);
    // Bounded: the slow server is asked once and cut at its timeout (a timeout is not retried); the run ends (the test's own limit).
    expect(seen.filter((r) => r.path === "/slow")).toHaveLength(1);
  }, 60_000);

  it("a 429 whose Retry-After is beyond the longest wait: could not be checked, asked once, no wait", async () => {
    const dir = writeTree(temporaryDirectory(), { "index.html": `<a href="${server.origin}/busy">x</a>` });
    // Retry-After: 3600 is beyond the longest wait (60 s): no wait, no second request.
    const run = await docbase(["check", dir, "--url", "https://example.com/", "--external", "--json"]);
    expect(findingsOf(run.stdout).map((f) => [f["type"], f["severity"]])).toEqual([["rate-limited", "warning"]]);
    expect(server.count("/busy")).toBe(1);
    expect(run.code).toBe(0);
    expect((await docbase(["check", dir, "--url", "https://example.com/", "--external", "--strict"])).code).toBe(1);
  }, 60_000);

  it("never asks an excluded URL; without --external asks nothing", async () => {
    const o = server.origin;
    const dir = writeTree(temporaryDirectory(), { "index.html": `<a href="${o}/ok?skip">x</a> <a href="${o}/ok?ask">y</a>` });
    const before = server.seen.length;
    await docbase(["check", dir, "--url", "https://example.com/"]);
    expect(server.seen.length).toBe(before);
    const run = await docbase(["check", dir, "--url", "https://example.com/", "--external", "--exclude", "skip$"]);
    expect(run.code).toBe(0);
    expect(server.seen.length).toBe(before + 1);
  }, 60_000);

  it("reuses its cache file on the second run: no request", async () => {
    const o = server.origin;
    const dir = writeTree(temporaryDirectory(), { "index.html": `<a href="${o}/ok?cached">x</a> <a href="${o}/nope?cached">y</a>` });
    const cache = path.join(dir, "cache.json");
    const first = await docbase(["check", dir, "--url", "https://example.com/", "--external", "--cache", cache, "--json"]);
    expect(existsSync(cache)).toBe(true);
    const before = server.seen.length;
    const second = await docbase(["check", dir, "--url", "https://example.com/", "--external", "--cache", cache, "--json"]);
    expect(server.seen.length).toBe(before);
    expect(findingsOf(second.stdout)).toEqual(findingsOf(first.stdout));
    expect(second.stderr).toContain("(2 from the cache, 0 requests)");
    expect(second.code).toBe(1);
  }, 60_000);

  it("a bad checker flag is a usage error", async () => {
    const run = await docbase(["check", "-", "--external", "--accept", "abc"], { input: "" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--accept");
  });
});
