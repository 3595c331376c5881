/**
 * The whole differential run: generate, serve, run in Chromium, check the
 * harness, compare Chromium with the standard (the list of known browser
 * deviations) and every docbase layer with the standard, and sum it up.
 *
 * Used by chromium.test.ts and by the command line (./run.ts).
 *
 * @module
 */

import { writeFileSync } from "node:fs";
import type { GeneratedDocument, ModelContext, Observation, ReadAction } from "./cases.ts";
import { runChromium } from "./chromium-runner.ts";
import { checkDeviations, describeRead, normalize, readDeviationList, standardValue, type Deviation, type DeviationCheck } from "./classify.ts";
import { docbaseLayers, type DocbaseLayer } from "./docbase-layers.ts";
import { generateSuite, type Suite } from "./generate.ts";
import { startServer } from "./server.ts";

/** One place where docbase differs from the standard. */
export interface OurFailure {
  readonly layer: string;
  readonly id: string;
  readonly input: string;
  readonly docbase: string | null;
  readonly expected: string;
  readonly chromium: string | null;
}

export interface LayerFigures {
  readonly name: string;
  readonly description: string;
  readonly level: "url" | "document";
  /** Set when the layer has not landed. */
  readonly unavailable?: string;
  /** Reads the layer answered. */
  readonly compared: number;
  /** docbase = standard = Chromium. */
  readonly agreed: number;
  /** docbase = standard ≠ Chromium. */
  readonly knownBrowserDeviations: number;
  /** docbase ≠ standard. */
  readonly ourFailures: number;
  readonly failures: readonly OurFailure[];
  readonly milliseconds: number;
}

export interface DifferentialReport {
  readonly chromium: string;
  readonly seed: string;
  readonly origin: string;
  readonly documents: number;
  readonly reads: number;
  readonly chromiumMilliseconds: number;
  /** Problems of the harness itself (a read that threw, a mutation that failed, an attribute the browser decoded otherwise): each fails the run. */
  readonly harnessErrors: readonly string[];
  /** Chromium against the standard. */
  readonly browser: { readonly compared: number; readonly agreed: number; readonly deviations: readonly Deviation[] };
  readonly deviationCheck: DeviationCheck;
  readonly layers: readonly LayerFigures[];
  readonly suite: Suite;
  readonly observations: ReadonlyMap<string, Observation>;
}

export interface DifferentialOptions {
  readonly seed?: string;
  readonly categories?: readonly string[];
  readonly layers?: readonly DocbaseLayer[];
  readonly log?: (line: string) => void;
}

function readsOf(document: GeneratedDocument): ReadAction[] {
  return document.actions.filter((a): a is ReadAction => a.t === "get" || a.t === "doc" || a.t === "set");
}

export async function runDifferential(options: DifferentialOptions = {}): Promise<DifferentialReport> {
  const log = options.log ?? (() => {});
  const server = await startServer();
  let suite: Suite;
  let run: Awaited<ReturnType<typeof runChromium>>;
  const layerList = options.layers ?? docbaseLayers;
  try {
    suite = generateSuite({ origin: server.origin, ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.categories === undefined ? {} : { categories: options.categories }) });
    log(`generated ${suite.documents.length} documents (seed ${suite.seed})`);
    run = await runChromium(suite.documents, server, { log });
  } finally {
    await server.close();
  }
  // docbase's layers run after Chromium, one at a time: on a small machine, running them
  // beside the browser only slows the browser down.
  const layerInput = { suite, observations: Promise.resolve(run.observations) };
  const layerRuns: { answers: Awaited<ReturnType<DocbaseLayer["run"]>>; milliseconds: number }[] = [];
  for (const layer of layerList) {
    const started = Date.now();
    const answers = await layer.run(layerInput);
    layerRuns.push({ answers, milliseconds: Date.now() - started });
  }
  const { observations } = run;
  const origin = suite.origin;

  // The harness: every read observed without error, every mutation done, every attribute as meant.
  const harnessErrors: string[] = [];
  const deviations: Deviation[] = [];
  let compared = 0;
  let agreed = 0;
  const index = new Map<string, { document: GeneratedDocument; action: ReadAction }>();
  for (const document of suite.documents) {
    for (const action of readsOf(document)) {
      index.set(action.id, { document, action });
      const o = observations.get(action.id);
      if (o === undefined) {
        harnessErrors.push(`${action.id}: no value from Chromium`);
        continue;
      }
      if (o.err !== undefined) {
        harnessErrors.push(`${action.id}: threw in Chromium: ${o.err}`);
        continue;
      }
      const model = document.model[action.id];
      if (action.t === "get" && model !== undefined && "attr" in model && (o.a ?? null) !== (model as ModelContext).attr) {
        harnessErrors.push(`${action.id}: Chromium has attribute ${JSON.stringify(o.a)}, the generator meant ${JSON.stringify((model as ModelContext).attr)}`);
        continue;
      }
      const expected = standardValue(document, action, "document");
      if (expected === undefined) {
        harnessErrors.push(`${action.id}: no standard value`);
        continue;
      }
      compared += 1;
      if (o.v === expected) agreed += 1;
      else deviations.push({ id: action.id, chromium: o.v, expected, input: describeRead(document, action, origin), document, action });
    }
  }
  for (const [id, o] of observations) if (id.includes("/!")) harnessErrors.push(`${id}: a mutation failed in Chromium: ${o.err}`);
  const deviationCheck = checkDeviations(deviations, readDeviationList(), origin);

  // docbase's layers.
  const layers: LayerFigures[] = [];
  for (const [n, layer] of layerList.entries()) {
    const { answers, milliseconds } = layerRuns[n] as (typeof layerRuns)[number];
    if (!(answers instanceof Map)) {
      const reason = (answers as { unavailable: string }).unavailable;
      log(`layer ${layer.name}: unavailable (${reason})`);
      layers.push({ name: layer.name, description: layer.description, level: layer.level, unavailable: reason, compared: 0, agreed: 0, knownBrowserDeviations: 0, ourFailures: 0, failures: [], milliseconds: 0 });
      continue;
    }
    let layerCompared = 0;
    let layerAgreed = 0;
    let known = 0;
    const failures: OurFailure[] = [];
    for (const [id, value] of answers) {
      const entry = index.get(id);
      const o = observations.get(id);
      if (entry === undefined || o === undefined || o.err !== undefined) continue;
      const expected = standardValue(entry.document, entry.action, layer.level, o);
      if (expected === undefined) continue;
      layerCompared += 1;
      if (value === expected) {
        if (o.v === value) layerAgreed += 1;
        else known += 1;
      } else {
        failures.push({
          layer: layer.name,
          id,
          input: normalize(describeRead(entry.document, entry.action, origin), origin) as string,
          docbase: normalize(value, origin),
          expected: normalize(expected, origin) as string,
          chromium: normalize(o.v, origin),
        });
      }
    }
    log(`layer ${layer.name}: ${layerCompared} compared, ${layerAgreed} agreed, ${known} known browser deviations, ${failures.length} our failures (${milliseconds} ms)`);
    layers.push({
      name: layer.name,
      description: layer.description,
      level: layer.level,
      compared: layerCompared,
      agreed: layerAgreed,
      knownBrowserDeviations: known,
      ourFailures: failures.length,
      failures,
      milliseconds,
    });
  }
  return {
    chromium: run.version,
    seed: suite.seed,
    origin,
    documents: suite.documents.length,
    reads: index.size,
    chromiumMilliseconds: run.milliseconds,
    harnessErrors,
    browser: { compared, agreed, deviations },
    deviationCheck,
    layers,
    suite,
    observations,
  };
}

/** The figures for the README: test/browser/agreement.json. */
export function agreementFigures(report: DifferentialReport): Record<string, unknown> {
  const reasons: Record<string, number> = {};
  for (const [reason, n] of [...report.deviationCheck.confirmed].sort((a, b) => b[1] - a[1])) reasons[reason] = n;
  return {
    comment: "Written by test/browser/chromium.test.ts (and node test/browser/run.ts): the browser differential suite's figures.",
    chromium: report.chromium,
    seed: report.seed,
    documents: report.documents,
    reads: report.reads,
    browserVsStandard: {
      compared: report.browser.compared,
      agreed: report.browser.agreed,
      knownBrowserDeviations: report.browser.deviations.length,
      unlisted: report.deviationCheck.unlisted.length,
      changed: report.deviationCheck.changed.length,
      disappeared: report.deviationCheck.disappeared.length,
      byReason: reasons,
    },
    docbase: Object.fromEntries(
      report.layers.map((l) => [
        l.name,
        l.unavailable !== undefined
          ? { unavailable: l.unavailable }
          : { level: l.level, compared: l.compared, agreed: l.agreed, knownBrowserDeviations: l.knownBrowserDeviations, ourFailures: l.ourFailures },
      ]),
    ),
  };
}

export const agreementFile = new URL("./agreement.json", import.meta.url);

export function writeAgreement(report: DifferentialReport): void {
  writeFileSync(agreementFile, `${JSON.stringify(agreementFigures(report), null, 2)}\n`);
}

/** A human summary: the figures, then the problems. */
export function summarize(report: DifferentialReport, limit = 30): string {
  const lines: string[] = [];
  const pct = (a: number, b: number): string => (b === 0 ? "–" : `${((100 * a) / b).toFixed(2)}%`);
  lines.push(`${report.chromium}, seed ${report.seed}: ${report.documents} documents, ${report.reads} reads, Chromium ran in ${(report.chromiumMilliseconds / 1000).toFixed(1)} s`);
  lines.push(
    `Chromium vs standard: ${report.browser.compared} compared, ${report.browser.agreed} agreed (${pct(report.browser.agreed, report.browser.compared)}), ${report.browser.deviations.length} deviations (${report.deviationCheck.unlisted.length} unlisted, ${report.deviationCheck.changed.length} changed, ${report.deviationCheck.disappeared.length} listed but gone)`,
  );
  for (const l of report.layers) {
    if (l.unavailable !== undefined) lines.push(`  docbase ${l.name}: not run — ${l.unavailable}`);
    else
      lines.push(
        `  docbase ${l.name} (${l.level} level): ${l.compared} compared, ${l.agreed} agreed, ${l.knownBrowserDeviations} known browser deviations, ${l.ourFailures} our failures`,
      );
  }
  if (report.harnessErrors.length > 0) {
    lines.push(`HARNESS ERRORS (${report.harnessErrors.length}):`);
    for (const e of report.harnessErrors.slice(0, limit)) lines.push(`  ${e}`);
  }
  const origin = report.origin;
  if (report.deviationCheck.unlisted.length > 0) {
    lines.push(`NEW BROWSER DEVIATIONS, not in known-browser-deviations.json (${report.deviationCheck.unlisted.length}):`);
    for (const d of report.deviationCheck.unlisted.slice(0, limit))
      lines.push(`  ${d.id}: ${normalize(d.input, origin)}: chromium ${JSON.stringify(normalize(d.chromium, origin))}, standard ${JSON.stringify(normalize(d.expected, origin))}`);
  }
  if (report.deviationCheck.changed.length > 0) {
    lines.push(`CHANGED BROWSER DEVIATIONS (${report.deviationCheck.changed.length}):`);
    for (const { listed, now } of report.deviationCheck.changed.slice(0, limit))
      lines.push(`  ${listed.id}: listed chromium ${JSON.stringify(listed.chromium)} / standard ${JSON.stringify(listed.expected)}, now ${JSON.stringify(normalize(now.chromium, origin))} / ${JSON.stringify(normalize(now.expected, origin))}`);
  }
  if (report.deviationCheck.disappeared.length > 0) {
    lines.push(`LISTED BROWSER DEVIATIONS THAT DISAPPEARED (${report.deviationCheck.disappeared.length}) — Chromium now agrees with the standard, or the case is gone; remove them from the list:`);
    for (const d of report.deviationCheck.disappeared.slice(0, limit)) lines.push(`  ${d.id} (${d.reason})`);
  }
  for (const l of report.layers) {
    if (l.failures.length === 0) continue;
    lines.push(`OUR FAILURES in ${l.name} (${l.failures.length}):`);
    for (const f of l.failures.slice(0, limit))
      lines.push(`  ${f.id}: ${f.input}: docbase ${JSON.stringify(f.docbase)}, standard ${JSON.stringify(f.expected)}, chromium ${JSON.stringify(f.chromium)}`);
  }
  return lines.join("\n");
}
