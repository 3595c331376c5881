/**
 * Question: how much memory does `extractLinks` take on one large page?
 * The 2015 spec excerpt of the corpus repeated `--copies` times (default
 * 55, about 50 M code units), extracted once; run it under
 * `/usr/bin/time -f %M` for the process's peak resident set (the string
 * alone is made before extraction; its size and the resident set then are
 * printed).
 *
 *   /usr/bin/time -f "%M KB peak" node_modules/.bin/node bench/extract-memory.ts [--copies=55]
 *
 * @module
 */

import { readdirSync } from "node:fs";
import { extractLinks } from "../src/links/index.ts";
import { corpusDir, readCorpus } from "./harness.ts";

const copies = Number(process.argv.find((a) => a.startsWith("--copies="))?.slice(9) ?? 55);
const file = readdirSync(corpusDir).find((f) => f.startsWith("html-") && f.includes("2015"));
if (file === undefined) throw new Error("no 2015 corpus page");
const html = readCorpus(file).repeat(copies);
const before = process.memoryUsage().rss;
const started = process.cpuUsage();
const links = extractLinks(html, { url: "https://html.spec.whatwg.org/multipage/" });
const cpu = process.cpuUsage(started);
console.log(
  `${(html.length / 1e6).toFixed(1)} M code units, ${links.length} links; resident before extraction ${(before / 1e6).toFixed(0)} MB; ` +
    `extraction ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s of CPU`,
);
