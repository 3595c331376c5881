/**
 * Imported by `docbase/jsdom/setup` before the rest of docbase: docbase
 * encodes and decodes with the Encoding Standard's `TextEncoder` and
 * `TextDecoder`, from the global object, as soon as it is imported. A setup
 * file runs in the test environment's window, where they are the window's;
 * a jsdom older than docbase supports has none. That is the window of Jest's
 * own `testEnvironment: "jsdom"` (jest-environment-jsdom 30 runs jsdom 26):
 * instead of "ReferenceError: TextEncoder is not defined" from inside
 * docbase, importing the setup there throws one TypeError that names the
 * supported jsdom and the environment to use.
 *
 * @module
 */

/** Why docbase/jsdom/setup cannot run in this window, and what to use. */
const missingEncodingAPIMessage =
  "docbase/jsdom/setup: this window has no TextEncoder/TextDecoder, so its jsdom is older than docbase supports (jsdom 31); " +
  'Jest\'s testEnvironment "jsdom" (jest-environment-jsdom 30) runs jsdom 26: use testEnvironment: "docbase/jsdom/jest-environment" instead';

const global = globalThis as { TextEncoder?: unknown; TextDecoder?: unknown };
if (typeof global.TextEncoder !== "function" || typeof global.TextDecoder !== "function") {
  throw new TypeError(missingEncodingAPIMessage);
}
