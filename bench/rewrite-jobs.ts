/**
 * Question: what do the rewrite jobs cost next to the plainest rewrite,
 * `absolutize()`, on real pages? The portable rewrite resolves each link's
 * new reference twice (at the site's root and at an unrelated one) and
 * `mapURLs` looks each link up in a map; both must stay within 1.5x of
 * `absolutize()`'s time (most of which is reading the page).
 *
 * Corpus: the four `html-*.html.gz` documents of ../shared/corpus/ (see its
 * README), each at the base URL the README lists, as strings. The site's
 * root is the origin of that URL; the map has one entry for every third
 * distinct URL into the site. Contenders, interleaved (see harness.ts):
 * `absolutize()`, `relativize()` (shortest), `relativize({ root })`
 * (portable), `relativize({ root, indexFile })`, `mapURLs(map)`, and
 * `rebase(root, cdn, { filter: only resources })`.
 *
 * Consumer work: the length of the rewritten page.
 *
 *   node_modules/.bin/node --expose-gc bench/rewrite-jobs.ts [--quick] [--rounds=N]
 *
 * @module
 */

import { absolutize, extractLinks, linkFilter, mapURLs, readURLMap, rebase, relativize, rewriteLinks, type Link } from "../src/links/index.ts";
import { compare, defaultOptions, heading, measure, printComparisons, printEnvironment, printTable, readCorpus, sinkValue, type Contender } from "./harness.ts";

const documents = [
  { file: "html-whatwg-html5-spec-2009.html.gz", base: "https://www.whatwg.org/specs/web-apps/current-work/" },
  { file: "html-whatwg-spec-excerpt-2015.html.gz", base: "https://html.spec.whatwg.org/multipage/" },
  { file: "html-wikipedia-911-victims-list.html.gz", base: "https://en.wikipedia.org/wiki/List_of_victims_of_the_September_11_attacks" },
  { file: "html-wikipedia-new-zealand.html.gz", base: "https://en.wikipedia.org/wiki/New_Zealand" },
];

const options = defaultOptions();
printEnvironment("the rewrite jobs next to absolutize()", options);

for (const { file, base } of documents) {
  const html = readCorpus(file);
  const root = `${new URL(base).origin}/`;
  const urls = [...new Set(extractLinks(html, { url: base }).map((link) => link.url))].filter((url): url is string => url !== null && url.startsWith(root));
  const entries = Object.fromEntries(urls.filter((_, i) => i % 3 === 0).map((url, i) => [url.replace(/#.*$/, ""), `${root}moved/${i}.html`]));
  const { map } = readURLMap(JSON.stringify(entries), { root });
  const job = (name: string, rewrite: () => (link: Link) => string | undefined): Contender<string> => ({ name, run: (page) => rewriteLinks(page, { url: base, rewrite: rewrite() }).length });
  const contenders = [
    job("absolutize()", () => absolutize()),
    job("relativize() shortest", () => relativize()),
    job("relativize({ root }) portable", () => relativize({ root })),
    job("portable + indexFile", () => relativize({ root, indexFile: "index.html" })),
    job("mapURLs(map)", () => mapURLs(map)),
    job("rebase, only resources", () => rebase(root, "https://cdn.example.net/", { filter: linkFilter({ only: "resources" }) })),
  ];
  heading(`${file} (${html.length.toLocaleString("en-US")} chars, ${urls.length.toLocaleString("en-US")} distinct URLs into ${root}, ${Object.keys(entries).length} mapped)`);
  const m = measure(html, 1, contenders, options);
  printTable(m, "page");
  printComparisons(
    compare(
      m,
      contenders.slice(1).map((c) => (c.name === "relativize() shortest" ? { subject: c.name, peer: "absolutize()" } : { subject: c.name, peer: "absolutize()", target: 1 / 1.5 })),
    ),
  );
}
console.log(`\n(sink ${sinkValue()})`);
