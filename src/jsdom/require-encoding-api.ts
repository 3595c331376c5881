/**
 * Imported by `docbase/jsdom/setup` first: docbase needs the global
 * `TextEncoder` and `TextDecoder` as soon as it is imported, and the window
 * of an older jsdom (Jest's own jsdom environment) has none. There,
 * importing the setup throws one TypeError naming the jsdom and environment
 * to use.
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
