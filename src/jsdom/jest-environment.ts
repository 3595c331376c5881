/**
 * `docbase/jsdom/jest-environment` — Jest's jsdom test environment on the
 * jsdom docbase supports (the `jsdom` peer dependency, 31), with docbase
 * installed into each test file's window before any setup file or test runs.
 * One line of `jest.config.js`:
 *
 * ```js
 * module.exports = { testEnvironment: "docbase/jsdom/jest-environment" };
 * ```
 *
 * Jest's own `testEnvironment: "jsdom"` bundles jsdom 26, whose window has no
 * `TextEncoder`, so docbase cannot run in it. This is the same environment,
 * built by `@jest/environment-jsdom-abstract` on the project's jsdom (so its
 * `testEnvironmentOptions` are Jest's); docbase is installed from Node.js,
 * so test files import nothing and need no ES module support.
 *
 * @example
 * ```js
 * // in a test file of a project with testEnvironment: "docbase/jsdom/jest-environment":
 * document.body.innerHTML = '<base href="/docs/"><a href="intro">x</a>';
 * document.querySelector("a").href; // "http://localhost/docs/intro" (Jest's default URL)
 * ```
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "../core/require-supported-runtime.ts";
import { createRequire } from "node:module";
import type { EnvironmentContext, JestEnvironmentConfig } from "@jest/environment";
import jestJSDOMEnvironment from "@jest/environment-jsdom-abstract";
import * as jsdom from "jsdom";
import type { Installation } from "./installation.ts";
import { installOnce } from "./install-once.ts";
import type { WindowLike } from "./window.ts";

// The package's types are CommonJS, but its "import" condition default-exports the class itself, which is
// what Node gives here; the type is read the CommonJS way (`resolution-mode: "require"`) so that the
// declaration names the same class under every module setting.
type JSDOMEnvironmentClass = typeof import("@jest/environment-jsdom-abstract", { with: { "resolution-mode": "require" } }).default;
const BaseJSDOMEnvironment = jestJSDOMEnvironment as unknown as JSDOMEnvironmentClass;

/** The jsdom versions docbase supports: its `jsdom` peer dependency range, `>=31.0.0 <32.0.0`. */
const supportedJSDOMMajor = 31;

// `jsdom` may resolve to the jsdom 26 jest-environment-jsdom hoists: one error that says so, rather than a
// quiet environment on an untested jsdom.
const jsdomVersion = (createRequire(import.meta.url)("jsdom/package.json") as { version: string }).version;
if (Number.parseInt(jsdomVersion, 10) !== supportedJSDOMMajor) {
  throw new TypeError(
    `docbase/jsdom/jest-environment: the jsdom found is ${jsdomVersion}; docbase supports jsdom ${supportedJSDOMMajor} (>=31.0.0 <32.0.0): npm install -D jsdom@${supportedJSDOMMajor}`,
  );
}

/**
 * Jest's jsdom environment on the project's jsdom, with docbase installed in
 * its window; the default export, as Jest expects.
 *
 * @example
 * ```js
 * // jest.config.js
 * module.exports = { testEnvironment: "docbase/jsdom/jest-environment" };
 * ```
 */
export default class DocbaseJSDOMEnvironment extends BaseJSDOMEnvironment {
  /** The installation in this environment's window (see `install`). */
  readonly installation: Installation;

  /**
   * Made by Jest, once per test file.
   *
   * @example
   * ```js
   * // a project's own environment, on top of this one:
   * class MyEnvironment extends DocbaseJSDOMEnvironment {
   *   constructor(config, context) { super(config, context); this.installation.onBaseURLChange(console.log); }
   * }
   * ```
   */
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context, jsdom);
    this.installation = installOnce(this.global as unknown as WindowLike);
  }

  /**
   * Restores plain jsdom in the window, then Jest's teardown closes it.
   *
   * @example
   * ```js
   * await environment.teardown(); // made and called by Jest after each test file
   * ```
   */
  override async teardown(): Promise<void> {
    this.installation.uninstall();
    await super.teardown();
  }
}
