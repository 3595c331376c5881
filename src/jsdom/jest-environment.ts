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
 * Jest's own `testEnvironment: "jsdom"` cannot be used: jest-environment-jsdom
 * 30 bundles jsdom 26, whose window has no `TextEncoder`, so docbase cannot
 * even be imported in it (`docbase/jsdom/setup` throws a TypeError that says
 * so). This environment is the same one, built by Jest's
 * `@jest/environment-jsdom-abstract` (an optional peer dependency, like
 * `jsdom`) on the project's own jsdom, so its `testEnvironmentOptions` (`url`,
 * `html`, `userAgent`, …) are Jest's. Where `jsdom` resolves to a version
 * outside the peer dependency range, importing this module throws a
 * TypeError that names the version to install. docbase is installed from
 * Node.js, as `install(dom.window)` is anywhere else: the test files need no
 * ES module support (no `--experimental-vm-modules`) and import nothing. A test file
 * run with Jest's ES module support may still import `installation` from
 * `docbase/jsdom/setup`, which finds this installation.
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

// The package's types are CommonJS (`export default` read as `module.exports.default`), but its
// "import" export condition (build/index.mjs) default-exports the class itself, which is what Node gives here.
// The class's type is read the CommonJS way under every module setting (`resolution-mode: "require"`), so that
// this module's declaration file names the same class to a nodenext, node16, bundler or preserve project (a
// default import means module.exports to the first two and its `default` to the others).
type JSDOMEnvironmentClass = typeof import("@jest/environment-jsdom-abstract", { with: { "resolution-mode": "require" } }).default;
const BaseJSDOMEnvironment = jestJSDOMEnvironment as unknown as JSDOMEnvironmentClass;

/** The jsdom versions docbase supports: its `jsdom` peer dependency range, `>=31.0.0 <32.0.0`. */
const supportedJSDOMMajor = 31;

// The jsdom this module imports is whichever `jsdom` resolves to from docbase: without the project's own jsdom 31,
// it can be the jsdom 26 that jest-environment-jsdom brings (hoisted). One error that says so, instead of a quiet
// environment on a jsdom docbase is not tested with.
const jsdomVersion = (createRequire(import.meta.url)("jsdom/package.json") as { version: string }).version;
if (Number.parseInt(jsdomVersion, 10) !== supportedJSDOMMajor) {
  throw new TypeError(
    `docbase/jsdom/jest-environment: the jsdom found is ${jsdomVersion}; docbase supports jsdom ${supportedJSDOMMajor} (>=31.0.0 <32.0.0): npm install -D jsdom@${supportedJSDOMMajor}`,
  );
}

/**
 * Jest's jsdom environment on the project's jsdom, with docbase installed in
 * its window when it is made. The default export, as Jest expects of a
 * `testEnvironment` module.
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
