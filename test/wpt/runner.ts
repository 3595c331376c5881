/**
 * Runs one web-platform-tests page in jsdom, plain or with docbase's
 * `install(window)`, and collects testharness.js's results, the way jsdom's
 * own WPT runner (jsdom test/web-platform-tests/run-single-wpt.js) does: the
 * page is served by test/wpt/server.ts, `/resources/testharnessreport.js` is
 * answered with a one-line script that hands the harness to the runner, and
 * the runner reads every subtest's status from the harness's completion
 * callback.
 *
 * Differences from jsdom's runner, each for a reason:
 * - the page is fetched by the runner and given to `new JSDOM(bytes, { url,
 *   contentType })` (not `JSDOM.fromURL`), so that `install(window)` runs in
 *   `beforeParse`, before any script of the page, as docbase's users call it;
 * - jsdom has no `fetch()` (jsdom's own expectations list the data-driven URL
 *   tests as "Depends on fetch"); the runner gives the test's window a small
 *   one over the window's own XMLHttpRequest, enough for the tests'
 *   `fetch(url).then(r => r.json())` (frames' windows do not get it);
 * - docbase's and jsdom's web APIs throw errors of the Node realm (jsdom's
 *   `URL` throws Node's TypeError), which testharness.js's
 *   `assert_throws_js` rejects by identity; like jsdom's runner, the runner
 *   replaces it (and `promise_rejects_js`) with a check by the error's name
 *   (jsdom/jsdom#2727);
 * - the reporter calls `setup({ explicit_timeout: true, output: false })`
 *   before the page's tests, as wptrunner's reporter does in browsers: the
 *   run is bounded by the runner's own timeout (`timeoutMs`), not by the
 *   harness's ten seconds (which a loaded machine can exceed on the large
 *   data-driven pages), and no results table is rendered into the page.
 *
 * @module
 */

import { JSDOM, VirtualConsole } from "jsdom";
import { install } from "../../src/jsdom/index.ts";
import { loopbackInterceptor, type WPTServer } from "./server.ts";

/**
 * A subtest's status, by testharness.js's names.
 *
 * @example
 * ```ts
 * const status: SubtestStatus = "PASS";
 * ```
 */
export type SubtestStatus = "PASS" | "FAIL" | "TIMEOUT" | "NOTRUN" | "PRECONDITION_FAILED";

/**
 * The harness's status; `RUNNER_TIMEOUT` when it never completed within the runner's bound.
 *
 * @example
 * ```ts
 * const status: HarnessStatus = "OK";
 * ```
 */
export type HarnessStatus = "OK" | "ERROR" | "TIMEOUT" | "PRECONDITION_FAILED" | "RUNNER_TIMEOUT";

/**
 * What one run of a test page gave.
 *
 * @example
 * ```ts
 * const result: WPTRunResult = { harness: "OK", harnessMessage: null, subtests: [{ name: "a", status: "PASS", message: null }], errors: [] };
 * ```
 */
export interface WPTRunResult {
  readonly harness: HarnessStatus;
  readonly harnessMessage: string | null;
  readonly subtests: ReadonlyArray<{ readonly name: string; readonly status: SubtestStatus; readonly message: string | null }>;
  /** jsdom's own error reports (uncaught exceptions, failed loads), for diagnosis. */
  readonly errors: readonly string[];
}

const subtestStatuses: readonly SubtestStatus[] = ["PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"];
const harnessStatuses: readonly HarnessStatus[] = ["OK", "ERROR", "TIMEOUT", "PRECONDITION_FAILED"];

/** The parts of testharness.js's Test and TestsStatus objects the runner reads. */
interface HarnessTest { readonly name: string; readonly status: number; readonly message: string | null }
interface HarnessWindow {
  setup(properties: { explicit_timeout: boolean; output: boolean }): void;
  assert_true(value: unknown, description: string): void;
  assert_equals(actual: unknown, expected: unknown, description: string): void;
  assert_throws_js: (constructor: { name: string }, func: () => unknown, description?: string) => void;
  promise_rejects_js: (test: { unreached_func(description: string): () => void }, constructor: { name: string }, promise: Promise<unknown>, description?: string) => Promise<unknown>;
  add_result_callback(callback: (test: HarnessTest) => void): void;
  add_completion_callback(callback: (tests: readonly HarnessTest[], status: HarnessTest) => void): void;
}

type JSDOMWindow = JSDOM["window"];

/**
 * A `fetch()` for the test's window, over its own XMLHttpRequest (so that the
 * request is jsdom's, with the document's URL and cookies), returning a
 * minimal Response: `ok`, `status`, `url`, `text()`, `json()`. Promises and
 * parsed JSON are the window's own.
 */
function windowFetch(window: JSDOMWindow): (input: unknown) => Promise<unknown> {
  return (input) => new window.Promise((resolveFetch, rejectFetch) => {
    const request = new window.XMLHttpRequest();
    request.open("GET", String(input));
    request.onload = () => {
      const text = request.responseText;
      resolveFetch({
        ok: request.status >= 200 && request.status < 300,
        status: request.status,
        url: request.responseURL,
        text: () => window.Promise.resolve(text),
        json: () => new window.Promise((resolveJSON) => resolveJSON(window.JSON.parse(text))),
      });
    };
    request.onerror = () => rejectFetch(new window.TypeError(`fetch failed: ${String(input)}`));
    request.send();
  });
}

/**
 * `assert_throws_js` that accepts an error of another realm: it must be an
 * object whose `name` is the constructor's name (testharness.js itself
 * requires the very constructor of the test's realm).
 */
function acceptErrorsOfAnyRealm(harness: HarnessWindow): void {
  const assertThrowsJS = (constructor: { name: string }, func: () => unknown, description = ""): void => {
    let thrown: { error: unknown } | null = null;
    try {
      func();
    } catch (error) {
      thrown = { error };
    }
    harness.assert_true(thrown !== null, `assert_throws_js: ${description}: ${String(func)} did not throw`);
    const error = thrown!.error;
    harness.assert_true(typeof error === "object" && error !== null, `assert_throws_js: ${description}: ${String(func)} threw ${String(error)}, not an object`);
    harness.assert_equals((error as { name?: unknown }).name, constructor.name, `assert_throws_js: ${description}: ${String(func)} threw ${String(error)}, expected a ${constructor.name}`);
  };
  harness.assert_throws_js = assertThrowsJS;
  harness.promise_rejects_js = (test, constructor, promise, description = "") => promise.then(
    test.unreached_func(`Should have rejected: ${description}`),
    (error: unknown) => assertThrowsJS(constructor, () => { throw error; }, description),
  );
}

/**
 * Opens the test page at `path` (plus `variant`, a `?query`) in a new jsdom
 * window, with docbase installed when `installed`, and resolves with the
 * harness's results. Never rejects for the test's sake: a page that fails to
 * load or never completes gives a result with that status.
 *
 * @example
 * ```ts
 * const server = await startWPTServer();
 * const plain = await runWPTPage(server, "dom/nodes/Node-baseURI.html", "", { installed: false });
 * const withDocbase = await runWPTPage(server, "dom/nodes/Node-baseURI.html", "", { installed: true });
 * ```
 */
export async function runWPTPage(
  server: WPTServer,
  path: string,
  variant: string,
  { installed, timeoutMs = 20_000 }: { installed: boolean; timeoutMs?: number },
): Promise<WPTRunResult> {
  const url = server.url(path, variant);
  const response = await fetch(url.replace(/^http:\/\/localhost:/, "http://127.0.0.1:"), { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) {
    return { harness: "ERROR", harnessMessage: `HTTP ${response.status} for ${url}: ${await response.text()}`, subtests: [], errors: [] };
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const errors: string[] = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on("jsdomError", (error: Error) => errors.push(error.message));

  const seen: HarnessTest[] = [];
  let window: JSDOMWindow | undefined;
  try {
    return await new Promise<WPTRunResult>((resolveRun) => {
      const timer = setTimeout(() => resolveRun({
        harness: "RUNNER_TIMEOUT",
        harnessMessage: `the harness did not complete within ${timeoutMs} ms`,
        subtests: seen.map(toSubtest),
        errors,
      }), timeoutMs);
      const dom = new JSDOM(bytes, {
        url,
        contentType: response.headers.get("content-type") ?? "text/html",
        runScripts: "dangerously",
        // "usable" resources, through the server's hosts file.
        resources: { interceptors: [loopbackInterceptor] },
        pretendToBeVisual: true,
        virtualConsole,
        beforeParse(beforeParseWindow) {
          const target = beforeParseWindow as unknown as Record<string, unknown>;
          // Deviation: jsdom has no fetch(); see the module comment.
          target["fetch"] = windowFetch(beforeParseWindow);
          target["__docbaseWPTReporter"] = (harness: HarnessWindow) => {
            harness.setup({ explicit_timeout: true, output: false });
            acceptErrorsOfAnyRealm(harness);
            harness.add_result_callback((test) => seen.push(test));
            harness.add_completion_callback((tests, status) => {
              clearTimeout(timer);
              resolveRun({
                harness: harnessStatuses[status.status] ?? "ERROR",
                harnessMessage: status.message ?? null,
                subtests: tests.map(toSubtest),
                errors,
              });
            });
          };
          if (installed) install(beforeParseWindow);
        },
      });
      window = dom.window;
    });
  } finally {
    // Some tests act after done(): close on a later turn, as jsdom's runner does.
    const opened = window;
    setImmediate(() => opened?.close());
  }
}

function toSubtest(test: HarnessTest): WPTRunResult["subtests"][number] {
  return { name: test.name, status: subtestStatuses[test.status] ?? "FAIL", message: test.message ?? null };
}
