/**
 * `docbase/jsdom/setup` — for the jsdom environments of test frameworks:
 * importing it installs docbase into the global `window` (see `install`).
 *
 * Vitest (`vitest.config.ts`):
 *
 * ```ts
 * export default defineConfig({ test: { environment: "jsdom", setupFiles: ["docbase/jsdom/setup"] } });
 * ```
 *
 * Jest: use `docbase/jsdom/jest-environment` instead (Jest's own jsdom lacks
 * `TextEncoder`); a test file may still import {@link installation} from here.
 * A window already installed by this module or that environment is left as
 * it is; one `install` was called on elsewhere throws; without a global
 * `window`, importing it throws a TypeError that says so.
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
