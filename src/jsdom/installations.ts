/**
 * Which windows docbase is installed in: each installed window's
 * installation, for `install`'s check, the frames an installation installs
 * into, and a node of one window read through another's getters.
 *
 * @module
 */

import type { DOMContext } from "./window.ts";

/**
 * What other installations ask of a window's installation.
 *
 * @example
 * ```ts
 * installations.get(frameWindow)?.syncedDocumentContext(); // the frame document's context, up to date
 * ```
 */
export interface RegisteredInstallation {
  /** Brings the installation up to date (records, encoding, URL) and returns its window document's context; null when uninstalled or when it has none. */
  syncedDocumentContext(): DOMContext | null;
}

/**
 * The installation of each installed window, by window.
 *
 * @example
 * ```ts
 * installations.has(window); // true once install(window) ran, until uninstall()
 * ```
 */
export const installations = new WeakMap<object, RegisteredInstallation>();
