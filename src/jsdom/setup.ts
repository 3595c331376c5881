/**
 * `docbase/jsdom/setup` — one line for the jsdom environments of test
 * frameworks, where the document is made before any test code runs:
 * importing this module installs docbase into the global `window` (see
 * `install`), after parsing, as `install` supports.
 *
 * Vitest (`vitest.config.ts`):
 *
 * ```ts
 * export default defineConfig({ test: { environment: "jsdom", setupFiles: ["docbase/jsdom/setup"] } });
 * ```
 *
 * Jest: use the `docbase/jsdom/jest-environment` entry point instead, which
 * installs docbase itself (Jest's own `testEnvironment: "jsdom"` runs jsdom
 * 26, whose window lacks the `TextEncoder` docbase needs: there, importing
 * this module throws a TypeError that says so). A test file run with Jest's
 * ES module support may import {@link installation} from this module, which
 * finds that environment's installation.
 *
 * A window this module or the Jest environment already installed into is
 * left as it is (a setup file that runs twice in one environment does nothing
 * the second time); one that `install` was called on by other code throws
 * install's "already installed" TypeError. Without
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
// Second: in a window without TextEncoder (an older jsdom, as Jest's own jsdom environment has), one error naming what to use.
import "./require-encoding-api.ts";
import type { Installation } from "./installation.ts";
import { installOnce } from "./install-once.ts";
import type { WindowLike } from "./window.ts";

const window = (globalThis as unknown as { window?: WindowLike }).window;
if (window === undefined || typeof window !== "object" || window.document === undefined) {
  throw new TypeError("docbase/jsdom/setup: there is no global window here; use it in a jsdom test environment (Vitest `environment: \"jsdom\"`; in Jest, `testEnvironment: \"docbase/jsdom/jest-environment\"` installs docbase itself)");
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
