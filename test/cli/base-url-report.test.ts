// The command's <base> report and its "cannot be decoded" check, from the links layer's one reading
// (readLinks + baseURLReport), over every HTML fixture of the tests, the example site and generated cases,
// against base-url-report.expected.json. Those values are what the command's second reading (a parse5 parse
// and html-encoding-sniffer's sniffing, removed since) gave, where the one reading agreed with it — everywhere
// but the two cases of `changes` below, where the expected values follow the HTML Standard.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { baseURLReport } from "../../src/cli/base-url-report.ts";
import { readLinks } from "../../src/links/internal.ts";
import { repo } from "./helpers.ts";

/** Every file under `dir` (relative to the repository) whose name matches `pattern`. */
function filesUnder(dir: string, pattern: RegExp): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(path.join(repo, at), { withFileTypes: true })) {
      const rel = `${at}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (pattern.test(entry.name)) found.push(rel);
    }
  };
  walk(dir);
  return found.sort();
}

interface Case {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly url: string;
  readonly encoding?: string | undefined;
}

const utf8 = (html: string): Uint8Array => new TextEncoder().encode(html);
const url = "https://example.com/docs/page.html";
const late = `<title>${"t".repeat(1100)}</title>`;

/** Generated documents: each place a <base href> can be, each kind of href, each way an encoding is decided. */
const generated: Case[] = [
  ["base in template contents", '<template><base href="/t/"></template><a href=x>'],
  ["base in nested template contents", '<template><template><base href="/t/"></template></template><base href="/b/"><a href=x>'],
  ["base in a declarative shadow root", '<div><template shadowrootmode=open><base href="/s/"></template></div><a href=x>'],
  ["base in a closed declarative shadow root, then one in the head", '<div><template shadowrootmode=closed><base href="/s/"></template></div><base href="/b/">'],
  ["base in a template in a shadow root", '<div><template shadowrootmode=open><template><base href="/s/"></template></template></div>'],
  ["second shadowrootmode template (not attached)", '<div><template shadowrootmode=open></template><template shadowrootmode=open><base href="/s/"></template></div>'],
  ["base in body", '<p>text<base href="/b/"><a href=x>'],
  ["base in body after links", '<a href=x>x</a><img src=i.png><p><base href="/b/">'],
  ["base after links in the head", '<link href=a.css><script src=s.js></script><base href="/v2/"><a href=b>'],
  ["base after absolute links only", '<link href="https://cdn.example/a.css"><base href="/v2/"><a href=b>'],
  ["base after a form without action", '<form></form><base href="/v2/">'],
  ["base in a table (foster parented)", '<table><base href="/t/"><tr><td>x</td></tr></table>'],
  ["base in svg", '<svg><base href="/svg/"></svg><base href="/b/">'],
  ["base in a srcdoc document", `<iframe srcdoc='<base href="/s/"><a href=x>'></iframe><a href=y>`],
  ["unusable data: base", '<base href="data:,x"><a href=y>'],
  ["unusable javascript: base", '<base href="javascript:void(0)"><base href="/second/"><a href=y>'],
  ["unusable JavaScript: base in capitals", '<base href="JavaScript:x"><a href=y>'],
  ["unparsable base", '<base href="http://[bad/"><a href=y>'],
  ["empty base href", '<base href=""><a href=y>'],
  ["spaced base href", '<base href="  /spaced/  "><a href=y>'],
  ["base href with a character reference", '<base href="&#x2F;ref/"><a href=y>'],
  ["fragment-only base href", '<base href="#frag"><a href=y>'],
  ["base without href, then one with", '<base target=_blank><base href="/b/"><a href=y>'],
  ["several bases", '<base href="/one/"><base href="/two/"><base href="data:,x"><a href=y>'],
  ["base with a query in the document's encoding", '<meta charset=windows-1252><base href="/q/?é"><a href=y>'],
  ["frameset", '<base href="/f/"><frameset><frame src=a.html></frameset>'],
  ["no base", "<a href=x>y</a>"],
  ["empty document", ""],
].map(([name, html]) => ({ name: name!, bytes: utf8(html!), url }));

/** Generated encodings: legacy bytes, declarations early and late, a BOM, UTF-16, the replacement encoding. */
generated.push(
  { name: "shift_jis with an early meta", bytes: iconv.encode('<meta charset=shift_jis><base href="/日本/?q=語"><a href=x>', "shift_jis"), url },
  { name: "windows-1252 by default", bytes: iconv.encode('<base href="/café/?q=é"><a href=x>', "windows-1252"), url },
  { name: "late meta charset (past 1024 bytes)", bytes: iconv.encode(`${late}<meta charset=euc-kr><base href="/b/?q=한"><a href=x>`, "euc-kr"), url },
  { name: "late meta charset, no links", bytes: iconv.encode(`${late}<meta charset=koi8-r><p>текст`, "koi8-r"), url },
  { name: "late meta http-equiv", bytes: iconv.encode(`${late}<meta http-equiv=content-type content="text/html; charset=gbk"><base href="/中/"><a href=x>`, "gbk"), url },
  { name: "late replacement-encoding meta", bytes: utf8(`${late}<meta charset=iso-2022-kr><base href="/b/"><a href=x>`), url },
  { name: "early replacement-encoding meta", bytes: utf8('<meta charset="csiso2022kr"><base href="/x/">'), url },
  { name: "replacement encoding given", bytes: utf8('<base href="/x/">'), url, encoding: "hz-gb-2312" },
  { name: "UTF-8 BOM", bytes: utf8('\uFEFF<meta charset=windows-1252><base href="/é/?q=é"><a href=x>'), url },
  { name: "UTF-8 BOM and a given encoding", bytes: utf8('\uFEFF<base href="/é/"><a href=x>'), url, encoding: "shift_jis" },
  { name: "UTF-16LE with a BOM", bytes: iconv.encode('\uFEFF<base href="/é/?q=é"><a href=x>', "utf-16le"), url },
  { name: "UTF-16BE with a BOM", bytes: iconv.encode('\uFEFF<meta charset=utf-8><base href="/é/"><a href=x>', "utf-16be"), url },
  { name: "UTF-16LE given, no BOM", bytes: iconv.encode('<base href="/é/?q=é"><a href=x>', "utf-16le"), url, encoding: "utf-16le" },
  { name: "meta charset=utf-16 (read as UTF-8)", bytes: utf8('<meta charset=utf-16><base href="/é/?q=é"><a href=x>'), url },
  { name: "given encoding over a meta", bytes: iconv.encode('<meta charset=shift_jis><base href="/é/?q=é"><a href=x>', "windows-1252"), url, encoding: "windows-1252" },
  { name: "about:blank document", bytes: utf8('<base href="x/"><a href=y>'), url: "about:blank" },
  { name: "about:srcdoc document URL", bytes: utf8('<base href="/b/"><a href=y>'), url: "about:srcdoc" },
);

/** The fixtures: every HTML file of test/fixtures (the corpus pages unzipped) and of the example site. */
function fixtureCases(): Case[] {
  const cases: Case[] = [];
  for (const file of [...filesUnder("test/fixtures", /\.(x?html?)$/), ...filesUnder("examples", /\.html?$/)]) {
    const bytes = new Uint8Array(readFileSync(path.join(repo, file)));
    const at = file.startsWith("examples/site/") ? `https://example.com/${file.slice("examples/site/".length)}` : `https://web-platform.test/${file}`;
    cases.push({ name: file, bytes, url: at });
    cases.push({ name: `${file} (as windows-1252)`, bytes, url: at, encoding: "windows-1252" });
  }
  for (const file of filesUnder("test/fixtures/corpus", /^html-.*\.html\.gz$/)) {
    cases.push({ name: file, bytes: new Uint8Array(gunzipSync(readFileSync(path.join(repo, file)))), url: `https://example.org/${path.basename(file, ".gz")}` });
  }
  return cases;
}

/**
 * Where the one reading and the second reading differed, and the one reading follows the HTML Standard: a
 * `<meta>` past the prescan's 1024 bytes still changes the encoding when the parser meets it
 * (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing: "navigate to
 * the document again ... set the encoding to the new encoding"), where the second sniffing stopped at the
 * prescan (windows-1252, decodable).
 */
const changes: Record<string, unknown> = {
  "late meta charset, no links": "KOI8-R",
  "late replacement-encoding meta": "undecodable",
};

const expected = JSON.parse(readFileSync(path.join(repo, "test/cli/base-url-report.expected.json"), "utf8")) as Record<string, unknown>;

describe("the <base> report from one reading", () => {
  const cases = [...generated, ...fixtureCases()];

  it("has an expected value for every case, and no other", () => {
    expect(Object.keys(expected).sort()).toEqual(cases.map((c) => c.name).sort());
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const read = readLinks(c.bytes, { url: c.url, encoding: c.encoding }, { bases: true });
    expect(read.undecodable ? "undecodable" : baseURLReport(read, c.url)).toEqual(expected[c.name]);
  });

  it("follows the HTML Standard where the second reading did not: a late <meta> changes the encoding", () => {
    expect((expected["late meta charset, no links"] as { encoding: string }).encoding).toBe(changes["late meta charset, no links"]);
    expect(expected["late replacement-encoding meta"]).toBe(changes["late replacement-encoding meta"]);
  });

  it("reads the statuses of the generated places as the HTML Standard has them", () => {
    const statuses = (name: string): unknown => (expected[name] as { bases: { status: string; inBody: boolean }[] }).bases.map((b) => [b.status, b.inBody]);
    expect(statuses("base in template contents")).toEqual([["in-template", false]]);
    expect(statuses("base in a declarative shadow root")).toEqual([["in-shadow-root", false]]);
    expect(statuses("second shadowrootmode template (not attached)")).toEqual([["in-template", false]]);
    expect(statuses("base in body")).toEqual([["used", true]]);
    expect(statuses("several bases")).toEqual([["used", false], ["not-first", false], ["not-first", false]]);
    expect(statuses("unusable javascript: base")).toEqual([["unusable", false], ["not-first", false]]);
    expect(expected["base after links in the head"]).toMatchObject({ derivation: "base", linksBeforeBase: { count: 2, first: { line: 1, column: 12 } } });
    expect(expected["UTF-16LE with a BOM"]).toMatchObject({ encoding: "UTF-16LE", documentBaseURL: "https://example.com/%C3%A9/?q=%C3%A9" });
    expect(expected["late meta charset (past 1024 bytes)"]).toMatchObject({ encoding: "EUC-KR" });
  });
});
