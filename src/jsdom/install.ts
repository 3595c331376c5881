/**
 * install(window): makes a jsdom window resolve URLs as a browser does, from
 * docbase's layers, through jsdom's public surface (interface prototypes,
 * MutationObserver, document.open/write/close) and one internal object, the
 * document's (`window._document`), whose URL record is followed (see
 * document-url.ts).
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
 * `beforeParse(window)`, so that docbase sees the document from its first
 * node; calling it later works too.
 *
 * What changes: `Node.prototype.baseURI`; the URL decomposition attributes
 * of `<a>` and `<area>` (href, origin, protocol, username, password, host,
 * hostname, port, pathname, search, hash, toString); every reflected URL
 * attribute (img.src, link.href, form.action, button.formAction, base.href,
 * q/blockquote/ins/del cite, …); `<iframe srcdoc>` documents; about:blank
 * frames' base URL; queries in each document's own encoding (UTF-16
 * documents use UTF-8; a frame loaded from a URL uses its own, not its
 * container's); the document's URL followed through pushState, replaceState
 * and fragment navigations. The document's context is made, and its frames
 * installed, when parsing ends. Values are cached per element with the
 * content attribute they came from, and kept coherent by a MutationObserver
 * (of the tree, of base elements and iframes, and, while that pays, of the
 * URL attributes) whose pending records are taken synchronously before each
 * read, with the document's URL record.
 * Throws a TypeError when `window` is already installed.
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
