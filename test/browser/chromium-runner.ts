/**
 * Runs the generated documents in headless Chromium (Debian's
 * /usr/bin/chromium, driven by playwright-core): one browser, one page;
 * each batch of documents is one page load (one iframe per document) and one
 * `page.evaluate` that runs every document's program and returns every
 * value at once.
 *
 * Nothing but 127.0.0.1 is ever contacted: the documents' CSP confines loads
 * to the local server, host names do not resolve (--host-resolver-rules),
 * and any request for another origin is aborted.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import type { GeneratedDocument, Observation } from "./cases.ts";
import { evaluatePrograms, type DocumentProgram } from "./probe-evaluator.ts";
import type { LocalServer } from "./server.ts";

/** Debian's chromium, or the browser DOCBASE_CHROMIUM names. */
export const chromiumPath: string = process.env["DOCBASE_CHROMIUM"] ?? "/usr/bin/chromium";

export const chromiumArgs: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  // Belt and braces for the closed network: no host name resolves, only the local server's address.
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
];

export function chromiumAvailable(): boolean {
  return existsSync(chromiumPath);
}

/**
 * Whether the browser suites must run: `DOCBASE_REQUIRE_CHROMIUM=1` (set by
 * .ci/run) makes a missing Chromium a failure; otherwise the suites are
 * skipped where Chromium is missing, and test/global-setup.ts says so in one
 * line.
 */
export function chromiumRequired(): boolean {
  return process.env["DOCBASE_REQUIRE_CHROMIUM"] === "1";
}

/** Whether the browser suites run here (Chromium present, or required and so failing loudly). */
export function browserSuitesRun(): boolean {
  return chromiumAvailable() || chromiumRequired();
}

/** The one line printed when the browser suites are skipped. */
export const browserSuitesSkippedLine =
  `Skipped: the Chromium suites (test/browser) — ${chromiumPath} not found. ` +
  "Install Debian's chromium (apt-get install chromium) or name one with DOCBASE_CHROMIUM=/path to run them; DOCBASE_REQUIRE_CHROMIUM=1 makes a missing Chromium a failure, as in CI.";

export interface ChromiumRun {
  /** `Chromium 156.0.…` */
  readonly version: string;
  readonly observations: ReadonlyMap<string, Observation>;
  readonly milliseconds: number;
}

export interface ChromiumRunOptions {
  /** Documents per page load (default 25). */
  readonly batchSize?: number;
  readonly log?: (line: string) => void;
}

/** The source of the in-page program, sent as text (see ./probe-evaluator.ts). */
function programSource(programs: readonly DocumentProgram[]): string {
  // JSON.stringify escapes lone surrogates, so script-set inputs with them survive the trip both ways.
  return `(async () => JSON.stringify(await (${evaluatePrograms.toString()})(window, ${JSON.stringify(programs)})))()`;
}

function batchPage(documents: readonly GeneratedDocument[]): string {
  const frames = documents.map((d, i) => `<iframe id="d${i}" src="${d.path.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></iframe>`);
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>docbase browser batch</title></head><body>\n${frames.join("\n")}\n</body></html>`;
}

/** Loads every document in Chromium and collects every read. */
export async function runChromium(documents: readonly GeneratedDocument[], server: LocalServer, options: ChromiumRunOptions = {}): Promise<ChromiumRun> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 25;
  const batches: GeneratedDocument[][] = [];
  for (let i = 0; i < documents.length; i += batchSize) batches.push(documents.slice(i, i + batchSize));
  server.serve(
    documents.flatMap((d) => d.resources),
    batches.map((b) => batchPage(b)),
  );
  let browser: Browser | null = null;
  const observations = new Map<string, Observation>();
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
    const version = `Chromium ${browser.version()}`;
    const context = await browser.newContext();
    const origin = `${server.origin}/`;
    await context.route(
      (url) => !url.href.startsWith(origin),
      (route) => route.abort("blockedbyclient"),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    page.on("dialog", (dialog) => void dialog.dismiss());
    for (const [n, batch] of batches.entries()) {
      const loadStarted = Date.now();
      await page.goto(server.batchURL(n), { waitUntil: "load" });
      const loaded = Date.now();
      const programs: DocumentProgram[] = batch.map((d, i) => ({ id: d.id, root: [`d${i}`], actions: d.actions }));
      const json = (await page.evaluate(programSource(programs))) as string;
      const result = JSON.parse(json) as Record<string, Observation>;
      for (const [id, observation] of Object.entries(result)) observations.set(id, observation);
      options.log?.(`chromium: batch ${n + 1}/${batches.length} (${batch.length} documents): loaded in ${loaded - loadStarted} ms, read in ${Date.now() - loaded} ms`);
    }
    return { version, observations, milliseconds: Date.now() - started };
  } finally {
    await browser?.close();
  }
}
