/**
 * Vitest global setup: runs once before every suite. It says, in one line,
 * which optional suites this machine cannot run (the Chromium suites where
 * /usr/bin/chromium is missing), so that a skip is never silent.
 *
 * @module
 */

import { browserSuitesRun, browserSuitesSkippedLine } from "./browser/chromium-runner.ts";

/** Prints the skip line, once per run. */
export default function setup(): void {
  if (!browserSuitesRun()) console.warn(browserSuitesSkippedLine);
}
