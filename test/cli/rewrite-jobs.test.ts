import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkFilter, lookUpURL, readURLMap, type Link } from "../../src/links/index.ts";
import { PAGES, pageBytes, pageLinks, pageURL, SITE, SITE_ROOT } from "../links/rewrite-jobs-site.ts";
import { cleanup, docbase, ensureBuilt, jsonLines, readTree, temporaryDirectory, writeTree } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const inSite = (href: string | null): href is string => href !== null && href.startsWith(SITE_ROOT);
const move = (href: string, to: string): string => (inSite(href) ? to + href.slice(SITE_ROOT.length) : href);

function writeSite(): string {
  return writeTree(path.join(temporaryDirectory(), "site"), SITE);
}

/** Each page's links as the site was written, by page. */
const original = new Map<string, Link[]>(PAGES.map((rel) => [rel, pageLinks(pageBytes(rel), pageURL(SITE_ROOT, rel))]));

/** What `docbase links DIR --url ROOT --json` says, by page: each link's URL. */
async function linksAt(dir: string, root: string): Promise<Map<string, (string | null)[]>> {
  const run = await docbase(["links", dir, "--url", root, "--json"]);
  expect(run.code, run.stderr).toBe(0);
  const byPage = new Map<string, (string | null)[]>();
  for (const line of jsonLines(run.stdout)) {
    const rel = path.relative(dir, line["file"] as string).split(path.sep).join("/");
    byPage.set(rel, [...(byPage.get(rel) ?? []), line["url"] as string | null]);
  }
  return byPage;
}

/** Checks that `docbase links` of the rewritten site at `root` gives, for each original link, `expected(link)`. */
async function expectLinks(dir: string, root: string, expected: (link: Link) => string | null): Promise<void> {
  const now = await linksAt(dir, root);
  for (const rel of PAGES) expect(now.get(rel), rel).toEqual(original.get(rel)!.map(expected));
}

function portableTarget(root: string, index: boolean): (link: Link) => string | null {
  return (link) => {
    if (!inSite(link.url) || !inSite(link.base)) return link.url;
    const url = new URL(link.url);
    if (index && url.pathname.endsWith("/")) url.pathname += "index.html";
    return move(url.href, root);
  };
}

describe("docbase rewrite: the jobs", () => {
  it("--relative: the site works from another root and a sub-path; links under a base elsewhere are counted", async () => {
    const dir = writeSite();
    const run = await docbase(["rewrite", dir, "--url", SITE_ROOT, "--relative"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/; 2 links into the site stay absolute: read against a <base> outside it, they cannot be portable/);
    for (const root of ["https://mirror.example.org/", "https://example.com/sub/path/"]) await expectLinks(dir, root, portableTarget(root, false));
  });

  it("--relative --index-file index.html --out: the copy works from disk (file: URLs)", async () => {
    const dir = writeSite();
    const out = path.join(path.dirname(dir), "offline");
    const run = await docbase(["rewrite", dir, "--url", SITE_ROOT, "--relative", "--index-file", "index.html", "--out", out]);
    expect(run.code, run.stderr).toBe(0);
    const root = pathToFileURL(out).href + "/";
    await expectLinks(out, root, portableTarget(root, true));
  });

  it("--from --to --only resources: the CDN job", async () => {
    const dir = writeSite();
    const cdn = "https://cdn.example.net/";
    const run = await docbase(["rewrite", dir, "--from", SITE_ROOT, "--to", cdn, "--only", "resources"]);
    expect(run.code, run.stderr).toBe(0);
    const resources = linkFilter({ only: "resources" });
    await expectLinks(dir, SITE_ROOT, (link) => (link.url !== null && link.element !== "base" && resources(link) ? move(link.url, cdn) : link.url));
  });

  it("--map rev-manifest.json, with --exclude", async () => {
    const dir = writeSite();
    const manifest = path.join(path.dirname(dir), "rev-manifest.json");
    const entries = { "css/site.css": "css/site-1d87bebe.css", "img/a.png": "img/a-5e3c.png", "js/app.js": "js/app-0f0f.js" };
    writeFileSync(manifest, JSON.stringify(entries, null, 2));
    const run = await docbase(["rewrite", dir, "--url", SITE_ROOT, "--map", manifest, "--exclude", "/js/*"]);
    expect(run.code, run.stderr).toBe(0);
    const { map } = readURLMap(JSON.stringify(entries), { root: SITE_ROOT });
    await expectLinks(dir, SITE_ROOT, (link) =>
      link.url === null || link.element === "base" || link.url.startsWith(`${SITE_ROOT}js/`) ? link.url : (lookUpURL(map, link.url) ?? link.url),
    );
  });

  it("--map _redirects: redirects followed, the other lines reported as not applied, and --dry-run --json lists the changes", async () => {
    const dir = writeSite();
    const redirects = path.join(path.dirname(dir), "_redirects");
    const text = "/blog/post-2.html /blog/2024/post-2.html 301!\n/docs/intro.html /guide/intro.html\n/blog/2024/* /posts/:splat 302\n/api/* https://api.example.com/:splat 200\n";
    writeFileSync(redirects, text);
    const before = readTree(dir);
    const dry = await docbase(["rewrite", dir, "--url", SITE_ROOT, "--map", redirects, "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(
      `${redirects}:2: not applied: a file of the site is at its path, which the host serves instead (add ! to the status to force it): /docs/intro.html /guide/intro.html\n`,
    );
    expect(dry.stderr).toContain(`${redirects}:4: not applied: a rewrite (200), not a redirect: the URL stays: /api/* https://api.example.com/:splat 200\n`);
    // A chain (post-2.html → 2024/post-2.html → /posts/post-2.html), written as the link was: relative.
    expect(jsonLines(dry.stdout)[0]).toMatchObject({ file: path.join(dir, "blog/index.html"), element: "a", value: "post-2.html", url: "https://example.com/blog/post-2.html", rewritten: "../posts/post-2.html" });
    expect(readTree(dir)).toEqual(before);
    const run = await docbase(["rewrite", dir, "--url", SITE_ROOT, "--map", redirects]);
    expect(run.code, run.stderr).toBe(0);
    const { map } = readURLMap(text, { root: SITE_ROOT, files: PAGES.map((rel) => pageURL(SITE_ROOT, rel, true)) });
    expect(map.rules.map((rule) => rule.line)).toEqual([1, 3]);
    await expectLinks(dir, SITE_ROOT, (link) => (link.url === null || link.element === "base" ? link.url : (lookUpURL(map, link.url) ?? link.url)));
  });

  it("bad input is a clear error, and every file is left as it was", async () => {
    const dir = writeSite();
    const before = readTree(dir);
    const file = (name: string, text: string): string => {
      const at = path.join(path.dirname(dir), name);
      writeFileSync(at, text);
      return at;
    };
    const cases: [string[], string][] = [
      [["--url", SITE_ROOT, "--map", file("bad.json", '{\n  "a.css": "b.css",\n  "c.css": tru\n}')], "bad.json: line 3: not JSON"],
      [["--url", SITE_ROOT, "--map", file("outside.json", '{\n  "https://other.example/a.css": "b.css"\n}')], 'outside.json: line 2: "https://other.example/a.css" is not a URL in the site'],
      [["--url", SITE_ROOT, "--map", file("_redirects", "/a /b\n/news/*/x /y\n")], "_redirects: line 2: a splat `*` is only followed exactly as the last segment"],
      [["--url", SITE_ROOT, "--map", path.join(path.dirname(dir), "missing.json")], "missing.json: cannot be read"],
      [["--url", SITE_ROOT, "--relative", "--include", "/a/("], '--include: not a URL pattern: "/a/("'],
      [["--url", SITE_ROOT, "--relative", "--map", file("ok.json", "{}")], "rewrite: one job at a time: --relative, --map exclude each other"],
      [["--url", SITE_ROOT, "--absolute", "--index-file", "index.html"], "--index-file is for --relative"],
      [["--url", SITE_ROOT, "--relative", "--only", "images"], "argument 'images' is invalid"],
    ];
    for (const [args, message] of cases) {
      const run = await docbase(["rewrite", dir, ...args]);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toContain(message);
    }
    expect(readTree(dir)).toEqual(before);
  });

  it("standard input: --relative and --map work on one document at the root URL", async () => {
    const html = '<a href="/blog/">b</a><a href="//github.com/x">g</a><a href="https://example.com/docs/">d</a>';
    const run = await docbase(["rewrite", "-", "--url", "https://example.com/docs/", "--relative"], { input: html });
    expect(run.code, run.stderr).toBe(0);
    // The site is what is under the root URL: /blog/ is elsewhere.
    expect(run.stdout).toBe('<a href="https://example.com/blog/">b</a><a href="https://github.com/x">g</a><a href="">d</a>');
    const redirects = path.join(temporaryDirectory(), "_redirects");
    writeFileSync(redirects, "/blog/* /posts/:splat\n");
    const mapped = await docbase(["rewrite", "-", "--url", "https://example.com/", "--map", redirects], { input: html });
    expect(mapped.stdout).toBe('<a href="/posts/">b</a><a href="//github.com/x">g</a><a href="https://example.com/docs/">d</a>');
  });
});
