/**
 * install(window): makes a jsdom window resolve URLs as a browser does,
 * through jsdom's public surface and one internal object, the document's
 * URL record (see document-url.ts).
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url
 *
 * @module
 */

import type { Installation, InstallOptions } from "./installation.ts";
import { installations } from "./installations.ts";
import { WindowInstallation } from "./window-installation.ts";
import type { WindowLike } from "./window.ts";

/**
 * Makes a jsdom window resolve URLs as a browser does. Call it from JSDOM's
 * `beforeParse(window)` (later works too).
 *
 * What changes: `Node.prototype.baseURI`; the URL attributes of `<a>` and
 * `<area>`; every reflected URL attribute (img.src, form.action, base.href,
 * …); `<iframe srcdoc>` documents and about:blank frames' base URL; queries
 * in each document's own encoding; the document's URL followed through
 * history changes. Values are cached per element and kept current by a
 * MutationObserver whose records are taken before each read. Throws a
 * TypeError when `window` is already installed.
 *
 * @example
 * ```ts
 * import { JSDOM } from "jsdom";
 * import { install } from "docbase/jsdom";
 * let handle;
 * const dom = new JSDOM(`<base href="/docs/"><a href="intro">x</a><iframe srcdoc="<a href=y>y</a>"></iframe>`, {
 *   url: "https://example.com/",
 *   beforeParse(window) { handle = install(window); },
 * });
 * dom.window.document.querySelector("a").href; // "https://example.com/docs/intro"
 * dom.window.document.querySelector("iframe").contentDocument.querySelector("a").href;
 * // "https://example.com/docs/y" (srcdoc documents inherit the container's base URL)
 * handle.uninstall();
 * ```
 */
export function install(window: unknown, options: InstallOptions = {}): Installation {
  const target = window as WindowLike;
  if (target === null || typeof target !== "object" || typeof target.document !== "object" || typeof target.Node !== "function") {
    throw new TypeError("install(window): expected a jsdom window (as JSDOM's beforeParse(window) receives it)");
  }
  if (installations.has(target)) throw new TypeError("install(window): docbase is already installed in this window");
  const installation = new WindowInstallation(target, options, null);
  installations.set(target, installation);
  return installation;
}
