/**
 * One installation per test-environment window, shared by `docbase/jsdom/setup`
 * and `docbase/jsdom/jest-environment`: kept on the window under a registered
 * symbol, so that two copies of docbase (Jest's in Node, a test file's in the
 * window) find the same one.
 *
 * @module
 */

import { install } from "./install.ts";
import type { Installation } from "./installation.ts";
import type { WindowLike } from "./window.ts";

/** Where the installation made by a test-framework entry point is kept on the window. */
const installationKey: unique symbol = Symbol.for("docbase.jsdom.setup.installation") as never;

/**
 * The installation a test-framework entry point made in `window`, or a new
 * one (see {@link install}). A window that `install` was called on by other
 * code throws install's "already installed" TypeError.
 *
 * @example
 * ```ts
 * const installation = installOnce(window);
 * installOnce(window) === installation; // true
 * ```
 */
export function installOnce(window: WindowLike): Installation {
  const holder = window as WindowLike & { [installationKey]?: Installation };
  const existing = holder[installationKey];
  if (existing !== undefined) return existing;
  const made = install(window);
  Object.defineProperty(holder, installationKey, { value: made, configurable: true });
  return made;
}
