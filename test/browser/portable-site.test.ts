/**
 * The portable rewrite in a real browser (issue 24): the test site
 * (test/links/rewrite-jobs-site.ts), served at its own root
 * https://example.com/ (answered from its files), is rewritten with
 * `relativize({ root, indexFile: "index.html" })`; the copy is then served
 * under a sub-path of a local server and opened from disk (`file://`).
 * Chromium reads every page in each place, and every link of every page
 * (srcdoc documents included) that led to a file of the site before must
 * lead to the same file now: a server answer 200 under the sub-path, an
 * existing regular file from disk (not a directory listing).
 *
 * Needs Debian's chromium at /usr/bin/chromium; skipped without it (see
 * chromium-runner.ts).
 *
 * @module
 */

import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relativize, rewriteLinks } from "../../src/links/index.ts";
import { PAGES, pageURL, SITE, SITE_ROOT } from "../links/rewrite-jobs-site.ts";
import { browserSuitesRun, chromiumArgs, chromiumPath } from "./chromium-runner.ts";

const SUB_PATH = "/mirror/docs-copy/";

/**
 * Every URL a page (and its srcdoc documents) points to, as Chromium
 * resolves it, in document order: each element's URL properties, srcset
 * candidates, and CSS `url()` values (from computed styles).
 */
function collect(): string[] {
  const out: string[] = [];
  const cssURLs = (value: string): string[] => [...value.matchAll(/url\("([^"]*)"\)/g)].map((m) => m[1]!);
  const walk = (doc: Document, where: string): void => {
    for (const el of Array.from(doc.querySelectorAll("*"))) {
      const tag = el.localName;
      const push = (what: string, url: string): void => void out.push(`${where}${tag} ${what} ${url}`);
      const any = el as unknown as Record<string, string>;
      for (const name of ["href", "src", "action", "poster"]) {
        if (el.hasAttribute(name) && typeof any[name] === "string") push(name, any[name]);
      }
      const srcset = el.getAttribute("srcset");
      if (srcset !== null) for (const candidate of srcset.split(",")) push("srcset", new URL(candidate.trim().split(/\s+/)[0]!, doc.baseURI).href);
      if (tag === "body" || el.hasAttribute("style")) for (const url of cssURLs(getComputedStyle(el).backgroundImage)) push("css", url);
      if (tag === "iframe" && el.hasAttribute("srcdoc")) {
        const inner = (el as HTMLIFrameElement).contentDocument;
        if (inner === null) push("srcdoc", "unreadable");
        else walk(inner, `${where}srcdoc/`);
      }
    }
  };
  walk(document, "");
  return out;
}

/** The site's file a URL under `root` names (a directory: its index.html), or null. */
function fileOf(url: string, root: string): string | null {
  if (!url.startsWith(root)) return null;
  let rel = decodeURIComponent(new URL(url).pathname.slice(new URL(root).pathname.length));
  if (rel === "" || rel.endsWith("/")) rel += "index.html";
  return rel in SITE ? rel : null;
}

/** A small static server of `dir` under `SUB_PATH` of 127.0.0.1; everything else 404. */
async function serve(dir: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    let rel = pathname.startsWith(SUB_PATH) ? pathname.slice(SUB_PATH.length) : null;
    if (rel !== null && (rel === "" || rel.endsWith("/"))) rel += "index.html";
    if (rel === null || !(rel in SITE)) {
      response.writeHead(404).end();
      return;
    }
    readFile(path.join(dir, rel)).then(
      (body) => response.writeHead(200, { "Content-Type": rel.endsWith(".html") ? "text/html" : "application/octet-stream", "Cache-Control": "no-store" }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(!browserSuitesRun())("a portable site in Chromium: from a sub-path and from disk, every link that worked still works", () => {
  let browser: Browser;
  let page: Page;
  let local: { origin: string; server: Server };
  let copy: string;

  beforeAll(async () => {
    copy = path.join(tmpdir(), `docbase-portable-${process.pid}-${Date.now()}`);
    for (const [rel, content] of Object.entries(SITE)) {
      const file = path.join(copy, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      writeFileSync(file, rel.endsWith(".html") ? rewriteLinks(bytes, { url: pageURL(SITE_ROOT, rel), rewrite: relativize({ root: SITE_ROOT, indexFile: "index.html" }) }) : bytes);
    }
    local = await serve(copy);
    browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
    page = await browser.newPage();
    // The original site at its own root, answered from its files; nothing else is contacted.
    await page.route("**/*", async (route) => {
      const url = route.request().url();
      const rel = fileOf(url, SITE_ROOT);
      if (url.startsWith(SITE_ROOT)) {
        if (rel === null) return route.fulfill({ status: 404, body: "" });
        const content = SITE[rel]!;
        return route.fulfill({ status: 200, contentType: rel.endsWith(".html") ? "text/html" : "application/octet-stream", body: Buffer.from(typeof content === "string" ? new TextEncoder().encode(content) : content) });
      }
      if (url.startsWith(local.origin) || url.startsWith("file:") || url.startsWith("about:") || url.startsWith("data:")) return route.fallback();
      return route.abort();
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => local?.server.close(resolve));
  });

  /** Chromium's URLs of every link of page `rel` opened at `url`. */
  async function linksOf(url: string): Promise<string[]> {
    await page.goto(url, { waitUntil: "load" });
    return page.evaluate(collect);
  }

  it("reads every page at the three places, and each link that led to a file of the site leads to the same file", async () => {
    const served = `${local.origin}${SUB_PATH}`;
    const disk = `${pathToFileURL(copy).href}/`;
    let checked = 0;
    let inSrcdoc = 0;
    const keptAbsolute: string[] = [];
    for (const rel of PAGES) {
      const before = await linksOf(pageURL(SITE_ROOT, rel));
      const fromServer = await linksOf(pageURL(served, rel));
      const fromDisk = await linksOf(pageURL(disk, rel, true));
      expect(fromServer.length, rel).toBe(before.length);
      expect(fromDisk.length, rel).toBe(before.length);
      for (let i = 0; i < before.length; i++) {
        const [, , url] = before[i]!.split(" ");
        const file = fileOf(url!, SITE_ROOT);
        if (file === null) continue;
        // It worked before: the same file now, served under the sub-path and opened from disk.
        const [, , servedURL] = fromServer[i]!.split(" ");
        const [, , diskURL] = fromDisk[i]!.split(" ");
        if (servedURL === url && diskURL === url) {
          // Read against a <base> on another origin, it cannot be portable: it keeps the URL that worked.
          keptAbsolute.push(`${rel}: ${before[i]}`);
          continue;
        }
        expect(fileOf(servedURL!, served), `${rel}: ${fromServer[i]} (was ${before[i]})`).toBe(file);
        const response = await fetch(servedURL!);
        expect(response.status, servedURL).toBe(200);
        await response.arrayBuffer();
        expect(diskURL!.startsWith(disk), `${rel}: ${fromDisk[i]} (was ${before[i]})`).toBe(true);
        const onDisk = path.relative(copy, fileURLToPath(diskURL!.replace(/[?#].*$/, ""))).split(path.sep).join("/");
        expect(onDisk, `${rel}: ${fromDisk[i]} (was ${before[i]}) opens the file itself, not a directory`).toBe(file);
        expect(statSync(path.join(copy, onDisk)).isFile()).toBe(true);
        checked++;
        if (before[i]!.startsWith("srcdoc/")) inSrcdoc++;
      }
    }
    // Links of every kind were checked, those of srcdoc documents too.
    expect(checked).toBe(56);
    expect(inSrcdoc).toBe(5);
    expect(keptAbsolute).toEqual(["cdn.html: a href https://example.com/blog/", "cdn.html: a href https://example.com/docs/"]);
  }, 120_000);
});
