/**
 * `docbase/jsdom/setup` — one line for the jsdom environments of test
 * frameworks, where the document is made before any test code runs:
 * importing this module installs docbase into the global `window` (see
 * {@link install}), after parsing, as `install` supports.
 *
 * Vitest (`vitest.config.ts`):
 *
 * ```ts
 * export default defineConfig({ test: { environment: "jsdom", setupFiles: ["docbase/jsdom/setup"] } });
 * ```
 *
 * Jest (`jest.config.js`, with Jest's ESM support, since docbase is ESM):
 *
 * ```js
 * export default { testEnvironment: "jsdom", setupFilesAfterEnv: ["docbase/jsdom/setup"] };
 * ```
 *
 * A window this module already installed into is left as it is (a setup
 * file that runs twice in one environment does nothing the second time);
 * one that `install` was called on by other code throws install's "already
 * installed" TypeError. Without
 * a global `window` (a `node` environment), importing it throws a TypeError
 * that says so.
 *
 * @example
 * ```ts
 * // in a test file of a jsdom environment with this setup file:
 * document.body.innerHTML = '<base href="/docs/"><a href="intro">x</a>';
 * document.querySelector("a")!.href; // "http://localhost:3000/docs/intro" (Vitest's default URL)
 * ```
 *
 * @module
 */

// First: on a Node.js older than `engines`, importing docbase throws one error naming the version needed.
import "../core/require-supported-runtime.ts";
import { install, type Installation } from "./install.ts";
import type { WindowLike } from "./window.ts";

/** Where the installation made by this module is kept on the window, across module instances of one environment. */
const installationKey: unique symbol = Symbol.for("docbase.jsdom.setup.installation") as never;

function installOnce(target: WindowLike): Installation {
  const holder = target as WindowLike & { [installationKey]?: Installation };
  const existing = holder[installationKey];
  if (existing !== undefined) return existing;
  const made = install(target);
  Object.defineProperty(holder, installationKey, { value: made, configurable: true });
  return made;
}

const window = (globalThis as unknown as { window?: WindowLike }).window;
if (window === undefined || typeof window !== "object" || window.document === undefined) {
  throw new TypeError("docbase/jsdom/setup: there is no global window here; use it in a jsdom test environment (Vitest `environment: \"jsdom\"`, Jest `testEnvironment: \"jsdom\"`)");
}

/**
 * The installation in the test environment's window (made by this module, or
 * found when docbase was already installed there).
 *
 * @example
 * ```ts
 * import { installation } from "docbase/jsdom/setup";
 * installation.onBaseURLChange((change) => console.log(change.newBaseURL));
 * ```
 */
export const installation: Installation = installOnce(window);
