// Issue 28: a page over 8 MiB, which `check` reads as a stream, has the fragments of its links checked (into
// itself, before and after the ids they name, and into other pages) and so have the links of other pages into it:
// the same findings as the same page read whole. The two sites differ in one line only, the first, which is long
// in one (past the streaming threshold, STREAMING_SIZE) and short in the other: lines and columns agree.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, docbase, ensureBuilt, findingsOf, temporaryDirectory } from "./helpers.ts";

beforeAll(ensureBuilt, 120_000);
afterAll(cleanup, 120_000);

const url = "https://example.com/";
const MiB = 1024 * 1024;

const body = `
<h1 id=top-of-big>t</h1> <a name=anchor></a> <template><p id=in-template></p></template>
<a href="#top-of-big">ok</a> <a href="#nope">missing</a> <a href="big.html#anchor">ok</a> <a href="big.html#gone">missing</a>
<a href="other.html#there">ok</a> <a href="other.html#gone">missing</a> <a href="#in-template">missing</a>
<a href="#later">ok: an id after the link</a> <p id=later></p> <a href="#top">top</a> <a href="#">empty</a> <a href="#%C3%A9t%C3%A9">ok</a> <p id="été"></p>
`;
const other = `<p id=there></p>\n<a href="big.html#anchor">ok</a> <a href="big.html#missing-in-big">missing</a> <a href="big.html#later">ok</a> <a href="big.html#in-template">missing</a>`;

/** The site with big.html's first line `padding` bytes long or so. */
function site(dir: string, padding: number, extra = ""): string {
  mkdirSync(dir);
  writeFileSync(path.join(dir, "big.html"), `<!doctype html><meta charset=utf-8><title>t</title><p>${"lorem ipsum ".repeat(Math.ceil(padding / 12))}</p>${body}${extra}`);
  writeFileSync(path.join(dir, "other.html"), other);
  return dir;
}

describe("check of a page read as a stream (over 8 MiB): its fragments, and those of links into it", () => {
  const dir = temporaryDirectory();
  const big = path.join(dir, "big");
  const small = path.join(dir, "small");
  beforeAll(() => {
    site(big, 8.5 * MiB);
    site(small, 10);
  });
  /** The findings with the site's directory as "SITE". */
  const relative = (stdout: string, root: string) => findingsOf(stdout.replaceAll(root, "SITE"));

  it("a site walk: the same findings as the page read whole, nothing left unchecked", async () => {
    const streamed = await docbase(["check", big, "--url", url, "--json", "-q"]);
    const whole = await docbase(["check", small, "--url", url, "--json", "-q"]);
    expect(whole.stderr).toBe("");
    expect(streamed.stderr).toBe("");
    expect(streamed.code).toBe(1);
    const found = relative(streamed.stdout, big);
    expect(found).toEqual(relative(whole.stdout, small));
    // Not vacuous: each kind of fragment the page and its neighbour miss is there.
    expect(found.filter((f) => f["type"] === "missing-fragment").map((f) => `${f["file"]} ${f["value"]}`)).toEqual([
      "SITE/big.html #nope",
      "SITE/big.html big.html#gone",
      "SITE/big.html other.html#gone",
      "SITE/big.html #in-template",
      "SITE/other.html big.html#missing-in-big",
      "SITE/other.html big.html#in-template",
    ]);
  }, 120_000);

  it("the page alone, and every format: the same report as read whole", async () => {
    for (const format of ["text", "markdown", "junit"]) {
      const streamed = await docbase(["check", path.join(big, "big.html"), "--url", `${url}big.html`, "--format", format, "-q"]);
      const whole = await docbase(["check", path.join(small, "big.html"), "--url", `${url}big.html`, "--format", format, "-q"]);
      expect(streamed.stdout.replaceAll(big, "SITE"), format).toBe(whole.stdout.replaceAll(small, "SITE"));
      expect(streamed.stdout).toContain("#nope");
    }
  }, 120_000);

  it("its <base> elements: the same base-URL surprises as read whole, in every format", async () => {
    // After 8.5 MiB of relative links: a <base> in the body that sets the base URL, a second one, one in a template, one in a shadow root.
    const bases = `<base href="/moved/"><base href="/second/"><template><base href="/t/"></template><div><template shadowrootmode=open><base href="/s/"></template></div>`;
    const streamedSite = site(path.join(dir, "bases"), 8.5 * MiB, bases);
    const wholeSite = site(path.join(dir, "bases-whole"), 10, bases);
    const streamed = await docbase(["check", streamedSite, "--url", url, "--json", "-q"]);
    const whole = await docbase(["check", wholeSite, "--url", url, "--json", "-q"]);
    expect(streamed.stderr).toBe("");
    const baseFindings = (stdout: string, root: string) => relative(stdout, root).filter((f) => f["category"] === "base-url");
    const found = baseFindings(streamed.stdout, streamedSite);
    expect(found.map((f) => f["type"]).sort()).toEqual(["base-after-links", "base-in-body", "base-in-body", "base-in-shadow-root", "base-in-template", "base-not-first"]);
    expect(found).toEqual(baseFindings(whole.stdout, wholeSite));
    for (const format of ["text", "markdown", "junit", "sarif"]) {
      const one = await docbase(["check", path.join(streamedSite, "big.html"), "--url", `${url}big.html`, "--format", format, "-q"]);
      const other = await docbase(["check", path.join(wholeSite, "big.html"), "--url", `${url}big.html`, "--format", format, "-q"]);
      expect(one.stdout.replaceAll(streamedSite, "SITE"), format).toBe(other.stdout.replaceAll(wholeSite, "SITE"));
    }
  }, 240_000);

  it("a <base> whose tree order only the tree tells (foster parenting before its table): the page is held whole, and its findings are all there", async () => {
    // The first pass cannot settle the base URL; the stream then holds the page whole (up to --max-file-size) and reads it so.
    const extra = `<table><tr><td><base href="/in-table/"></td></tr><div><base href="/fostered/"></div></table>`;
    const fostered = site(path.join(dir, "fostered"), 8.5 * MiB, extra);
    const fosteredWhole = site(path.join(dir, "fostered-whole"), 10, extra);
    const run = await docbase(["check", fostered, "--url", url, "--json", "-q"]);
    const whole = await docbase(["check", fosteredWhole, "--url", url, "--json", "-q"]);
    expect(run.stderr).toBe("");
    const found = relative(run.stdout, fostered);
    expect(found.filter((f) => f["category"] === "base-url").map((f) => `${f["type"]} ${f["value"]}`).sort()).toEqual([
      "base-after-links /fostered/",
      "base-in-body /fostered/",
      "base-in-body /in-table/",
      "base-not-first /in-table/",
    ]);
    expect(found).toEqual(relative(whole.stdout, fosteredWhole));
  }, 120_000);

  it("more <base> elements than the stream keeps: not checked, and the run says so", async () => {
    const many = site(path.join(dir, "many-bases"), 8.5 * MiB, '<base href="/b/">'.repeat(4097));
    const run = await docbase(["check", many, "--url", url, "--json", "-q"]);
    expect(run.stderr).toBe(`docbase: warning: ${path.join(many, "big.html")}: read as a stream (8.6 MiB): its <base> elements (more than 4,096, or their tree order needs the whole page, larger than --max-file-size) are not checked\n`);
    expect(findingsOf(run.stdout).some((f) => f["category"] === "base-url")).toBe(false);
  }, 120_000);

  it("an about:srcdoc fragment in its srcdoc documents is not checked, and the run says so", async () => {
    const iframe = `<iframe srcdoc="<a href=about:srcdoc#x>x</a> <a href=about:srcdoc#y>y</a><p id=x>"></iframe>`;
    const srcdoc = site(path.join(dir, "srcdoc"), 8.5 * MiB, iframe);
    const run = await docbase(["check", srcdoc, "--url", url, "--json", "-q"]);
    expect(run.stderr).toBe(`docbase: warning: ${path.join(srcdoc, "big.html")}: read as a stream (8.5 MiB): the fragments of the 2 about:srcdoc links in its srcdoc documents are not checked\n`);
    expect(findingsOf(run.stdout).some((f) => f["value"] === "about:srcdoc#y")).toBe(false);
    // Read whole, the missing one is found.
    const whole = await docbase(["check", site(path.join(dir, "srcdoc-whole"), 10, iframe), "--url", url, "--json", "-q"]);
    expect(findingsOf(whole.stdout).filter((f) => f["type"] === "missing-fragment" && String(f["value"]).startsWith("about:")).map((f) => f["value"])).toEqual(["about:srcdoc#y"]);
  }, 120_000);
});
